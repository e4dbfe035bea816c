package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In-place updates of a file database survive a clean shutdown, SHUTDOWN
 * IMMEDIATELY (replayed from the redo log) and a killed process, including
 * two transactions that changed different columns of one row, committed
 * in either order; rolled back updates never come back.
 */
@RequiresPatch("Update-non-indexed-columns-in-place")
class InPlaceDurabilityTest {

    static String url(Path dir) {
        // no lock file: a killed process leaves a fresh heartbeat that would hold the reopen off
        return "jdbc:hsqldb:file:" + dir.resolve("db") + ";hsqldb.tx=a2l;hsqldb.write_delay=false;hsqldb.lock_file=false";
    }

    /** The work: committed in-place updates by two sessions, and one rolled back. */
    static void work(String url) throws SQLException {
        try (Connection a = DriverManager.getConnection(url, "SA", "");
             Connection b = DriverManager.getConnection(url, "SA", "")) {
            try (Statement s = a.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, x INT, y VARCHAR(20), z DECIMAL(8,2))");
                s.execute("INSERT INTO t VALUES (1, 0, 'start', 0.00), (2, 0, 'start', 0.00)");
            }
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try (Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
                sa.execute("UPDATE t SET x = 10 WHERE id = 1");
                sb.execute("UPDATE t SET y = 'from b' WHERE id = 1");
                b.commit();
                sa.execute("UPDATE t SET x = x + 1, z = 2.50");
                a.commit();
                sa.execute("UPDATE t SET y = 'rolled back', x = -1");
                a.rollback();
                sb.execute("UPDATE t SET z = z + 1 WHERE id = 2");
                b.commit();
            }
        }
    }

    static String state(String url) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, "SA", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, x, y, z FROM t ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + ":" + rs.getInt(2) + ":" + rs.getString(3) + ":" + rs.getString(4));
            }
        }
        return String.join(" ", rows);
    }

    static final String EXPECTED = "1:11:from b:2.50 2:1:start:3.50";

    @Test
    void aCleanShutdownKeepsThem(@TempDir Path dir) throws SQLException {
        String url = url(dir);
        work(url);
        shutdown(url, "SHUTDOWN");
        assertEquals(EXPECTED, state(url));
        shutdown(url, "SHUTDOWN");
    }

    @Test
    void theRedoLogReplaysThem(@TempDir Path dir) throws SQLException {
        String url = url(dir);
        work(url);
        shutdown(url, "SHUTDOWN IMMEDIATELY");
        assertEquals(EXPECTED, state(url));
        shutdown(url, "SHUTDOWN");
    }

    @Test
    void aKilledProcessLosesNoCommittedUpdate(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                InPlaceDurabilityTest.class.getName(), url(dir)).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean committed = false;
            while ((line = out.readLine()) != null) {
                if (line.equals("COMMITTED")) {
                    committed = true;
                    break;
                }
            }
            assertTrue(committed, "the child never reported its commits");
        }
        p.destroyForcibly();    // SIGKILL: no shutdown, no checkpoint
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(EXPECTED, state(url(dir)));
        shutdown(url(dir), "SHUTDOWN");
    }

    /**
     * Under LOCK GRANULARITY CELL, sessions that update different rows of one column commit
     * together (cells) and are replayed in one thread, whose statements (the log's DELETE and
     * INSERT of each row, with every column's value) lock whole columns: each transaction's log
     * records must come with its COMMIT, not
     * between another's records and COMMIT, or the replay waits for itself for good.
     */
    @Test
    @RequiresPatch("Lock-cells-row-keys-and-key-ranges")
    void cellWritersCommittingTogetherAreReplayedInOneThread(@TempDir Path dir) throws Exception {
        String url = url(dir) + ";hsqldb.lock_granularity=cell";
        int threads = 4, rounds = 250;
        try (Connection c = DriverManager.getConnection(url, "SA", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, x INT)");
            for (int i = 0; i < threads; i++) {
                s.execute("INSERT INTO t VALUES (" + i + ", 0)");
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int id = i;
            done.add(pool.submit(() -> {
                try (Connection c = DriverManager.getConnection(url, "SA", "");
                     PreparedStatement p = c.prepareStatement("UPDATE t SET x = ? WHERE id = ?")) {
                    c.setAutoCommit(false);
                    for (int r = 1; r <= rounds; r++) {
                        p.setInt(1, r);
                        p.setInt(2, id);
                        assertEquals(1, p.executeUpdate());
                        c.commit();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            SessionThread.await(f);
        }
        pool.shutdown();
        shutdown(url, "SHUTDOWN IMMEDIATELY");
        String state = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Connection c = DriverManager.getConnection(url, "SA", "");
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(x), MAX(x) FROM t")) {
                rs.next();
                return rs.getInt(1) + ":" + rs.getInt(2) + ":" + rs.getInt(3);
            }
        }, "the replay of the log waits for itself");
        assertEquals(threads + ":" + rounds + ":" + rounds, state);
        shutdown(url, "SHUTDOWN");
    }

    private static void shutdown(String url, String how) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "SA", ""); Statement s = c.createStatement()) {
            s.execute(how);
        }
    }

    /** The killed child: does the work, says so, and waits to be killed. */
    public static void main(String[] args) throws Exception {
        work(args[0]);
        System.out.println("COMMITTED");
        System.out.flush();
        Thread.sleep(600_000);
    }
}
