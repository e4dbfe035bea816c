package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LATCH FREE setting and the locking it implies (thesis Table 5.1):
 * every isolation level locks before it reads, READ COMMITTED read locks
 * end with the statement, deadlocks and timeouts end waits, bad settings
 * are refused with a reason.
 */
@RequiresPatch("Lock-tables-through-lockmgr")
class LatchFreeModeTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private String url;

    private SessionThread session(String name) throws SQLException {
        if (url == null) {
            url = EngineMode.LF.url("jdbc:hsqldb:mem:lfmode" + databases.incrementAndGet());
        }
        return new SessionThread(Engines.fork(url), name);
    }

    @Test
    void aReadUncommittedReaderWaitsForAWritersExclusiveLock() throws Exception {
        try (SessionThread writer = session("writer"); SessionThread reader = session("reader")) {
            writer.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            writer.setAutoCommit(false);
            writer.execute("INSERT INTO t VALUES 1");

            reader.setIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            Future<Integer> read = reader.submit("SELECT COUNT(*) FROM t");
            reader.awaitLockWait();
            assertFalse(read.isDone());

            writer.commit();
            SessionThread.await(read);
            assertEquals(1, reader.queryLong("SELECT COUNT(*) FROM t"));
        }
    }

    @Test
    void aReadCommittedReadLockEndsWithItsStatementASerializableOneWithItsTransaction() throws Exception {
        try (SessionThread reader = session("reader"); SessionThread writer = session("writer")) {
            reader.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            reader.execute("INSERT INTO t VALUES (1, 0)");
            reader.setAutoCommit(false);

            reader.setIsolation(Connection.TRANSACTION_READ_COMMITTED);
            reader.queryLong("SELECT v FROM t WHERE id = 1");
            assertEquals(1, writer.execute("UPDATE t SET v = 1"), "the reader's statement is over, so is its lock");
            reader.commit();

            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            reader.queryLong("SELECT v FROM t WHERE id = 1");
            Future<Integer> update = writer.submit("UPDATE t SET v = 2");
            writer.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(update));
        }
    }

    @Test
    void aDeadlockAbortsTheYoungerTransactionWhoeverClosesTheCycleAndItCanRetry() throws Exception {
        try (SessionThread older = session("older"); SessionThread younger = session("younger")) {
            older.execute("CREATE TABLE a (id INT PRIMARY KEY, v INT)");
            older.execute("CREATE TABLE b (id INT PRIMARY KEY, v INT)");
            older.execute("INSERT INTO a VALUES (1, 0)");
            older.execute("INSERT INTO b VALUES (1, 0)");
            older.setAutoCommit(false);
            younger.setAutoCommit(false);
            // the victim is the transaction that started last, whichever closes the cycle and
            // whichever waiter's search finds it first: a rule, not a timing, so every round
            // must give the same answer
            for (int round = 0; round < 30; round++) {
                boolean olderCloses = round % 2 == 0;
                older.execute("UPDATE a SET v = v + 1");
                younger.execute("UPDATE b SET v = v + 1");
                SessionThread first = olderCloses ? younger : older;
                SessionThread closer = olderCloses ? older : younger;
                Future<Integer> firstWaits = first.submit(olderCloses ? "UPDATE a SET v = v + 1" : "UPDATE b SET v = v + 1");
                first.awaitLockWait();
                Future<Integer> closes = closer.submit(olderCloses ? "UPDATE b SET v = v + 1" : "UPDATE a SET v = v + 1");
                Future<Integer> victims = olderCloses ? firstWaits : closes;
                SQLException victim = assertThrows(SQLException.class, () -> SessionThread.await(victims),
                        "round " + round);
                assertEquals("40001", victim.getSQLState(), victim.getMessage());
                assertTrue(victim.getMessage().contains("deadlock"), victim.getMessage());
                assertEquals(1, SessionThread.await(olderCloses ? closes : firstWaits),
                        "round " + round + ": the older transaction gets the victim's locks");
                older.commit();
                younger.rollback();
                // the victim retries
                younger.execute("UPDATE b SET v = v + 1");
                younger.execute("UPDATE a SET v = v + 1");
                younger.commit();
            }
            assertEquals(60, older.queryLong("SELECT v FROM a"));
            assertEquals(60, older.queryLong("SELECT v FROM b"));
        }
    }

    @Test
    void aStatementTimeoutEndsALockWaitAndTheSessionGoesOn() throws Exception {
        try (SessionThread holder = session("holder"); SessionThread waiter = session("waiter")) {
            holder.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            holder.setAutoCommit(false);
            holder.execute("INSERT INTO t VALUES 1");

            Future<Integer> timedOut = waiter.submit("SELECT COUNT(*) FROM t", 1);
            SQLException e = assertThrows(SQLException.class, () -> SessionThread.await(timedOut));
            assertEquals("40502", e.getSQLState(), e.getMessage());

            holder.commit();
            assertEquals(1, waiter.queryLong("SELECT COUNT(*) FROM t"));
        }
    }

    @Test
    void switchingLatchFreeOffWhileSessionsWaitLetsThemFinish() throws Exception {
        try (SessionThread holder = session("holder"); SessionThread reader = session("reader");
             SessionThread admin = session("admin")) {
            holder.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            holder.setAutoCommit(false);
            holder.execute("INSERT INTO t VALUES 1");

            Future<Integer> read = reader.submit("SELECT COUNT(*) FROM t");
            reader.awaitLockWait();
            Future<Integer> off = admin.submit("SET DATABASE LATCH FREE FALSE");
            admin.awaitLockWait();

            holder.commit();
            SessionThread.await(off);
            SessionThread.await(read);
            assertEquals("false", property(admin, "hsqldb.latch_free"));
            holder.execute("INSERT INTO t VALUES 2");
            holder.commit();
            assertEquals(2, reader.queryLong("SELECT COUNT(*) FROM t"));
            assertEquals("[]", IndexIntegrity.problems(admin.connection()).toString());
        }
    }

    @Test
    void latchFreeUnderMvccIsRefusedAtConnectAndNothingIsCreated(@TempDir Path dir) {
        SQLException e = assertThrows(SQLException.class,
                () -> Engines.fork("jdbc:hsqldb:mem:lfmvcc;hsqldb.tx=mvcc;hsqldb.latch_free=true"));
        assertEquals("0A000", e.getSQLState());
        assertTrue(e.getMessage().contains("hsqldb.latch_free=true requires hsqldb.tx=locks"), e.getMessage());

        String file = dir.resolve("db").toString();
        assertThrows(SQLException.class,
                () -> Engines.fork("jdbc:hsqldb:file:" + file + ";hsqldb.tx=mvcc;hsqldb.latch_free=true"));
        String[] left = new File(dir.toString()).list();
        assertEquals(0, left.length, "files left behind: " + String.join(", ", left));
    }

    @Test
    void latchFreeAndMvccExcludeEachOther() throws SQLException {
        try (SessionThread admin = session("admin")) {
            SQLException toMvcc = assertThrows(SQLException.class,
                    () -> admin.execute("SET DATABASE TRANSACTION CONTROL MVCC"));
            assertEquals("0A000", toMvcc.getSQLState());
            assertTrue(toMvcc.getMessage().contains("LATCH FREE"), toMvcc.getMessage());
            assertEquals("LOCKS", property(admin, "hsqldb.tx"));

            admin.execute("SET DATABASE LATCH FREE FALSE");
            admin.execute("SET DATABASE TRANSACTION CONTROL MVCC");
            SQLException toLatchFree = assertThrows(SQLException.class,
                    () -> admin.execute("SET DATABASE LATCH FREE TRUE"));
            assertEquals("0A000", toLatchFree.getSQLState());
            assertEquals("false", property(admin, "hsqldb.latch_free"));
        }
    }

    @Test
    void theSettingIsPersistedAndShown(@TempDir Path dir) throws Exception {
        String file = "jdbc:hsqldb:file:" + dir.resolve("db") + ";hsqldb.write_delay=false";
        try (Connection c = Engines.fork(file); Statement s = c.createStatement()) {
            s.execute("SET DATABASE LATCH FREE TRUE");
            s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            s.execute("INSERT INTO t VALUES 1");
            s.execute("SHUTDOWN");
        }
        assertTrue(Files.readString(dir.resolve("db.script")).contains("SET DATABASE LATCH FREE TRUE"));
        try (Connection c = Engines.fork(file); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES "
                     + "WHERE PROPERTY_NAME = 'hsqldb.latch_free'")) {
            assertTrue(rs.next());
            assertEquals("true", rs.getString(1));
            s.execute("SHUTDOWN");
        }
    }

    private static String property(SessionThread s, String name) throws SQLException {
        try (Statement st = s.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES "
                     + "WHERE PROPERTY_NAME = '" + name + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
