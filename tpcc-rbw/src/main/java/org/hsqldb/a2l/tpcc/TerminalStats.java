package org.hsqldb.a2l.tpcc;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** One terminal's counts and latencies inside the measured window; merged after the run. */
public final class TerminalStats {

    /** Latencies are recorded in microseconds up to one minute (longer ones are clamped). */
    static final long MAX_LATENCY_MICROS = TimeUnit.MINUTES.toMicros(1);

    public final long[] committed = new long[TxnType.values().length];
    public final long[][] aborts = new long[TxnType.values().length][AbortReason.values().length];
    public final Histogram[] latency = new Histogram[TxnType.values().length];
    public long deliverySkippedDistricts;
    public long retries;

    public TerminalStats() {
        for (int i = 0; i < latency.length; i++) latency[i] = new Histogram(MAX_LATENCY_MICROS, 3);
    }

    void committed(TxnType type, long micros) {
        committed[type.ordinal()]++;
        latency[type.ordinal()].recordValue(Math.min(Math.max(micros, 0), MAX_LATENCY_MICROS));
    }

    void aborted(TxnType type, AbortReason reason) {
        aborts[type.ordinal()][reason.ordinal()]++;
    }

    public void add(TerminalStats o) {
        for (int t = 0; t < committed.length; t++) {
            committed[t] += o.committed[t];
            latency[t].add(o.latency[t]);
            for (int r = 0; r < aborts[t].length; r++) aborts[t][r] += o.aborts[t][r];
        }
        deliverySkippedDistricts += o.deliverySkippedDistricts;
        retries += o.retries;
    }

    public long totalCommitted() {
        long n = 0;
        for (long c : committed) n += c;
        return n;
    }

    public long aborts(AbortReason reason) {
        long n = 0;
        for (long[] byReason : aborts) n += byReason[reason.ordinal()];
        return n;
    }

    public long totalAborts() {
        long n = 0;
        for (AbortReason r : AbortReason.values()) n += aborts(r);
        return n;
    }
}
