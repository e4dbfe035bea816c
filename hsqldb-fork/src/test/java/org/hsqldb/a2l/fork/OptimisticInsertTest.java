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
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.hsqldb.Row;
import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.persist.PersistentStore;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Under LOCK GRANULARITY CELL an insert into a table whose structure is shared walks the
 * table's indexes before it takes the store's write latch, and under the latch links the row
 * where its walks ended, unless another writer changed the indexes in between
 * (RowStoreAVLMemory.writeOptimistic, writeValidate); then it walks again under the latch.
 */
@RequiresPatch("Walk-an-insert-s-indexes-before-it-takes-the-store-s")
class OptimisticInsertTest {

    private static final long LATCHED = -1; // PersistentStore.READ_LATCHED

    private static final AtomicInteger databases = new AtomicInteger();

    private static String url() {
        return EngineMode.A2L.url("jdbc:hsqldb:mem:inserts" + databases.incrementAndGet())
                + ";hsqldb.lock_granularity=cell";
    }

    // by reflection: tests compile against every prefix of the series, and these are the patch's

    private static long writeOptimistic(PersistentStore store) throws Exception {
        return (Long) call(store, "writeOptimistic", new Class<?>[0]);
    }

    private static boolean writeValidate(PersistentStore store, long stamp) throws Exception {
        return (Boolean) call(store, "writeValidate", new Class<?>[] {long.class}, stamp);
    }

    private static Table table(Connection c, String name) throws SQLException {
        Session session = (Session) ((JDBCConnection) c).getSession();
        return session.getDatabase().schemaManager.getUserTable(name, "PUBLIC");
    }

    private static PersistentStore store(Connection c, String name) throws SQLException {
        return table(c, name).getRowStore((Session) ((JDBCConnection) c).getSession());
    }

    @Test
    void walksStandOnlyIfNoOtherWriterCameBetweenTheStampAndTheLatch() throws Exception {
        try (Connection c = Engines.fork(url()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            PersistentStore store = store(c, "T");
            onAThreadOfNoSession(() -> {
                long stamp = writeOptimistic(store);
                assertTrue(stamp >= 0, "walks without the latch, not " + stamp);
                store.writeLock();
                try {
                    assertTrue(writeValidate(store, stamp), "nobody came between");
                    assertEquals(LATCHED, writeOptimistic(store),
                            "a writer that holds the latch walks under it");
                } finally {
                    store.writeUnlock();
                }

                long stale = writeOptimistic(store);
                assertTrue(stale >= 0 && stale != stamp, "a new version after a change: " + stale);
                changeInAnotherThread(store);
                store.writeLock();
                try {
                    assertFalse(writeValidate(store, stale), "another writer came between");
                } finally {
                    store.writeUnlock();
                }
                assertFalse(writeValidate(store, writeOptimistic(store)), "only under the latch");
            });
        }
    }

    /**
     * A row whose key the primary key does not hold but a second UNIQUE index does: the walk
     * made before the latch throws at the second index, the walk under the latch links the row
     * into the primary key and then fails, and the row leaves the primary key again.
     */
    @Test
    void aDuplicateInASecondUniqueIndexFailsTheInsertAndLeavesNoNodeBehind() throws Exception {
        try (Connection c = Engines.fork(url()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, u INT UNIQUE)");
            s.execute("INSERT INTO t VALUES (1, 1), (3, 3)");
            Session session = (Session) ((JDBCConnection) c).getSession();
            PersistentStore store = store(c, "T");
            onAThreadOfNoSession(() -> {
                assertTrue(writeOptimistic(store) >= 0, "inserts walk before the latch here");
                Row row = (Row) store.getNewCachedObject(session, new Object[] {2, 3}, false);
                org.hsqldb.HsqlException e = org.junit.jupiter.api.Assertions.assertThrows(
                        org.hsqldb.HsqlException.class, () -> store.indexRow(session, row));
                assertEquals("23505", e.getSQLState(), e.getMessage());
            });
            assertEquals(List.of(), IndexIntegrity.problems(c));
            try (ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertTrue(rs.next());
                assertEquals(3, rs.getInt(1));
                assertFalse(rs.next(), "the row that failed is in no index");
            }
        }
    }

    /**
     * The store's own race, below SQL: threads insert and delete keys of their own through
     * the store, as the engine's inserts and deletes do, into a small table with two more
     * indexes, so most inserts' walks pass nodes that another thread's change rotates. Every
     * index must stay sound and hold every row once. With writeValidate always yes (walks
     * that met a change linked where they ended), each repetition left indexes out of order
     * or failed in a rotation.
     */
    @RepeatedTest(3)
    void insertsBesideOtherInsertsAndDeletesKeepEveryIndexWhole() throws Exception {
        int writers = 3, slots = 24, enough = 1_000_000;
        try (Connection c = Engines.fork(url()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE k (id INT PRIMARY KEY, a INT, b INT)");
            s.execute("CREATE INDEX k_a ON k (a)");
            s.execute("CREATE INDEX k_b ON k (b, id)");
            Session session = (Session) ((JDBCConnection) c).getSession();
            PersistentStore store = store(c, "K");
            // to a count of inserts, within a cap for a slow machine
            long end = System.nanoTime() + 10_000_000_000L;
            AtomicLong inserts = new AtomicLong();
            List<Row[]> kept = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            try {
                List<Future<?>> all = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    int id = w;
                    Row[] rows = new Row[slots];
                    kept.add(rows);
                    all.add(pool.submit(() -> {
                        SplittableRandom random = new SplittableRandom(13L * id + 3);
                        while (inserts.get() < enough && System.nanoTime() < end) {
                            int slot = random.nextInt(slots);
                            if (rows[slot] == null) {
                                int key = slot * writers + id;
                                // a and b interleave the writers' keys in other orders
                                Object[] data = {key, random.nextInt(8), random.nextInt(1000)};
                                rows[slot] = (Row) store.getNewCachedObject(session, data, false);
                                store.indexRow(session, rows[slot]);
                                inserts.incrementAndGet();
                            } else {
                                store.delete(session, rows[slot]);
                                store.remove(rows[slot]);
                                rows[slot] = null;
                            }
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
            assertTrue(inserts.get() > 10_000, inserts + " inserts");
            long present = kept.stream().flatMap(java.util.Arrays::stream)
                    .filter(java.util.Objects::nonNull).count();
            assertEquals(List.of(), IndexIntegrity.problems(c));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM k")) {
                rs.next();
                assertEquals(present, rs.getLong(1), "rows in the table");
            }
        }
    }

    /**
     * Through SQL: sessions insert keys of their own beside each other and some roll back.
     * Duplicates of the primary key fail with 23505 (their walks are made again under the
     * latch, which fails them as before); afterwards every index checks and holds exactly the
     * committed rows.
     */
    @RepeatedTest(4)
    void concurrentInsertersKeepTheIndexesWholeAndDuplicatesStillFail() throws Exception {
        String url = url();
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE k (id INT PRIMARY KEY, v INT)");
            s.execute("CREATE INDEX k_v ON k (v)");
            s.execute("INSERT INTO k VALUES (-1, 0)");
            insertConcurrently(url, "cells");
            List<String> plan = CellLockingTest.explain(s, "INSERT INTO k VALUES (1000000, 0)");
            assertTrue(plan.stream().anyMatch(l -> l.startsWith("PUBLIC.K IX TABLE")),
                    () -> "inserts under IX: the table's structure is shared; " + plan);
        }
    }

    private static void insertConcurrently(String url, String mode) throws Exception {
        int writers = 3, enough = 50_000;
        AtomicLong committed = new AtomicLong(1), duplicates = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            // to a count of committed rows, within a cap for a slow machine
            long end = System.nanoTime() + 10_000_000_000L;
            List<Future<Void>> all = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int id = w;
                all.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(7L * id + 11);
                    try (Connection c = Engines.fork(url);
                         PreparedStatement ins = c.prepareStatement("INSERT INTO k VALUES (?, ?)")) {
                        c.setAutoCommit(false);
                        int next = id;
                        while (committed.get() < enough && System.nanoTime() < end) {
                            int batch = 1 + random.nextInt(4);
                            try {
                                for (int i = 0; i < batch; i++, next += writers) {
                                    ins.setInt(1, next);
                                    ins.setInt(2, random.nextInt(50));
                                    ins.executeUpdate();
                                }
                                if (random.nextInt(3) == 0) {
                                    ins.setInt(1, -1); // always there
                                    ins.setInt(2, 0);
                                    try {
                                        ins.executeUpdate();
                                    } catch (SQLException e) {
                                        assertEquals("23505", e.getSQLState(), mode + ": " + e.getMessage());
                                        duplicates.incrementAndGet();
                                    }
                                }
                            } catch (SQLException e) {
                                // by default, the insert that marks the table takes X on it,
                                // which may deadlock with another's: the victim is refused
                                assertEquals("40001", e.getSQLState(), mode + ": " + e.getMessage());
                                c.rollback();
                                continue;
                            }
                            if (random.nextInt(4) == 0) {
                                c.rollback();
                            } else {
                                c.commit();
                                committed.addAndGet(batch);
                            }
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
        assertTrue(committed.get() > 1000, mode + ": " + committed + " rows committed");
        assertTrue(duplicates.get() > 10, mode + ": " + duplicates + " duplicates refused");
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c), mode);
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM k")) {
                rs.next();
                assertEquals(committed.get(), rs.getLong(1), mode);
            }
        }
    }
}
