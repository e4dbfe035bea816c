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
        assertTrue(md.contains("| 8-92 | rbw | 4 | fork-locks | 150.0 | 140.0-160.0 | 1.50 |"), md);
        assertTrue(md.contains("| 8-92 | rbw | 4 | upstream | 100.0 | 90.0-110.0 | 1.00 |"), md);
        assertTrue(md.contains("| 8-92 | rbw | 8 | fork-locks | 70.0 (1 of 2) | 70.0-70.0 | - |"), md);
        assertTrue(md.contains("## Failures\n\n- fork-locks rep 2 exited 1\n"), md);
        assertTrue(md.contains("| fork-a2l | not available | asked for hsqldb.tx=a2l"), md);
        assertTrue(md.contains("![throughput_8-92.png](throughput_8-92.png)"), md);
        assertTrue(Files.size(dir.resolve("throughput_8-92.png")) > 1000);
        List<String> csv = Files.readAllLines(dir.resolve("runs.csv"));
        assertEquals(10, csv.size());
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
}
