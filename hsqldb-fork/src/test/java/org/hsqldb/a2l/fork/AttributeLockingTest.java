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
 * A2L: locks on (table, column) pairs, updates of non-indexed columns made
 * in place. Two sessions updating different columns of one row run
 * together; everything that touches the same column, or the table's
 * structure, waits.
 */
@RequiresPatch("Update-non-indexed-columns-in-place")
class AttributeLockingTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private static String newUrl(EngineMode mode) {
        return mode.url("jdbc:hsqldb:mem:a2l" + databases.incrementAndGet());
    }

    private static void create(SessionThread s) throws SQLException {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY, b INT, c INT, k INT UNIQUE)");
        s.execute("INSERT INTO t VALUES (1, 10, 20, 1), (2, 11, 21, 2)");
    }

    @Test
    void differentColumnsOfOneRowAreUpdatedTogetherTheSameColumnWaits() throws Exception {
        String url = newUrl(EngineMode.A2L);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            assertEquals(1, one.execute("UPDATE t SET b = b + 1 WHERE id = 1"));

            // column c of the same row: at once
            assertEquals(1, two.execute("UPDATE t SET c = c + 1 WHERE id = 1"));
            assertEquals(20 + 1, two.queryLong("SELECT c FROM t WHERE id = 1"), "reading only c does not wait");
            two.commit();

            // column b: waits for the first transaction
            Future<Integer> sameColumn = two.submit("UPDATE t SET b = b + 100 WHERE id = 1");
            two.awaitLockWait();
            one.commit();
            assertEquals(1, SessionThread.await(sameColumn));
            two.commit();
            assertEquals(10 + 1 + 100, one.queryLong("SELECT b FROM t WHERE id = 1"));
            assertEquals(21, one.queryLong("SELECT c FROM t WHERE id = 1"));
        }
    }

    @Test
    void readersOfTheColumnAndInsertsWaitReadersOfOtherColumnsDoNot() throws Exception {
        String url = newUrl(EngineMode.A2L);
        try (SessionThread writer = new SessionThread(Engines.fork(url), "writer");
             SessionThread other = new SessionThread(Engines.fork(url), "other")) {
            create(writer);
            writer.setAutoCommit(false);
            writer.execute("UPDATE t SET b = 99 WHERE id = 1");

            assertEquals(20, other.queryLong("SELECT c FROM t WHERE id = 1"));
            assertEquals(2, other.queryLong("SELECT COUNT(*) FROM t"), "COUNT(*) reads no column");

            Future<Integer> readB = other.submit("SELECT b FROM t WHERE id = 1");
            other.awaitLockWait();
            writer.commit();
            SessionThread.await(readB);

            writer.execute("UPDATE t SET b = 98 WHERE id = 2");
            Future<Integer> insert = other.submit("INSERT INTO t VALUES (3, 0, 0, 3)");
            other.awaitLockWait();
            writer.commit();
            assertEquals(1, SessionThread.await(insert));
        }
    }

    @Test
    void underTableLocksTheSameScheduleWaits() throws Exception {
        String url = newUrl(EngineMode.LF);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            one.execute("UPDATE t SET b = b + 1 WHERE id = 1");
            Future<Integer> otherColumn = two.submit("UPDATE t SET c = c + 1 WHERE id = 1");
            two.awaitLockWait();
            assertFalse(otherColumn.isDone());
            one.commit();
            assertEquals(1, SessionThread.await(otherColumn));
        }
    }

    @Test
    void rollbackAndRollbackToSavepointRestoreInPlaceUpdates() throws SQLException {
        try (Connection c = Engines.fork(newUrl(EngineMode.A2L)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, b INT, c VARCHAR(10), d DECIMAL(10,2))");
            s.execute("INSERT INTO t VALUES (1, 10, 'x', 1.50), (2, 20, 'y', NULL)");
            c.setAutoCommit(false);
            s.execute("UPDATE t SET b = b + 1, c = 'changed'");
            s.execute("SAVEPOINT sp");
            s.execute("UPDATE t SET d = 9.99, b = 0 WHERE id = 2");
            s.execute("UPDATE t SET b = 7 WHERE id = 2");
            s.execute("ROLLBACK TO SAVEPOINT sp");
            assertEquals("11,changed,1.50;21,changed,null", rows(s));
            c.rollback();
            assertEquals("10,x,1.50;20,y,null", rows(s));

            // a failing statement undoes its own changes only
            s.execute("UPDATE t SET b = 5 WHERE id = 1");
            assertThrows(SQLException.class, () -> s.execute("UPDATE t SET b = b / (b - 20)"));
            assertEquals("5,x,1.50;20,y,null", rows(s));
            c.commit();
            assertEquals("[]", IndexIntegrity.problems(c).toString());
        }
    }

    private static String rows(Statement s) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT b, c, d FROM t ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "," + rs.getString(2) + "," + rs.getString(3));
            }
        }
        return String.join(";", out);
    }

    @Test
    void anUpdateOfAnIndexedColumnIsStructuralAndKeepsEveryIndexSound() throws Exception {
        String url = newUrl(EngineMode.A2L);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.execute("CREATE INDEX t_c ON t (c)");
            one.setAutoCommit(false);
            one.execute("UPDATE t SET k = k + 10, c = c - 1");

            Future<Integer> read = two.submit("SELECT b FROM t WHERE id = 2");
            two.awaitLockWait();
            one.rollback();
            SessionThread.await(read);
            one.execute("UPDATE t SET k = k + 10, c = c - 1");
            one.commit();
            assertEquals(11 + 12, one.queryLong("SELECT SUM(k) FROM t"));
            assertEquals("[]", IndexIntegrity.problems(one.connection()).toString());
        }
    }

    @Test
    void columnsTakenInOppositeOrdersDeadlockAndTheVictimCanRetry() throws Exception {
        String url = newUrl(EngineMode.A2L);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            one.execute("UPDATE t SET b = b + 1 WHERE id = 1");
            two.execute("UPDATE t SET c = c + 1 WHERE id = 1");
            Future<Integer> oneWaits = one.submit("UPDATE t SET c = c + 1 WHERE id = 1");
            one.awaitLockWait();
            SQLException victim = assertThrows(SQLException.class, () -> two.execute("UPDATE t SET b = b + 1 WHERE id = 1"));
            assertEquals("40001", victim.getSQLState());
            assertEquals(1, SessionThread.await(oneWaits));
            one.commit();

            two.execute("UPDATE t SET c = c + 1 WHERE id = 1");
            two.execute("UPDATE t SET b = b + 1 WHERE id = 1");
            two.commit();
            assertEquals(12, one.queryLong("SELECT b FROM t WHERE id = 1"));
            assertEquals(22, one.queryLong("SELECT c FROM t WHERE id = 1"));
        }
    }

    @Test
    void lockSetsFollowTheDesign() throws SQLException {
        try (Connection c = Engines.fork(newUrl(EngineMode.A2L)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE p (id INT PRIMARY KEY, name VARCHAR(10))");
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, b INT, c INT, k INT UNIQUE, pid INT REFERENCES p (id))");
            assertEquals("DATABASE S, PUBLIC.T S, PUBLIC.T.ID S, PUBLIC.T.B S, PUBLIC.T.C S",
                    locks(s, "SELECT b FROM t WHERE id = 1 ORDER BY c"));
            assertEquals("DATABASE S, PUBLIC.P S, PUBLIC.P.ID S, PUBLIC.P.NAME S, PUBLIC.T S, PUBLIC.T.B S, PUBLIC.T.PID S",
                    locks(s, "SELECT p.name, t.b FROM t JOIN p ON p.id = t.pid"));
            assertEquals("DATABASE S, PUBLIC.T S, PUBLIC.T.ID S, PUBLIC.T.B X, PUBLIC.T.C S",
                    locks(s, "UPDATE t SET b = c + 1 WHERE id = 1"));
            assertEquals("DATABASE S, PUBLIC.T X", locks(s, "UPDATE t SET k = 5 WHERE id = 1"),
                    "a set column in an index makes the update structural");
            assertEquals("DATABASE S, PUBLIC.P S, PUBLIC.P.ID S, PUBLIC.T X",
                    locks(s, "INSERT INTO t VALUES (1, 1, 1, 1, 1)"), "an insert checks the parent's key");
            assertEquals("DATABASE S, PUBLIC.T X", locks(s, "DELETE FROM t WHERE b = 1"));
            assertEquals("DATABASE S, PUBLIC.T S", locks(s, "SELECT COUNT(*) FROM t"));
        }
    }

    private static String locks(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("EXPLAIN LOCKS FOR " + sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        return String.join(", ", out);
    }

    @Test
    void heldLocksAndCountersAreVisibleInSql() throws Exception {
        String url = newUrl(EngineMode.A2L);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.execute("SET DATABASE RESET LOCK COUNTERS");
            one.setAutoCommit(false);
            one.execute("UPDATE t SET b = 0 WHERE id = 1");
            Future<Integer> waits = two.submit("UPDATE t SET b = 1 WHERE id = 1");
            two.awaitLockWait();

            long sessionOne = ((org.hsqldb.jdbc.JDBCConnection) one.connection()).getSession().getId();
            assertEquals(1, one.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS WHERE SESSION_ID = "
                    + sessionOne + " AND LOCK_NAME = 'PUBLIC.T.B' AND LOCK_MODE = 'X' AND LOCK_STATE = 'HELD'"));
            assertEquals(1, one.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS WHERE SESSION_ID <> "
                    + sessionOne + " AND LOCK_NAME = 'PUBLIC.T.B' AND LOCK_STATE = 'WAITING'"));
            one.commit();
            SessionThread.await(waits);
            assertTrue(one.lockCounter("WAITS") >= 1);
            one.execute("SET DATABASE RESET LOCK COUNTERS");
            assertEquals(0, one.lockCounter("WAITS"));
        }
    }
}
