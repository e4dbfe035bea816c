package org.hsqldb.a2l.tpcc.report;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Writes a soak's report.md, periods.csv, soak.json (everything) and heap.png. */
public final class SoakReport {

    /** {@code totalSeconds}: what was asked for; {@code secondsPerConfig}: each configuration's share. */
    public record Meta(String runId, String commandLine, MachineFacts machine, int totalSeconds, int secondsPerConfig,
                       int periodSeconds, int clients, int warehouses, long seed, String isolation, boolean server,
                       String jvmOpts, Map<String, String> unavailable, double elapsedSeconds, List<String> failures) {}

    private record Everything(Meta meta, List<SoakResult> configs) {}

    private SoakReport() {}

    public static void write(Path dir, List<SoakResult> results, Meta meta) throws IOException {
        writeCsv(dir.resolve("periods.csv"), results);
        Files.writeString(dir.resolve("soak.json"), RunSummary.GSON.toJson(new Everything(meta, results)) + "\n");
        String plot = "heap.png";
        try {
            plot(dir.resolve(plot), results, meta);
        } catch (RuntimeException | Error e) {
            // a JVM without fonts cannot draw text; the tables still say everything
            System.out.println("could not draw " + plot + ": " + e);
            plot = null;
        }
        Files.writeString(dir.resolve("report.md"), markdown(results, meta, plot));
    }

    private static void writeCsv(Path file, List<SoakResult> results) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("config,period,end_minute,mix,order,seconds,committed,committed_per_minute,new_order,payment,"
                    + "delivery,order_status,stock_level,aborts_spec_rollback,aborts_deadlock,"
                    + "aborts_serialization_failure,aborts_lock_timeout,aborts_other,retries,consistency_ok,"
                    + "check_seconds,heap_after_gc_mb,growing_rows");
            for (SoakResult r : results) {
                for (SoakResult.Period p : r.periods) {
                    Map<String, Long> c = p.committedByType, a = p.aborts;
                    w.println(String.join(",", List.of(r.config, "" + p.index, "" + p.endMinute, p.mix, p.order,
                            "" + p.seconds, "" + p.committed, "" + p.committedPerMinute, "" + c.get("NewOrder"),
                            "" + c.get("Payment"), "" + c.get("Delivery"), "" + c.get("OrderStatus"),
                            "" + c.get("StockLevel"), "" + a.get("spec_rollback"), "" + a.get("deadlock"),
                            "" + a.get("serialization_failure"), "" + a.get("lock_timeout"), "" + a.get("other"),
                            "" + p.retries, "" + p.consistencyOk, "" + p.checkSeconds, f1(mb(p.heapAfterGcBytes)),
                            "" + p.growingRows)));
                }
            }
        }
    }

    private static void plot(Path file, List<SoakResult> results, Meta meta) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(540)
                .title("Soak " + meta.runId() + ": heap used after a full GC, per configuration")
                .xAxisTitle("minutes of running (checks excluded)").yAxisTitle("MB").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setYAxisMin(0.0);
        for (SoakResult r : results) {
            if (r.periods.isEmpty()) continue;
            chart.addSeries(r.config, r.periods.stream().mapToDouble(p -> p.endMinute).toArray(),
                    r.periods.stream().mapToDouble(p -> mb(p.heapAfterGcBytes)).toArray());
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    static double mb(long bytes) {
        return bytes / 1048576.0;
    }

    private static String f1(double x) {
        return String.format(Locale.ROOT, "%.1f", x);
    }

    private static String markdown(List<SoakResult> results, Meta meta, String plot) {
        StringBuilder md = new StringBuilder();
        md.append("# Soak ").append(meta.runId()).append(": ")
                .append(meta.failures().isEmpty() ? "every check held" : "**FAILED**").append("\n\n");
        md.append("Command: `").append(meta.commandLine()).append("`\n\n");
        md.append("Machine: ").append(meta.machine().oneLine()).append("\n\n");
        md.append("Configuration JVM options: ")
                .append(meta.jvmOpts().isBlank() ? "none (JVM defaults)" : "`" + meta.jvmOpts() + "`")
                .append(". Wall time ").append(f1(meta.elapsedSeconds() / 60)).append(" min.\n\n");
        md.append("Method: ").append(meta.totalSeconds() / 60.0 == Math.floor(meta.totalSeconds() / 60.0)
                        ? meta.totalSeconds() / 60 + " minute(s)" : meta.totalSeconds() + " s")
                .append(" of running split evenly: ").append(meta.secondsPerConfig()).append(" s per configuration,")
                .append(" one JVM each, one after the other; ").append(meta.clients()).append(" client(s), ")
                .append(meta.warehouses()).append(" warehouse(s), isolation ").append(meta.isolation())
                .append(", seed ").append(meta.seed()).append(meta.server() ? ", every terminal through"
                        + " org.hsqldb.server.Server on 127.0.0.1" : ", embedded").append(". Each JVM loads, then")
                .append(" its terminals (connections kept throughout) run periods of ").append(meta.periodSeconds())
                .append(" s, each with the next mix (8-92, 50-50, 80-20, 100-0) and the statement order alternating")
                .append(" so every mix meets both (the -rl configurations run rbw only). After each period the")
                .append(" terminals wait at transaction boundaries while all twelve consistency conditions are")
                .append(" checked and the heap is measured after a full GC (System.gc()); at the end PERFORM CHECK")
                .append(" ALL TABLE INDEX walks every index. The load and the checks are not counted in the minutes.\n\n");

        md.append("## Summary\n\n| config | engine | minutes | committed/min (mean) | engine aborts /1000 | other errors |")
                .append(" consistency checks | index check | heap after GC |\n|---|---|---:|---:|---:|---:|---|---|---|\n");
        for (SoakResult r : results) {
            double minutes = r.periods.stream().mapToDouble(p -> p.seconds).sum() / 60;
            long committed = r.periods.stream().mapToLong(p -> p.committed).sum();
            long engineAborts = r.periods.stream().mapToLong(p -> p.aborts.getOrDefault("deadlock", 0L)
                    + p.aborts.getOrDefault("serialization_failure", 0L) + p.aborts.getOrDefault("lock_timeout", 0L)).sum();
            long other = r.periods.stream().mapToLong(p -> p.aborts.getOrDefault("other", 0L)).sum();
            long checksOk = r.periods.stream().filter(p -> p.consistencyOk).count();
            md.append("| ").append(r.config).append(" | ").append(r.engineProduct).append(" ").append(r.engineVersion)
                    .append(" | ").append(f1(minutes)).append(" | ")
                    .append(minutes == 0 ? "-" : f1(committed / minutes)).append(" | ")
                    .append(committed == 0 ? "-" : f1(engineAborts * 1000.0 / committed)).append(" | ")
                    .append(other).append(" | ").append(checksOk).append(" of ").append(r.periods.size()).append(" ok")
                    .append(" | ").append(r.indexCheck == null ? "not run" : (r.indexOk ? "" : "**") + r.indexCheck
                            + (r.indexOk ? "" : "**")).append(" | ")
                    .append(r.heap == null ? "-" : r.heap.judged() ? (r.heap.flat() ? "flat" : "**RISING**")
                            : "not judged").append(" |\n");
        }
        meta.unavailable().forEach((name, reason) ->
                md.append("| ").append(name).append(" | not available: ").append(reason).append(" | | | | | | | |\n"));
        md.append("\n");
        if (plot != null) md.append("![heap after GC](").append(plot).append(")\n\n");
        if (!meta.failures().isEmpty()) {
            md.append("## Failures\n\n");
            for (String f : meta.failures()) md.append("- ").append(f).append("\n");
            md.append("\n");
        }

        for (SoakResult r : results) {
            md.append("## ").append(r.config).append("\n\n").append(r.configDescription).append("; ")
                    .append(r.jdbcUrl).append(". Load ").append(r.loadRows).append(" rows in ").append(r.loadSeconds)
                    .append(" s; heap after GC ").append(f1(mb(r.heapBeforeLoadBytes))).append(" MB before the load, ")
                    .append(f1(mb(r.heapAfterLoadBytes))).append(" MB after (").append(f1(r.loadBytesPerRow))
                    .append(" bytes per loaded row).\n\n");
            md.append("| period | minute | mix | order | committed | per minute | deadlock | serialization | timeout |")
                    .append(" other | spec rollback | consistency | check s | heap after GC MB | growing rows |\n")
                    .append("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
            for (SoakResult.Period p : r.periods) {
                Map<String, Long> a = p.aborts;
                md.append("| ").append(p.index).append(" | ").append(p.endMinute).append(" | ").append(p.mix)
                        .append(" | ").append(p.order).append(" | ").append(p.committed).append(" | ")
                        .append(f1(p.committedPerMinute)).append(" | ").append(a.get("deadlock")).append(" | ")
                        .append(a.get("serialization_failure")).append(" | ").append(a.get("lock_timeout"))
                        .append(" | ").append(a.get("other")).append(" | ").append(a.get("spec_rollback"))
                        .append(" | ").append(p.consistencyOk ? "ok (12)" : "**VIOLATED**").append(" | ")
                        .append(p.checkSeconds).append(" | ").append(f1(mb(p.heapAfterGcBytes))).append(" | ")
                        .append(p.growingRows).append(" |\n");
            }
            md.append("\n");
            for (SoakResult.Period p : r.periods) {
                for (String v : p.violations) md.append("- period ").append(p.index).append(" VIOLATED ").append(v).append("\n");
                for (String e : p.otherErrors) md.append("- period ").append(p.index).append(" other error: ").append(e).append("\n");
            }
            md.append("- index check: ").append(r.indexCheck == null ? "not run" : r.indexCheck).append("\n");
            for (String p : r.indexProblems) md.append("  - ").append(p).append("\n");
            md.append("- heap: ").append(r.heap == null ? "not measured" : r.heap.note()).append("\n");
            for (String f : r.failures) md.append("- **FAILED**: ").append(f).append("\n");
            md.append("\n");
        }
        md.append("## Files\n\n- `periods.csv`: one row per configuration and period\n")
                .append("- `soak.json`: the settings and every configuration's soak.json\n")
                .append("- `configs/CONFIG/soak.json`, `configs/CONFIG/session.log`: each JVM's record and output\n");
        if (plot != null) md.append("- `").append(plot).append("`: heap after GC per minute and configuration\n");
        return md.toString();
    }

}
