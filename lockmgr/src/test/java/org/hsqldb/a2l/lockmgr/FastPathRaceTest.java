package org.hsqldb.a2l.lockmgr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tight loops of readers and a writer on the same names, to hit the narrow windows of
 * the fast paths (a reader's stripe increment against a writer's X bit). Each side checks
 * an occupancy counter after every grant: a reader must never see the writer inside,
 * nor the writer a reader.
 */
class FastPathRaceTest {

    static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(1500);

    /**
     * @param readerLock what the readers take: "table" S(T), "attribute" S(T.a) (the
     *        table's intention against X(T)), "upgrade" S(T.a) while the writer upgrades
     *        its S(T.a) to X, "update" S(T.a) while the writer takes U(T.a) and converts it
     *        to X, "updaters" U(T.a) for every thread (U excludes U: one inside at a time)
     */
    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"fast, table", "fast, attribute", "fast, upgrade", "fast, update", "fast, updaters",
        "mutex, table", "mutex, updaters"})
    void readersAndAWriterNeverOverlap(String impl, String readerLock) throws Exception {
        LockManager m = impl.equals("fast") ? new FastLockManager() : new MutexLockManager();
        TableLock t = m.table("T", "T");
        AttributeLock a = t.attribute(0, "A");
        LockRequest[] read;
        LockRequest[] write;
        switch (readerLock) {
            case "table":
                read = new LockRequest[] {LockRequest.s(t)};
                write = new LockRequest[] {LockRequest.x(t)};
                break;
            case "attribute":
                read = new LockRequest[] {LockRequest.s(a)};
                write = new LockRequest[] {LockRequest.x(t)};
                break;
            case "update":
                read = new LockRequest[] {LockRequest.s(a)};
                write = new LockRequest[] {LockRequest.u(a), LockRequest.x(a)};
                break;
            case "updaters":
                read = new LockRequest[] {LockRequest.s(t), LockRequest.u(a)};
                write = read;
                break;
            default:
                read = new LockRequest[] {LockRequest.s(a)};
                write = new LockRequest[] {LockRequest.s(a), LockRequest.x(a)};
        }
        final boolean allUpdaters = readerLock.equals("updaters");
        AtomicInteger readers = new AtomicInteger(), writers = new AtomicInteger();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        long end = System.nanoTime() + RUN_NANOS;
        Thread[] threads = new Thread[3];
        int[] rounds = new int[threads.length];
        for (int i = 0; i < threads.length; i++) {
            final int id = i;
            final boolean writer = i == 0 || allUpdaters;
            Owner o = m.register(i, writer ? "writer" : "reader");
            threads[i] = new Thread(() -> {
                int n = 0;
                do { // at least one round, however late the thread starts
                    for (int k = 0; k < 64; k++, n++) {
                        LockResult r = m.acquire(o, writer ? write : read, LockDuration.TRANSACTION, 0);
                        if (!r.isGranted()) {
                            errors.add(o + ": " + r);
                            return;
                        }
                        if (writer) {
                            if (writers.incrementAndGet() != 1) {
                                errors.add("two writers (or U holders) granted together");
                            }
                            if (readers.get() != 0) {
                                errors.add("writer granted while a reader holds its lock");
                            }
                            writers.decrementAndGet();
                        } else {
                            readers.incrementAndGet();
                            if (writers.get() != 0) {
                                errors.add("reader granted while the writer holds its lock");
                            }
                            readers.decrementAndGet();
                        }
                        m.releaseAll(o);
                    }
                } while (System.nanoTime() < end && errors.isEmpty());
                rounds[id] = n;
            }, (writer ? "writer" : "reader") + i);
            threads[i].setDaemon(true);
        }
        for (Thread th : threads) {
            th.start();
        }
        for (Thread th : threads) {
            th.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!th.isAlive(), () -> "hung\n" + RandomizedConcurrencyTest.threadDump());
        }
        assertTrue(errors.isEmpty(), () -> errors.peek() + " (" + errors.size() + " errors)");
        assertEquals(java.util.List.of(), m.snapshot());
        if (m instanceof FastLockManager) {
            assertEquals(0L, t.word);
            assertEquals(0L, a.word);
            assertEquals(0L, FastLockManager.shared(t));
            assertEquals(0L, FastLockManager.shared(a));
        }
        assertTrue(rounds[0] > 0 && rounds[1] > 0, () -> java.util.Arrays.toString(rounds));
    }
}
