package org.hsqldb.a2l.fork;

import static org.hsqldb.a2l.fork.StoreHands.call;
import static org.hsqldb.a2l.fork.StoreHands.changeInAnotherThread;
import static org.hsqldb.a2l.fork.StoreHands.onAThreadOfNoSession;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.persist.PersistentStore;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Under LOCK GRANULARITY CELL, walks of a table whose rows other transactions insert and
 * delete take no latch: they read the store's structure version before and after, and a walk
 * that met a change is made again (RowStoreAVLMemory.readOptimistic). The store's side is
 * played here by hand; the race at the end is the engine's.
 */
@RequiresPatch("Walk-tables-whose-structure-is-shared-without-the-re")
class OptimisticWalkTest {

    private static final long LATCHED = -1; // PersistentStore.READ_LATCHED

    private static final AtomicInteger databases = new AtomicInteger();

    private static String url() {
        return EngineMode.A2L.url("jdbc:hsqldb:mem:walks" + databases.incrementAndGet())
                + ";hsqldb.lock_granularity=cell";
    }

    /** the store of table T, with rows 0..99 (the tests run with cells on every table) */
    private static PersistentStore store(Connection c) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t SELECT x, x FROM UNNEST(SEQUENCE_ARRAY(0, 99, 1)) AS u(x)");
        }
        Session session = (Session) ((JDBCConnection) c).getSession();
        Table t = session.getDatabase().schemaManager.getUserTable("T", "PUBLIC");
        return t.getRowStore(session);
    }

    // by reflection: tests compile against every prefix of the series, and these are the patch's

    private static long readOptimistic(PersistentStore store) throws Exception {
        return (Long) call(store, "readOptimistic", new Class<?>[0]);
    }

    private static boolean readValidate(PersistentStore store, long stamp) throws Exception {
        return (Boolean) call(store, "readValidate", new Class<?>[] {long.class}, stamp);
    }

    private static void readEnd(PersistentStore store, long stamp) throws Exception {
        call(store, "readEnd", new Class<?>[] {long.class}, stamp);
    }

    @Test
    void aWalkStandsOnlyIfNoChangeOfTheIndexesCameBetweenItsStampAndItsValidation() throws Exception {
        try (Connection c = Engines.fork(url())) {
            PersistentStore store = store(c);
            onAThreadOfNoSession(() -> {
                long stamp = readOptimistic(store);
                assertTrue(stamp >= 0, "a walk without the latch, not " + stamp);
                assertTrue(readValidate(store, stamp));
                assertTrue(readValidate(store, stamp), "validating changes nothing");

                changeInAnotherThread(store);
                assertFalse(readValidate(store, stamp), "a change came between");
                readEnd(store, stamp);

                long again = readOptimistic(store);
                assertTrue(again >= 0 && again != stamp, "a new version: " + again);
                assertTrue(readValidate(store, again));
                readEnd(store, again);
            });
        }
    }

    @Test
    void aWalkThatBeginsDuringAChangeWaitsForItUnderTheReadLatch() throws Exception {
        try (Connection c = Engines.fork(url())) {
            PersistentStore store = store(c);
            CountDownLatch changing = new CountDownLatch(1), done = new CountDownLatch(1);
            Thread writer = new Thread(() -> {
                store.writeLock();
                try {
                    changing.countDown();
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    store.writeUnlock();
                }
            });
            writer.start();
            changing.await();
            ExecutorService walker = Executors.newSingleThreadExecutor();
            try {
                Thread[] walkerThread = new Thread[1];
                Future<Long> walk = walker.submit(() -> {
                    walkerThread[0] = Thread.currentThread();
                    return readOptimistic(store);
                });
                // it spins for a few microseconds, then parks on the latch
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (walkerThread[0] == null || walkerThread[0].getState() != Thread.State.WAITING) {
                    assertFalse(walk.isDone(), "the walk began in the middle of a change");
                    assertTrue(System.nanoTime() < deadline, "the walk neither waited nor began");
                    Thread.sleep(1);
                }
                done.countDown();
                long stamp = walk.get();
                assertEquals(LATCHED, stamp, "after the change it walks under the read latch");
                walker.submit(() -> {
                    readEnd(store, stamp);
                    return null;
                }).get();
                writer.join();

                // the latch is free again: a change and a new walk go through
                changeInAnotherThread(store);
                long next = walker.submit(() -> readOptimistic(store)).get();
                assertTrue(next >= 0, "an optimistic walk again: " + next);
            } finally {
                walker.shutdownNow();
            }
        }
    }

    @Test
    void aWriterWalksItsOwnIndexesUnderTheLatchItHolds() throws Exception {
        try (Connection c = Engines.fork(url())) {
            PersistentStore store = store(c);
            onAThreadOfNoSession(() -> {
                store.writeLock();
                try {
                    long stamp = readOptimistic(store);
                    assertEquals(LATCHED, stamp, "its own change is not waited for");
                    readEnd(store, stamp);
                } finally {
                    store.writeUnlock();
                }
                changeInAnotherThread(store); // the walk's read latch went with readEnd
                long stamp = readOptimistic(store);
                assertTrue(stamp >= 0 && readValidate(store, stamp), "the change is over: " + stamp);
                readEnd(store, stamp);
            });
        }
    }

    /**
     * The store's own race, below SQL, where a walk costs a microsecond and not a statement:
     * threads insert and delete odd keys through the store (its write latch, as the engine's
     * inserts and deletes take it), others look up even keys, which never change, through the
     * index and step to the next row. Each lookup must find its key and step to a greater one.
     * The tree is small, so most changes rotate the nodes every walk passes: with validation
     * turned off (readValidate always yes, no wait for a change under way), each one-second
     * repetition missed 155 to 832 of its 2 to 5 million lookups.
     */
    @RepeatedTest(3)
    void walksBesideChangesOfTheTreeFindEveryUnchangedKey() throws Exception {
        int keys = 32, writers = 2, readers = 2;
        try (Connection c = Engines.fork(url()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE k (id INT PRIMARY KEY)");
            s.execute("INSERT INTO k SELECT x * 2 FROM UNNEST(SEQUENCE_ARRAY(0, " + (keys - 1)
                    + ", 1)) AS u(x)");
            Session session = (Session) ((JDBCConnection) c).getSession();
            Table t = session.getDatabase().schemaManager.getUserTable("K", "PUBLIC");
            PersistentStore store = t.getRowStore(session);
            org.hsqldb.index.Index index = t.getPrimaryIndex();
            long end = System.nanoTime() + 1_000_000_000L;
            AtomicLong lookups = new AtomicLong(), changes = new AtomicLong(), missed = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(writers + readers);
            try {
                List<Future<?>> all = new java.util.ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    int id = w;
                    all.add(pool.submit(() -> {
                        SplittableRandom random = new SplittableRandom(17L * id + 1);
                        org.hsqldb.Row[] rows = new org.hsqldb.Row[keys / writers];
                        while (System.nanoTime() < end) {
                            int slot = random.nextInt(rows.length);
                            if (rows[slot] == null) {
                                Object[] data = {2 * (slot * writers + id) + 1};
                                rows[slot] = (org.hsqldb.Row) store.getNewCachedObject(session, data, false);
                                store.indexRow(session, rows[slot]);
                            } else {
                                store.delete(session, rows[slot]);
                                store.remove(rows[slot]);
                                rows[slot] = null;
                            }
                            changes.incrementAndGet();
                        }
                        for (org.hsqldb.Row row : rows) {
                            if (row != null) {
                                store.delete(session, row);
                                store.remove(row);
                            }
                        }
                        return null;
                    }));
                }
                for (int r = 0; r < readers; r++) {
                    int id = r;
                    all.add(pool.submit(() -> {
                        SplittableRandom random = new SplittableRandom(101L * id + 5);
                        while (System.nanoTime() < end) {
                            int key = 2 * random.nextInt(keys - 1);
                            org.hsqldb.navigator.RowIterator it =
                                    index.findFirstRow(null, store, new Object[] {key});
                            if (!it.next() || ((Integer) it.getCurrentRow().getData()[0]) != key
                                    || !it.next() || ((Integer) it.getCurrentRow().getData()[0]) <= key) {
                                missed.incrementAndGet();
                            }
                            lookups.incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : all) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertTrue(lookups.get() > 10_000 && changes.get() > 10_000, lookups + " lookups, " + changes + " changes");
            assertEquals(0, missed.get(), "lookups that missed their key or its successor, of " + lookups);
            assertEquals(List.of(), IndexIntegrity.problems(c));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM k")) {
                rs.next();
                assertEquals(keys, rs.getInt(1));
            }
        }
    }

    /**
     * Sessions insert and delete odd keys in one table, some roll back, so its trees keep
     * rotating; others read even keys, which are never changed, by their whole key. Such reads
     * lock keys only, so they walk from the root beside the changes, and every one must find
     * exactly the row it asks for; afterwards every index checks and the even keys are all
     * there.
     */
    @RepeatedTest(2)
    void readsOfUnchangedKeysFindThemWhileTheTreeAroundThemRotates() throws Exception {
        String url = url();
        int keys = 4000;
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE k (id INT PRIMARY KEY, v INT)");
            s.execute("CREATE INDEX k_v ON k (v)");
            s.execute("INSERT INTO k SELECT x * 2, x * 2 FROM UNNEST(SEQUENCE_ARRAY(0, " + (keys - 1)
                    + ", 1)) AS u(x)");
        }
        int writers = 2, readers = 2;
        long millis = 1500;
        AtomicLong reads = new AtomicLong(), changes = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(writers + readers);
        try {
            long end = System.nanoTime() + millis * 1_000_000;
            List<Future<Void>> all = new java.util.ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int id = w;
                all.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(31L * id + 7);
                    try (Connection c = Engines.fork(url);
                         PreparedStatement ins = c.prepareStatement("INSERT INTO k VALUES (?, ?)");
                         PreparedStatement del = c.prepareStatement("DELETE FROM k WHERE id = ?")) {
                        c.setAutoCommit(false);
                        // each writer owns the odd keys 2 * (slot * writers + id) + 1
                        java.util.BitSet present = new java.util.BitSet();
                        int[] flipped = new int[8];
                        while (System.nanoTime() < end) {
                            for (int i = 0; i < flipped.length; i++) {
                                int slot = random.nextInt(keys / writers);
                                int key = 2 * (slot * writers + id) + 1;
                                if (present.get(slot)) {
                                    del.setInt(1, key);
                                    assertEquals(1, del.executeUpdate());
                                } else {
                                    ins.setInt(1, key);
                                    ins.setInt(2, key);
                                    ins.executeUpdate();
                                }
                                present.flip(slot);
                                flipped[i] = slot;
                            }
                            if (random.nextInt(4) == 0) {
                                c.rollback();
                                for (int slot : flipped) {
                                    present.flip(slot);
                                }
                                continue;
                            }
                            c.commit();
                            changes.addAndGet(8);
                        }
                    }
                    return null;
                }));
            }
            for (int r = 0; r < readers; r++) {
                int id = r;
                all.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(1009L * id + 3);
                    try (Connection c = Engines.fork(url);
                         PreparedStatement point = c.prepareStatement("SELECT v FROM k WHERE id = ?")) {
                        c.setAutoCommit(false);
                        while (System.nanoTime() < end) {
                            int key = 2 * random.nextInt(keys);
                            point.setInt(1, key);
                            try (ResultSet rs = point.executeQuery()) {
                                assertTrue(rs.next(), "key " + key + " is always there");
                                assertEquals(key, rs.getInt(1));
                                assertFalse(rs.next(), "key " + key + " once");
                            }
                            c.commit();
                            reads.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> f : all) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(reads.get() > 1000 && changes.get() > 1000, reads + " reads, " + changes + " changes");
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM k WHERE MOD(id, 2) = 0")) {
                rs.next();
                assertEquals(keys, rs.getInt(1));
            }
            s.execute("SHUTDOWN");
        }
    }
}
