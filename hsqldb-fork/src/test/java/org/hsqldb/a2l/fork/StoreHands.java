package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.hsqldb.persist.PersistentStore;

/**
 * For tests that play a store's side by hand (OptimisticWalkTest, OptimisticInsertTest): its
 * methods by name, a thread that acts for no session, and a change of its indexes from another
 * thread.
 */
final class StoreHands {

    private StoreHands() {}

    /**
     * Calls the store's method {@code name} by reflection: tests compile against every prefix of
     * the series, and the methods are a patch's.
     */
    static Object call(PersistentStore store, String name, Class<?>[] types, Object... args)
            throws Exception {
        Method m = PersistentStore.class.getMethod(name, types);
        try {
            return m.invoke(store, args);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} on a thread that has acted for no session, so the lock check
     * (-Dhsqldb.lock_check, on in the tests) checks nothing: the test holds no table lock.
     * A thread that ran a statement would be checked for the session it ran it for.
     */
    static void onAThreadOfNoSession(Body body) throws Exception {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            thread.submit(() -> {
                body.run();
                return null;
            }).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error) {
                throw (Error) e.getCause();
            }
            throw (Exception) e.getCause();
        } finally {
            thread.shutdownNow();
        }
    }

    /**
     * A change of the indexes, as an insert or delete makes it, in a thread of its own; it
     * must end within 10 s, so a latch left held (by a walk that ended, say) fails the test.
     */
    static void changeInAnotherThread(PersistentStore store) throws Exception {
        Thread writer = new Thread(() -> {
            store.writeLock();
            store.writeUnlock();
        });
        writer.setDaemon(true);
        writer.start();
        writer.join(10_000);
        assertFalse(writer.isAlive(), "a change waits for a latch that nobody should hold");
    }
}
