package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Terminals that can never reach a transaction boundary make pause() and stop() fail with a
 * description of what they wait for, instead of hanging the run (or the soak) for ever.
 */
class EngineStallTest {

    @Test
    void terminalsBlockedForTheStallTimeAreReportedNotWaitedFor() throws Exception {
        Scale scale = Scale.tiny(1);
        try (TestDatabase db = TestDatabase.load("upstream", scale, 5, Clock.systemUTC());
             Connection blocker = db.connect()) {
            Benchmark b = new Benchmark(scale, db.load.constants(), 5, db::connect, Clock.systemUTC(),
                    TransactionHook.NONE, null, System.out);
            blocker.setAutoCommit(false);
            try (Statement s = blocker.createStatement()) {
                // every TPC-C transaction reads one of these first: all terminals wait for the blocker
                s.execute("LOCK TABLE warehouse WRITE, district WRITE, customer WRITE, orders WRITE,"
                        + " new_order WRITE, order_line WRITE, stock WRITE, item WRITE, history WRITE");
            }
            Benchmark.Terminals terminals = b.open(3, Connection.TRANSACTION_SERIALIZABLE, 5, 500, 2);
            terminals.resume(Mix.M8_92, StatementOrder.ORIGINAL);
            Benchmark.EngineStalledException stalled = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> assertThrows(Benchmark.EngineStalledException.class, terminals::pause));
            assertTrue(stalled.getMessage().startsWith("engine stalled: 3 of 3 terminal(s)"), stalled.getMessage());
            assertTrue(stalled.getMessage().contains("at org.hsqldb."), "names where the terminals wait: "
                    + stalled.getMessage());
            assertEquals(0, terminals.liveCommitted());
            // stays stalled, and close() returns at once rather than closing the waiting sessions
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                assertThrows(Benchmark.EngineStalledException.class, terminals::pause);
                terminals.close();
            });
            blocker.rollback();
        }
    }

    @Test
    void slowProgressIsNotAStall() throws Exception {
        Scale scale = Scale.tiny(1);
        try (TestDatabase db = TestDatabase.load("upstream", scale, 6, Clock.systemUTC())) {
            Benchmark b = new Benchmark(scale, db.load.constants(), 6, db::connect, Clock.systemUTC(),
                    TransactionHook.NONE, null, System.out);
            try (Benchmark.Terminals terminals = b.open(2, Connection.TRANSACTION_SERIALIZABLE, 6, 500, 1)) {
                terminals.resume(Mix.M8_92, StatementOrder.ORIGINAL);
                long until = terminals.liveCommitted() + 20;
                while (terminals.liveCommitted() < until) Thread.sleep(5);
                assertTrue(terminals.pause().stats().totalCommitted() > 0);
            }
        }
    }
}
