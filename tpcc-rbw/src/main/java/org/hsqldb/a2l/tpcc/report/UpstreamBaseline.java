package org.hsqldb.a2l.tpcc.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Upstream's best at a point. Upstream HSQLDB 2.7.4 has three transaction modes (LOCKS, MVLOCKS, MVCC:
 * configurations upstream, upstream-mvlocks, upstream-mvcc); a fork configuration is only ahead when it
 * beats the best of them at that point, not just upstream's default. Which mode is best differs by mix
 * and client count, so the report names it with every ratio.
 */
public final class UpstreamBaseline {

    /** The best upstream mode at a point and its median (committed txn/s). */
    public record Best(String config, double median) {}

    private UpstreamBaseline() {}

    /**
     * The mode of {@code upstreamModes} with the highest median in {@code medians} (configuration to median
     * at one point); null when none of them measured the point (absent, or 0 when every repetition failed).
     * Ties go to the mode listed first.
     */
    public static Best best(List<String> upstreamModes, Map<String, Double> medians) {
        Best best = null;
        for (String mode : upstreamModes) {
            Double m = medians.get(mode);
            if (m == null || m <= 0) continue;
            if (best == null || m > best.median()) best = new Best(mode, m);
        }
        return best;
    }

    /** {@code value / base} to two decimals, "-" without a base. */
    public static String ratio(double value, Double base) {
        return base == null || base <= 0 ? "-" : String.format(Locale.ROOT, "%.2f", value / base);
    }
}
