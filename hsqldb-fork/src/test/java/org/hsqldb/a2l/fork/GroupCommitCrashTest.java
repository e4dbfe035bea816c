package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.hsqldb.Database;
import org.hsqldb.Session;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.lib.FileAccess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A JVM killed (SIGKILL) while many commits wait on one sync loses no acknowledged commit and
 * leaves no transaction half there. A child JVM runs eight sessions that each commit
 * transactions of three rows on a file database with write delay 0, its log's syncs slowed to
 * 20 ms so that many commits wait on each, and prints a transaction's id once its commit has
 * returned; the test kills it mid-stream, reopens the database (the log is replayed) and checks
 * that every printed transaction has its three rows and no transaction has fewer. A killed
 * process loses what it had not handed to the operating system, not what the disk had not
 * synced: this shows that no commit returns before its COMMIT line has left the JVM's buffers,
 * and that replay keeps whole transactions only; that the sync covers the line before the commit
 * returns is GroupCommitTest's to show.
 */
@RequiresPatch("Share-one-log-sync-among-the-commits")
class GroupCommitCrashTest {

    static final int ROWS_PER_TRANSACTION = 3;
    static final int ACKNOWLEDGED_BEFORE_KILL = 400;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC", "LF", "A2L", "A2L_CELL"})
    void aKillWhileCommitsWaitOnASyncLosesNoAcknowledgedCommit(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = mode.url("jdbc:hsqldb:file:" + dir.resolve("db").toAbsolutePath() + ";hsqldb.write_delay=false");
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, part INT, PRIMARY KEY (id, part))");
            s.execute("SHUTDOWN");
        }
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Child.class.getName(), url)
                .redirectErrorStream(true).start();
        Set<Integer> acknowledged = new HashSet<>();
        List<String> other = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("ACK ")) {
                    acknowledged.add(Integer.parseInt(line.substring(4)));
                    if (acknowledged.size() >= ACKNOWLEDGED_BEFORE_KILL) {
                        break;
                    }
                } else if (other.size() < 20) {
                    other.add(line);
                }
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not die");
        }
        assertEquals(ACKNOWLEDGED_BEFORE_KILL, acknowledged.size(), "the child acknowledged too few: " + other);

        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            Set<Integer> whole = new HashSet<>();
            try (ResultSet rs = s.executeQuery("SELECT id, COUNT(*) FROM t GROUP BY id")) {
                while (rs.next()) {
                    assertEquals(ROWS_PER_TRANSACTION, rs.getInt(2), "transaction " + rs.getInt(1) + " is half there");
                    whole.add(rs.getInt(1));
                }
            }
            Set<Integer> lost = new HashSet<>(acknowledged);
            lost.removeAll(whole);
            assertEquals(Set.of(), lost, "acknowledged commits missing after the kill");
            assertEquals(List.of(), IndexIntegrity.problems(c));
            s.execute("SHUTDOWN");
        }
    }

    /** The child JVM: commits until it is killed. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            String url = args[0];
            PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            AtomicInteger ids = new AtomicInteger();
            try (Connection first = java.sql.DriverManager.getConnection(url, "SA", "")) {
                slowTheSyncs(first);
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    Thread thread = new Thread(() -> commitUntilKilled(url, ids, out));
                    threads.add(thread);
                    thread.start();
                }
                for (Thread t : threads) {
                    t.join();
                }
            }
        }

        private static void commitUntilKilled(String url, AtomicInteger ids, PrintStream out) {
            try (Connection c = java.sql.DriverManager.getConnection(url, "SA", "");
                 PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                c.setAutoCommit(false);
                while (true) {
                    int id = ids.incrementAndGet();
                    for (int part = 0; part < ROWS_PER_TRANSACTION; part++) {
                        ps.setInt(1, id);
                        ps.setInt(2, part);
                        ps.executeUpdate();
                    }
                    c.commit();
                    synchronized (out) {
                        out.println("ACK " + id);
                    }
                }
            } catch (SQLException e) {
                synchronized (out) {
                    out.println("ERROR " + e);
                }
            }
        }

        /** Makes each sync of the log take 20 ms longer, so that many commits wait on one. */
        private static void slowTheSyncs(Connection c) throws Exception {
            Database database = ((Session) ((JDBCConnection) c).getSession()).getDatabase();
            Object log = field(database.logger, "log");
            Object writer = field(log, "dbLogWriter");
            Field descriptor = findField(writer.getClass(), "outDescriptor");
            descriptor.setAccessible(true);
            FileAccess.FileSync real = (FileAccess.FileSync) descriptor.get(writer);
            descriptor.set(writer, (FileAccess.FileSync) () -> {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                real.sync();
            });
        }
    }

    private static Object field(Object o, String name) throws Exception {
        Field f = findField(o.getClass(), name);
        f.setAccessible(true);
        return f.get(o);
    }

    private static Field findField(Class<?> c, String name) throws NoSuchFieldException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                return k.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // look further up
            }
        }
        throw new NoSuchFieldException(name);
    }
}
