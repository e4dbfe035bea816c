package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

class ForkVersionTest {

    @Test
    @RequiresPatch("Identify-the-fork-in-the-product-version-and-the-ser")
    void productVersionNamesTheFork() throws SQLException {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:version")) {
            DatabaseMetaData md = c.getMetaData();
            assertEquals("HSQL Database Engine", md.getDatabaseProductName());
            assertEquals("2.7.4-a2l", md.getDatabaseProductVersion());
            // unchanged: clients and database files compare these
            assertEquals(2, md.getDatabaseMajorVersion());
            assertEquals(7, md.getDatabaseMinorVersion());
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("CALL DATABASE_VERSION()")) {
                assertTrue(rs.next());
                assertEquals("2.7.4-a2l", rs.getString(1));
            }
        }
    }

    @Test
    void upstreamStillSaysPlain274() throws SQLException {
        try (Connection c = Engines.upstream("jdbc:hsqldb:mem:version")) {
            assertEquals("2.7.4", c.getMetaData().getDatabaseProductVersion());
        }
    }

    @Test
    void ddlDmlAndQueriesWork() throws SQLException {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:basics");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), v INT)");
            s.execute("CREATE INDEX t_v ON t (v)");
            assertEquals(3, s.executeUpdate("INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)"));
            assertEquals(2, s.executeUpdate("UPDATE t SET v = v + 1 WHERE id >= 2"));
            assertEquals(1, s.executeUpdate("DELETE FROM t WHERE name = 'a'"));
            try (ResultSet rs = s.executeQuery("SELECT id, v FROM t WHERE v > 20 ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
                assertEquals(21, rs.getInt(2));
                assertTrue(rs.next());
                assertEquals(31, rs.getInt(2));
                assertFalse(rs.next());
            }
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM (VALUES(0))")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
        }
    }
}
