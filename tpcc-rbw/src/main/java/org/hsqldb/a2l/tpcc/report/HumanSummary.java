package org.hsqldb.a2l.tpcc.report;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.hsqldb.a2l.tpcc.Consistency;

/** The one-screen summary of a measurement point printed on stdout. */
public final class HumanSummary {

    private HumanSummary() {}

    /** {@code file}: where the summary was written. */
    public static void print(RunSummary s, Path file, PrintStream out) {
        out.printf("== TPC-C %s (%s %s): %s order, mix %s, %d warehouse(s), %d client(s), %s%n",
                s.config, s.engineProduct, s.engineVersion, s.order, s.mix, s.warehouses, s.clients, s.isolation);
        if (s.isolationGuarantee != null) out.println("   " + s.isolation + ": " + s.isolationGuarantee);
        out.printf("   %d s measured after %d s warm-up, seed %d%s%n", s.seconds, s.warmup, s.seed,
                s.rep == null ? "" : ", repetition " + s.rep);
        out.printf("   committed %d = %.1f txn/s, tpmC %.0f, engine aborts %.1f per 1000 committed, retries %d%n",
                s.committed, s.throughputTps, s.tpmC, s.engineAbortsPer1000, s.retries);
        out.printf("   %-12s %9s %9s %9s %9s %9s  %s%n", "type", "committed", "p50 ms", "p95 ms", "p99 ms", "max ms",
                "aborts");
        for (Map.Entry<String, RunSummary.Latency> e : s.latencyMs.entrySet()) {
            RunSummary.Latency l = e.getValue();
            Map<String, Long> aborts = s.aborts.byType().get(e.getKey());
            out.printf("   %-12s %9d %9.2f %9.2f %9.2f %9.2f  %s%n", e.getKey(), s.committedByType.get(e.getKey()),
                    l.p50(), l.p95(), l.p99(), l.max(), aborts.isEmpty() ? "-" : reasons(aborts));
        }
        if (s.deliverySkippedDistricts > 0) {
            out.printf("   Delivery skipped %d district(s) with nothing to deliver%n", s.deliverySkippedDistricts);
        }
        for (String e : s.otherErrors) out.println("   OTHER ERROR " + e);
        if (s.jitMsInWindow != null || s.gcMsInWindow != null) {
            out.printf("   in the measured window the JIT compiled for %s ms (its threads summed) and the GC collected for %s ms%n",
                    s.jitMsInWindow == null ? "?" : s.jitMsInWindow, s.gcMsInWindow == null ? "?" : s.gcMsInWindow);
        }
        if (s.cpuMsInWindow != null && s.engineInProcess()) {
            out.printf(Locale.ROOT, "   the process used %d ms of CPU in the window, %.2f cores busy%s%n", s.cpuMsInWindow,
                    s.coresBusy(), s.cpuUsPerTxn() == null ? ""
                            : String.format(Locale.ROOT, ", %.0f us per committed transaction", s.cpuUsPerTxn()));
        } else if (s.cpuMsInWindow != null) {
            out.printf("   the harness used %d ms of CPU in the window (the engine's server runs in another process"
                    + " and is not counted)%n", s.cpuMsInWindow);
        }
        if (s.allocKbInWindow != null && s.engineInProcess()) {
            out.printf(Locale.ROOT, "   the process allocated %d MB on the heap in the window%s%n", s.allocKbInWindow / 1024,
                    s.allocKbPerTxn() == null ? ""
                            : String.format(Locale.ROOT, ", %.1f KB per committed transaction", s.allocKbPerTxn()));
        }
        if (s.engineCounters != null) out.println("   engine counters: " + s.engineCounters);
        if (s.commitsPerLogSync != null) {
            out.println("   log syncs: " + s.logSyncsPerSecond + " per second, " + s.commitsPerLogSync
                    + " commits per sync");
        }
        if (s.lockWaitsPerTxn != null) {
            out.println("   lock waits per transaction: " + s.lockWaitsPerTxn + ", deadlocks per 1000: " + s.deadlocksPer1000);
        }
        if (s.waitedForLocks != null) {
            out.printf("   waited for (%d samples, one every %d ms; %.3f requests waiting per sample):%n",
                    s.lockWaitSamples, s.lockWaitSampleMillis, s.meanWaitingPerSample);
            s.waitedForLocks.forEach((name, share) -> out.printf("     %5.1f%%  %s%n", share * 100, name));
        }
        out.printf("   consistency %s (%d conditions%s, %.1f s):%n", s.consistencyOk ? "OK" : "VIOLATED",
                s.consistency.size(), s.consistencyFull ? "" : "; the per-row ones run after the last point",
                s.consistencySeconds);
        for (Consistency.Condition c : s.consistency) {
            String first = c.values().isEmpty() ? "" : c.values().get(0);
            String more = c.values().size() > 1 && c.ok() ? " (+" + (c.values().size() - 1) + " more in summary.json)" : "";
            out.printf("     %-8s %-4s %s: %s%s%n", c.id(), c.ok() ? "ok" : "FAIL", c.rule(), first, more);
            if (!c.ok()) c.values().stream().skip(1).forEach(v -> out.println("                   " + v));
        }
        out.printf("   load %.1f s (%d rows); summary %s%n", s.loadSeconds, s.loadRows, RunPaths.display(file));
    }

    private static String reasons(Map<String, Long> m) {
        return m.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }
}
