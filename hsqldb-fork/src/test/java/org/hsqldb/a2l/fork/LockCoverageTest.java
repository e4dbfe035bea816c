package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.jdbc.JDBCConnection;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Paths that reach a table's storage must hold a lock on it. The tests run
 * in latch-free mode with -Dhsqldb.lock_check=true (set by hsqldb-fork/pom.xml),
 * under which an index touched without the covering table lock fails the
 * statement with "lock check: ..."; each case below did so before its fix.
 */
class LockCoverageTest {

    private static final AtomicInteger databases = new AtomicInteger();

    static Connection latchFree() throws SQLException {
        assertEquals("true", System.getProperty("hsqldb.lock_check"), "the pom runs the tests with lock checks on");
        return Engines.fork("jdbc:hsqldb:mem:coverage" + databases.incrementAndGet() + ";hsqldb.latch_free=true");
    }

    /** Runs the statements in order; statement errors other than a lock check are allowed. */
    static void run(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                try {
                    s.execute(sql);
                } catch (SQLException e) {
                    if (String.valueOf(e.getMessage()).contains("lock check")) {
                        fail(sql + " -> " + e.getMessage());
                    }
                }
            }
        }
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    @RequiresPatch("Check-under-hsqldb.lock_check")
    void theCheckCatchesAnIndexReadWithoutATableLock() throws SQLException {
        try (Connection c = latchFree()) {
            run(c, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES 1");
            // autocommit: the session holds no lock now, and the store is read directly
            Session session = (Session) ((JDBCConnection) c).getSession();
            Table t = session.getDatabase().schemaManager.getUserTable("T", "PUBLIC");
            RuntimeException e = assertThrows(RuntimeException.class, () -> t.getRowStore(session).readLock());
            assertTrue(e.getMessage().contains("lock check: session " + session.getId() + " reads PUBLIC.T holding no lock"),
                    e.getMessage());
        }
    }

    @Nested
    @RequiresPatch("Lock-every-table-that-foreign-keys")
    class ForeignKeysAndTriggers {

        @Test
        void deletingAParentReadsItsNoActionChildren() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "CREATE TABLE p (id INT PRIMARY KEY)",
                        "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id))",
                        "INSERT INTO p VALUES 1, 2", "INSERT INTO c VALUES (1, 1)",
                        "DELETE FROM p WHERE id = 2");
                assertEquals(1, count(c, "SELECT COUNT(*) FROM p"));
            }
        }

        @Test
        void aCascadeFiresTheChildsTriggersUnderLock() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "CREATE TABLE p (id INT PRIMARY KEY)",
                        "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id) ON DELETE CASCADE)",
                        "CREATE TABLE audit (id INT)",
                        "CREATE TRIGGER c_del AFTER DELETE ON c REFERENCING OLD ROW AS o FOR EACH ROW INSERT INTO audit VALUES (o.id)",
                        "INSERT INTO p VALUES 1", "INSERT INTO c VALUES (7, 1)",
                        "DELETE FROM p WHERE id = 1");
                assertEquals(1, count(c, "SELECT COUNT(*) FROM audit"));
            }
        }

        @Test
        void mergeDeleteReachesWhatADeleteReaches() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "CREATE TABLE p (id INT PRIMARY KEY)",
                        "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id) ON DELETE SET NULL)",
                        "INSERT INTO p VALUES 1", "INSERT INTO c VALUES (7, 1)",
                        "MERGE INTO p USING (VALUES (1)) AS s (id) ON p.id = s.id WHEN MATCHED THEN DELETE");
                assertEquals(0, count(c, "SELECT COUNT(*) FROM c WHERE pid IS NOT NULL"));
            }
        }
    }

    @Nested
    @RequiresPatch("Lock-what-REPLACE-ON-DUPLICATE-KEY-UPDATE")
    class UpdatesInDisguise {

        @Test
        void onDuplicateKeyUpdateCascadesUnderLock() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "SET DATABASE SQL SYNTAX MYS TRUE",
                        "CREATE TABLE p (id INT PRIMARY KEY, v INT UNIQUE)",
                        "CREATE TABLE c (id INT PRIMARY KEY, pv INT REFERENCES p (v) ON UPDATE CASCADE)",
                        "INSERT INTO p VALUES (1, 10)", "INSERT INTO c VALUES (5, 10)",
                        "INSERT INTO p VALUES (1, 10) ON DUPLICATE KEY UPDATE v = 11");
                assertEquals(1, count(c, "SELECT COUNT(*) FROM c WHERE pv = 11"));
            }
        }

        @Test
        void deleteRowOfAnUpdatableResultSetCascadesUnderLock() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "CREATE TABLE p (id INT PRIMARY KEY)",
                        "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id) ON DELETE CASCADE)",
                        "INSERT INTO p VALUES 1", "INSERT INTO c VALUES (5, 1)");
                try (Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
                     ResultSet rs = s.executeQuery("SELECT id FROM p")) {
                    assertTrue(rs.next());
                    rs.deleteRow();
                }
                assertEquals(0, count(c, "SELECT COUNT(*) FROM c"));
            }
        }
    }

    @Nested
    @RequiresPatch("Lock-the-tables-CREATE-TABLE-fills")
    class SchemaChanges {

        @Test
        void createTableAsQueryFillsALockedTable() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "CREATE TABLE p (id INT PRIMARY KEY)", "INSERT INTO p VALUES 1, 2",
                        "CREATE TABLE x AS (SELECT * FROM p) WITH DATA");
                assertEquals(2, count(c, "SELECT COUNT(*) FROM x"));
            }
        }

        @Test
        void dropTableCascadeLocksTheTablesItRebuilds() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "CREATE TABLE p (id INT PRIMARY KEY)",
                        "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id))",
                        "INSERT INTO p VALUES 1", "INSERT INTO c VALUES (5, 1)",
                        "DROP TABLE p CASCADE");
                assertEquals(1, count(c, "SELECT COUNT(*) FROM c"));
            }
        }
    }

    @Nested
    @RequiresPatch("Recompile-routines-whose-lock-sets")
    class Routines {

        @Test
        void aProcedureCompiledBeforeATriggerLocksWhatTheTriggerWrites() throws SQLException {
            try (Connection c = latchFree()) {
                run(c, "CREATE TABLE t (id INT PRIMARY KEY)", "CREATE TABLE audit (id INT)",
                        "CREATE PROCEDURE clear_t() MODIFIES SQL DATA DELETE FROM t",
                        "INSERT INTO t VALUES 1", "CALL clear_t()",
                        "CREATE TRIGGER t_del AFTER DELETE ON t FOR EACH ROW INSERT INTO audit VALUES (1)",
                        "INSERT INTO t VALUES 2", "CALL clear_t()");
                assertEquals(1, count(c, "SELECT COUNT(*) FROM audit"));
            }
        }
    }

    @Nested
    @RequiresPatch("Take-the-locks-of-a-statement-recompiled")
    class RecompiledWhileWaiting {

        @Test
        @RequiresPatch("Lock-tables-through-lockmgr") // it waits in lockmgr; upstream's 2PL wait holds the session
        void aStatementRecompiledAfterWaitingForDdlTakesItsNewLocks() throws Exception {
            String url = "jdbc:hsqldb:mem:recompiled;hsqldb.latch_free=true";
            try (Connection holder = Engines.fork(url); Connection ddl = Engines.fork(url);
                 Connection deleter = Engines.fork(url)) {
                run(holder, "CREATE TABLE p (id INT PRIMARY KEY)", "CREATE TABLE c (id INT PRIMARY KEY, pid INT)",
                        "INSERT INTO p VALUES 1", "INSERT INTO c VALUES (5, 1)");
                // the DELETE is compiled before the foreign key exists
                java.sql.PreparedStatement delete = deleter.prepareStatement("DELETE FROM p WHERE id = 1");
                holder.setAutoCommit(false);
                run(holder, "LOCK TABLE p WRITE");

                CompletableFuture<Void> addKey = runAsync(ddl,
                        "ALTER TABLE c ADD FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE");
                awaitWaiting(1);
                CompletableFuture<Integer> deleted = CompletableFuture.supplyAsync(() -> {
                    try {
                        return delete.executeUpdate();
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                // both queued, the DDL first: queued waiters are granted in queue order, so
                // the DDL runs first; then the DELETE, recompiled, cascades into c (had the
                // DELETE come after the commit, it could pass the DDL: "Fairness")
                awaitWaiting(2);
                holder.commit();
                addKey.get(60, TimeUnit.SECONDS);
                assertEquals(1, deleted.get(60, TimeUnit.SECONDS));
                assertEquals(0, count(holder, "SELECT COUNT(*) FROM c"));
            }
        }

        private CompletableFuture<Void> runAsync(Connection c, String sql) {
            return CompletableFuture.runAsync(() -> {
                try (Statement s = c.createStatement()) {
                    s.execute(sql);
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
        }

        /** Waits until {@code n} threads wait in the lock manager (only the test's statements do). */
        private void awaitWaiting(int n) throws Exception {
            for (int i = 0; i < 6000; i++) {
                if (Thread.getAllStackTraces().entrySet().stream()
                        .filter(e -> e.getKey().getState() != Thread.State.RUNNABLE
                                && java.util.Arrays.stream(e.getValue())
                                        .anyMatch(f -> f.getClassName().startsWith("org.hsqldb.a2l.lockmgr")))
                        .count() >= n) {
                    return;
                }
                Thread.sleep(10);
            }
            fail(n + " statements never waited for the lock");
        }
    }
}
