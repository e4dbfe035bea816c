package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A whole measurement run (load, concurrent terminals in both orders, checks, summaries) at the tests' tiny scale. */
class MeasurementRunTest {

    @TempDir
    Path out;

    List<RunSummary> measure(String config) throws Exception {
        return measure(config, List.of(new Point(StatementOrder.ORIGINAL, Mix.M8_92, 2),
                new Point(StatementOrder.RBW, Mix.M50_50, 3)));
    }

    List<RunSummary> measure(String config, List<Point> points) throws Exception {
        EngineJars jars = EngineJars.locate(null, null);
        MeasurementRun.Plan plan = new MeasurementRun.Plan(EngineOptions.named(config), jars, Scale.tiny(2), points,
                2, 1, 5L, Isolation.SERIALIZABLE, 0, 500, 2, out, true, 1);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int code = MeasurementRun.run(plan, new PrintStream(log, true));
        assertEquals(0, code, log.toString());
        List<RunSummary> runs = new java.util.ArrayList<>();
        for (Point p : points) {
            RunSummary s = RunSummary.read(out.resolve(p.dirName()).resolve("summary.json"));
            assertEquals(p.dirName() + "/summary.json", s.summaryFile, "named relative to the run folder");
            runs.add(s);
        }
        return runs;
    }

    @Test
    void upstreamRunsBothOrdersConsistently() throws Exception {
        List<RunSummary> runs = measure("upstream");
        for (RunSummary s : runs) {
            assertTrue(s.consistencyOk);
            assertTrue(s.committed > 0, "something committed");
            assertEquals(s.committed, s.committedByType.values().stream().mapToLong(Long::longValue).sum());
            assertEquals("HSQL Database Engine", s.engineProduct);
            assertEquals("2.7.4", s.engineVersion);
            assertNotNull(s.machine);
            assertEquals(1, s.rep);
            assertNotNull(s.jitMsInWindow, "HotSpot counts its compiling");
            assertTrue(s.jitMsInWindow >= 0 && s.gcMsInWindow >= 0, s.jitMsInWindow + " " + s.gcMsInWindow);
            // the terminals ran the embedded engine for the whole window: their CPU is counted
            assertEquals(Boolean.TRUE, s.engineInProcess, s.jdbcUrl);
            assertNotNull(s.cpuMsInWindow, "HotSpot counts the process's CPU");
            int cores = Runtime.getRuntime().availableProcessors();
            assertTrue(s.cpuUsPerTxn() > 0 && s.coresBusy() > 0.05 && s.coresBusy() <= cores + 0.1,
                    s.cpuMsInWindow + " ms for " + s.committed + " in " + s.seconds + " s");
            // every transaction allocates (results, rows, the JDBC calls): HotSpot counts it
            assertNotNull(s.allocKbInWindow, "HotSpot counts the heap allocated");
            assertTrue(s.allocKbPerTxn() > 0, s.allocKbInWindow + " KB for " + s.committed);
        }
        assertEquals(8, runs.get(0).consistency.size(), "cheap conditions after the first point");
        assertEquals(12, runs.get(1).consistency.size(), "all conditions after the last point");
        assertTrue(Files.readString(out.resolve("rbw_50-50_c3/summary.json")).contains("\"tpmC\""));
    }

    @Test
    void forkLocksRunsBothOrdersConsistently() throws Exception {
        assumeTrue(Files.isRegularFile(EngineJars.locate(null, null).fork()), "the fork jar is not built");
        for (RunSummary s : measure("fork-locks")) {
            assertTrue(s.consistencyOk);
            assertTrue(s.engineVersion.endsWith("-a2l"), s.engineVersion);
        }
    }

    @Test
    void earlyReleaseConfigurationsRunEveryMixConsistentlyWithoutRollingBackAnything() throws Exception {
        assumeTrue(Files.isRegularFile(EngineJars.locate(null, null).fork()), "the fork jar is not built");
        List<Point> points = new java.util.ArrayList<>();
        for (Mix m : Mix.values()) points.add(new Point(StatementOrder.RBW, m, 3));
        for (String config : List.of("fork-lf-rl", "fork-a2l-rl")) {
            for (RunSummary s : measure(config, points)) {
                assertTrue(s.consistencyOk, config + " " + s.mix);
                assertTrue(s.committed > 0);
                // a statement outside the declared set would be rolled back with 25000: an "other" abort
                assertEquals(0L, s.aborts.byReason().getOrDefault("other", 0L), config + " " + s.mix);
            }
        }
    }

    @Test
    void earlyReleaseConfigurationsRefuseTheOriginalOrder() {
        UsageException e = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> measure("fork-lf-rl", List.of(new Point(StatementOrder.ORIGINAL, Mix.M8_92, 1))));
        assertTrue(e.getMessage().contains("rbw"), e.getMessage());
    }

    @Test
    void restoredPointsStartFromTheLoadedTablesAndStayConsistent() throws Exception {
        restoreBothPoints("upstream", org.hsqldb.a2l.tpcc.engine.DatabaseLocation.memory("tpcc"));
    }

    @Test
    void aFileDatabaseRestoresEveryPointAsInMemory(@TempDir Path files) throws Exception {
        // what compare runs for a NAME@durable configuration: a file database with write_delay=false
        restoreBothPoints("fork-a2l", org.hsqldb.a2l.tpcc.engine.DatabaseLocation.file(files));
    }

    private void restoreBothPoints(String config, org.hsqldb.a2l.tpcc.engine.DatabaseLocation where) throws Exception {
        EngineJars jars = EngineJars.locate(null, null);
        List<Point> points = List.of(new Point(StatementOrder.ORIGINAL, Mix.M8_92, 2), new Point(StatementOrder.RBW, Mix.M8_92, 2));
        MeasurementRun.Plan plan = new MeasurementRun.Plan(EngineOptions.named(config), jars, Scale.tiny(2), points,
                2, 1, 5L, Isolation.SERIALIZABLE, 0, 500, 2, out, true, 1, where, null, out, PointStart.RESTORE);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(0, MeasurementRun.run(plan, new PrintStream(log, true)), log.toString());
        for (Point p : points) {
            RunSummary s = RunSummary.read(out.resolve(p.dirName()).resolve("summary.json"));
            assertTrue(s.consistencyOk);
            assertEquals("restore", s.pointStart);
            assertNotNull(s.pointSetupSeconds);
            assertNotNull(s.loadedCopySeconds);
        }
        assertTrue(log.toString().contains("restored the loaded tables"), log.toString());
    }

    @Test
    void aPointAfterAReadOnlyOneStartsWithoutARestore() throws Exception {
        EngineJars jars = EngineJars.locate(null, null);
        List<Point> points = List.of(new Point(StatementOrder.ORIGINAL, Mix.M100_0, 2), new Point(StatementOrder.ORIGINAL, Mix.M8_92, 2),
                new Point(StatementOrder.ORIGINAL, Mix.M8_92, 1));
        MeasurementRun.Plan plan = new MeasurementRun.Plan(EngineOptions.named("upstream"), jars, Scale.tiny(2), points,
                2, 1, 5L, Isolation.SERIALIZABLE, 0, 500, 2, out, true, 1,
                org.hsqldb.a2l.tpcc.engine.DatabaseLocation.memory("tpcc"), null, out, PointStart.RESTORE);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(0, MeasurementRun.run(plan, new PrintStream(log, true)), log.toString());
        List<RunSummary> s = new java.util.ArrayList<>();
        for (Point p : points) s.add(RunSummary.read(out.resolve(p.dirName()).resolve("summary.json")));
        assertTrue(s.stream().allMatch(x -> x.consistencyOk));
        assertNotNull(s.get(0).pointSetupSeconds, "the first point restores");
        assertEquals(null, s.get(1).pointSetupSeconds, "100-0 wrote nothing: no restore after it");
        assertNotNull(s.get(2).pointSetupSeconds, "8-92 wrote: the next point restores");
        assertTrue(log.toString().contains("read-only and wrote nothing"), log.toString());
    }
}
