package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lock sets cover what a statement reaches through trigger chains of any depth, and through
 * a procedure that starts such a chain, in every mode that locks tables: a transaction holding
 * an uncommitted write to the chain's last table must stop the statement at the first one.
 * (Under MVCC writers lock rows, not tables; the chain's insert does not meet the holder's.)
 */
class LockSetClosureTest {

    private static final AtomicInteger databases = new AtomicInteger();

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "LF", "A2L", "A2L_LATCHED"})
    @RequiresPatch("Lock-what-trigger-chains-reach")
    void aWriteThroughAThreeHopTriggerChainWaitsForTheLastTablesWriter(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = mode.url("jdbc:hsqldb:mem:closure" + databases.incrementAndGet());
        try (Connection setup = Engines.fork(url); Statement s = setup.createStatement()) {
            for (String sql : UpstreamLockSetFixTest.FORWARD_CHAIN) {
                s.execute(sql);
            }
        }
        for (String statement : new String[] {"INSERT INTO z VALUES 1", "CALL pz()"}) {
            try (SessionThread holder = new SessionThread(Engines.fork(url), "holder");
                 SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
                holder.setAutoCommit(false);
                holder.execute("INSERT INTO c VALUES 99");
                Future<Integer> chain = writer.submit(statement);
                writer.awaitLockWait();
                assertFalse(chain.isDone(), statement + " ran past the uncommitted write to c");
                holder.commit();
                SessionThread.await(chain);
            }
        }
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(4, count(s, "SELECT COUNT(*) FROM c"), "99, 1 and 7 reached c, and the holder's 99 again");
            s.execute("SHUTDOWN");
        }
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
