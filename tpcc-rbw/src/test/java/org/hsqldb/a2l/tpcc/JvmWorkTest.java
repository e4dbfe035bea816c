package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class JvmWorkTest {

    @Test
    void whatWasSpentIsTheDifferenceAndUncountedStaysUncounted() {
        JvmWork after = new JvmWork(100, 25, 1000, 5000);
        assertEquals(new JvmWork(70, 5, 900, 4000), after.since(new JvmWork(30, 20, 100, 1000)));
        assertEquals(new JvmWork(-1, 5, 900, 4000), new JvmWork(-1, 25, 1000, 5000).since(new JvmWork(30, 20, 100, 1000)));
        assertEquals(new JvmWork(70, -1, 900, 4000), after.since(new JvmWork(30, -1, 100, 1000)));
        assertEquals(new JvmWork(70, 5, -1, 4000), after.since(new JvmWork(30, 20, -1, 1000)));
        assertEquals(new JvmWork(70, 5, 900, -1), after.since(new JvmWork(30, 20, 100, -1)));
    }

    @Test
    void theJvmsCompilingIsCountedAndNeverGoesBack() {
        JvmWork before = JvmWork.now();
        long sink = 0;
        for (int i = 0; i < 2_000_000; i++) sink += Integer.toString(i).hashCode();
        JvmWork after = JvmWork.now();
        assertTrue(sink != 1);
        // HotSpot has compiled something by now: the test runner's start-up alone makes methods hot
        assertTrue(after.jitMillis() > 0, after.toString());
        JvmWork spent = after.since(before);
        assertTrue(spent.jitMillis() >= 0 && spent.gcMillis() >= 0, spent.toString());
    }

    @Test
    void theProcessCpuCountsABusyThreadAndIsNoMoreThanTheCoresAllowed() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        JvmWork before = JvmWork.now();
        long start = System.nanoTime();
        long threadStart = threads.getCurrentThreadCpuTime();
        long sink = 0;
        // 300 ms of this thread's CPU, however long a loaded machine takes to give it
        while (threads.getCurrentThreadCpuTime() - threadStart < 300_000_000L) {
            sink += Long.toString(sink).length();
        }
        long wallMillis = (System.nanoTime() - start) / 1_000_000;
        JvmWork spent = JvmWork.now().since(before);
        assertTrue(sink > 0);
        // at least this thread's 300 ms (less the counters' ticks), and no more than every core
        // for the whole time (plus the ticks)
        assertTrue(spent.cpuMillis() >= 280, spent.toString());
        int cores = ManagementFactory.getOperatingSystemMXBean().getAvailableProcessors();
        assertTrue(spent.cpuMillis() <= cores * (wallMillis + 20), spent + " in " + wallMillis + " ms");
    }

    @Test
    void theHeapAllocatedCountsWhatAThreadAllocates() {
        JvmWork before = JvmWork.now();
        byte[][] kept = new byte[64][];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = new byte[1 << 20];
        }
        JvmWork spent = JvmWork.now().since(before);
        assertEquals(1 << 20, kept[63].length);
        // HotSpot counts every thread's allocation: at least these 64 MB
        assertTrue(spent.allocatedBytes() >= 64L << 20, spent.toString());
    }
}
