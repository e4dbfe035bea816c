package org.hsqldb.a2l.lockmgr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
     *        to X, "updaters" U(T.a) for every thread (U excludes U: one inside at a time),
     *        "cell" S on a cell while the writer takes X on it, "column" S(T.a) while the
     *        writer takes X on a cell of T.a (IX against S on the attribute), "rowKey" S(T)
     *        while the writer takes X on a row key (IX against S on the table). In the keyed
     *        cases a fourth thread makes new cells all the time with a sweep size of 1, so
     *        the name raced on is swept whenever it is free, against its fast paths.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"fast, table", "fast, attribute", "fast, upgrade", "fast, update", "fast, updaters",
        "mutex, table", "mutex, updaters", "fast, cell", "fast, column", "fast, rowKey", "mutex, cell",
        "mutex, column", "mutex, rowKey"})
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
            case "cell":
                read = new LockRequest[] {LockRequest.cell(a, 0, LockMode.S)};
                write = new LockRequest[] {LockRequest.cell(a, 0, LockMode.X)};
                break;
            case "column":
                read = new LockRequest[] {LockRequest.s(a)};
                write = new LockRequest[] {LockRequest.cell(a, 0, LockMode.X)};
                break;
            case "rowKey":
                read = new LockRequest[] {LockRequest.s(t)};
                write = new LockRequest[] {LockRequest.rowKey(t, 0, LockMode.X)};
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
        boolean keyed = readerLock.equals("cell") || readerLock.equals("column") || readerLock.equals("rowKey");
        Thread sweeper = null;
        if (keyed) {
            m.setKeyTableSweepSize(1);
            Owner so = m.register(99, "sweeper");
            sweeper = new Thread(() -> {
                for (int k = 1; System.nanoTime() < end && errors.isEmpty(); k++) {
                    // keys whose first value is the contended key's: its partition, which these sweep
                    LockRequest[] other = {LockRequest.cell(a, List.of(0, k), LockMode.S),
                        LockRequest.rowKey(t, List.of(0, k), LockMode.S)};
                    if (!m.acquire(so, other, LockDuration.TRANSACTION, 0).isGranted()) {
                        errors.add("sweeper refused");
                        return;
                    }
                    m.releaseAll(so);
                }
            }, "sweeper");
            sweeper.setDaemon(true);
            sweeper.start();
        }
        for (Thread th : threads) {
            th.start();
        }
        for (Thread th : threads) {
            th.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!th.isAlive(), () -> "hung\n" + RandomizedConcurrencyTest.threadDump());
        }
        if (sweeper != null) {
            sweeper.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!sweeper.isAlive(), () -> "sweeper hung\n" + RandomizedConcurrencyTest.threadDump());
        }
        assertTrue(errors.isEmpty(), () -> errors.peek() + " (" + errors.size() + " errors)");
        assertEquals(java.util.List.of(), m.snapshot());
        if (m instanceof FastLockManager) {
            assertEquals(0L, t.word());
            assertEquals(0L, a.word());
            assertEquals(0L, FastLockManager.shared(t));
            assertEquals(0L, FastLockManager.shared(a));
            KeyLock c = a.keyed(0);
            if (c != null) {
                assertEquals(0L, c.word() & ~LockWord.DEAD);
                assertEquals(0L, FastLockManager.shared(c));
            }
        }
        assertTrue(rounds[0] > 0 && rounds[1] > 0, () -> java.util.Arrays.toString(rounds));
    }
}
