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

    public record Meta(String runId, String commandLine, List<EngineConfig> configs, Map<String, String> unavailable,
                       List<StatementOrder> orders, List<Mix> mixes, List<Integer> clients, int warehouses,
                       int seconds, int warmup, int reps, long seed, Isolation isolation, String jvmOpts,
                       MachineFacts machine, double elapsedSeconds, List<String> failures, boolean quick) {}

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
            String file = "throughput_" + m.label + ".png";
            try {
                plot(dir.resolve(file), m.label, cells, meta);
                plots.add(file);
            } catch (RuntimeException | Error e) {
                // a JVM without fonts cannot draw text; the table still says everything
                System.out.println("could not draw " + file + ": " + e);
            }
        }
        Files.writeString(dir.resolve("report.md"), markdown(cells, runs, meta, plots));
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
                    + "consistency_ok,load_seconds,summary");
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
                        "" + r.consistencyOk, "" + r.loadSeconds, csv(relative(file.getParent(), r.summaryFile)))));
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

    private static String csv(String s) {
        if (s == null) return "";
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static void plot(Path file, String mix, List<Cell> cells, Meta meta) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(540)
                .title("TPC-C " + mix + ", " + meta.warehouses() + " warehouse(s): committed txn/s (median of "
                        + meta.reps() + ")" + (meta.quick() ? " - smoke test, not a result" : ""))
                .xAxisTitle("clients").yAxisTitle("committed transactions / s").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(8);
        chart.getStyler().setXAxisDecimalPattern("#");
        chart.getStyler().setYAxisMin(0.0);
        Map<String, TreeMap<Integer, Double>> series = new LinkedHashMap<>();
        for (Cell c : cells) {
            if (!c.mix().equals(mix)) continue;
            series.computeIfAbsent(c.config() + " " + c.order(), k -> new TreeMap<>()).put(c.clients(), c.median());
        }
        series.forEach((name, points) -> chart.addSeries(name,
                points.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                points.values().stream().mapToDouble(Double::doubleValue).toArray()));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
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

    private static String markdown(List<Cell> cells, List<RunSummary> runs, Meta meta, List<String> plots) {
        StringBuilder md = new StringBuilder();
        md.append("# TPC-C side by side: ").append(meta.runId()).append("\n\n");
        if (meta.quick()) {
            md.append("> **Quick run: a smoke test, not a result.** Runs this short (").append(meta.warmup())
                    .append(" s warm-up, ").append(meta.seconds()).append(" s measured, ").append(meta.reps())
                    .append(" repetition(s)) are dominated by JIT and GC noise; DESIGN.md asks for at least 20 s")
                    .append(" warm-up, 30 s measured and 3 repetitions for any number that is reported.\n\n");
        }
        md.append("Command: `").append(meta.commandLine()).append("`\n\n");
        md.append("Machine: ").append(meta.machine().oneLine()).append("\n\n");
        md.append("Run JVM options: ").append(meta.jvmOpts().isBlank() ? "none (JVM defaults)" : "`" + meta.jvmOpts() + "`")
                .append(". Wall time ").append(f1(meta.elapsedSeconds())).append(" s.\n\n");
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
                md.append("| ").append(name).append(" | not available | ").append(reason).append(" | |\n"));
        md.append("\nMethod: ").append(meta.warehouses()).append(" warehouse(s), isolation ").append(meta.isolation())
                .append(", seed ").append(meta.seed()).append(" (same inputs for every configuration). One JVM per")
                .append(" (configuration, repetition): it loads once, then measures each point (order x mix x clients)")
                .append(" after its own warm-up, in an order rotated by one point per repetition, and checks the")
                .append(" consistency conditions after each point. Configurations alternate A B A B across")
                .append(" repetitions. Mixes share one database per JVM: New-Order grows it as TPC-C allows.")
                .append(" Orders: `original` is the thesis' Table 6.1 statement order, which is TPC-C 5.11's")
                .append(" (Appendix A) but for New-Order, where it inserts NEW_ORDER before it updates DISTRICT")
                .append(" and inserts ORDERS; `rbw` issues every read before the first write, the writes in the")
                .append(" same relative order (tpcc-rbw/README.md, \"Statement orders\").\n\n");
        md.append("## Throughput\n\nCommitted transactions per second (all five types; the thesis' measure): median of ")
                .append(meta.reps()).append(" repetition(s), min-max, and the ratio of medians to `upstream` at the same")
                .append(" point. Engine aborts are deadlock victims, serialization failures (HSQLDB reports its 2PL")
                .append(" deadlock victims as 40001) and lock timeouts, per 1000 committed, median; all were retried")
                .append(" with the same inputs. Spec rollbacks are the 1% New-Order rollbacks. Lock waits per")
                .append(" transaction and deadlocks per 1000 come from the fork's lock manager counters")
                .append(" (INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS, medians); engines without them show -.")
                .append(" A median marked \"(n of ").append(meta.reps()).append(")\" is over the n repetitions that")
                .append(" measured the point; the others failed (see Failures).\n\n");
        md.append("| mix | order | clients | config | median txn/s | min-max | x upstream | tpmC | engine aborts /1000 | lock waits /txn | deadlocks /1000 | spec rollbacks (all reps) | consistency |\n");
        md.append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Cell c : cells) {
            Cell base = cells.stream().filter(b -> b.config().equals("upstream") && b.mix().equals(c.mix())
                    && b.order().equals(c.order()) && b.clients() == c.clients()).findFirst().orElse(null);
            String ratio = base == null || base.median() == 0 ? "-"
                    : String.format(Locale.ROOT, "%.2f", c.median() / base.median());
            double tpmC = median(c.runs().stream().map(r -> r.tpmC).toList());
            double aborts = median(c.runs().stream().map(r -> r.engineAbortsPer1000).toList());
            long spec = c.runs().stream().mapToLong(r -> r.aborts.byReason().getOrDefault("spec_rollback", 0L)).sum();
            boolean ok = c.runs().stream().allMatch(r -> r.consistencyOk);
            md.append("| ").append(c.mix()).append(" | ").append(c.order()).append(" | ").append(c.clients())
                    .append(" | ").append(c.config()).append(" | ").append(f1(c.median()))
                    .append(c.runs().size() < meta.reps() ? " (" + c.runs().size() + " of " + meta.reps() + ")" : "")
                    .append(" | ")
                    .append(f1(c.min())).append("-").append(f1(c.max())).append(" | ").append(ratio).append(" | ")
                    .append(f1(tpmC)).append(" | ").append(f1(aborts)).append(" | ")
                    .append(medianOrDash(c.runs().stream().map(r -> r.lockWaitsPerTxn).toList(), 3)).append(" | ")
                    .append(medianOrDash(c.runs().stream().map(r -> r.deadlocksPer1000).toList(), 1)).append(" | ")
                    .append(spec).append(" | ")
                    .append(ok ? "ok" : "**VIOLATED**").append(" |\n");
        }
        md.append("\n");
        for (String p : plots) md.append("![").append(p).append("](").append(p).append(")\n\n");
        abortsByType(md, cells);
        if (!meta.failures().isEmpty()) {
            md.append("## Failures\n\n");
            for (String f : meta.failures()) md.append("- ").append(f).append("\n");
            md.append("\n");
        }
        md.append("## Files\n\n- `runs.csv`: one row per run (").append(runs.size()).append(" runs)\n")
                .append("- `runs/CONFIG/repN/ORDER_MIX_cCLIENTS/summary.json`: each run's full summary (latency")
                .append(" percentiles per type, aborts per type and reason, consistency values, machine facts)\n")
                .append("- `runs/CONFIG/repN/session.log`: each JVM's output\n");
        return md.toString();
    }
}
