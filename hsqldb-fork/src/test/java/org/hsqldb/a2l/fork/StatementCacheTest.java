package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import org.hsqldb.jdbc.JDBCPreparedStatement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A compiled statement outlives its PreparedStatement: a prepare of SQL that the session has
 * prepared and closed before reuses the compiled statement (the server hands out the same
 * statement id), up to {@code SET DATABASE STATEMENT CACHE SIZE} statements per session, and
 * never one that is out of date: after DDL, in another schema, for a table dropped and made
 * again, after a revoked grant or a changed role, the SQL is compiled again (a new id) and
 * behaves as the schema now says.
 */
@RequiresPatch("Keep-compiled-statements-for-reuse")
class StatementCacheTest {

    private static final AtomicInteger databases = new AtomicInteger();

    @TempDir
    Path dir;

    private static Connection open(EngineMode mode) throws SQLException {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        return Engines.fork(mode.url("jdbc:hsqldb:mem:statement_cache_" + databases.incrementAndGet()));
    }

    /** The statement id the server gave a PreparedStatement: equal ids, one compiled statement. */
    private static long id(PreparedStatement ps) throws Exception {
        Field f = JDBCPreparedStatement.class.getDeclaredField("statementID");
        f.setAccessible(true);
        return f.getLong(ps.unwrap(JDBCPreparedStatement.class));
    }

    /** Prepares, runs (a query's first column of its first row, or the update count) and closes. */
    private static long prepareRunClose(Connection c, String sql, long[] value) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (ps.execute()) {
                try (ResultSet rs = ps.getResultSet()) {
                    value[0] = rs.next() ? rs.getLong(1) : Long.MIN_VALUE;
                }
            } else {
                value[0] = ps.getUpdateCount();
            }
            return id(ps);
        }
    }

    private static long prepareRunClose(Connection c, String sql) throws Exception {
        return prepareRunClose(c, sql, new long[1]);
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void aPrepareOfKnownSqlReusesTheCompiledStatement(EngineMode mode) throws Exception {
        try (Connection c = open(mode); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 10), (2, 20)");
            c.setAutoCommit(false);
            long[] v = new long[1];
            long first = prepareRunClose(c, "SELECT v FROM t WHERE id = 1 FOR UPDATE", v);
            assertEquals(10, v[0]);
            long update = prepareRunClose(c, "UPDATE t SET v = v + 1 WHERE id = 1");
            for (int i = 0; i < 5; i++) {
                assertEquals(first, prepareRunClose(c, "SELECT v FROM t WHERE id = 1 FOR UPDATE", v));
                assertEquals(11 + i, v[0]);
                assertEquals(update, prepareRunClose(c, "UPDATE t SET v = v + 1 WHERE id = 1"));
            }
            c.commit();
            // two PreparedStatements of the same SQL open at once share it, as upstream's do
            try (PreparedStatement a = c.prepareStatement("SELECT v FROM t WHERE id = 2");
                 PreparedStatement b = c.prepareStatement("SELECT v FROM t WHERE id = 2")) {
                assertEquals(id(a), id(b));
            }
        }
    }

    @Test
    void sizeZeroCompilesOnEveryPrepare() throws Exception {
        try (Connection c = open(EngineMode.LOCKS); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("SET DATABASE STATEMENT CACHE SIZE 0");
            assertNotEquals(prepareRunClose(c, "SELECT v FROM t"), prepareRunClose(c, "SELECT v FROM t"));
        }
    }

    @Test
    void theLeastRecentlyFreedGoesFirstBeyondTheSize() throws Exception {
        try (Connection c = open(EngineMode.LOCKS); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("SET DATABASE STATEMENT CACHE SIZE 2");
            long a = prepareRunClose(c, "SELECT 1 FROM t");
            long b = prepareRunClose(c, "SELECT 2 FROM t");
            long third = prepareRunClose(c, "SELECT 3 FROM t");
            assertEquals(third, prepareRunClose(c, "SELECT 3 FROM t"));
            assertEquals(b, prepareRunClose(c, "SELECT 2 FROM t"));
            assertNotEquals(a, prepareRunClose(c, "SELECT 1 FROM t"), "the first one freed was dropped");
        }
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void ddlBetweenTwoPreparesCompilesAgain(EngineMode mode) throws Exception {
        try (Connection c = open(mode); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 10)");
            String sql = "SELECT * FROM t";
            long before = prepareRunClose(c, sql);
            s.execute("ALTER TABLE t ADD COLUMN w INT DEFAULT 7");
            try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                assertNotEquals(before, id(ps));
                assertEquals(3, rs.getMetaData().getColumnCount(), "the new column is there");
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(3));
            }
            s.execute("ALTER TABLE t DROP COLUMN v");
            try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                assertEquals(2, rs.getMetaData().getColumnCount(), "the dropped column is gone");
            }
            prepareRunClose(c, "UPDATE t SET w = 8");
            s.execute("ALTER TABLE t ALTER COLUMN w RENAME TO x");
            SQLException e = assertThrows(SQLException.class, () -> prepareRunClose(c, "UPDATE t SET w = 8"));
            assertEquals("42501", e.getSQLState(), e.getMessage());
        }
    }

    @Test
    void anotherSchemaGetsItsOwnStatement() throws Exception {
        try (Connection c = open(EngineMode.A2L); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA s1");
            s.execute("CREATE SCHEMA s2");
            s.execute("CREATE TABLE s1.t (v INT)");
            s.execute("CREATE TABLE s2.t (v INT)");
            s.execute("INSERT INTO s1.t VALUES 1");
            s.execute("INSERT INTO s2.t VALUES 2");
            long[] v = new long[1];
            s.execute("SET SCHEMA s1");
            long one = prepareRunClose(c, "SELECT v FROM t", v);
            assertEquals(1, v[0]);
            s.execute("SET SCHEMA s2");
            assertNotEquals(one, prepareRunClose(c, "SELECT v FROM t", v));
            assertEquals(2, v[0]);
            s.execute("SET SCHEMA s1");
            assertEquals(one, prepareRunClose(c, "SELECT v FROM t", v), "s1's is still kept");
            assertEquals(1, v[0]);
        }
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void aTableDroppedAndMadeAgainIsReadAsItIsNow(EngineMode mode) throws Exception {
        try (Connection c = open(mode); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 10)");
            long[] v = new long[1];
            long before = prepareRunClose(c, "SELECT v FROM t WHERE id = 1", v);
            assertEquals(10, v[0]);
            s.execute("DROP TABLE t");
            s.execute("CREATE TABLE t (v BIGINT, id INT PRIMARY KEY)");
            s.execute("INSERT INTO t VALUES (99, 1)");
            assertNotEquals(before, prepareRunClose(c, "SELECT v FROM t WHERE id = 1", v));
            assertEquals(99, v[0]);
        }
    }

    @Test
    void aRevokedGrantOrAnotherRoleGetsAStatementOfItsOwn() throws Exception {
        String url = "jdbc:hsqldb:mem:statement_cache_" + databases.incrementAndGet();
        try (Connection admin = Engines.fork(url); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE t (v INT)");
            s.execute("INSERT INTO t VALUES 5");
            s.execute("CREATE USER u PASSWORD 'p'");
            s.execute("CREATE ROLE r");
            s.execute("GRANT SELECT ON t TO r");
            s.execute("GRANT r TO u");
            s.execute("CREATE TABLE g (v INT)");
            s.execute("GRANT SELECT ON g TO u");
            try (Connection u = java.sql.DriverManager.getConnection(url, "U", "p");
                 Statement us = u.createStatement()) {
                prepareRunClose(u, "SELECT v FROM g");
                s.execute("REVOKE SELECT ON g FROM u RESTRICT");
                SQLException revoked = assertThrows(SQLException.class, () -> prepareRunClose(u, "SELECT v FROM g"));
                assertEquals("42501", revoked.getSQLState(), revoked.getMessage());

                // a statement compiled under one role is not reused under another (HSQLDB checks
                // privileges when it compiles); here the user holds r's privileges either way
                us.execute("SET ROLE 'R'");
                long[] v = new long[1];
                long withRole = prepareRunClose(u, "SELECT v FROM t", v);
                assertEquals(5, v[0]);
                assertEquals(withRole, prepareRunClose(u, "SELECT v FROM t", v));
                us.execute("SET ROLE NONE");
                assertNotEquals(withRole, prepareRunClose(u, "SELECT v FROM t", v));
                assertEquals(5, v[0]);
            }
        }
    }

    @Test
    void theSizeIsADatabasePropertyPersistedAndShown() throws Exception {
        String url = "jdbc:hsqldb:file:" + dir.resolve("db").toAbsolutePath();
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals("64", property(s));
            s.execute("SET DATABASE STATEMENT CACHE SIZE 7");
            assertEquals("7", property(s));
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SET DATABASE STATEMENT CACHE SIZE 5000"));
            assertEquals("42556", e.getSQLState(), e.getMessage());
            s.execute("SHUTDOWN");
        }
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals("7", property(s), "kept across a restart");
            s.execute("SHUTDOWN");
        }
        String mem = "jdbc:hsqldb:mem:statement_cache_" + databases.incrementAndGet() + ";hsqldb.statement_cache_size=3";
        try (Connection c = Engines.fork(mem); Statement s = c.createStatement()) {
            assertEquals("3", property(s), "from the URL of a new database");
        }
        SQLException bad = assertThrows(SQLException.class, () -> Engines.fork("jdbc:hsqldb:mem:statement_cache_"
                + databases.incrementAndGet() + ";hsqldb.statement_cache_size=5000").close(),
                "a size out of range on the URL of a new database is refused, not dropped");
        assertEquals("42556", bad.getSQLState(), bad.getMessage());
    }

    private static String property(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES"
                + " WHERE PROPERTY_NAME = 'hsqldb.statement_cache_size'")) {
            assertTrue(rs.next(), "hsqldb.statement_cache_size is in SYSTEM_PROPERTIES");
            return rs.getString(1);
        }
    }
}
