package org.hsqldb.a2l.tpcc;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * What the JVM spent on itself, in milliseconds, as its management beans count it: the elapsed time
 * of the JIT's compilations (every compiler thread, summed; a compiler thread that waits for a core
 * counts that wait too), and the collectors' elapsed collection time (with G1, mostly the pauses;
 * not the GC threads' CPU). Read at the start and end of a measured window, the difference says
 * whether the window measured the engine or a JVM still warming up. With many terminals on few
 * cores the compiler threads get a small share of the CPU, so a warm-up long enough for 2 clients
 * can end with the code half compiled at 16 (results/README.md, "The JIT at sixteen clients"). -1
 * where the JVM does not count it; HotSpot run with -XX:-UsePerfData counts no compiling and says 0.
 */
public record JvmWork(long jitMillis, long gcMillis) {

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
        return new JvmWork(jitMillis, gcMillis);
    }

    /** What was spent since {@code before}; -1 where either side was not counted. */
    public JvmWork since(JvmWork before) {
        return new JvmWork(minus(jitMillis, before.jitMillis), minus(gcMillis, before.gcMillis));
    }

    private static long minus(long after, long before) {
        return after < 0 || before < 0 ? -1 : after - before;
    }
}
