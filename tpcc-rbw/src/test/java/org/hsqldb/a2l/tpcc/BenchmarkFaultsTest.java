package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import org.hsqldb.a2l.tpcc.engine.IdleLocks;
import org.junit.jupiter.api.Test;

/**
 * The chaos run's terminal faults, one at a time on the fork (LOCKS through its own lock manager,
 * whose lock table SYSTEM_LOCKS shows): a cancel ends a lock wait, a query timeout ends one, a
 * connection closed mid-transaction is replaced; each is counted by its own reason, the
 * transaction is rolled back or retried, and afterwards no lock is held and the database is
 * consistent.
 */
class BenchmarkFaultsTest {

    static final String CONFIG = "fork-lf";

    static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 20 s: " + what);
            Thread.sleep(5);
        }
    }

    /**
     * A terminal of [from, to) seen waiting at every glance for 200 ms, or -1. A single glance can
     * catch a terminal parked for a moment on some latch of the engine; a cancel sent then ends
     * nothing (the statement goes on and completes), while one waiting for the blocker's table
     * lock waits for as long as it is held.
     */
    static int steadilyWaiting(Benchmark.Terminals t, int from, int to) throws InterruptedException {
        for (int i = from; i < to; i++) {
            boolean waiting = true;
            for (int k = 0; k < 40 && waiting; k++) {
                waiting = t.activity(i) == Benchmark.Terminals.Activity.WAITING;
                Thread.sleep(5);
            }
            if (waiting) return i;
        }
        return -1;
    }

    static String aborts(TerminalStats s) {
        StringBuilder b = new StringBuilder("aborts");
        for (AbortReason a : AbortReason.values()) b.append(' ').append(a.label).append('=').append(s.aborts(a));
        return b.toString();
    }

    static String stackOf(String threadName) {
        for (var e : Thread.getAllStackTraces().entrySet()) {
            if (!e.getKey().getName().equals(threadName)) continue;
            StringBuilder b = new StringBuilder(e.getKey().getState().toString());
            for (StackTraceElement f : e.getValue()) b.append("\n  at ").append(f);
            return b.toString();
        }
        return "(no thread " + threadName + ")";
    }

    @Test
    void cancelsTimeoutsAndClosedConnectionsAreCountedAndLeaveNothingBehind() throws Exception {
        assumeTrue(Files.isRegularFile(EngineJars.locate(null, null).fork()), "the fork jar is not built");
        Scale scale = Scale.tiny(1);
        try (TestDatabase db = TestDatabase.load(CONFIG, scale, 4, Clock.systemUTC());
             Connection blocker = db.connect()) {
            AtomicLong receipts = new AtomicLong();
            Benchmark b = new Benchmark(scale, db.load.constants(), 4, db::connect, Clock.systemUTC(),
                    TransactionHook.NONE, null, System.out).faultInjection().onCommit(r -> receipts.incrementAndGet());
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                try (Benchmark.Terminals t = b.open(4, Connection.TRANSACTION_SERIALIZABLE, 4, 500)) {
                    // terminals 0 and 1 wait without a timeout, 2 and 3 with one
                    t.queryTimeout(2, 1);
                    t.queryTimeout(3, 1);
                    blocker.setAutoCommit(false);
                    try (Statement s = blocker.createStatement()) {
                        // every New-Order, Payment and Stock-Level reads one of these first
                        s.execute("LOCK TABLE warehouse WRITE, district WRITE");
                    }
                    t.resume(Mix.M8_92, StatementOrder.ORIGINAL);
                    int target;
                    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while ((target = steadilyWaiting(t, 0, 2)) < 0) {
                        assertTrue(System.nanoTime() < deadline, "no terminal without a timeout waits for the lock");
                    }
                    String at = stackOf("tpcc-terminal-" + target);
                    assertEquals(Benchmark.Terminals.Activity.WAITING, t.cancel(target));
                    // a timed-out attempt is retried and times out again as long as the lock is held
                    Thread.sleep(2500);
                    blocker.rollback();
                    t.closeMidTransaction(0);
                    long committed = t.liveCommitted();
                    await(() -> t.liveCommitted() > committed + 50, "commits after the faults");
                    TerminalStats stats = t.pause().stats();
                    String what = aborts(stats) + ", terminal " + target + " when cancelled: " + at;
                    assertTrue(stats.aborts(AbortReason.CANCELLED) >= 1, "cancelled: " + what);
                    assertTrue(stats.aborts(AbortReason.TIMED_OUT) >= 2, "timed out: " + what);
                    assertEquals(1, stats.aborts(AbortReason.CLOSED), "closed: " + what);
                    assertEquals(0, stats.aborts(AbortReason.LOCK_TIMEOUT), "every 40502 is a fault's: " + what);
                    assertEquals(0, stats.aborts(AbortReason.OTHER), "nothing unexpected: " + what);

                    Consistency.Condition idle = b.idleProbe(() -> IdleLocks.check(db.connection,
                            EngineRegistry.load().find(CONFIG).orElseThrow())).checkIdle();
                    assertNotNull(idle, "the idle-lock check runs in " + CONFIG);
                    assertTrue(idle.ok(), idle.toString());
                    List<Consistency.Condition> conditions = new Consistency(db.connection, scale).check(true);
                    assertTrue(Consistency.allOk(conditions), conditions.toString());

                    // the terminal that closed its connection goes on on a new one
                    t.resume(Mix.M8_92, StatementOrder.RBW);
                    long again = t.liveCommitted();
                    await(() -> t.liveCommitted() > again + 50, "commits on the new connection");
                    assertEquals(0, t.pause().stats().aborts(AbortReason.CLOSED));
                }
            });
            assertTrue(receipts.get() > 0);
        }
    }
}
