package org.hsqldb.a2l.tpcc.report;

import java.util.List;
import java.util.Locale;

/**
 * Whether the heap after a full GC stays flat over a soak. New-Order and Payment grow the database
 * (TPC-C allows it), so a rising heap alone is no leak: the growth of ORDERS, ORDER_LINE, NEW_ORDER
 * and HISTORY is priced at what the load cost per row (heap after the load minus heap before, over
 * the rows loaded: an upper bound, as the loaded tables have wider rows than ORDER_LINE) and only
 * what is left over counts. More than max(16 MB, 10% of the first sample) left over is "rising".
 */
public final class HeapTrend {

    static final long MIN_TOLERANCE = 16L << 20;
    static final int MIN_SAMPLES = 3;

    /**
     * {@code judged}: there were enough samples; {@code flat}: the verdict (true when not judged);
     * {@code risenMb}: heap after GC, last minus first; {@code explainedMb}: what the added rows
     * account for; {@code note}: one human sentence.
     */
    public record Verdict(boolean judged, boolean flat, double risenMb, double explainedMb, String note) {}

    private HeapTrend() {}

    /** {@code heap} and {@code rows}: one sample per period, in order. */
    public static Verdict judge(List<Long> heap, List<Long> rows, double loadBytesPerRow) {
        if (heap.size() < MIN_SAMPLES) {
            return new Verdict(false, true, heap.size() < 2 ? 0 : mb(heap.get(heap.size() - 1) - heap.get(0)), 0,
                    "not judged: " + heap.size() + " sample(s), " + MIN_SAMPLES + " needed (one per period)");
        }
        int last = heap.size() - 1;
        long risen = heap.get(last) - heap.get(0);
        long addedRows = rows.get(last) - rows.get(0);
        double explained = Math.max(0, addedRows) * loadBytesPerRow;
        double tolerance = Math.max(MIN_TOLERANCE, heap.get(0) * 0.10);
        double unexplained = risen - explained;
        boolean flat = unexplained <= tolerance;
        String note = String.format(Locale.ROOT, "%s: heap after GC %s %.1f MB over %d samples while the growing"
                        + " tables gained %d rows (%.1f MB at the load's %.0f bytes/row); %.1f MB unexplained,"
                        + " tolerance %.1f MB", flat ? "flat" : "RISING (a leak?)", risen >= 0 ? "rose" : "fell",
                Math.abs(mb(risen)), heap.size(), addedRows, mb((long) explained), loadBytesPerRow,
                mb((long) unexplained), mb((long) tolerance));
        return new Verdict(true, flat, mb(risen), mb((long) explained), note);
    }

    static double mb(long bytes) {
        return Math.round(bytes / 1048576.0 * 10) / 10.0;
    }
}
