package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.persist.RowStoreAVLMemory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SET DATABASE LATCH FREE switches each MEMORY table's store while it holds every table
 * lock; the one reader that holds none, the search-cost probe (RowStoreAVL.searchCost), reads
 * the index under the store's monitor between readLock() and readUnlock(). The switch must
 * never fall between the two: switching on would leave the latch held for ever, switching
 * off would release a latch never taken. Here a probe is held inside that window while the
 * store is switched: the switch must wait for it, and the latch must end up free.
 */
class LatchFreeSwitchTest {

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @RequiresPatch("Run-MEMORY-tables-without-storage-latches")
    void switchingAStoreWaitsForAProbeBetweenItsLatchCalls(boolean switchOn) throws Exception {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:switch" + switchOn + ";hsqldb.latch_free=" + !switchOn)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
                s.execute("INSERT INTO t VALUES (1, 1)");
            }
            Session session = (Session) ((JDBCConnection) c).getSession();
            Table t = session.getDatabase().schemaManager.getUserTable("T", "PUBLIC");
            RowStoreAVLMemory store = (RowStoreAVLMemory) t.getRowStore(session);
            assertEquals(!switchOn, isLatchFree(store));

            CountDownLatch inWindow = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Throwable> probeFailure = new AtomicReference<>();
            Thread probe = new Thread(() -> {
                try {
                    // as RowStoreAVL.searchCost: the index probe runs under the store's monitor
                    synchronized (store) {
                        store.readLock();
                        inWindow.countDown();
                        release.await(10, TimeUnit.SECONDS);
                        store.readUnlock();
                    }
                } catch (Throwable e) {
                    probeFailure.set(e);
                }
            }, "probe");
            probe.setDaemon(true);
            probe.start();
            assertTrue(inWindow.await(10, TimeUnit.SECONDS));

            Thread flip = new Thread(() -> setLatchFree(store, switchOn), "switch");
            flip.setDaemon(true);
            flip.start();
            // the switch must wait for the probe: it parks on the store's monitor
            for (int i = 0; i < 1000 && flip.isAlive() && flip.getState() != Thread.State.BLOCKED; i++) {
                Thread.sleep(5);
            }
            boolean waited = flip.getState() == Thread.State.BLOCKED;
            release.countDown();
            probe.join(10_000);
            flip.join(10_000);

            assertNull(probeFailure.get(), () -> "the probe's readUnlock() failed: " + probeFailure.get());
            assertTrue(waited, "the switch did not wait for the probe inside its latch window");
            assertEquals(switchOn, isLatchFree(store));
            ReentrantReadWriteLock latch = latch(store);
            assertEquals(0, latch.getReadLockCount(), "a read latch was left held");
            assertTrue(!latch.isWriteLocked());
        }
    }

    // The store's switch is added by the patch this test needs; reflection keeps the test
    // compiling against the earlier prefixes that scripts/fork bisect-check builds.
    private static boolean isLatchFree(RowStoreAVLMemory store) throws Exception {
        return (Boolean) RowStoreAVLMemory.class.getMethod("isLatchFree").invoke(store);
    }

    private static void setLatchFree(RowStoreAVLMemory store, boolean on) {
        try {
            RowStoreAVLMemory.class.getMethod("setLatchFree", boolean.class).invoke(store, on);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static ReentrantReadWriteLock latch(RowStoreAVLMemory store) throws Exception {
        for (Class<?> k = store.getClass(); k != null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (java.util.concurrent.locks.ReadWriteLock.class.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    return (ReentrantReadWriteLock) f.get(store);
                }
            }
        }
        throw new AssertionError("no ReentrantReadWriteLock in " + store.getClass());
    }
}
