package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * SELECT ... FOR UPDATE [OF columns] under A2L takes, at the read, X on the columns it will
 * update and S on the rest; under LF, X on the
 * table as before. Two transactions that read for update and then write queue at the read
 * instead of deadlocking at the write, which is what plain reads do.
 */
@RequiresPatch("Take-the-locks-of-SELECT-.-FOR-UPDATE")
class ForUpdateTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private static String url(EngineMode mode) {
        return mode.url("jdbc:hsqldb:mem:forupdate" + databases.incrementAndGet());
    }

    private static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE d (id INT PRIMARY KEY, n INT, tax INT, ytd INT)");
            s.execute("INSERT INTO d VALUES (1, 10, 1, 0), (2, 20, 2, 0)");
        }
    }

    /** The statement's locks, sorted (their order in the set follows the names' creation). */
    static List<String> explain(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN LOCKS FOR " + sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    @Test
    void underA2lForUpdateOfTakesXOnTheNamedColumnsAndUnderLfXOnTheTable() throws Exception {
        try (Connection c = Engines.fork(url(EngineMode.A2L))) {
            create(c);
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X", "PUBLIC.D.TAX S"),
                    explain(c, "SELECT n, tax FROM d WHERE id = 1 FOR UPDATE OF n"));
            // a column the select list does not show, as TPC-C's stock read names s_ytd
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X", "PUBLIC.D.TAX S",
                    "PUBLIC.D.YTD X"), explain(c, "SELECT n, tax FROM d WHERE id = 1 FOR UPDATE OF n, ytd"));
            // plain FOR UPDATE: the updatable columns of the select list
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X", "PUBLIC.D.TAX X"),
                    explain(c, "SELECT n, tax FROM d WHERE id = 1 FOR UPDATE"));
            SQLException e = assertThrows(SQLException.class,
                    () -> explain(c, "SELECT n FROM d WHERE id = 1 FOR UPDATE OF nosuch"));
            assertEquals("42501", e.getSQLState(), e.getMessage());
            // through a view that renames its columns, OF names the view's column as it shows it
            try (Statement s = c.createStatement()) {
                s.execute("CREATE VIEW renamed (k, m) AS SELECT id, n FROM d");
            }
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X"),
                    explain(c, "SELECT m FROM renamed WHERE k = 1 FOR UPDATE OF m"));
            // a routine may read any column: every column the FOR UPDATE does not write is read
            try (Statement s = c.createStatement()) {
                s.execute("CREATE FUNCTION tax_of(i INT) RETURNS INT READS SQL DATA"
                        + " RETURN (SELECT tax FROM d WHERE id = i)");
            }
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X", "PUBLIC.D.TAX S",
                    "PUBLIC.D.YTD S"), explain(c, "SELECT n, tax_of(id) FROM d WHERE id = 1 FOR UPDATE OF n"));
        }
        try (Connection c = Engines.fork(url(EngineMode.LF))) {
            create(c);
            assertEquals(List.of("DATABASE S", "PUBLIC.D X"), explain(c, "SELECT n, tax FROM d WHERE id = 1 FOR UPDATE OF n"));
        }
    }

    @Test
    void twoReadersForUpdateQueueAtTheReadWhereTwoPlainReadersDeadlockAtTheWrite() throws Exception {
        String url = url(EngineMode.A2L);
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b");
             SessionThread reader = new SessionThread(Engines.fork(url), "reader")) {
            create(a.connection());
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            a.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            b.setIsolation(Connection.TRANSACTION_SERIALIZABLE);

            // plain reads: both take S(D.N), both convert, one is the deadlock victim
            a.queryLong("SELECT n FROM d WHERE id = 1");
            b.queryLong("SELECT n FROM d WHERE id = 2");
            Future<Integer> aw = a.submit("UPDATE d SET n = n + 1 WHERE id = 1");
            a.awaitLockWait();
            SQLException victim = assertThrows(SQLException.class, () -> b.execute("UPDATE d SET n = n + 1 WHERE id = 2"));
            assertEquals("40001", victim.getSQLState());
            assertEquals(1, SessionThread.await(aw));
            a.commit();
            b.rollback();
            long deadlocks = reader.lockCounter("DEADLOCKS");

            // reads for update: b waits at its read, then goes on; no deadlock
            a.queryLong("SELECT n FROM d WHERE id = 1 FOR UPDATE OF n");
            Future<Integer> bRead = b.submit("SELECT n FROM d WHERE id = 2 FOR UPDATE OF n");
            b.awaitLockWait();
            assertFalse(bRead.isDone());
            a.execute("UPDATE d SET n = n + 1 WHERE id = 1");
            a.commit();
            SessionThread.await(bRead);
            b.execute("UPDATE d SET n = n + 1 WHERE id = 2");
            b.commit();
            assertEquals(deadlocks, reader.lockCounter("DEADLOCKS"));
            assertEquals(12, reader.queryLong("SELECT n FROM d WHERE id = 1"));
            assertEquals(21, reader.queryLong("SELECT n FROM d WHERE id = 2"));
            assertTrue(reader.lockCounter("UPGRADES") > 0);
            assertTrue(reader.lockCounter("UPGRADE_DEADLOCKS") >= 1, "the plain reads' deadlock was an upgrade's");
        }
    }

    @Test
    @RequiresPatch("Read-what-a-declared-write-set-names")
    void aTransactionThatDeclaredItsWritesReadsThemWithTheForUpdateLock() throws Exception {
        String url = url(EngineMode.A2L);
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b")) {
            create(a.connection());
            for (SessionThread s : List.of(a, b)) {
                s.setAutoCommit(false);
                s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
                s.execute("SET SESSION EARLY RELEASE TRUE");
            }
            a.execute("DECLARE WRITE SET d (n)");
            a.queryLong("SELECT n FROM d WHERE id = 1");
            assertEquals("X", a.queryString("SELECT LOCK_MODE FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"
                    + " WHERE SESSION_ID = SESSION_ID() AND LOCK_NAME = 'PUBLIC.D.N'"));
            b.execute("DECLARE WRITE SET d (n)");
            Future<Integer> bRead = b.submit("SELECT n FROM d WHERE id = 2");
            b.awaitLockWait();
            a.execute("UPDATE d SET n = n + 1 WHERE id = 1");
            a.commit();
            SessionThread.await(bRead);
            b.execute("UPDATE d SET n = n + 1 WHERE id = 2");
            b.commit();
            assertEquals(11, a.queryLong("SELECT n FROM d WHERE id = 1"));
            assertEquals(21, a.queryLong("SELECT n FROM d WHERE id = 2"));
        }
    }

    /**
     * A queue's head read to be updated or deleted: ORDER BY and FETCH FIRST make upstream's
     * cursor read-only, and the read still locks for update.
     */
    @Test
    @RequiresPatch("Take-FOR-UPDATE-s-locks-for-one-table-queries")
    void anOrderedOrLimitedQueryForUpdateLocksAsAnUpdatableOneDoes() throws Exception {
        String head = "SELECT n FROM d ORDER BY id FETCH FIRST 1 ROWS ONLY";
        try (Connection c = Engines.fork(url(EngineMode.A2L))) {
            create(c);
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X"),
                    explain(c, head + " FOR UPDATE"));
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N S", "PUBLIC.D.YTD X"),
                    explain(c, head + " FOR UPDATE OF ytd"));
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.N X", "PUBLIC.D.TAX S"),
                    explain(c, "SELECT n FROM d WHERE tax > 0 ORDER BY tax FOR UPDATE"));
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N S"), explain(c, head),
                    "without FOR UPDATE a plain read");
            // a view the query is merged with locks its table's rows; what has no rows of its own
            // to lock, or aggregates them, reads as before
            try (Statement s = c.createStatement()) {
                s.execute("CREATE VIEW v AS SELECT id, n FROM d");
                s.execute("CREATE VIEW taxes AS SELECT DISTINCT tax FROM d");
            }
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X"),
                    explain(c, "SELECT n FROM v ORDER BY id FETCH FIRST 1 ROWS ONLY FOR UPDATE"));
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.TAX S"),
                    explain(c, "SELECT tax FROM taxes ORDER BY tax FETCH FIRST 1 ROWS ONLY FOR UPDATE"));
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.N S"),
                    explain(c, "SELECT MAX(n) FROM d FOR UPDATE"));
            // upstream accepts any OF names here (through a view they are the view's): a name that
            // is not a column is passed over, and with none left the query locks as plain FOR UPDATE
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N X"),
                    explain(c, head + " FOR UPDATE OF nosuch"));
            assertEquals(List.of("DATABASE S", "PUBLIC.D S", "PUBLIC.D.ID S", "PUBLIC.D.N S", "PUBLIC.D.YTD X"),
                    explain(c, head + " FOR UPDATE OF nosuch, ytd"));
            // the result set stays read-only, as upstream's
            try (Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
                 ResultSet rs = s.executeQuery(head + " FOR UPDATE")) {
                assertEquals(ResultSet.CONCUR_READ_ONLY, rs.getConcurrency());
                assertTrue(rs.next());
                assertEquals(10, rs.getInt(1));
            }
        }
        try (Connection c = Engines.fork(url(EngineMode.LF))) {
            create(c);
            assertEquals(List.of("DATABASE S", "PUBLIC.D X"), explain(c, head + " FOR UPDATE"));
            assertEquals(List.of("DATABASE S", "PUBLIC.D S"), explain(c, head));
            // read-only for another reason than order or limit (no column to update): as before
            assertEquals(List.of("DATABASE S", "PUBLIC.D S"), explain(c, "SELECT n + 0 FROM d WHERE id = 1 FOR UPDATE"));
        }
        // two transactions that read the head for update and then update it: the second waits
        // at its read, then reads what the first left
        String url = url(EngineMode.A2L);
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b");
             SessionThread reader = new SessionThread(Engines.fork(url), "reader")) {
            create(a.connection());
            for (SessionThread s : List.of(a, b)) {
                s.setAutoCommit(false);
                s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
            long deadlocks = reader.lockCounter("DEADLOCKS");
            String headForUpdate = "SELECT n FROM d ORDER BY n FETCH FIRST 1 ROWS ONLY FOR UPDATE";
            assertEquals(10, a.queryLong(headForUpdate));
            Future<Long> bRead = b.submitQueryLong(headForUpdate);
            b.awaitLockWait();
            assertFalse(bRead.isDone());
            a.execute("UPDATE d SET n = 30 WHERE n = 10");
            a.commit();
            assertEquals(20, SessionThread.await(bRead));
            b.execute("UPDATE d SET n = 40 WHERE n = 20");
            b.commit();
            assertEquals(deadlocks, reader.lockCounter("DEADLOCKS"));
            assertEquals(70, reader.queryLong("SELECT SUM(n) FROM d"));
        }
    }
}
