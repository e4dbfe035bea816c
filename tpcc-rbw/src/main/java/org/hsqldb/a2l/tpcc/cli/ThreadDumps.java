package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Full thread dumps for the chaos run's stalls: every thread with its whole stack, the monitors and
 * locks it holds and the one it waits for. The stall report names only the terminals' top frames;
 * the dump is what one needs to see which engine thread holds what they wait for.
 */
final class ThreadDumps {

    private ThreadDumps() {}

    /** Writes this JVM's threads to {@code file} (like jstack, but complete: ThreadInfo.toString() cuts stacks at 8 frames). */
    static void writeOwn(Path file, String headline) throws IOException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ThreadInfo[] infos = mx.dumpAllThreads(mx.isObjectMonitorUsageSupported(), mx.isSynchronizerUsageSupported());
        Arrays.sort(infos, Comparator.comparing(ThreadInfo::getThreadName));
        StringBuilder b = new StringBuilder(headline).append('\n').append("taken ").append(Instant.now())
                .append(", ").append(infos.length).append(" threads\n");
        long[] deadlocked = mx.isSynchronizerUsageSupported() ? mx.findDeadlockedThreads() : mx.findMonitorDeadlockedThreads();
        if (deadlocked != null) b.append("Java-level deadlock among thread ids ").append(Arrays.toString(deadlocked)).append('\n');
        for (ThreadInfo t : infos) {
            b.append('\n').append('"').append(t.getThreadName()).append("\" id=").append(t.getThreadId())
                    .append(t.isDaemon() ? " daemon" : "").append(' ').append(t.getThreadState());
            if (t.getLockName() != null) b.append(" on ").append(t.getLockName());
            if (t.getLockOwnerName() != null) {
                b.append(" owned by \"").append(t.getLockOwnerName()).append("\" id=").append(t.getLockOwnerId());
            }
            b.append('\n');
            StackTraceElement[] stack = t.getStackTrace();
            MonitorInfo[] monitors = t.getLockedMonitors();
            for (int i = 0; i < stack.length; i++) {
                b.append("\tat ").append(stack[i]).append('\n');
                for (MonitorInfo m : monitors) {
                    if (m.getLockedStackDepth() == i) b.append("\t- locked ").append(m).append('\n');
                }
            }
            LockInfo[] synchronizers = t.getLockedSynchronizers();
            if (synchronizers.length > 0) {
                b.append("\tlocked synchronizers:\n");
                for (LockInfo l : synchronizers) b.append("\t- ").append(l).append('\n');
            }
        }
        Files.writeString(file, b);
    }

    /**
     * Asks another JVM for its thread dump with {@code jcmd PID Thread.print -l} into {@code file};
     * false if that failed (no jcmd in this Java, or the JVM did not answer within 30 s).
     */
    static boolean writeOf(long pid, Path file) throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) return false;
        try {
            Process p = new ProcessBuilder(List.of(jcmd.toString(), "" + pid, "Thread.print", "-l"))
                    .redirectErrorStream(true).redirectOutput(file.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0 && Files.size(file) > 0;
        } catch (IOException e) {
            return false;
        }
    }
}
