package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * RbW-RL: with SET SESSION EARLY RELEASE TRUE and a DECLARE WRITE SET, a
 * transaction gives up its read locks at its first write; a later request
 * for a lock outside what it holds rolls it back instead of breaking 2PL.
 */
@RequiresPatch("Release-read-locks-early")
class EarlyReleaseTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private SessionThread one;
    private SessionThread two;

    private void open(EngineMode mode) throws SQLException {
        String url = mode.url("jdbc:hsqldb:mem:early" + databases.incrementAndGet());
        one = new SessionThread(Engines.fork(url), "one");
        two = new SessionThread(Engines.fork(url), "two");
        one.execute("CREATE TABLE src (id INT PRIMARY KEY, v INT, w INT)");
        one.execute("CREATE TABLE dst (id INT PRIMARY KEY, v INT)");
        one.execute("CREATE TABLE other (id INT PRIMARY KEY, v INT)");
        one.execute("INSERT INTO src VALUES (1, 10, 0), (2, 20, 0)");
        one.execute("INSERT INTO other VALUES (1, 1)");
        for (SessionThread s : new SessionThread[] {one, two}) {
            s.setAutoCommit(false);
            s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
        }
    }

    private void close() throws SQLException {
        one.close();
        two.close();
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"A2L", "A2L_LATCHED", "LF"})
    void aWriterWaitingForAReadLockGoesOnAtTheReadersFirstWrite(EngineMode mode) throws Exception {
        open(mode);
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET dst");
        assertEquals(30, one.queryLong("SELECT SUM(v) FROM src"));

        Future<Integer> writer = two.submit("UPDATE src SET v = v + 1 WHERE id = 1");
        two.awaitLockWait();
        assertFalse(writer.isDone());

        // the first write: session one holds X(dst) and has released S(src)
        one.execute("INSERT INTO dst VALUES (1, 30)");
        assertEquals(1, SessionThread.await(writer), "the writer ran before session one committed");
        two.commit();

        one.execute("INSERT INTO dst VALUES (2, 30)");
        one.commit();
        assertEquals(31, one.queryLong("SELECT SUM(v) FROM src"));
        assertEquals(60, one.queryLong("SELECT SUM(v) FROM dst"));
        close();
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"A2L", "LF"})
    void withoutADeclarationNothingIsReleased(EngineMode mode) throws Exception {
        open(mode);
        assertReadLocksLastToCommit("SET SESSION EARLY RELEASE TRUE");
        close();
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"A2L", "LF"})
    void withoutEarlyReleaseADeclarationChangesNothing(EngineMode mode) throws Exception {
        open(mode);
        assertReadLocksLastToCommit("DECLARE WRITE SET dst");
        close();
    }

    /** After {@code setup}, session one reads src and writes dst: a writer of src waits for its commit. */
    private void assertReadLocksLastToCommit(String setup) throws Exception {
        one.execute(setup);
        assertEquals(30, one.queryLong("SELECT SUM(v) FROM src"));
        Future<Integer> writer = two.submit("UPDATE src SET v = v + 1 WHERE id = 1");
        two.awaitLockWait();
        one.execute("INSERT INTO dst VALUES (1, 30)");
        assertTrue(two.isWaitingForLock(), "the read lock lasts to commit");
        // nothing was released, so reading another table later is allowed
        assertEquals(1, one.queryLong("SELECT v FROM other WHERE id = 1"));
        one.commit();
        assertEquals(1, SessionThread.await(writer));
        two.commit();
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"A2L", "A2L_LATCHED", "LF"})
    void aReadAfterTheReleaseOutsideTheSetRollsBackWithTheLockNamed(EngineMode mode) throws Exception {
        open(mode);
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET dst");
        long sum = one.queryLong("SELECT SUM(v) FROM src");
        one.execute("INSERT INTO dst VALUES (1, " + sum + ")");

        SQLException e = assertThrows(SQLException.class,
                () -> one.queryLong("SELECT v FROM other WHERE id = 1"));
        assertEquals("25000", e.getSQLState());
        assertTrue(e.getMessage().contains("OTHER"), e.getMessage());
        assertTrue(e.getMessage().contains("declared write set"), e.getMessage());

        assertConsistentAfterRollback();
        close();
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"A2L", "LF"})
    void aWriteOutsideTheSetRollsBack(EngineMode mode) throws Exception {
        open(mode);
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET dst");
        one.execute("INSERT INTO dst VALUES (1, 1)");
        SQLException e = assertThrows(SQLException.class,
                () -> one.execute("UPDATE other SET v = 2 WHERE id = 1"));
        assertEquals("25000", e.getSQLState());
        assertTrue(e.getMessage().contains("OTHER"), e.getMessage());
        assertEquals(1, two.queryLong("SELECT v FROM other WHERE id = 1"));
        assertConsistentAfterRollback();
        close();
    }

    /** After the failure: nothing of the transaction is left, nothing is locked, the session goes on. */
    private void assertConsistentAfterRollback() throws Exception {
        assertEquals(0, two.queryLong("SELECT COUNT(*) FROM dst"), "the transaction's insert is rolled back");
        assertEquals(1, two.execute("UPDATE src SET w = 1 WHERE id = 2"), "its locks are gone");
        assertEquals(1, two.execute("INSERT INTO dst VALUES (9, 9)"));
        two.commit();

        // the next transaction has no declaration and may read anything
        assertEquals(1, one.queryLong("SELECT v FROM other WHERE id = 1"));
        one.execute("INSERT INTO dst VALUES (2, 2)");
        one.commit();
        assertEquals(2, one.queryLong("SELECT COUNT(*) FROM dst"));
        assertTrue(IndexIntegrity.problems(one.connection()).isEmpty());
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"A2L", "LF"})
    void laterStatementsMayReadTheDeclaredTablesAgain(EngineMode mode) throws Exception {
        open(mode);
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET src (v), dst");
        long v = one.queryLong("SELECT v FROM src WHERE id = 1");
        one.execute("UPDATE src SET v = " + (v + 5) + " WHERE id = 1");
        // the read locks on src stay (src is declared): its keys, v, and w read before
        one.execute("UPDATE src SET v = v + 1 WHERE id = 2");
        one.execute("INSERT INTO dst SELECT id, v FROM src WHERE id = 1");
        one.commit();
        assertEquals(15, one.queryLong("SELECT v FROM dst WHERE id = 1"));
        assertEquals(21, one.queryLong("SELECT v FROM src WHERE id = 2"));
        close();
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"A2L", "LF"})
    void theForeignKeyChecksOfDeclaredTablesKeepTheirReadLocks(EngineMode mode) throws Exception {
        open(mode);
        one.execute("CREATE TABLE child (id INT PRIMARY KEY, src_id INT REFERENCES src (id))");
        one.commit();
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET dst, child");
        assertEquals(10, one.queryLong("SELECT v FROM src WHERE id = 1"));
        one.execute("INSERT INTO dst VALUES (1, 10)");
        // the insert checks its parent row in src: S(src) (and its key) stayed
        one.execute("INSERT INTO child VALUES (1, 1)");
        Future<Integer> delete = two.submit("DELETE FROM src WHERE id = 2");
        two.awaitLockWait();
        one.commit();
        assertEquals(1, SessionThread.await(delete));
        two.commit();
        close();
    }

    @Test
    void aLaterUpdateMayReadIndexedColumnsOfADeclaredTableButNoOthers() throws Exception {
        open(EngineMode.A2L);
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET dst, src (w)");
        assertEquals(1, one.queryLong("SELECT v FROM other WHERE id = 1"));
        one.execute("INSERT INTO dst VALUES (1, 1)");
        // WHERE id: the primary key column, which only X(src) could change, and S(src) is held
        assertEquals(1, one.execute("UPDATE src SET w = 7 WHERE id = 1"));
        // v is neither declared nor indexed nor read before
        SQLException e = assertThrows(SQLException.class, () -> one.execute("UPDATE src SET w = v WHERE id = 2"));
        assertEquals("25000", e.getSQLState());
        assertTrue(e.getMessage().contains("SRC.V"), e.getMessage());
        assertEquals(0, two.queryLong("SELECT w FROM src WHERE id = 1"), "rolled back");
        close();
    }

    @Test
    void theDeclaredAttributeLocksAreTakenAtTheFirstWrite() throws Exception {
        open(EngineMode.A2L);
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET src (v, w), dst");
        one.execute("INSERT INTO dst VALUES (1, 1)");
        // X(src.w) is held though no statement has written w yet
        Future<Integer> w = two.submit("UPDATE src SET w = 5 WHERE id = 1");
        two.awaitLockWait();
        one.commit();
        assertEquals(1, SessionThread.await(w));
        two.commit();
        close();
    }

    @Test
    void misuseGetsClearErrors() throws Exception {
        String url = EngineMode.LOCKS.url("jdbc:hsqldb:mem:early" + databases.incrementAndGet());
        try (Connection c = Engines.fork(url);
             java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SET SESSION EARLY RELEASE TRUE"));
            assertEquals("0A000", e.getSQLState());
            assertTrue(e.getMessage().contains("A2L"), e.getMessage());
            e = assertThrows(SQLException.class, () -> s.execute("DECLARE WRITE SET t"));
            assertEquals("0A000", e.getSQLState());
            s.execute("SET SESSION EARLY RELEASE FALSE");
            e = assertThrows(SQLException.class, () -> s.execute("DECLARE WRITE SET nosuchtable"));
            assertEquals("42501", e.getSQLState());
        }
        open(EngineMode.A2L);
        SQLException e = assertThrows(SQLException.class, () -> one.execute("DECLARE WRITE SET src (nosuchcolumn)"));
        assertEquals("42501", e.getSQLState());
        one.execute("SET SESSION EARLY RELEASE TRUE");
        one.execute("DECLARE WRITE SET dst");
        one.execute("INSERT INTO dst VALUES (1, 1)");
        e = assertThrows(SQLException.class, () -> one.execute("DECLARE WRITE SET other"));
        assertEquals("25000", e.getSQLState());
        close();
    }
}
