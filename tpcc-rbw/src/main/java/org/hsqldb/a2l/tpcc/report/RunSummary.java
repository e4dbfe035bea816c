package org.hsqldb.a2l.tpcc.report;

import com.google.gson.FieldNamingPolicy;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.annotations.SerializedName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.hsqldb.a2l.tpcc.AbortReason;
import org.hsqldb.a2l.tpcc.Benchmark;
import org.hsqldb.a2l.tpcc.Consistency;
import org.hsqldb.a2l.tpcc.TerminalStats;
import org.hsqldb.a2l.tpcc.TxnType;
import org.hsqldb.a2l.tpcc.engine.LockWaitSampler;

/** The summary.json of one measurement point (field names in snake_case). */
public final class RunSummary {

    public static final Gson GSON = new GsonBuilder()
            .setFieldNamingPolicy(FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
            .setPrettyPrinting()
            .create();

    public record Latency(long count, double p50, double p95, double p99, double max) {}

    public record Aborts(long total, Map<String, Long> byReason, Map<String, Map<String, Long>> byType) {}

    public String config;
    public String configDescription;
    /** How the terminals talked to the database ({@code ClientShape.label()}: prepared, per-call+batches+constrained, ...). */
    public String client;
    public String jdbcUrl;
    /** Where the database lived when not in memory in-process (absent otherwise). */
    public String database;
    public String engineProduct;
    public String engineVersion;
    public String order;
    public String mix;
    public int warehouses;
    public String scale;
    public int clients;
    public int seconds;
    public int warmup;
    public long seed;
    public String isolation;
    /** What the engine's documentation says that isolation level guarantees, naming the document. */
    public String isolationGuarantee;
    public int retryBackoffUs;
    public long committed;
    public double throughputTps;
    @SerializedName("tpmC")
    public double tpmC;
    public Map<String, Long> committedByType;
    public Aborts aborts;
    /** Engine aborts (everything but the spec's rollbacks) per 1000 committed transactions. */
    public double engineAbortsPer1000;
    public long retries;
    public Map<String, Latency> latencyMs;
    public long deliverySkippedDistricts;
    public List<String> otherErrors;
    public boolean consistencyOk;
    public List<Consistency.Condition> consistency;
    /** False when the per-order, per-line and per-customer conditions were left for a later point. */
    public boolean consistencyFull;
    public double consistencySeconds;
    public double loadSeconds;
    public long loadRows;
    public Map<String, Number> engineCounters;
    /**
     * Milliseconds of JIT compilation in progress during the measured window, all compiler threads
     * summed, waits for a core included (JvmWork); absent where the JVM does not count it. Far from
     * nothing means the warm-up ended before the code was compiled and the window measured part of
     * the warming up.
     */
    public Long jitMsInWindow;
    /** Milliseconds of garbage collection during the measured window, all collectors summed (JvmWork). */
    public Long gcMsInWindow;
    /**
     * Milliseconds of CPU the harness's process used during the measured window, every thread
     * (JvmWork): with an engine in the harness's JVM the whole cost of the window's transactions;
     * with a server in another process (see {@link #engineInProcess()}) only the client's part.
     */
    public Long cpuMsInWindow;
    /**
     * Kilobytes the harness's process allocated on the heap during the measured window, every
     * thread (JvmWork); as for the CPU, the client's part alone for a server in another process.
     */
    public Long allocKbInWindow;
    /** Whether the engine ran in the harness's JVM (Engine.runsInThisJvm); null in older summaries. */
    public Boolean engineInProcess;
    /** From the engine's counters, over the measured window: lock waits per committed transaction. */
    public Double lockWaitsPerTxn;
    /** From the engine's counters: deadlocks found per 1000 committed transactions. */
    @SerializedName("deadlocks_per_1000")
    public Double deadlocksPer1000;
    /**
     * On a durable file database of the fork (write delay 0): the commits that waited for a log
     * sync per sync over the measured window (group commit shares one sync among them), and the
     * syncs per second; null elsewhere.
     */
    public Double commitsPerLogSync;
    public Double logSyncsPerSecond;
    /**
     * {@code tpcc run --sample-lock-waits}: the locks waited for most in the measured window, by name
     * without the key, and mode, each with its share of the waiting requests the samples saw.
     */
    public Map<String, Double> waitedForLocks;
    /** The number of those samples, the milliseconds between them, and the mean waiting requests per sample. */
    public Long lockWaitSamples;
    public Integer lockWaitSampleMillis;
    public Double meanWaitingPerSample;
    /** From the engine's counters: lock upgrades (S to U, S to X, U to X) granted per 1000 committed. */
    @SerializedName("upgrades_per_1000")
    public Double upgradesPer1000;
    /** From the engine's counters: upgrades that had to wait, per 1000 committed. */
    @SerializedName("upgrade_waits_per_1000")
    public Double upgradeWaitsPer1000;
    /** From the engine's counters: deadlocks whose refused request was an upgrade, per 1000 committed. */
    @SerializedName("upgrade_deadlocks_per_1000")
    public Double upgradeDeadlocksPer1000;
    /**
     * What the point started from (PointStart: restore, reload or carry) when its JVM measured more than
     * one point or a fresh copy; absent for a lone point on the database it loaded.
     */
    public String pointStart;
    /** Seconds the JVM took to copy its loaded tables for restoring them (restore only; LoadedCopy). */
    public Double loadedCopySeconds;
    /** Seconds this point's database took to restore or reload before the point ran. */
    public Double pointSetupSeconds;
    /** Seconds the full collection before the point took (MeasurementRun.collectHeap); absent when off. */
    public Double gcBeforePointSeconds;
    public MachineFacts machine;
    public String startedAt;
    public Integer rep;
    public Integer pointInJvm;
    /** This file, relative to its run folder (compare's results/RUN-ID, or run's --out). */
    public String summaryFile;

    public void measurement(Benchmark.Result r) {
        TerminalStats s = r.stats();
        committed = s.totalCommitted();
        throughputTps = round(committed / r.measuredSeconds(), 2);
        tpmC = round(s.committed[TxnType.NEW_ORDER.ordinal()] * 60.0 / r.measuredSeconds(), 1);
        committedByType = new LinkedHashMap<>();
        latencyMs = new LinkedHashMap<>();
        Map<String, Map<String, Long>> byType = new LinkedHashMap<>();
        for (TxnType t : TxnType.values()) {
            committedByType.put(t.label, s.committed[t.ordinal()]);
            Histogram h = s.latency[t.ordinal()];
            latencyMs.put(t.label, new Latency(h.getTotalCount(), ms(h.getValueAtPercentile(50)),
                    ms(h.getValueAtPercentile(95)), ms(h.getValueAtPercentile(99)), ms(h.getMaxValue())));
            Map<String, Long> reasons = new LinkedHashMap<>();
            for (AbortReason a : AbortReason.values()) {
                long n = s.aborts[t.ordinal()][a.ordinal()];
                if (n > 0) reasons.put(a.label, n);
            }
            byType.put(t.label, reasons);
        }
        Map<String, Long> byReason = new LinkedHashMap<>();
        for (AbortReason a : AbortReason.values()) {
            // the injected reasons appear only where a chaos run injected faults
            if (!a.injected || s.aborts(a) > 0) byReason.put(a.label, s.aborts(a));
        }
        aborts = new Aborts(s.totalAborts(), byReason, byType);
        long engineAborts = s.totalAborts() - s.aborts(AbortReason.SPEC_ROLLBACK);
        engineAbortsPer1000 = committed == 0 ? 0 : round(engineAborts * 1000.0 / committed, 2);
        retries = s.retries;
        deliverySkippedDistricts = s.deliverySkippedDistricts;
        otherErrors = r.otherErrors();
        engineCounters = r.engineCounters().isEmpty() ? null : r.engineCounters();
        if (r.jvmInWindow() != null) {
            jitMsInWindow = r.jvmInWindow().jitMillis() < 0 ? null : r.jvmInWindow().jitMillis();
            gcMsInWindow = r.jvmInWindow().gcMillis() < 0 ? null : r.jvmInWindow().gcMillis();
            cpuMsInWindow = r.jvmInWindow().cpuMillis() < 0 ? null : r.jvmInWindow().cpuMillis();
            allocKbInWindow = r.jvmInWindow().allocatedBytes() < 0 ? null
                    : r.jvmInWindow().allocatedBytes() / 1024;
        }
        if (engineCounters != null && committed > 0 && engineCounters.containsKey("waits")) {
            lockWaitsPerTxn = round(engineCounters.get("waits").doubleValue() / committed, 3);
            deadlocksPer1000 = round(engineCounters.getOrDefault("deadlocks", 0).doubleValue() * 1000 / committed, 2);
        }
        if (engineCounters != null && engineCounters.containsKey("log_syncs")
                && engineCounters.get("log_syncs").longValue() > 0) {
            double syncs = engineCounters.get("log_syncs").doubleValue();
            commitsPerLogSync = round(engineCounters.getOrDefault("commits_synced", 0).doubleValue() / syncs, 2);
            logSyncsPerSecond = round(syncs / r.measuredSeconds(), 1);
        }
        upgradesPer1000 = perThousand("upgrades");
        upgradeWaitsPer1000 = perThousand("upgrade_waits");
        upgradeDeadlocksPer1000 = perThousand("upgrade_deadlocks");
    }

    /** Records what {@code sampler} saw over the measured window (see {@link #waitedForLocks}). */
    public void lockWaitSamples(LockWaitSampler sampler, int everyMillis) {
        waitedForLocks = sampler.top(10);
        lockWaitSamples = sampler.samples();
        lockWaitSampleMillis = everyMillis;
        meanWaitingPerSample = round(sampler.meanWaiting(), 3);
    }

    /**
     * An engine counter of the measured window per 1000 committed transactions, null where the engine
     * does not report it (upstream, fork modes without the lock manager, forks built before the counter).
     */
    public Double perThousand(String counter) {
        if (engineCounters == null || committed <= 0) return null;
        Number n = engineCounters.get(counter);
        return n == null ? null : round(n.doubleValue() * 1000 / committed, 2);
    }

    private static double ms(long micros) {
        return round(micros / 1000.0, 3);
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    /** Writes this summary to {@code file}, recording its path relative to {@code runFolder}. */
    public void write(Path file, Path runFolder) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        summaryFile = RunPaths.relative(runFolder, file);
        Files.writeString(file, GSON.toJson(this) + "\n");
    }

    public static RunSummary read(Path file) throws IOException {
        return GSON.fromJson(Files.readString(file), RunSummary.class);
    }

    /**
     * Whether the engine ran in the harness's JVM, as recorded; for summaries written before that
     * was recorded, guessed from the JDBC URL (no server's {@code //host}).
     */
    public boolean engineInProcess() {
        return engineInProcess != null ? engineInProcess : jdbcUrl != null && !jdbcUrl.contains("//");
    }

    /**
     * Microseconds of the process's CPU per committed transaction in the window, or null where not
     * recorded, nothing committed, or the engine is a server in another process.
     */
    public Double cpuUsPerTxn() {
        return cpuMsInWindow == null || committed == 0 || !engineInProcess() ? null
                : cpuMsInWindow * 1000.0 / committed;
    }

    /**
     * Kilobytes the process allocated per committed transaction in the window, or null where not
     * recorded, nothing committed, or the engine is a server in another process.
     */
    public Double allocKbPerTxn() {
        return allocKbInWindow == null || committed == 0 || !engineInProcess() ? null
                : allocKbInWindow / (double) committed;
    }

    /**
     * The cores the process kept busy on average in the window (its CPU over the window's seconds),
     * or null where not recorded or the engine is a server in another process.
     */
    public Double coresBusy() {
        return cpuMsInWindow == null || seconds <= 0 || !engineInProcess() ? null
                : cpuMsInWindow / (seconds * 1000.0);
    }
}
