package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.hsqldb.a2l.fork.OnlineDdlWorkload.Ddl;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A change of a table's definition made while other transactions change the
 * table's rows loses nothing: {@link OnlineDdlWorkload} moves money between
 * rows while a fifth session changes the table, in every mode, for every kind
 * of DDL statement that changes a table's rows or shape; the balances still
 * add up, every committed transaction's log row is there, the indexes are
 * sound, no thread is left waiting and (in the fork's modes) no lock is left
 * behind. Upstream 2.7.4 loses committed updates here in every mode: a
 * statement compiled while ALTER TABLE ran was taken as current and ran
 * against the table's old copy (patch "Compile no statement while a schema
 * change runs"); and under MVCC its TRUNCATE never finished (patch "Let
 * TRUNCATE pass over row versions its transaction cannot see").
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class OnlineDdlTest {

    /** How long the terminals and the DDL session run for each kind of DDL statement. */
    static final long MILLIS = Long.getLong("onlineDdl.millis", 1_200);

    /** The same for ADD and DROP COLUMN, the case users meet (migrations that add a column). */
    static final long COLUMN_MILLIS = Long.getLong("onlineDdl.columnMillis", 4_000);

    /** How long the unmodified jar may take to lose an update before the test gives up and skips. */
    static final long UPSTREAM_BUDGET_MILLIS = Long.getLong("onlineDdl.upstreamMillis", 20_000);

    /** Threads that do not finish within this after being asked to stop are stuck. */
    static final long STOP_MILLIS = 30_000;

    private static final AtomicInteger databases = new AtomicInteger();

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    @RequiresPatch("Compile-no-statement-while-a-schema-change-runs")
    void addingAndDroppingAColumnLosesNoCommittedUpdate(EngineMode mode) throws Exception {
        run(mode, Ddl.ADD_DROP_COLUMN, COLUMN_MILLIS);
    }

    static Stream<Arguments> everyModeAndDdl() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (EngineMode mode : EngineMode.values()) {
            for (Ddl ddl : Ddl.values()) {
                if (ddl != Ddl.ADD_DROP_COLUMN) {
                    b.add(Arguments.of(mode, ddl));
                }
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyModeAndDdl")
    @RequiresPatch("Compile-no-statement-while-a-schema-change-runs")
    void everyTableChangingDdlKeepsTheTableConsistent(EngineMode mode, Ddl ddl) throws Exception {
        run(mode, ddl, MILLIS);
    }

    /**
     * The same load on the unmodified 2.7.4 jar loses an update or lets a transaction read the
     * old, emptied copy of the table, in each of its modes: the fix is the fork's, not the test's
     * luck. It stops at the first wrong sum; skipped (not failed) if upstream happens to keep its
     * balances for the whole budget.
     */
    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC"})
    void unmodifiedJarLosesUpdatesUnderTheSameLoad(EngineMode mode) throws Exception {
        String url = mode.url("jdbc:hsqldb:mem:online_ddl_upstream_" + databases.incrementAndGet());
        OnlineDdlWorkload w = new OnlineDdlWorkload(Engines::upstream, url, Ddl.ADD_DROP_COLUMN);
        w.createSchema();
        w.start();
        long end = System.nanoTime() + UPSTREAM_BUDGET_MILLIS * 1_000_000L;
        while (w.failures.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertTrue(w.stopAndJoin(STOP_MILLIS), "upstream " + mode.id() + ": a thread did not finish: " + w);
        List<String> problems = w.verify();
        System.out.println("upstream 2.7.4 " + mode.id() + ": " + w + "; seen while running: " + first(w.failures)
                + "; after: " + problems);
        assumeTrue(!w.failures.isEmpty() || !problems.isEmpty(),
                "upstream kept its balances for " + UPSTREAM_BUDGET_MILLIS + " ms this time: " + w);
    }

    private static void run(EngineMode mode, Ddl ddl, long millis) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = mode.url("jdbc:hsqldb:mem:online_ddl_" + databases.incrementAndGet());
        OnlineDdlWorkload w = new OnlineDdlWorkload(Engines::fork, url, ddl);
        w.createSchema();
        // shut down however the checks end: a failed mode's database (its log table holds a row
        // per commit) must not stay in memory for the modes after it
        try {
            w.start();
            Thread.sleep(millis);
            boolean stopped = w.stopAndJoin(STOP_MILLIS);
            System.out.println(mode.id() + " " + w + (w.failures.isEmpty() ? "" : "; FAILURES " + first(w.failures)));
            assertTrue(stopped, mode.id() + " " + ddl + ": a thread did not finish (stuck waiting?): " + w);
            assertEquals(List.of(), w.failures, mode.id() + " " + w);
            assertTrue(w.commits.get() > 0 && w.ddlRuns.get() > 0,
                    mode.id() + ": both the terminals and the DDL session must have made progress: " + w);
            assertEquals(List.of(), w.verify(), mode.id() + " " + w);
            if (!mode.isUpstreamMode()) {
                try (Connection c = Engines.fork(url); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS")) {
                    rs.next();
                    assertEquals(0, rs.getLong(1), mode.id() + " " + ddl + ": locks left behind");
                }
            }
        } finally {
            shutdown(url);
        }
    }

    private static String first(List<String> failures) {
        synchronized (failures) {
            return failures.isEmpty() ? "nothing" : failures.get(0);
        }
    }

    private static void shutdown(String url) throws SQLException {
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }
}
