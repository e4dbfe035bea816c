package org.hsqldb.a2l.tpcc.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareReportTest {

    @TempDir
    Path dir;

    static RunSummary run(String config, int rep, int clients, double tps) {
        RunSummary s = new RunSummary();
        s.config = config;
        s.engineProduct = "HSQL Database Engine";
        s.engineVersion = config.startsWith("fork") ? "2.7.4-a2l" : "2.7.4";
        s.rep = rep;
        s.order = "rbw";
        s.mix = "8-92";
        s.warehouses = 1;
        s.clients = clients;
        s.throughputTps = tps;
        s.tpmC = tps * 27;
        Map<String, Long> types = new LinkedHashMap<>();
        for (String t : List.of("NewOrder", "Payment", "Delivery", "OrderStatus", "StockLevel")) types.put(t, 10L);
        s.committedByType = types;
        Map<String, Long> reasons = new LinkedHashMap<>();
        for (String r : List.of("spec_rollback", "deadlock", "serialization_failure", "lock_timeout", "other")) reasons.put(r, 1L);
        s.aborts = new RunSummary.Aborts(5, reasons, Map.of());
        s.engineAbortsPer1000 = 4.0;
        s.consistencyOk = true;
        s.summaryFile = "runs/" + config + "/rep" + rep + "/summary.json";
        return s;
    }

    @Test
    void theReportHasMediansRatiosAPlotAndTheCsv() throws Exception {
        List<RunSummary> runs = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            runs.add(run("upstream", rep, 4, rep == 1 ? 90 : 110));
            runs.add(run("fork-locks", rep, 4, rep == 1 ? 140 : 160));
            runs.add(run("upstream", rep, 1, 50));
            runs.add(run("fork-locks", rep, 1, 50));
        }
        runs.add(run("fork-locks", 1, 8, 70)); // rep 2 of this point failed
        runs.get(0).jitMsInWindow = 40L;
        runs.get(0).gcMsInWindow = 12L;
        runs.get(4).jitMsInWindow = 900L;
        runs.get(4).gcMsInWindow = 30L;
        // upstream at 4 clients, in the harness's JVM (rep 1 through HSQLDB's network server, which
        // the harness starts in its own JVM; rep 2 a summary from before engine_in_process was
        // recorded): 9000 ms of CPU for 900 commits in 10 s (10 000 µs each, 0.90 cores) and
        // 17 600 ms for 1100 in 10 s (16 000 µs, 1.76 cores)
        runs.get(0).jdbcUrl = "jdbc:hsqldb:hsql://127.0.0.1:9001/tpcc";
        runs.get(0).engineInProcess = true;
        runs.get(4).jdbcUrl = "jdbc:hsqldb:mem:tpcc";
        for (int i : new int[] {0, 4}) {
            runs.get(i).seconds = 10;
            runs.get(i).committed = (long) (runs.get(i).throughputTps * 10);
        }
        runs.get(0).cpuMsInWindow = 9000L;
        runs.get(4).cpuMsInWindow = 17600L;
        // and 9000 KB (10 KB each) and 22 000 KB (20 KB each) allocated: median 15 KB
        runs.get(0).allocKbInWindow = 9000L;
        runs.get(4).allocKbInWindow = 22000L;
        // fork-locks at 4 clients against a server process: the harness's CPU is only the client's,
        // not shown
        runs.get(1).jdbcUrl = "jdbc:postgresql://127.0.0.1:5432/tpcc";
        runs.get(1).engineInProcess = false;
        runs.get(1).seconds = 10;
        runs.get(1).committed = 1400;
        runs.get(1).cpuMsInWindow = 5000L;
        runs.get(1).allocKbInWindow = 3000L;
        EngineRegistry registry = EngineRegistry.load();
        CompareReport.Meta meta = new CompareReport.Meta("2026-11-22T0130-quick", "scripts/compare",
                List.of(registry.find("upstream").orElseThrow(), registry.find("fork-locks").orElseThrow()),
                Map.of("fork-a2l", "asked for hsqldb.tx=a2l, the engine runs hsqldb.tx=LOCKS"),
                List.of(StatementOrder.RBW), List.of(Mix.M8_92), List.of(1, 4, 8), 1, 5, 3, 2, 2015,
                Isolation.SERIALIZABLE, "", MachineFacts.current(), 12.5, List.of("fork-locks rep 2 exited 1"), true);
        CompareReport.write(dir, runs, meta);

        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("smoke test, not a result"), md);
        assertTrue(md.contains("Command: `scripts/compare`"), md);
        assertTrue(md.contains("| 8-92 | rbw | 4 | fork-locks | 150.0 | 140.0-160.0 | 1.50 | upstream | 1.50 |"), md);
        assertTrue(md.contains("| 8-92 | rbw | 4 | upstream | 100.0 | 90.0-110.0 | 1.00 | upstream | 1.00 |"), md);
        assertTrue(md.contains("| 8-92 | rbw | 8 | fork-locks | 70.0 (1 of 2) | 70.0-70.0 | - | - | - |"), md);
        assertTrue(md.contains("## Failures\n\n- fork-locks rep 2 exited 1\n"), md);
        assertTrue(md.contains("| fork-a2l | not run | asked for hsqldb.tx=a2l"), md);
        assertTrue(md.contains("![throughput_8-92.png](throughput_8-92.png)"), md);
        assertTrue(Files.size(dir.resolve("throughput_8-92.png")) > 1000);
        assertTrue(md.contains("![speedup_8-92.png](speedup_8-92.png)"), md);
        assertTrue(md.contains("| 8-92 | rbw | 4 | upstream | 900 | 470 | 30 | 21 | 13000 | 1.33 | 15.0 |"), md);
        assertTrue(md.contains("| 8-92 | rbw | 4 | fork-locks | - | - | - | - | - | - | - |"), md);
        List<String> csv = Files.readAllLines(dir.resolve("runs.csv"));
        assertEquals(10, csv.size());
        assertTrue(csv.get(0).endsWith(",jit_ms_in_window,gc_ms_in_window,cpu_ms_in_window,alloc_kb_in_window,summary"), csv.get(0));
        assertTrue(csv.get(1).contains(",40,12,9000,9000,runs/"), csv.get(1));
        assertTrue(csv.get(2).contains(",,,5000,3000,runs/"), csv.get(2));
        assertTrue(csv.get(0).startsWith("run_id,config,engine_version,rep,"), csv.get(0));
    }

    /** Run folders are committed under results/ and read elsewhere: nothing in them may name this machine's paths. */
    @Test
    void nothingWrittenIntoTheRunFolderNamesItsAbsolutePath() throws Exception {
        Path runDir = dir.toAbsolutePath();
        List<RunSummary> runs = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            for (String config : List.of("upstream", "fork-locks")) {
                Path file = runDir.resolve("runs").resolve(config).resolve("rep" + rep).resolve("rbw_8-92_c4")
                        .resolve("summary.json");
                run(config, rep, 4, 100).write(file, runDir);
                runs.add(RunSummary.read(file));
            }
        }
        String failure = CompareReport.failure(runDir, "upstream", 2, 1,
                runDir.resolve("runs").resolve("upstream").resolve("rep2").resolve("session.log"));
        EngineRegistry registry = EngineRegistry.load();
        CompareReport.Meta meta = new CompareReport.Meta(runDir.getFileName().toString(), "scripts/compare",
                List.of(registry.find("upstream").orElseThrow(), registry.find("fork-locks").orElseThrow()), Map.of(),
                List.of(StatementOrder.RBW), List.of(Mix.M8_92), List.of(4), 1, 5, 3, 2, 2015,
                Isolation.SERIALIZABLE, "", MachineFacts.current(), 12.5, List.of(failure), true);
        CompareReport.write(runDir, runs, meta);

        String md = Files.readString(runDir.resolve("report.md"));
        assertTrue(md.contains("- upstream rep 2 exited 1 (see runs/upstream/rep2/session.log)\n"), md);
        assertTrue(Files.readString(runDir.resolve("runs.csv")).contains(",runs/fork-locks/rep1/rbw_8-92_c4/summary.json\n"));
        List<Path> written;
        try (Stream<Path> files = Files.walk(runDir)) {
            written = files.filter(f -> f.toString().matches(".*\\.(md|csv|json)")).toList();
        }
        assertEquals(6, written.size(), written.toString());
        for (Path f : written) {
            String text = Files.readString(f);
            assertFalse(text.contains(runDir.toString()), f + " names the run folder's absolute path:\n" + text);
        }
    }

    @Test
    void abortsByTypeArePooledOverRepetitionsWithoutSpecRollbacks() throws Exception {
        List<RunSummary> runs = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            RunSummary s = run("fork-locks", rep, 4, 100);
            s.committed = 100;
            s.aborts = new RunSummary.Aborts(0, Map.of(), Map.of(
                    "NewOrder", Map.of("deadlock", rep == 1 ? 3L : 1L, "spec_rollback", 7L),
                    "Payment", Map.of("lock_timeout", 1L)));
            runs.add(s);
        }
        EngineRegistry registry = EngineRegistry.load();
        CompareReport.Meta meta = new CompareReport.Meta("2026-11-22T1400-rl", "scripts/compare",
                List.of(registry.find("fork-locks").orElseThrow()), Map.of(),
                List.of(StatementOrder.RBW), List.of(Mix.M8_92), List.of(4), 1, 30, 20, 2, 2015,
                Isolation.SERIALIZABLE, "", MachineFacts.current(), 100, List.of(), false);
        CompareReport.write(dir, runs, meta);

        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("| mix | order | clients | config | NewOrder | Payment | Delivery | OrderStatus | StockLevel |"), md);
        // NewOrder: (3 + 1) deadlocks / 200 committed; Payment: (1 + 1) timeouts / 200
        assertTrue(md.contains("| 8-92 | rbw | 4 | fork-locks | 20.0 | 10.0 | 0.0 | 0.0 | 0.0 |"), md);
    }

    static RunSummary counted(String config, int rep, String order, int clients, double tps, Map<String, Number> counters) {
        RunSummary s = run(config, rep, clients, tps);
        s.order = order;
        s.committed = 1000;
        s.engineCounters = counters;
        if (counters != null && counters.containsKey("waits")) {
            s.lockWaitsPerTxn = counters.get("waits").doubleValue() / 1000;
            s.deadlocksPer1000 = counters.get("deadlocks").doubleValue();
        }
        s.latencyMs = new LinkedHashMap<>();
        for (String t : List.of("NewOrder", "Payment", "Delivery", "OrderStatus", "StockLevel")) {
            s.latencyMs.put(t, new RunSummary.Latency(10, rep, 2.0 * rep, 40 + rep, 100));
        }
        return s;
    }

    /**
     * Three upstream modes, two fork configurations, and holes: upstream LOCKS stalled before 8 clients, MVCC has
     * no rbw point, fork-lf lost a repetition. Every ratio names the best upstream mode that measured the point.
     */
    @Test
    void forkConfigurationsAreComparedWithTheBestUpstreamModeAtEachPointEvenWithPointsMissing() throws Exception {
        Map<String, Number> lockmgr = Map.of("waits", 2000, "deadlocks", 7, "upgrades", 30, "upgrade_waits", 4,
                "upgrade_deadlocks", 1);
        List<RunSummary> runs = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            runs.add(counted("upstream", rep, "original", 1, 100, null));
            runs.add(counted("upstream-mvlocks", rep, "original", 1, 120, null));
            runs.add(counted("upstream-mvcc", rep, "original", 1, 150, null));
            runs.add(counted("upstream-mvlocks", rep, "original", 8, 60, null));
            runs.add(counted("upstream-mvcc", rep, "original", 8, 50, null));
            runs.add(counted("upstream", rep, "rbw", 1, 90, null));
            runs.add(counted("fork-a2l", rep, "original", 1, 300, lockmgr));
            runs.add(counted("fork-a2l", rep, "original", 8, 240, lockmgr));
            runs.add(counted("fork-a2l", rep, "rbw", 1, 270, lockmgr));
            runs.add(counted("fork-locks", rep, "original", 1, 110, Map.of()));
        }
        runs.add(counted("fork-lf", 1, "original", 8, 90, lockmgr));
        EngineRegistry registry = EngineRegistry.load();
        List<org.hsqldb.a2l.tpcc.engine.EngineConfig> configs = new ArrayList<>();
        for (String n : List.of("upstream", "upstream-mvlocks", "upstream-mvcc", "fork-locks", "fork-lf", "fork-a2l")) {
            configs.add(registry.find(n).orElseThrow());
        }
        Files.writeString(dir.resolve("isolation.json"), "[{\"engine\": \"h2\", \"level\": \"SERIALIZABLE\","
                + " \"write_skew\": \"allowed\"}]");
        CompareReport.Meta meta = new CompareReport.Meta("2026-11-24T1200-headline", "scripts/compare --preset headline",
                configs, Map.of("h2", "not in this build's engine registry (engine-configs.txt)"),
                List.of(StatementOrder.ORIGINAL, StatementOrder.RBW), List.of(Mix.M8_92), List.of(1, 8), 4, 30, 20, 2,
                2015, Isolation.SERIALIZABLE, "", MachineFacts.current(), 100, List.of("upstream rep 1 exited 1"), false,
                "headline", "Each JVM restores a copy of its loaded database before every point.", 5000.0);
        meta = new CompareReport.Meta(meta.runId(), meta.commandLine(), meta.configs(), meta.unavailable(), meta.orders(),
                meta.mixes(), meta.clients(), meta.warehouses(), meta.seconds(), meta.warmup(), meta.reps(), meta.seed(),
                meta.isolation(), meta.jvmOpts(), meta.machine(), meta.elapsedSeconds(), meta.failures(), true,
                meta.preset(), meta.pointStart(), meta.plannedSeconds());
        CompareReport.write(dir, runs, meta);
        String md = Files.readString(dir.resolve("report.md"));

        assertTrue(md.contains("| mix | order | clients | config | median txn/s | min-max | x best upstream | best upstream"
                + " | x upstream | x upstream-mvlocks | x upstream-mvcc |"), md);
        assertTrue(md.contains("| 8-92 | original | 1 | fork-a2l | 300.0 | 300.0-300.0 | 2.00 | upstream-mvcc | 3.00 | 2.50 | 2.00 |"), md);
        // upstream measured nothing at 8 clients: the best is the best of those that did
        assertTrue(md.contains("| 8-92 | original | 8 | fork-a2l | 240.0 | 240.0-240.0 | 4.00 | upstream-mvlocks | - | 4.00 | 4.80 |"), md);
        assertTrue(md.contains("| 8-92 | original | 8 | fork-lf | 90.0 (1 of 2) | 90.0-90.0 | 1.50 | upstream-mvlocks |"), md);
        assertTrue(md.contains("| 8-92 | rbw | 1 | fork-a2l | 270.0 | 270.0-270.0 | 3.00 | upstream | 3.00 | - | - |"), md);
        // lock counters: per 1000 committed, n/a where the engine has none
        assertTrue(md.contains("| 8-92 | original | 1 | fork-a2l | 2.000 | 7.0 | 30.0 | 4.0 | 1.0 |"), md);
        assertTrue(md.contains("| 8-92 | original | 1 | upstream | n/a | n/a | n/a | n/a | n/a |"), md);
        assertTrue(md.contains("| 8-92 | original | 1 | fork-locks | n/a | n/a | n/a | n/a | n/a |"), md);
        // latency: median of the repetitions' percentiles (p50 1 and 2, p95 2 and 4, p99 41 and 42)
        assertTrue(md.contains("| 8-92 | original | 1 | fork-a2l | 1.50 / 3.00 / 41.5 |"), md);
        // the thesis' ratios beside ours: A2L original over upstream at 1 client only (8: upstream stalled)
        assertTrue(md.contains("| 8-92 | A2L | fork-a2l original | 1.8 | 3.00-3.00 (highest at 1 client) |"
                + " 2.00-4.00 (highest at 8 clients) |"), md);
        assertTrue(md.contains("| 8-92 | RbW + A2L | fork-a2l rbw | 2.8 | 2.70-2.70 (highest at 1 client) |"), md);
        assertTrue(md.contains("| 8-92 | LF | fork-lf original | 1.14 | - | 1.50-1.50 (highest at 8 clients) |"), md);
        assertTrue(md.contains("| h2 | not run | not in this build's engine registry"), md);
        assertTrue(md.contains("## Isolation\n\n| engine | level | write_skew |\n|---|---|---|\n| h2 | SERIALIZABLE | allowed |"), md);
        assertTrue(md.contains("Preset `headline`: 4 warehouse(s), 20 s warm-up + 30 s measured per point, 2 repetitions"), md);
        assertTrue(md.contains("restores a copy"), md);
        assertTrue(md.contains("**Shorter than the method asks**"), md);
        assertTrue(md.contains("## Failures\n\n- upstream rep 1 exited 1\n"), md);
        assertTrue(md.contains("![speedup_8-92.png](speedup_8-92.png)"), md);
        assertTrue(Files.size(dir.resolve("speedup_8-92.png")) > 1000);
    }

    @Test
    void withoutAnIsolationTableTheSectionSaysNotRun() throws Exception {
        List<RunSummary> runs = List.of(run("upstream", 1, 1, 10));
        CompareReport.Meta meta = new CompareReport.Meta("x", "scripts/compare",
                List.of(EngineRegistry.load().find("upstream").orElseThrow()), Map.of(), List.of(StatementOrder.RBW),
                List.of(Mix.M8_92), List.of(1), 1, 5, 3, 1, 2015, Isolation.SERIALIZABLE, "", MachineFacts.current(), 1,
                List.of(), true);
        CompareReport.write(dir, runs, meta);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("## Isolation\n\nNot run"), md);
        assertTrue(md.contains("## Against the thesis"), md);
        assertTrue(md.contains("Not measured here"), md);
        assertTrue(md.contains("carries the database over") || md.contains("carries over"), md);
    }

    @Test
    void anIsolationTableInTheRunFolderIsTakenWithoutItsTitle() throws Exception {
        Path run = Files.createDirectories(dir.resolve("with-isolation"));
        Files.writeString(run.resolve("isolation.md"), "# Isolation table\n\n## Isolation: schedules\n\n| anomaly | x |\n|---|---|\n| G0 | blocked |\n");
        StringBuilder md = new StringBuilder();
        CompareReport.isolation(md, run);
        assertTrue(md.toString().startsWith("## Isolation\n\n## Isolation: schedules"), md.toString());
        assertTrue(md.toString().contains("| G0 | blocked |"));
        assertFalse(md.toString().contains("# Isolation table"));
    }
}
