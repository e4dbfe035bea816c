package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LOCK GRANULARITY setting (column or cell): its default, the URL
 * property, the SQL, SYSTEM_PROPERTIES, persistence across a restart and the
 * refusal of bad values, and that a change waits for the transactions in
 * progress. What CELL locks is CellLockingTest's.
 */
@RequiresPatch("Add-the-LOCK-GRANULARITY")
class LockGranularitySettingTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private static String memUrl(String properties) {
        return "jdbc:hsqldb:mem:granularity" + databases.incrementAndGet() + properties;
    }

    @Test
    void theDefaultIsColumnInEveryMode() throws SQLException {
        for (EngineMode mode : EngineMode.all()) {
            if (mode.urlProperties().containsKey("hsqldb.lock_granularity")) {
                continue; // a mode that chooses its granularity
            }
            try (Connection c = Engines.fork(mode.url(memUrl(""))); Statement s = c.createStatement()) {
                assertEquals("column", granularity(c), mode.id());
                s.execute("SHUTDOWN");
            }
        }
    }

    @Test
    void theUrlPropertySelectsCellWhateverItsCase() throws SQLException {
        for (String value : new String[] {"cell", "CELL", "Cell"}) {
            try (Connection c = Engines.fork(EngineMode.A2L.url(memUrl(";hsqldb.lock_granularity=" + value)));
                 Statement s = c.createStatement()) {
                assertEquals("cell", granularity(c), value);
                s.execute("SHUTDOWN");
            }
        }
        try (Connection c = Engines.fork(memUrl(";hsqldb.lock_granularity=COLUMN")); Statement s = c.createStatement()) {
            assertEquals("column", granularity(c));
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void sqlChangesItAndSystemPropertiesShowsIt() throws SQLException {
        try (Connection c = Engines.fork(EngineMode.A2L.url(memUrl(""))); Statement s = c.createStatement()) {
            s.execute("SET DATABASE LOCK GRANULARITY CELL");
            assertEquals("cell", granularity(c));
            s.execute("set database lock granularity column");
            assertEquals("column", granularity(c));
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void aChangeWaitsForTheTransactionsInProgressAndStatementsRunOnAcrossIt() throws Exception {
        String url = EngineMode.A2L.url(memUrl(""));
        try (SessionThread writer = new SessionThread(Engines.fork(url), "writer");
             SessionThread admin = new SessionThread(Engines.fork(url), "admin")) {
            writer.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            writer.execute("INSERT INTO t VALUES (1, 0), (2, 0)");
            writer.setAutoCommit(false);
            writer.execute("UPDATE t SET v = v + 1 WHERE id = 1");

            // like SET DATABASE TRANSACTION CONTROL: the index latch of inserts that run
            // together (cell) is taken by granularity, so no transaction may span a change
            java.util.concurrent.Future<Integer> change = admin.submit("SET DATABASE LOCK GRANULARITY CELL");
            admin.awaitLockWait();
            writer.commit();
            SessionThread.await(change);
            assertEquals("cell", granularity(admin.connection()));

            // the writer's statements derive their lock sets again and go on
            writer.execute("UPDATE t SET v = v + 1 WHERE id = 1");
            writer.commit();
            assertEquals(2, admin.queryLong("SELECT v FROM t WHERE id = 1"));
        }

        // a prepared statement's lock set, derived under one granularity, is
        // derived again under the other
        try (Connection c = Engines.fork(url); Statement s = c.createStatement();
             PreparedStatement update = c.prepareStatement("UPDATE t SET v = v + 1 WHERE id = ?")) {
            for (String granularity : new String[] {"COLUMN", "CELL", "COLUMN"}) {
                s.execute("SET DATABASE LOCK GRANULARITY " + granularity);
                update.setInt(1, 2);
                assertEquals(1, update.executeUpdate(), granularity);
            }
            try (ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = 2")) {
                assertTrue(rs.next());
                assertEquals(3, rs.getInt(1));
            }
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void theSettingSurvivesARestart(@TempDir Path dir) throws Exception {
        String file = "jdbc:hsqldb:file:" + dir.resolve("db") + ";hsqldb.write_delay=false";
        Path script = dir.resolve("db.script");
        try (Connection c = Engines.fork(file); Statement s = c.createStatement()) {
            s.execute("SET DATABASE LOCK GRANULARITY CELL");
            s.execute("SHUTDOWN");
        }
        assertTrue(Files.readString(script).contains("SET DATABASE LOCK GRANULARITY CELL"));
        try (Connection c = Engines.fork(file); Statement s = c.createStatement()) {
            assertEquals("cell", granularity(c));
            s.execute("SET DATABASE LOCK GRANULARITY COLUMN");
            s.execute("SHUTDOWN");
        }
        assertFalse(Files.readString(script).contains("LOCK GRANULARITY"),
                "the default is not written, so upstream can read the script");
        try (Connection c = Engines.fork(file); Statement s = c.createStatement()) {
            assertEquals("column", granularity(c));
            // from the .log, without a checkpoint
            s.execute("SET DATABASE LOCK GRANULARITY CELL");
            s.execute("SHUTDOWN IMMEDIATELY");
        }
        try (Connection c = Engines.fork(file); Statement s = c.createStatement()) {
            assertEquals("cell", granularity(c));
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void theUrlPropertyOfANewFileDatabaseIsPersisted(@TempDir Path dir) throws Exception {
        String file = "jdbc:hsqldb:file:" + dir.resolve("db");
        try (Connection c = Engines.fork(file + ";hsqldb.tx=a2l;hsqldb.lock_granularity=cell");
             Statement s = c.createStatement()) {
            assertEquals("cell", granularity(c));
            s.execute("SHUTDOWN");
        }
        try (Connection c = Engines.fork(file); Statement s = c.createStatement()) {
            assertEquals("cell", granularity(c));
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void aBadUrlValueRefusesTheConnectionAndNothingIsCreated(@TempDir Path dir) {
        for (String props : new String[] {"hsqldb.lock_granularity=row", "hsqldb.lock_granularity=",
                                          "hsqldb.lock_granularity=columns"}) {
            SQLException e = assertThrows(SQLException.class,
                    () -> Engines.fork("jdbc:hsqldb:file:" + dir.resolve("db") + ";" + props));
            assertEquals("42556", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains(props + ": expected column or cell"), e.getMessage());
        }
        String[] left = new File(dir.toString()).list();
        assertEquals(0, left.length, "files left behind: " + String.join(", ", left));
    }

    @Test
    void aBadSqlValueIsASyntaxErrorAndTheSettingStays() throws SQLException {
        try (Connection c = Engines.fork(EngineMode.A2L.url(memUrl(";hsqldb.lock_granularity=cell")));
             Statement s = c.createStatement()) {
            for (String bad : new String[] {"SET DATABASE LOCK GRANULARITY ROW",
                                            "SET DATABASE LOCK GRANULARITY 'column'",
                                            "SET DATABASE LOCK GRANULARITY"}) {
                SQLException e = assertThrows(SQLException.class, () -> s.execute(bad));
                // 42581 for a wrong word, 42590 for a missing one
                assertTrue(e.getSQLState().equals("42581") || e.getSQLState().equals("42590"),
                        bad + ": " + e.getSQLState() + " " + e.getMessage());
                assertTrue(e.getMessage().contains("COLUMN or CELL"), bad + ": " + e.getMessage());
            }
            assertEquals("cell", granularity(c));
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void onlyAnAdminChangesIt() throws SQLException {
        String url = memUrl("");
        try (Connection admin = Engines.fork(url); Statement s = admin.createStatement()) {
            s.execute("CREATE USER plain PASSWORD 'p'");
            try (Connection user = DriverManager.getConnection(url, "PLAIN", "p");
                 Statement us = user.createStatement()) {
                assertThrows(SQLException.class, () -> us.execute("SET DATABASE LOCK GRANULARITY CELL"));
            }
            assertEquals("column", granularity(admin));
            s.execute("SHUTDOWN");
        }
    }

    private static String granularity(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES "
                     + "WHERE PROPERTY_NAME = 'hsqldb.lock_granularity'")) {
            assertTrue(rs.next(), "hsqldb.lock_granularity is not in SYSTEM_PROPERTIES");
            return rs.getString(1);
        }
    }
}
