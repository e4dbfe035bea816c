package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.hsqldb.Database;
import org.hsqldb.Session;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.lib.FileAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * With write delay 0 a commit returns once its COMMIT line is on disk, and commits that wait at
 * the same time share one sync; locks are released before the wait, and a transaction that read
 * changes not yet on disk waits for them at its commit. The log's sync is replaced, in the running database, by one the
 * test holds: while the first commit's sync is held, other sessions commit (they write their
 * COMMIT lines and wait); once it is released one more sync covers them all. A sync that fails
 * fails its commit with a clear error, the transaction ends anyway (no lock left), and the commits
 * that waited for it get a sync of their own.
 */
@RequiresPatch("Share-one-log-sync-among-the-commits")
class GroupCommitTest {

    private static final AtomicInteger databases = new AtomicInteger();

    @TempDir
    Path dir;

    /** A sync the test holds and can make fail. */
    static final class HeldSync implements FileAccess.FileSync {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean hold = true;
        volatile IOException failure;
        final FileAccess.FileSync real;

        HeldSync(FileAccess.FileSync real) {
            this.real = real;
        }

        @Override
        public void sync() throws IOException {
            if (hold) {
                hold = false;
                entered.countDown();
                try {
                    assertTrue(release.await(60, TimeUnit.SECONDS), "the test never released the sync");
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            IOException f = failure;
            if (f != null) {
                failure = null;
                throw f;
            }
            real.sync();
        }
    }

    private String url(EngineMode mode) {
        return mode.url("jdbc:hsqldb:file:" + dir.resolve("db" + databases.incrementAndGet())
                + ";hsqldb.write_delay=false");
    }

    /** Puts a held sync in place of the log writer's file sync; returns it. */
    private static HeldSync holdTheSync(Connection c) throws Exception {
        Object writer = field(log(c), "dbLogWriter");
        Field descriptor = findField(writer.getClass(), "outDescriptor");
        descriptor.setAccessible(true);
        HeldSync held = new HeldSync((FileAccess.FileSync) descriptor.get(writer));
        descriptor.set(writer, held);
        return held;
    }

    private static Object log(Connection c) throws Exception {
        Database database = ((Session) ((JDBCConnection) c).getSession()).getDatabase();
        return field(database.logger, "log");
    }

    /** COMMIT lines written so far (with write delay 0). */
    private static long commitsWritten(Connection c) throws Exception {
        return (Long) field(log(c), "commitsWritten");
    }

    private static long counter(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNTER_VALUE FROM INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS"
                + " WHERE COUNTER_NAME = '" + name + "'")) {
            assertTrue(rs.next(), name + " is a counter");
            return rs.getLong(1);
        }
    }

    /**
     * Every mode releases a transaction's locks (or, under MVCC and MVLOCKS, commits its row
     * versions) before it waits for its sync, so commits that need the same locks share syncs:
     * here the sessions insert into one table, which LOCKS, LF and A2L lock whole for an insert,
     * and each would wait for the one before it if locks outlived the sync.
     */
    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC", "LF", "A2L", "A2L_CELL"})
    void commitsThatWaitTogetherShareOneSync(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = url(mode);
        int sessions = 6;
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try (Connection admin = Engines.fork(url); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            HeldSync held = holdTheSync(admin);
            long written = commitsWritten(admin);
            long committedBefore = counter(s, "COMMITS_SYNCED");
            long syncsBefore = counter(s, "LOG_SYNCS");
            List<Future<Integer>> commits = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                int key = i;
                commits.add(pool.submit(() -> {
                    try (Connection c = Engines.fork(url); Statement st = c.createStatement()) {
                        c.setAutoCommit(false);
                        st.execute("INSERT INTO t VALUES (" + key + ", 1)");
                        c.commit();
                        return key;
                    }
                }));
                if (i == 0) {
                    assertTrue(held.entered.await(60, TimeUnit.SECONDS), "the first commit syncs");
                }
            }
            // every other commit gets the table, writes its COMMIT and waits: none returns
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (commitsWritten(admin) - written < sessions) {
                assertTrue(System.nanoTime() < deadline, "the commits never wrote their COMMIT lines"
                        + " (a lock held through the first commit's sync?)");
                Thread.sleep(5);
            }
            for (Future<Integer> f : commits) {
                assertFalse(f.isDone(), "a commit returned before its COMMIT was on disk");
            }
            held.release.countDown();
            for (Future<Integer> f : commits) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(sessions, counter(s, "COMMITS_SYNCED") - committedBefore);
            // (the sessions' DISCONNECT lines are synced on their own, as other statements are)
            assertEquals(2, counter(s, "LOG_SYNCS") - syncsBefore, "the first commit's sync, then one for the "
                    + (sessions - 1) + " that waited meanwhile");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
                assertEquals(sessions, rs.getInt(1));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A transaction that read a change whose sync has not completed, and wrote nothing, does not
     * return from its commit before that sync: once it did, its client may act on what it read. A
     * read-only commit with no sync pending adds none.
     */
    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC", "LF", "A2L", "A2L_CELL"})
    void aReadOnlyCommitWaitsForTheSyncOfWhatItRead(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = url(mode);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection admin = Engines.fork(url); Statement s = admin.createStatement();
             Connection reader = Engines.fork(url); Statement r = reader.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 0)");
            HeldSync held = holdTheSync(admin);
            Future<?> writer = pool.submit(() -> {
                try (Connection c = Engines.fork(url); Statement st = c.createStatement()) {
                    c.setAutoCommit(false);
                    st.execute("UPDATE t SET v = 1 WHERE id = 1");
                    c.commit();
                }
                return null;
            });
            assertTrue(held.entered.await(60, TimeUnit.SECONDS), "the writer's commit syncs");
            reader.setAutoCommit(false);
            try (ResultSet rs = r.executeQuery("SELECT v FROM t WHERE id = 1")) {
                rs.next();
                assertEquals(1, rs.getInt(1), "the writer's change, in memory and not yet on disk");
            }
            AtomicReference<Thread> committing = new AtomicReference<>();
            Future<?> readerCommit = pool.submit(() -> {
                committing.set(Thread.currentThread());
                reader.commit();
                return null;
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!waitsForASync(committing.get())) {
                assertFalse(readerCommit.isDone(), "the reader's commit returned before the writer's sync");
                assertTrue(System.nanoTime() < deadline, "the reader's commit never waited for the sync");
                Thread.sleep(5);
            }
            held.release.countDown();
            writer.get(60, TimeUnit.SECONDS);
            readerCommit.get(60, TimeUnit.SECONDS);
            long syncs = counter(s, "LOG_SYNCS");
            try (ResultSet rs = r.executeQuery("SELECT v FROM t WHERE id = 1")) {
                rs.next();
            }
            reader.commit();
            assertEquals(syncs, counter(s, "LOG_SYNCS"), "a read-only commit with nothing to wait for synced");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Whether the thread waits in the log's group commit for a sync another thread runs. */
    private static boolean waitsForASync(Thread t) {
        if (t == null || t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals("org.hsqldb.persist.Log") && e.getMethodName().equals("syncCommits")) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC", "LF", "A2L", "A2L_CELL"})
    void aFailedSyncFailsItsCommitAndLeavesNoLock(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = url(mode);
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b")) {
            a.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            a.execute("INSERT INTO t VALUES (1, 0)");
            HeldSync held = holdTheSync(a.connection());
            held.hold = false;
            held.failure = new IOException("input/output error (injected)");
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            a.execute("UPDATE t SET v = 1 WHERE id = 1");
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, a::commit);
            assertEquals("S1000", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("sync of the log for a commit"), e.getMessage());
            // its transaction ended: the row is free, and the change is there in memory
            assertEquals(1, b.execute("UPDATE t SET v = v + 1 WHERE id = 1"));
            b.commit();
            assertEquals(2, b.queryLong("SELECT v FROM t WHERE id = 1"));
            // the next sync works again
            a.execute("UPDATE t SET v = v + 1 WHERE id = 1");
            a.commit();
            assertEquals(3, a.queryLong("SELECT v FROM t WHERE id = 1"));
            assertNotNull(a.connection());
        }
    }

    @Test
    void anAutocommitStatementWhoseSyncFailsSaysSoAndDoesNotClaimARollback() throws Exception {
        String url = url(EngineMode.A2L);
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            HeldSync held = holdTheSync(c);
            held.hold = false;
            held.failure = new IOException("input/output error (injected)");
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> s.execute("INSERT INTO t VALUES (1, 0)"));
            assertEquals("S1000", e.getSQLState(), e.getMessage());
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
                assertEquals(1, rs.getInt(1), "committed in memory, not rolled back");
            }
        }
    }

    private static Object field(Object o, String name) throws Exception {
        Field f = findField(o.getClass(), name);
        f.setAccessible(true);
        return f.get(o);
    }

    private static Field findField(Class<?> c, String name) throws NoSuchFieldException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                return k.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // look further up
            }
        }
        throw new NoSuchFieldException(name);
    }
}
