package org.hsqldb.a2l.tpcc;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

/**
 * What the JVM spent, as its management beans count it: in milliseconds, the elapsed time of the
 * JIT's compilations (every compiler thread, summed; a compiler thread that waits for a core counts
 * that wait too), the collectors' elapsed collection time (with G1, mostly the pauses; not the GC
 * threads' CPU), and the CPU time of the whole process (every thread: terminals, an embedded engine,
 * the JIT and the GC). Read at the start and end of a measured window, the differences say whether
 * the window measured the engine or a JVM still warming up, and what a committed transaction cost
 * in CPU: the CPU per transaction and the cores kept busy are what tell more clients' extra work
 * from their extra waiting (results/README.md, "Two clients: what the engine costs besides the
 * locks"). With many terminals on few cores the compiler threads get a small share of the CPU, so a
 * warm-up long enough for 2 clients can end with the code half compiled at 16 (results/README.md,
 * "The JIT at sixteen clients"). And in bytes, what the process's threads allocated on the heap
 * (HotSpot's count): per committed transaction it depends much less on the machine's speed than
 * throughput does (the JIT's progress, retries and lock waits still move it), and it says what
 * the young collections that stop every terminal are paid for (results/README.md, "Keyed names
 * without padding"). -1 where the JVM does not count it; HotSpot run with -XX:-UsePerfData
 * counts no compiling and says 0.
 */
public record JvmWork(long jitMillis, long gcMillis, long cpuMillis, long allocatedBytes) {

    /** The JVM's totals so far. */
    public static JvmWork now() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitMillis = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long t = gc.getCollectionTime();
            if (t < 0) {
                gcMillis = -1;
                break;
            }
            gcMillis += t;
        }
        return new JvmWork(jitMillis, gcMillis, processCpuMillis(), processAllocatedBytes());
    }

    private static long processAllocatedBytes() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads instanceof com.sun.management.ThreadMXBean) {
            com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) threads;
            if (t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
                return t.getTotalThreadAllocatedBytes(); // -1 where not counted
            }
        }
        return -1;
    }

    private static long processCpuMillis() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            long nanos = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
            return nanos < 0 ? -1 : nanos / 1_000_000;
        }
        return -1;
    }

    /** What was spent since {@code before}; -1 where either side was not counted. */
    public JvmWork since(JvmWork before) {
        return new JvmWork(minus(jitMillis, before.jitMillis), minus(gcMillis, before.gcMillis),
                minus(cpuMillis, before.cpuMillis), minus(allocatedBytes, before.allocatedBytes));
    }

    private static long minus(long after, long before) {
        return after < 0 || before < 0 ? -1 : after - before;
    }
}
