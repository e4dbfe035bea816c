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
 * Two PreparedStatements of one SQL in one session share a compiled statement. After a schema
 * change the first execution compiles it again; a PreparedStatement prepared after that must
 * still find the statement once the next schema change has made it out of date. Unmodified
 * 2.7.4 gave the recompiled statement id 0, and the second PreparedStatement then failed with
 * 07502 "statement is invalid" (shown here against the upstream jar, so the test would fail
 * without the fix).
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

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void aStatementCompiledAgainKeepsItsIdForThoseThatShareIt(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        try (Connection c = Engines.fork(mode.url("jdbc:hsqldb:mem:shared_id_" + databases.incrementAndGet()))) {
            assertEquals(42, secondReadsAfterTwoChanges(c));
        }
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC"})
    void unmodifiedJarLosesTheSharedStatement(EngineMode mode) throws Exception {
        try (Connection c = Engines.upstream(mode.url("jdbc:hsqldb:mem:shared_id_up_" + databases.incrementAndGet()))) {
            SQLException e = assertThrows(SQLException.class, () -> secondReadsAfterTwoChanges(c),
                    "upstream 2.7.4 now keeps the id: the bug this test shows is gone upstream");
            assertEquals("07502", e.getSQLState(), e.getMessage());
        }
    }
}
