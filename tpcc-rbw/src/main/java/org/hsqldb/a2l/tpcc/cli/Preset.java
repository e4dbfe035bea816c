package org.hsqldb.a2l.tpcc.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.TransactionHooks;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;

/**
 * Named comparisons. {@code headline} is the one long run: upstream (LOCKS and MVLOCKS), the fork's A2L
 * with column and with cell granularity (and the LF configuration when it fits), and the peer engines H2,
 * Derby and PostgreSQL when their configurations exist; 4 warehouses; clients 1, 2, 8, 16; mixes 8-92 and
 * 100-0, and 50-50 when it fits. It must end within {@link #BUDGET_SECONDS} on this 2-core machine, so its
 * durations are chosen from a ladder ({@link #LADDER}) by the plan's own arithmetic ({@link CompareCost})
 * over the configurations that are available when it starts: the first rung that fits wins.
 */
public enum Preset {
    HEADLINE("headline");

    /** 90 minutes. */
    public static final double BUDGET_SECONDS = 90 * 60;

    /**
     * The headline's configurations in report order. Upstream's other mode: MVLOCKS, the better of MVLOCKS
     * and MVCC in a quick probe (results/2026-11-24T1837-quick: 8-92, 4 clients, 1 warehouse, 1.5-1.9x
     * MVCC in both orders); both do not fit the budget. The fork runs A2L with both granularities: cells are
     * its best configuration on the write mixes from 2 clients on (results/README.md, "Cells: escalation
     * tries, and the CPU that 2 and 16 clients cost"), columns its default. Configurations are left out from
     * the end when all do not fit: Derby first, as it loads and restores 3-7 times as slowly as HSQLDB
     * (CompareCost.EngineFactor), then fork-lf: what latch-free storage buys under table locks is measured in
     * the LF runs in results/, and fork-a2l runs on it too (A2L implies LF unless hsqldb.latch_free=false);
     * the peers stay, since they are what users choose between.
     */
    public static final List<String> HEADLINE_CONFIGS = List.of("upstream", "upstream-mvlocks", "fork-a2l",
            "fork-a2l-cell", "h2", "postgresql", "fork-lf", "derby");

    public static final List<Integer> HEADLINE_CLIENTS = List.of(1, 2, 8, 16);
    public static final int HEADLINE_WAREHOUSES = 4;

    /** One rung of the ladder: mixes, warm-up and measured seconds, repetitions. */
    public record Rung(List<Mix> mixes, int warmup, int seconds, int reps) {
        /** At least the method's 20 s warm-up and 30 s measured (tpcc-rbw/README.md, "How we measure"). */
        public boolean meetsDesign() {
            return warmup >= 20 && seconds >= 30;
        }
    }

    /** Most wanted first: the method's durations with 50-50, without it, then shorter (stated in the report). */
    public static final List<Rung> LADDER = List.of(
            new Rung(List.of(Mix.M8_92, Mix.M100_0, Mix.M50_50), 20, 30, 2),
            new Rung(List.of(Mix.M8_92, Mix.M100_0), 20, 30, 2),
            new Rung(List.of(Mix.M8_92, Mix.M100_0), 15, 25, 2),
            new Rung(List.of(Mix.M8_92, Mix.M100_0), 15, 20, 2),
            new Rung(List.of(Mix.M8_92, Mix.M100_0), 10, 20, 2),
            new Rung(List.of(Mix.M8_92, Mix.M100_0), 10, 15, 2),
            new Rung(List.of(Mix.M8_92, Mix.M100_0), 5, 15, 2));

    public final String label;

    Preset(String label) {
        this.label = label;
    }

    public static Preset parse(String s) {
        for (Preset p : values()) if (p.label.equals(s.toLowerCase(Locale.ROOT))) return p;
        throw new IllegalArgumentException("unknown preset '" + s + "' (headline)");
    }

    /**
     * The preset's points for these mixes: both orders, but one for 100-0, whose two read-only
     * transactions are the same in both orders (tpcc-rbw/README.md, "Statement orders"); clients as given.
     */
    public static List<Point> points(List<Mix> mixes, List<Integer> clients) {
        List<Point> points = new ArrayList<>();
        for (Mix m : mixes) {
            List<StatementOrder> orders = m == Mix.M100_0 ? List.of(StatementOrder.ORIGINAL)
                    : List.of(StatementOrder.ORIGINAL, StatementOrder.RBW);
            for (StatementOrder o : orders) for (int c : clients) points.add(new Point(o, m, c));
        }
        return points;
    }

    /**
     * The JVMs of a comparison in run order: repetitions outside, configurations inside (A B A B), points
     * in {@link #runGroup} order, rotated by one per repetition within their group. A peer runs the original order only: the statement order is the fork's question (what RbW
     * buys a lock manager), the peers answer the user's (what each engine does with TPC-C), and their
     * second order would cost a third of the budget.
     */
    public static List<CompareCost.Job> jobs(List<EngineConfig> configs, List<Point> points, int reps,
                                             java.util.function.Function<EngineConfig, PointStart> start) {
        List<CompareCost.Job> jobs = new ArrayList<>();
        for (int rep = 1; rep <= reps; rep++) {
            List<Point> rotated = new ArrayList<>();
            for (int group = 0; group < 3; group++) {
                final int g = group;
                List<Point> members = new ArrayList<>(points.stream().filter(p -> runGroup(p) == g).toList());
                java.util.Collections.rotate(members, -(rep - 1));
                rotated.addAll(members);
            }
            for (EngineConfig c : configs) {
                List<Point> own = TransactionHooks.isRbwOnly(c.hook())
                        ? rotated.stream().filter(p -> p.order() == StatementOrder.RBW).toList()
                        : c.isPeer() ? rotated.stream().filter(p -> p.order() == StatementOrder.ORIGINAL).toList()
                        : rotated;
                if (own.isEmpty()) continue;
                jobs.add(new CompareCost.Job(c.name(), rep, own, start.apply(c), c.dialect()));
            }
        }
        return jobs;
    }

    /**
     * Where a point runs in its JVM: read-only points first (they need no restore, nor does the point
     * after them), then writes at 1-2 clients, then writes at more. A JVM that fails loses the points after
     * the one that failed, and upstream's LOCKS mode stalls at 8 clients and more
     * (hsqldb-fork/upstream-locks-stall.md): so it stalls only where it would, not before points it can run.
     */
    static int runGroup(Point p) {
        return p.mix().readOnly() ? 0 : p.clients() <= 2 ? 1 : 2;
    }

    /** The chosen rung and what it costs by the plan's arithmetic. */
    public record Choice(Rung rung, List<Point> points, List<CompareCost.Job> jobs, double seconds, boolean fits) {}

    /**
     * The first rung of the ladder whose plan fits the budget for these (available) configurations; the
     * last rung, marked as not fitting, when none does (then compare says so before it starts, and the
     * configurations or durations are the user's to cut: --configs, --warmup, --seconds).
     */
    public static Choice choose(List<EngineConfig> configs, List<Integer> clients, int warehouses, CompareCost cost,
                                java.util.function.Function<EngineConfig, PointStart> start) {
        Choice last = null;
        for (Rung r : LADDER) {
            List<Point> points = points(r.mixes(), clients);
            List<CompareCost.Job> jobs = jobs(configs, points, r.reps(), start);
            double total = cost.totalSeconds(jobs, warehouses, r.warmup(), r.seconds());
            last = new Choice(r, points, jobs, total, total <= BUDGET_SECONDS);
            if (last.fits()) return last;
        }
        return last;
    }

    /** A choice, and the configurations left out so that it fits (in the order they were dropped). */
    public record Fit(Choice choice, List<EngineConfig> kept, List<String> leftOut) {}

    /**
     * The headline for these available configurations: the first rung of the whole ladder that fits (every
     * engine at short durations answers the user's question; fewer at longer ones do not); when none does,
     * the last configuration of the preset's order is left out and the ladder tried again, down to the first
     * {@code core} configurations (with those the plan takes whatever rung fits, or the last). The peers'
     * loads and restores cost most (CompareCost.EngineFactor).
     */
    public static Fit fit(List<EngineConfig> available, int core, List<Integer> clients, int warehouses,
                          CompareCost cost, java.util.function.Function<EngineConfig, PointStart> start) {
        List<EngineConfig> kept = new ArrayList<>(available);
        List<String> leftOut = new ArrayList<>();
        while (true) {
            Choice c = choose(kept, clients, warehouses, cost, start);
            if (c.fits() || kept.size() <= core) return new Fit(c, kept, leftOut);
            leftOut.add(kept.remove(kept.size() - 1).name());
        }
    }

    @Override
    public String toString() {
        return label;
    }
}
