package org.hsqldb.a2l.tpcc.report;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.hsqldb.a2l.tpcc.AbortReason;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.TxnType;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Writes a comparison's runs.csv, report.md (medians, spread, ratios) and throughput plots. */
public final class CompareReport {

    /**
     * What the report says about how the run was made. {@code unavailable}: configurations asked for that did not
     * run, with the reason (not in the registry, or the engine refused them); {@code preset}: the preset's name,
     * or null; {@code pointStart}: what each point started from, in words (null: the database carried over
     * from point to point, as before every point started from the same database).
     */
    public record Meta(String runId, String commandLine, List<EngineConfig> configs, Map<String, String> unavailable,
                       List<StatementOrder> orders, List<Mix> mixes, List<Integer> clients, int warehouses,
                       int seconds, int warmup, int reps, long seed, Isolation isolation, String jvmOpts,
                       MachineFacts machine, double elapsedSeconds, List<String> failures, boolean quick,
                       String preset, String pointStart, Double plannedSeconds) {

        public Meta(String runId, String commandLine, List<EngineConfig> configs, Map<String, String> unavailable,
                    List<StatementOrder> orders, List<Mix> mixes, List<Integer> clients, int warehouses,
                    int seconds, int warmup, int reps, long seed, Isolation isolation, String jvmOpts,
                    MachineFacts machine, double elapsedSeconds, List<String> failures, boolean quick) {
            this(runId, commandLine, configs, unavailable, orders, mixes, clients, warehouses, seconds, warmup, reps,
                    seed, isolation, jvmOpts, machine, elapsedSeconds, failures, quick, null, null, null);
        }

        /**
         * The configurations that run upstream's unmodified jar in memory: the baselines, in the order asked
         * for (a durable configuration is measured against the durable ones, {@link #durableUpstreamModes}).
         */
        List<String> upstreamModes() {
            return configs.stream().filter(c -> c.jar() == EngineConfig.JarKind.UPSTREAM && !c.isDurable())
                    .map(EngineConfig::name).toList();
        }

        /** The configurations that run upstream's unmodified jar on durable files. */
        List<String> durableUpstreamModes() {
            return configs.stream().filter(c -> c.jar() == EngineConfig.JarKind.UPSTREAM && c.isDurable())
                    .map(EngineConfig::name).toList();
        }
    }

    /** The repetitions of one (mix, order, clients, config) cell. */
    record Cell(String mix, String order, int clients, String config, List<RunSummary> runs) {
        double median() {
            return CompareReport.median(runs.stream().map(r -> r.throughputTps).toList());
        }

        double min() {
            return runs.stream().mapToDouble(r -> r.throughputTps).min().orElse(0);
        }

        double max() {
            return runs.stream().mapToDouble(r -> r.throughputTps).max().orElse(0);
        }
    }

    private CompareReport() {}

    public static void write(Path dir, List<RunSummary> runs, Meta meta) throws IOException {
        writeCsv(dir.resolve("runs.csv"), runs, meta.runId());
        List<Cell> cells = cells(runs, meta);
        List<String> plots = new ArrayList<>();
        for (Mix m : meta.mixes()) {
            for (boolean speedup : List.of(false, true)) {
                String file = (speedup ? "speedup_" : "throughput_") + m.label + ".png";
                try {
                    if (plot(dir.resolve(file), m.label, cells, meta, speedup)) plots.add(file);
                } catch (RuntimeException | Error e) {
                    // a JVM without fonts cannot draw text; the tables still say everything
                    System.out.println("could not draw " + file + ": " + e);
                }
            }
        }
        Files.writeString(dir.resolve("report.md"), markdown(cells, runs, meta, plots, dir));
    }

    static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        if (s.isEmpty()) return 0;
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static List<Cell> cells(List<RunSummary> runs, Meta meta) {
        List<String> configOrder = meta.configs().stream().map(EngineConfig::name).toList();
        Map<String, List<RunSummary>> groups = new LinkedHashMap<>();
        for (RunSummary r : runs) {
            groups.computeIfAbsent(r.mix + "|" + r.order + "|" + r.clients + "|" + r.config, k -> new ArrayList<>()).add(r);
        }
        List<Cell> cells = new ArrayList<>();
        groups.forEach((k, v) -> {
            RunSummary f = v.get(0);
            cells.add(new Cell(f.mix, f.order, f.clients, f.config, v));
        });
        cells.sort(Comparator.comparing((Cell c) -> indexOf(meta.mixes().stream().map(m -> m.label).toList(), c.mix()))
                .thenComparing(c -> indexOf(meta.orders().stream().map(o -> o.label).toList(), c.order()))
                .thenComparingInt(Cell::clients)
                .thenComparing(c -> indexOf(configOrder, c.config())));
        return cells;
    }

    private static int indexOf(List<String> list, String x) {
        int i = list.indexOf(x);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    private static void writeCsv(Path file, List<RunSummary> runs, String runId) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("run_id,config,engine_version,rep,point_in_jvm,order,mix,warehouses,clients,warmup,seconds,seed,"
                    + "committed,throughput_tps,tpmC,new_order,payment,delivery,order_status,stock_level,"
                    + "aborts_spec_rollback,aborts_deadlock,aborts_serialization_failure,aborts_lock_timeout,"
                    + "aborts_other,engine_aborts_per_1000,lock_waits_per_txn,deadlocks_per_1000,retries,"
                    + "consistency_ok,load_seconds,jit_ms_in_window,gc_ms_in_window,cpu_ms_in_window,"
                    + "alloc_kb_in_window,summary");
            for (RunSummary r : runs) {
                Map<String, Long> a = r.aborts.byReason();
                Map<String, Long> c = r.committedByType;
                w.println(String.join(",", List.of(runId, r.config, csv(r.engineVersion), "" + r.rep, "" + r.pointInJvm,
                        r.order, r.mix, "" + r.warehouses, "" + r.clients, "" + r.warmup, "" + r.seconds, "" + r.seed,
                        "" + r.committed, "" + r.throughputTps, "" + r.tpmC, "" + c.get("NewOrder"), "" + c.get("Payment"),
                        "" + c.get("Delivery"), "" + c.get("OrderStatus"), "" + c.get("StockLevel"),
                        "" + a.get("spec_rollback"), "" + a.get("deadlock"), "" + a.get("serialization_failure"),
                        "" + a.get("lock_timeout"), "" + a.get("other"), "" + r.engineAbortsPer1000,
                        r.lockWaitsPerTxn == null ? "" : "" + r.lockWaitsPerTxn,
                        r.deadlocksPer1000 == null ? "" : "" + r.deadlocksPer1000, "" + r.retries,
                        "" + r.consistencyOk, "" + r.loadSeconds, orEmpty(r.jitMsInWindow), orEmpty(r.gcMsInWindow),
                        orEmpty(r.cpuMsInWindow), orEmpty(r.allocKbInWindow),
                        csv(relative(file.getParent(), r.summaryFile)))));
            }
        }
    }

    /** Summaries record their path relative to the run folder; older ones recorded it as the run saw it. */
    private static String relative(Path dir, String file) {
        if (file == null || !Path.of(file).isAbsolute()) return file;
        try {
            return RunPaths.relative(dir, Path.of(file));
        } catch (IllegalArgumentException e) {
            return file;
        }
    }

    /** The Failures line of a JVM that exited with {@code code}; {@code log} is named relative to the run folder. */
    public static String failure(Path runDir, String config, int rep, int code, Path log) {
        return config + " rep " + rep + " exited " + code + " (see " + RunPaths.relative(runDir, log) + ")";
    }

    private static String orEmpty(Object o) {
        return o == null ? "" : o.toString();
    }

    private static String csv(String s) {
        if (s == null) return "";
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /**
     * Throughput (median txn/s) or speedup over 1 client (median at n clients over median at 1) per
     * configuration and order; false when there is nothing to draw (speedup without a 1-client point).
     */
    private static boolean plot(Path file, String mix, List<Cell> cells, Meta meta, boolean speedup) throws IOException {
        Map<String, TreeMap<Integer, Double>> series = new LinkedHashMap<>();
        for (Cell c : cells) {
            if (!c.mix().equals(mix)) continue;
            series.computeIfAbsent(c.config() + " " + c.order(), k -> new TreeMap<>()).put(c.clients(), c.median());
        }
        if (speedup) {
            Map<String, TreeMap<Integer, Double>> ratios = new LinkedHashMap<>();
            series.forEach((name, points) -> {
                Double one = points.get(1);
                if (one == null || one <= 0 || points.size() < 2) return;
                TreeMap<Integer, Double> r = new TreeMap<>();
                points.forEach((n, v) -> r.put(n, v / one));
                ratios.put(name, r);
            });
            series = ratios;
        }
        if (series.isEmpty()) return false;
        String what = speedup ? "speedup over 1 client (ratio of medians)" : "committed txn/s (median of " + meta.reps() + ")";
        XYChart chart = new XYChartBuilder().width(900).height(540)
                .title("TPC-C " + mix + ", " + meta.warehouses() + " warehouse(s): " + what
                        + (shorterPreset(meta) ? " - shorter than the method's 20 s + 30 s"
                        : meta.quick() ? " - smoke test, not a result" : ""))
                .xAxisTitle("clients").yAxisTitle(speedup ? "x throughput at 1 client" : "committed transactions / s")
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(8);
        chart.getStyler().setXAxisDecimalPattern("#");
        chart.getStyler().setYAxisMin(0.0);
        series.forEach((name, points) -> chart.addSeries(name,
                points.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                points.values().stream().mapToDouble(Double::doubleValue).toArray()));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    /**
     * A preset run that took a shorter rung of its ladder (at least 5 s + 15 s, 2 repetitions) to fit its
     * budget: a result with wide spreads, not a smoke test.
     */
    static boolean shorterPreset(Meta meta) {
        return meta.quick() && meta.preset() != null && meta.warmup() >= 5 && meta.seconds() >= 15 && meta.reps() >= 2;
    }

    /** 5400 -> "1 h 30 min", 190 -> "3 min 10 s", 42 -> "42 s". */
    public static String duration(double secondsValue) {
        long s = Math.round(secondsValue);
        if (s >= 3600) return s / 3600 + " h " + (s % 3600) / 60 + " min";
        if (s >= 60) return s / 60 + " min " + s % 60 + " s";
        return s + " s";
    }

    private static String f1(double x) {
        return String.format(Locale.ROOT, "%.1f", x);
    }

    private static String medianOrDash(List<Double> values, int digits) {
        List<Double> present = values.stream().filter(v -> v != null).toList();
        if (present.isEmpty()) {
            return "-";
        }
        return String.format(Locale.ROOT, "%." + digits + "f", median(present));
    }

    /**
     * The throughput table says how many transactions the engine aborted; this says which, and that is
     * what explains a lock manager's result (RbW-RL trades Payment's and Delivery's deadlocks for
     * New-Order's).
     */
    private static void abortsByType(StringBuilder md, List<Cell> cells) {
        md.append("## Engine aborts by transaction type\n\nEngine aborts (all but the spec rollbacks) of each")
                .append(" transaction type per 1000 committed transactions of all types, pooled over the point's")
                .append(" repetitions (sum of aborts / sum of committed), so a row adds up to about its engine")
                .append(" aborts /1000 above.\n\n| mix | order | clients | config |");
        for (TxnType t : TxnType.values()) md.append(" ").append(t.label).append(" |");
        md.append("\n|---|---|---:|---|").append("---:|".repeat(TxnType.values().length)).append("\n");
        for (Cell c : cells) {
            long committed = c.runs().stream().mapToLong(r -> r.committed).sum();
            md.append("| ").append(c.mix()).append(" | ").append(c.order()).append(" | ").append(c.clients())
                    .append(" | ").append(c.config()).append(" |");
            for (TxnType t : TxnType.values()) {
                long aborts = 0;
                for (RunSummary r : c.runs()) {
                    Map<String, Long> reasons = r.aborts.byType().getOrDefault(t.label, Map.of());
                    for (Map.Entry<String, Long> e : reasons.entrySet()) {
                        if (!e.getKey().equals(AbortReason.SPEC_ROLLBACK.label)) aborts += e.getValue();
                    }
                }
                md.append(" ").append(committed == 0 ? "-" : f1(aborts * 1000.0 / committed)).append(" |");
            }
            md.append("\n");
        }
        md.append("\n");
    }

    private static Cell find(List<Cell> cells, String mix, String order, int clients, String config) {
        return cells.stream().filter(c -> c.mix().equals(mix) && c.order().equals(order) && c.clients() == clients
                && c.config().equals(config)).findFirst().orElse(null);
    }

    /** The medians of every configuration at one point (mix, order, clients). */
    private static Map<String, Double> mediansAt(List<Cell> cells, String mix, String order, int clients) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (Cell c : cells) {
            if (c.mix().equals(mix) && c.order().equals(order) && c.clients() == clients) {
                m.put(c.config(), c.median());
            }
        }
        return m;
    }

    /** "n/a" where no repetition's engine reported the measure, else the median of those that did. */
    private static String medianOrNa(List<Double> values, int digits) {
        String m = medianOrDash(values, digits);
        return m.equals("-") ? "n/a" : m;
    }

    /**
     * The lock manager's own counts beside every throughput: logical measures, which do not depend on the
     * machine's speed (tpcc-rbw/README.md, "How we measure").
     */
    private static void lockCounters(StringBuilder md, List<Cell> cells) {
        md.append("## Lock waits, deadlocks and upgrades\n\nFrom the engine's lock counters over the measured")
                .append(" window (the fork's INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS), medians over the repetitions:")
                .append(" lock waits per committed transaction; deadlocks, upgrades (a lock converted to a stronger")
                .append(" mode on a name the transaction already held: S to U, S to X, U to X), upgrades that had to")
                .append(" wait and deadlocks whose refused request was an upgrade, each per 1000 committed. n/a: the")
                .append(" engine reports no such counter (upstream, the fork's modes without its lock manager, other")
                .append(" engines); its deadlock victims still show in the engine aborts above.\n\n")
                .append("| mix | order | clients | config | lock waits /txn | deadlocks /1000 | upgrades /1000")
                .append(" | upgrade waits /1000 | upgrade deadlocks /1000 |\n|---|---|---:|---|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            md.append("| ").append(c.mix()).append(" | ").append(c.order()).append(" | ").append(c.clients())
                    .append(" | ").append(c.config()).append(" | ")
                    .append(medianOrNa(c.runs().stream().map(r -> r.lockWaitsPerTxn).toList(), 3)).append(" | ")
                    .append(medianOrNa(c.runs().stream().map(r -> r.deadlocksPer1000).toList(), 1)).append(" | ")
                    .append(medianOrNa(c.runs().stream().map(r -> r.perThousand("upgrades")).toList(), 1)).append(" | ")
                    .append(medianOrNa(c.runs().stream().map(r -> r.perThousand("upgrade_waits")).toList(), 1))
                    .append(" | ")
                    .append(medianOrNa(c.runs().stream().map(r -> r.perThousand("upgrade_deadlocks")).toList(), 1))
                    .append(" |\n");
        }
        md.append("\n");
    }

    /**
     * For durable HSQLDB points: how many log syncs a second ran and how many commits shared each (the
     * fork's LOG_SYNCS and COMMITS_SYNCED counters): group commit shows as commits per sync above 1.
     */
    private static void logSyncs(StringBuilder md, List<Cell> cells) {
        List<Cell> synced = cells.stream()
                .filter(c -> c.runs().stream().anyMatch(r -> r.logSyncsPerSecond != null)).toList();
        if (synced.isEmpty()) return;
        md.append("## Log syncs\n\nDurable HSQLDB points on the fork's jar (its SYSTEM_LOCK_COUNTERS' LOG_SYNCS and")
                .append(" COMMITS_SYNCED over the measured window): syncs of the .log per second and committed")
                .append(" transactions per sync, medians over the repetitions. Upstream's jar has no such counter;")
                .append(" it syncs once per commit.\n\n| mix | order | clients | config | syncs /s | commits /sync |\n")
                .append("|---|---|---:|---|---:|---:|\n");
        for (Cell c : synced) {
            md.append("| ").append(c.mix()).append(" | ").append(c.order()).append(" | ").append(c.clients())
                    .append(" | ").append(c.config()).append(" | ")
                    .append(medianOrNa(c.runs().stream().map(r -> r.logSyncsPerSecond).toList(), 1)).append(" | ")
                    .append(medianOrNa(c.runs().stream().map(r -> r.commitsPerLogSync).toList(), 2)).append(" |\n");
        }
        md.append("\n");
    }

    /**
     * What the JVM spent in the measured windows (JvmWork): a window in which the JIT still compiled
     * for long measured part of the warming up, whatever the warm-up's length said; the CPU per
     * committed transaction and the cores kept busy tell a point's extra work from its waiting; the
     * heap allocated per committed transaction is what the young collections are paid for.
     */
    private static void jvmInWindow(StringBuilder md, List<Cell> cells) {
        md.append("## The JVM in the measured window\n\nMilliseconds of JIT compilation in progress (the compiler")
                .append(" threads summed, their waits for a core included) and of garbage collection during each")
                .append(" point's measured window,")
                .append(" the most and the median over the repetitions; - where not recorded. Compiling that")
                .append(" goes on into the window takes CPU from the terminals and leaves them running code not")
                .append(" yet compiled: with many terminals on few cores the compiler threads get a small share,")
                .append(" and the warm-up that suffices at 2 clients may not at 16. Then the CPU the harness's")
                .append(" process used (every thread: terminals, the embedded engine, the JIT, the GC), per")
                .append(" committed transaction and as cores kept busy, medians over the repetitions: where a")
                .append(" point with more clients makes less than its cores busy allow, the CPU per transaction")
                .append(" says whether each transaction costs more or the terminals wait. And the heap the")
                .append(" process allocated per committed transaction, median (HotSpot's count): it depends much")
                .append(" less on the machine's speed than throughput does, and the young collections, which stop")
                .append(" every terminal, come as often as it fills the young generation. - for an engine that")
                .append(" runs as a server in another process, whose CPU and allocation are not counted.\n\n")
                .append("| mix | order | clients | config | JIT ms, most | JIT ms, median | GC ms, most | GC ms, median")
                .append(" | CPU µs per txn | cores busy | KB allocated per txn |\n")
                .append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            List<Double> jit = c.runs().stream().map(r -> r.jitMsInWindow == null ? null : (double) r.jitMsInWindow).toList();
            List<Double> gc = c.runs().stream().map(r -> r.gcMsInWindow == null ? null : (double) r.gcMsInWindow).toList();
            List<Double> cpu = c.runs().stream().map(RunSummary::cpuUsPerTxn).toList();
            List<Double> busy = c.runs().stream().map(RunSummary::coresBusy).toList();
            List<Double> alloc = c.runs().stream().map(RunSummary::allocKbPerTxn).toList();
            md.append("| ").append(c.mix()).append(" | ").append(c.order()).append(" | ").append(c.clients())
                    .append(" | ").append(c.config()).append(" | ").append(most(jit)).append(" | ")
                    .append(medianOrDash(jit, 0)).append(" | ").append(most(gc)).append(" | ")
                    .append(medianOrDash(gc, 0)).append(" | ").append(medianOrDash(cpu, 0)).append(" | ")
                    .append(medianOrDash(busy, 2)).append(" | ").append(medianOrDash(alloc, 1)).append(" |\n");
        }
        md.append("\n");
    }

    private static String most(List<Double> values) {
        List<Double> present = values.stream().filter(v -> v != null).toList();
        if (present.isEmpty()) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.0f", present.stream().mapToDouble(Double::doubleValue).max().getAsDouble());
    }

    /**
     * What each engine writes and syncs at a commit, for the durable configurations (NAME@durable, on a
     * file database on this machine's disk) and PostgreSQL (a server that keeps its data on disk anyway).
     */
    private static void durability(StringBuilder md, Meta meta) {
        List<EngineConfig> durable = meta.configs().stream()
                .filter(c -> c.isDurable() || c.isPeer() && c.dialect() == org.hsqldb.a2l.tpcc.engine.Dialect.POSTGRESQL)
                .toList();
        if (durable.isEmpty()) return;
        md.append("Durable configurations (`NAME@durable`: a file database on this machine's disk, made for the JVM")
                .append(" and deleted after it; its \"x best upstream\" is against upstream's durable configurations),")
                .append(" and what each syncs at a commit:\n\n");
        for (EngineConfig c : durable) {
            md.append("- `").append(c.name()).append("`: ").append(c.commitDurability()).append("\n");
        }
        md.append("\n");
    }

    /** p50/p95/p99 per transaction type, each the median over the repetitions (HdrHistogram, summary.json). */
    private static void latency(StringBuilder md, List<Cell> cells) {
        md.append("## Latency\n\nMilliseconds from a transaction's first attempt to its commit (retries included),")
                .append(" p50 / p95 / p99 per transaction type, each the median over the repetitions; - where the")
                .append(" type did not commit.\n\n| mix | order | clients | config |");
        for (TxnType t : TxnType.values()) md.append(" ").append(t.label).append(" |");
        md.append("\n|---|---|---:|---|").append("---:|".repeat(TxnType.values().length)).append("\n");
        for (Cell c : cells) {
            md.append("| ").append(c.mix()).append(" | ").append(c.order()).append(" | ").append(c.clients())
                    .append(" | ").append(c.config()).append(" |");
            for (TxnType t : TxnType.values()) {
                List<RunSummary.Latency> ls = c.runs().stream()
                        .map(r -> r.latencyMs == null ? null : r.latencyMs.get(t.label))
                        .filter(l -> l != null && l.count() > 0).toList();
                md.append(" ").append(ls.isEmpty() ? "-" : percentile(ls, RunSummary.Latency::p50) + " / "
                        + percentile(ls, RunSummary.Latency::p95) + " / " + percentile(ls, RunSummary.Latency::p99))
                        .append(" |");
            }
            md.append("\n");
        }
        md.append("\n");
    }

    private static String percentile(List<RunSummary.Latency> ls, java.util.function.ToDoubleFunction<RunSummary.Latency> f) {
        double m = median(ls.stream().map(l -> f.applyAsDouble(l)).toList());
        return m >= 100 ? String.format(Locale.ROOT, "%.0f", m) : m >= 10 ? f1(m)
                : String.format(Locale.ROOT, "%.2f", m);
    }

    /** The thesis' ratios (its chapter 6: 16 cores, 1-18 clients), by mix. */
    static final Map<String, Map<String, String>> THESIS = Map.of(
            "LF", Map.of("8-92", "1.14", "50-50", "1.3", "80-20", "1.8", "100-0", "7"),
            "A2L", Map.of("8-92", "1.8", "50-50", "1.8", "80-20", "up to 2", "100-0", "4"),
            "RbW + A2L", Map.of("8-92", "2.8", "50-50", "2.5", "80-20", "3.5", "100-0", "4"));

    /**
     * Our ratios beside the thesis': LF (fork-lf, original order), A2L (fork-a2l, original order) and RbW + A2L
     * (fork-a2l, rbw order) over original HSQLDB (upstream LOCKS, original order), the range over the client
     * counts both measured and where the highest was; then the same over upstream's best mode.
     */
    private static void thesis(StringBuilder md, List<Cell> cells, Meta meta) {
        List<String[]> rows = new ArrayList<>();
        for (Mix m : meta.mixes()) {
            for (String[] what : List.of(new String[] {"LF", "fork-lf", "original"},
                    new String[] {"A2L", "fork-a2l", "original"}, new String[] {"RbW + A2L", "fork-a2l", "rbw"})) {
                String order = what[2];
                // read-only mixes run the same transactions in both orders
                if (order.equals("rbw") && m == Mix.M100_0 && cells.stream().noneMatch(c -> c.mix().equals(m.label)
                        && c.order().equals("rbw") && c.config().equals(what[1]))) {
                    order = "original";
                }
                String ours = rangeOver(cells, meta, m.label, what[1], order, false);
                String best = rangeOver(cells, meta, m.label, what[1], order, true);
                if (ours == null && best == null) continue;
                rows.add(new String[] {m.label, what[0], what[1] + " " + order,
                        THESIS.get(what[0]).getOrDefault(m.label, "-"), ours == null ? "-" : ours,
                        best == null ? "-" : best});
            }
        }
        md.append("## Against the thesis\n\nThe thesis (16-core Sun Fire x4600, 4 warehouses, 1-18 clients) gives")
                .append(" each variant's gain over original HSQLDB; ours are ratios of medians at the same mix and")
                .append(" client count on this machine (").append(meta.machine().cores()).append(" cores): the")
                .append(" range over the client counts measured, the highest named with its client count. \"over")
                .append(" upstream\" divides by upstream's LOCKS mode in the original order (the thesis' original);")
                .append(" \"over upstream's best\" by the best upstream mode at that point, in the original order.\n\n");
        if (rows.isEmpty()) {
            md.append("Not measured here: it needs `upstream` and `fork-lf` or `fork-a2l` in the original order")
                    .append(" (and `fork-a2l` in the rbw order for RbW + A2L).\n\n");
            return;
        }
        md.append("| mix | variant | ours | thesis | ours over upstream | ours over upstream's best |\n")
                .append("|---|---|---|---:|---|---|\n");
        for (String[] r : rows) {
            md.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        md.append("\n");
    }

    /** "1.20-1.85 (highest at 8 clients)" for config@order over upstream (or its best) at original order. */
    private static String rangeOver(List<Cell> cells, Meta meta, String mix, String config, String order, boolean best) {
        double lo = Double.MAX_VALUE, hi = -1;
        int at = 0;
        for (int n : meta.clients()) {
            Cell c = find(cells, mix, order, n, config);
            if (c == null || c.median() <= 0) continue;
            Double base;
            if (best) {
                UpstreamBaseline.Best b = UpstreamBaseline.best(meta.upstreamModes(),
                        mediansAt(cells, mix, "original", n));
                base = b == null ? null : b.median();
            } else {
                Cell ref = find(cells, mix, "original", n, "upstream");
                base = ref == null || ref.median() <= 0 ? null : ref.median();
            }
            if (base == null) continue;
            double r = c.median() / base;
            lo = Math.min(lo, r);
            if (r > hi) {
                hi = r;
                at = n;
            }
        }
        if (hi < 0) return null;
        return String.format(Locale.ROOT, "%.2f-%.2f (highest at %d client%s)", lo, hi, at, at == 1 ? "" : "s");
    }

    /**
     * The isolation table: what each engine's isolation levels let through (another command writes it into
     * the run folder). {@code isolation.md} is taken as it is, but for its title; {@code isolation.json}, a list of flat objects,
     * becomes a table of their fields; without either the section says the table was not run.
     */
    static void isolation(StringBuilder md, Path runDir) {
        md.append("## Isolation\n\n");
        Path mdFile = runDir == null ? null : runDir.resolve("isolation.md");
        Path json = runDir == null ? null : runDir.resolve("isolation.json");
        try {
            if (mdFile != null && Files.isRegularFile(mdFile)) {
                // its own title ("# Isolation table") would be a second title of the report
                md.append(Files.readString(mdFile).strip().replaceFirst("\\A# [^\n]*\n+", "")).append("\n\n");
                return;
            }
            if (json != null && Files.isRegularFile(json)) {
                List<Map<String, Object>> rows = RunSummary.GSON.fromJson(Files.readString(json),
                        new com.google.gson.reflect.TypeToken<List<Map<String, Object>>>() {}.getType());
                if (rows != null && !rows.isEmpty()) {
                    List<String> keys = new ArrayList<>();
                    for (Map<String, Object> r : rows) for (String k : r.keySet()) if (!keys.contains(k)) keys.add(k);
                    md.append("| ").append(String.join(" | ", keys)).append(" |\n|")
                            .append("---|".repeat(keys.size())).append("\n");
                    for (Map<String, Object> r : rows) {
                        md.append("|");
                        for (String k : keys) {
                            Object v = r.get(k);
                            md.append(" ").append(v == null ? "" : v instanceof Double d && d == Math.rint(d)
                                    ? String.valueOf(d.longValue()) : String.valueOf(v)).append(" |");
                        }
                        md.append("\n");
                    }
                    md.append("\n(from `isolation.json`)\n\n");
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            md.append("The isolation table in this folder could not be read: ").append(e.getMessage()).append("\n\n");
            return;
        }
        md.append("Not run: this run folder has no isolation table (`isolation.md` or `isolation.json`).\n\n");
    }

    private static String markdown(List<Cell> cells, List<RunSummary> runs, Meta meta, List<String> plots, Path runDir) {
        StringBuilder md = new StringBuilder();
        md.append("# TPC-C side by side: ").append(meta.runId()).append("\n\n");
        if (shorterPreset(meta)) {
            md.append("> **Shorter than the method asks** (tpcc-rbw/README.md, \"How we measure\": at least 20 s warm-up, 30 s measured, 3 repetitions): ")
                    .append(meta.warmup()).append(" s warm-up, ").append(meta.seconds()).append(" s measured, ")
                    .append(meta.reps()).append(" repetitions, so that preset `").append(meta.preset())
                    .append("` ends within its budget on this machine. Read a ratio as an effect only where the")
                    .append(" min-max spreads of its two sides do not overlap.\n\n");
        } else if (meta.quick()) {
            md.append("> **Quick run: a smoke test, not a result.** Runs this short (").append(meta.warmup())
                    .append(" s warm-up, ").append(meta.seconds()).append(" s measured, ").append(meta.reps())
                    .append(" repetition(s)) are dominated by JIT and GC noise; a number that is reported needs at least 20 s")
                    .append(" warm-up, 30 s measured and 3 repetitions (tpcc-rbw/README.md, \"How we measure\").\n\n");
        }
        md.append("Command: `").append(meta.commandLine()).append("`\n\n");
        if (meta.preset() != null) {
            md.append("Preset `").append(meta.preset()).append("`: ").append(meta.warehouses())
                    .append(" warehouse(s), ").append(meta.warmup()).append(" s warm-up + ").append(meta.seconds())
                    .append(" s measured per point, ").append(meta.reps()).append(" repetitions")
                    .append(meta.plannedSeconds() == null ? "" : ", planned " + duration(meta.plannedSeconds()))
                    .append(".\n\n");
        }
        md.append("Machine: ").append(meta.machine().oneLine()).append("\n\n");
        md.append("Run JVM options: ").append(meta.jvmOpts().isBlank() ? "none (JVM defaults)" : "`" + meta.jvmOpts() + "`")
                .append(". Wall time ").append(f1(meta.elapsedSeconds())).append(" s")
                .append(meta.plannedSeconds() == null ? "" : " (planned " + f1(meta.plannedSeconds()) + " s)")
                .append(".\n\n");
        md.append("## Configurations\n\n| config | engine | what | isolation: what the engine's documentation says it"
                + " guarantees |\n|---|---|---|---|\n");
        Map<String, String> versions = runs.stream().collect(Collectors.toMap(r -> r.config,
                r -> r.engineProduct + " " + r.engineVersion, (a, b) -> a, LinkedHashMap::new));
        Map<String, String> guarantees = runs.stream().filter(r -> r.isolationGuarantee != null).collect(
                Collectors.toMap(r -> r.config, r -> r.isolation + ": " + r.isolationGuarantee, (a, b) -> a,
                        LinkedHashMap::new));
        for (EngineConfig c : meta.configs()) {
            md.append("| ").append(c.name()).append(" | ").append(versions.getOrDefault(c.name(), "?")).append(" | ")
                    .append(c.describe()).append(" | ").append(guarantees.getOrDefault(c.name(), "")).append(" |\n");
        }
        meta.unavailable().forEach((name, reason) ->
                md.append("| ").append(name).append(" | not run | ").append(reason).append(" | |\n"));
        String start = meta.pointStart() != null ? meta.pointStart()
                : "The database carries over from point to point within a JVM: New-Order grows it, so later"
                + " points measure a bigger database than earlier ones.";
        String client = runs.stream().map(r -> r.client).filter(c -> c != null).findFirst().orElse("prepared");
        md.append("\nMethod: ").append(meta.warehouses()).append(" warehouse(s), isolation ").append(meta.isolation())
                .append(", client ").append(client).append(client.equals("prepared")
                        ? " (each terminal prepares a statement once and keeps it; the harness' schema)"
                        : " (see `--client`, `--batches` and `--schema` in tpcc-rbw/README.md)")
                .append(", seed ").append(meta.seed()).append(" (same inputs for every configuration). One JVM per")
                .append(" (configuration, repetition): it loads once, then measures each point (order x mix x clients)")
                .append(" after its own warm-up (read-only points first, then writes at 1-2 clients, then at more;")
                .append(" each group rotated by one point per repetition), and checks the")
                .append(" consistency conditions after each point (the per-row ones after its last point).")
                .append(" Configurations alternate A B A B across repetitions. ").append(start)
                .append(" Orders: `original` is the thesis' Table 6.1 statement order, which is TPC-C 5.11's")
                .append(" (Appendix A) but for New-Order, where it inserts NEW_ORDER before it updates DISTRICT")
                .append(" and inserts ORDERS; `rbw` issues every read before the first write, the writes in the")
                .append(" same relative order (tpcc-rbw/README.md, \"Statement orders\").\n\n");
        durability(md, meta);
        List<String> modes = meta.upstreamModes();
        md.append("## Throughput\n\nCommitted transactions per second (all five types; the thesis' measure): median of ")
                .append(meta.reps()).append(" repetition(s) and min-max (the spread). ");
        if (!modes.isEmpty()) {
            md.append("\"x best upstream\" is the ratio of medians to the best of upstream's modes at the same")
                    .append(" point (").append(modes.stream().map(m -> "`" + m + "`").collect(Collectors.joining(", ")))
                    .append("), named beside it; then the ratio to each mode. ");
        }
        md.append("Engine aborts are deadlock victims, serialization failures (HSQLDB reports its 2PL")
                .append(" deadlock victims as 40001) and lock timeouts, per 1000 committed, median; all were retried")
                .append(" with the same inputs. Spec rollbacks are the 1% New-Order rollbacks.")
                .append(" A median marked \"(n of ").append(meta.reps()).append(")\" is over the n repetitions that")
                .append(" measured the point; the others failed (see Failures).\n\n");
        md.append("| mix | order | clients | config | median txn/s | min-max |");
        if (!modes.isEmpty()) md.append(" x best upstream | best upstream |");
        for (String m : modes) md.append(" x ").append(m).append(" |");
        md.append(" tpmC | engine aborts /1000 | spec rollbacks (all reps) | consistency |\n");
        md.append("|---|---|---:|---|---:|---:|").append(modes.isEmpty() ? "" : "---:|---|")
                .append("---:|".repeat(modes.size())).append("---:|---:|---:|---|\n");
        for (Cell c : cells) {
            Map<String, Double> medians = mediansAt(cells, c.mix(), c.order(), c.clients());
            double tpmC = median(c.runs().stream().map(r -> r.tpmC).toList());
            double aborts = median(c.runs().stream().map(r -> r.engineAbortsPer1000).toList());
            long spec = c.runs().stream().mapToLong(r -> r.aborts.byReason().getOrDefault("spec_rollback", 0L)).sum();
            boolean ok = c.runs().stream().allMatch(r -> r.consistencyOk);
            md.append("| ").append(c.mix()).append(" | ").append(c.order()).append(" | ").append(c.clients())
                    .append(" | ").append(c.config()).append(" | ").append(f1(c.median()))
                    .append(c.runs().size() < meta.reps() ? " (" + c.runs().size() + " of " + meta.reps() + ")" : "")
                    .append(" | ").append(f1(c.min())).append("-").append(f1(c.max())).append(" |");
            if (!modes.isEmpty()) {
                // a durable configuration against upstream's durable ones, if any ran
                boolean durable = c.config().endsWith(EngineConfig.DURABLE);
                UpstreamBaseline.Best best = durable
                        ? UpstreamBaseline.best(meta.durableUpstreamModes(), medians)
                        : UpstreamBaseline.best(modes, medians);
                md.append(" ").append(best == null ? "-" : UpstreamBaseline.ratio(c.median(), best.median()))
                        .append(" | ").append(best == null ? "-" : best.config()).append(" |");
                for (String m : modes) md.append(" ").append(UpstreamBaseline.ratio(c.median(), medians.get(m))).append(" |");
            }
            md.append(" ").append(f1(tpmC)).append(" | ").append(f1(aborts)).append(" | ").append(spec).append(" | ")
                    .append(ok ? "ok" : "**VIOLATED**").append(" |\n");
        }
        md.append("\n");
        for (String p : plots) md.append("![").append(p).append("](").append(p).append(")\n\n");
        lockCounters(md, cells);
        logSyncs(md, cells);
        abortsByType(md, cells);
        latency(md, cells);
        jvmInWindow(md, cells);
        thesis(md, cells, meta);
        isolation(md, runDir);
        if (!meta.failures().isEmpty()) {
            md.append("## Failures\n\n");
            for (String f : meta.failures()) md.append("- ").append(f).append("\n");
            md.append("\n");
        }
        md.append("## Files\n\n- `runs.csv`: one row per run (").append(runs.size()).append(" runs)\n")
                .append("- `runs/CONFIG/repN/ORDER_MIX_cCLIENTS/summary.json`: each run's full summary (latency")
                .append(" percentiles per type, aborts per type and reason, engine counters, consistency values,")
                .append(" machine facts)\n")
                .append("- `runs/CONFIG/repN/session.log`: each JVM's output\n");
        return md.toString();
    }
}
