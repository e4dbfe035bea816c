package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Terminals that pause between transactions, so the database can be checked while they wait (the soak's way). */
class BenchmarkPauseTest {

    static long orders(Connection c) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void pausedTerminalsCommitNothingAndLeaveAConsistentDatabase() throws Exception {
        Scale scale = Scale.tiny(1);
        try (TestDatabase db = TestDatabase.load("upstream", scale, 3, Clock.systemUTC())) {
            AtomicLong receipts = new AtomicLong();
            Benchmark b = new Benchmark(scale, db.load.constants(), 3, db::connect, Clock.systemUTC(),
                    TransactionHook.NONE, null, System.out).onCommit(r -> {
                        if (r != null) receipts.incrementAndGet();
                    });
            try (Benchmark.Terminals t = b.open(4, Connection.TRANSACTION_SERIALIZABLE, 3, 500)) {
                for (Mix mix : List.of(Mix.M8_92, Mix.M100_0)) {
                    for (StatementOrder order : StatementOrder.values()) {
                        t.resume(mix, order);
                        long until = t.liveCommitted() + 50;
                        while (t.liveCommitted() < until) Thread.sleep(5);
                        TerminalStats period = t.pause().stats();
                        assertTrue(period.totalCommitted() > 0, mix + " " + order);
                        long committed = t.liveCommitted(), rows = orders(db.connection);
                        Thread.sleep(100);
                        assertEquals(committed, t.liveCommitted(), "nothing commits while paused");
                        assertEquals(rows, orders(db.connection));
                        List<Consistency.Condition> conditions = new Consistency(db.connection, scale).check(true);
                        assertTrue(Consistency.allOk(conditions), conditions.toString());
                        if (mix == Mix.M100_0) assertEquals(0, period.committed[TxnType.NEW_ORDER.ordinal()]);
                    }
                }
            }
            assertTrue(receipts.get() > 0, "write transactions reported what they committed");
        }
    }
}
