package org.hsqldb.a2l.lockmgr;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Readers and a writer of one cell while another owner keeps making new keyed names with a
 * sweep size of 1, so the cell is swept whenever it is free, in short rounds: a sweeper's
 * DEAD taken back while a request looked at it once left an S "granted" without its count,
 * whose release drove the count to -1 and stopped the cell for good (found by
 * FastPathRaceTest, reproduced here within seconds). Each round must end, and leave the
 * cell with no count and no bit but DEAD.
 */
class SweepRaceTest {

    @Test
    void aCellSweptWhileItsReadersAndWriterComeAndGoStaysExact() throws Exception {
        for (int round = 0; round < 60; round++) {
            LockManager m = new FastLockManager();
            TableLock t = m.table("T", "T");
            AttributeLock a = t.attribute(0, "A");
            m.setKeyTableSweepSize(1);
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            Thread[] th = new Thread[4];
            AtomicInteger errors = new AtomicInteger();
            for (int i = 0; i < 4; i++) {
                final int id = i;
                Owner o = m.register(i, "o" + i);
                th[i] = new Thread(() -> {
                    int k = 1;
                    while (System.nanoTime() < end) {
                        LockRequest[] set;
                        if (id == 3) {
                            // first value 0, as the contended cell's key: its partition, which these sweep
                            set = new LockRequest[] {LockRequest.cell(a, List.of(0, k++), LockMode.S),
                                LockRequest.rowKey(t, List.of(0, k), LockMode.S)};
                        } else {
                            set = new LockRequest[] {LockRequest.cell(a, 0, id == 0 ? LockMode.X : LockMode.S)};
                        }
                        if (!m.acquire(o, set, LockDuration.TRANSACTION, 0).isGranted()) errors.incrementAndGet();
                        m.releaseAll(o);
                    }
                });
                th[i].setDaemon(true);
                th[i].start();
            }
            for (Thread x : th) {
                x.join(5000);
                if (x.isAlive()) {
                    KeyLock c = a.keyed(0);
                    StringBuilder sb = new StringBuilder("hung in round " + round + "\nsnapshot " + m.snapshot());
                    sb.append("\nmap cell: ").append(c == null ? "none" : System.identityHashCode(c) + " word=" + Long.toHexString(c.word()) + " s0=" + FastLockManager.shared(c, 0) + " s1=" + FastLockManager.shared(c, 1) + " q=" + !c.queueEmpty() + " killed=" + c.killed);
                    for (Owner o : m.owners) {
                        Waiter w = o.waitingOn;
                        if (w != null) {
                            LockName n = w.name;
                            sb.append("\n").append(o).append(" waits kind ").append(w.kind).append(" on ").append(n).append(" id ").append(System.identityHashCode(n)).append(" word=").append(Long.toHexString(n.word())).append(" s0=").append(FastLockManager.shared(n, 0)).append(" s1=").append(FastLockManager.shared(n, 1));
                            if (n instanceof KeyLock) sb.append(" killed=").append(((KeyLock) n).killed);
                        }
                    }
                    sb.append("\nattr word=").append(Long.toHexString(a.word())).append(" s0=").append(FastLockManager.shared(a, 0)).append(" s1=").append(FastLockManager.shared(a, 1));
                    throw new AssertionError(sb.toString());
                }
            }
            org.junit.jupiter.api.Assertions.assertEquals(0, errors.get());
            KeyLock c = a.keyed(0);
            if (c != null) {
                org.junit.jupiter.api.Assertions.assertEquals(0L, c.word() & ~LockWord.DEAD, "round " + round);
                org.junit.jupiter.api.Assertions.assertEquals(0L, FastLockManager.shared(c), "round " + round);
            }
        }
    }
}
