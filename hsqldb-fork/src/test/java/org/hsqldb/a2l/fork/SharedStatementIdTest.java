package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two PreparedStatements of one SQL in one session share a compiled statement, found by its id.
 * After a schema change it is compiled again, either by an execution or by a new prepare of the
 * same SQL; every PreparedStatement that shares it must still find it. Unmodified 2.7.4 gave a
 * statement recompiled by an execution id 0, and removed one found out of date by a prepare:
 * the other PreparedStatements then failed with 07502 "statement is invalid" (shown here against
 * the upstream jar, so the tests would fail without the fix).
 */
@RequiresPatch("Keep-a-recompiled-statement-s-id")
class SharedStatementIdTest {

    private static final AtomicInteger databases = new AtomicInteger();
    private static final String SQL = "SELECT v FROM t WHERE id = ?";

    /** The schedule above; returns what the second PreparedStatement read after the second change. */
    private static int secondReadsAfterTwoChanges(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 42)");
            try (PreparedStatement first = c.prepareStatement(SQL)) {
                s.execute("ALTER TABLE t ADD COLUMN w INT");
                first.setInt(1, 1);
                first.executeQuery().close(); // compiled again here
                try (PreparedStatement second = c.prepareStatement(SQL)) { // shares it
                    s.execute("ALTER TABLE t DROP COLUMN w");
                    second.setInt(1, 1);
                    try (ResultSet rs = second.executeQuery()) {
                        rs.next();
                        return rs.getInt(1);
                    }
                }
            }
        }
    }

    /** A prepare of the same SQL after a change; returns what the first then reads. */
    private static int firstReadsAfterAPrepareOfItsSql(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 42)");
            try (PreparedStatement first = c.prepareStatement(SQL)) {
                s.execute("ALTER TABLE t ADD COLUMN w INT");
                try (PreparedStatement second = c.prepareStatement(SQL)) { // finds it out of date
                    first.setInt(1, 1);
                    try (ResultSet rs = first.executeQuery()) {
                        rs.next();
                        return rs.getInt(1);
                    }
                }
            }
        }
    }

    /** One of the schedules above, run on a fresh database of the given connection. */
    interface Schedule {
        int run(Connection c) throws SQLException;
    }

    private static void assertTheForkReads42(EngineMode mode, Schedule schedule) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        try (Connection c = Engines.fork(mode.url("jdbc:hsqldb:mem:shared_id_" + databases.incrementAndGet()))) {
            assertEquals(42, schedule.run(c));
        }
    }

    private static void assertUpstreamLosesTheStatement(EngineMode mode, Schedule schedule) throws Exception {
        try (Connection c = Engines.upstream(mode.url("jdbc:hsqldb:mem:shared_id_up_" + databases.incrementAndGet()))) {
            SQLException e = assertThrows(SQLException.class, () -> schedule.run(c),
                    "upstream 2.7.4 now keeps the statement: the bug this test shows is gone upstream");
            assertEquals("07502", e.getSQLState(), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void aStatementAPrepareCompilesAgainKeepsItsIdForThoseThatHaveIt(EngineMode mode) throws Exception {
        assertTheForkReads42(mode, SharedStatementIdTest::firstReadsAfterAPrepareOfItsSql);
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC"})
    void unmodifiedJarLosesTheStatementAPrepareFoundOutOfDate(EngineMode mode) throws Exception {
        assertUpstreamLosesTheStatement(mode, SharedStatementIdTest::firstReadsAfterAPrepareOfItsSql);
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void aStatementCompiledAgainKeepsItsIdForThoseThatShareIt(EngineMode mode) throws Exception {
        assertTheForkReads42(mode, SharedStatementIdTest::secondReadsAfterTwoChanges);
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC"})
    void unmodifiedJarLosesTheSharedStatement(EngineMode mode) throws Exception {
        assertUpstreamLosesTheStatement(mode, SharedStatementIdTest::secondReadsAfterTwoChanges);
    }
}
