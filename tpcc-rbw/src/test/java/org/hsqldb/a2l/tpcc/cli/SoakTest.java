package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.HeapTrend;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import org.hsqldb.a2l.tpcc.report.SoakReport;
import org.hsqldb.a2l.tpcc.report.SoakResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's parts: one configuration's periods in-process at tiny scale, the rotation, the heap verdict. */
class SoakTest {

    @TempDir
    Path out;

    @Test
    void everyMixMeetsBothOrdersWithinEightPeriodsAndRlConfigurationsStayRbw() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 8; i++) seen.add(Soak.turn(i, false, 16).toString());
        assertEquals(8, seen.size(), seen.toString());
        for (int i = 0; i < 8; i++) assertEquals(StatementOrder.RBW, Soak.turn(i, true, 16).order());
        assertEquals("100-0", Soak.turn(3, true, 16).mix().label);
    }

    @Test
    void aHeapThatGrowsWithTheTablesIsFlatOneThatOutgrowsThemIsRising() {
        long mb = 1 << 20;
        List<Long> rows = List.of(1_000_000L, 1_100_000L, 1_100_000L, 1_250_000L);
        // 100 bytes per added row, the load priced them at 300: flat
        HeapTrend.Verdict flat = HeapTrend.judge(List.of(400 * mb, 410 * mb, 409 * mb, 424 * mb), rows, 300);
        assertTrue(flat.judged() && flat.flat(), flat.note());
        // 120 MB more than 250k rows at 300 bytes explain (~72 MB), beyond the 40 MB tolerance
        HeapTrend.Verdict rising = HeapTrend.judge(List.of(400 * mb, 460 * mb, 500 * mb, 592 * mb), rows, 300);
        assertTrue(rising.judged());
        assertFalse(rising.flat(), rising.note());
        assertTrue(rising.note().startsWith("RISING"), rising.note());
        // read-only minutes add no rows: any growth is unexplained
        List<Long> still = List.of(5L, 5L, 5L);
        assertFalse(HeapTrend.judge(List.of(100 * mb, 120 * mb, 140 * mb), still, 300).flat());
        assertFalse(HeapTrend.judge(List.of(100 * mb, 120 * mb), still.subList(0, 2), 300).judged());
    }

    @Test
    void periodsOfSixteenTerminalsAreCheckedInBetweenAndReported() throws Exception {
        EngineJars jars = EngineJars.locate(null, null);
        assumeTrue(Files.isRegularFile(jars.fork()), "the fork jar is not built");
        Path dir = out.resolve("configs/fork-lf");
        Soak.Plan plan = new Soak.Plan(EngineOptions.named("fork-lf"), jars, Scale.tiny(1), 16, 3, 1, 9L,
                Isolation.SERIALIZABLE, 500, 2, dir, DatabaseLocation.memory("tpcc"));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(0, Soak.run(plan, new PrintStream(log, true)), log.toString());

        SoakResult r = SoakResult.read(dir.resolve("soak.json"));
        assertTrue(r.ok, log.toString());
        assertEquals(3, r.periods.size(), log.toString());
        assertEquals(List.of("8-92", "50-50", "80-20"), r.periods.stream().map(p -> p.mix).toList());
        assertEquals(List.of("original", "rbw", "original"), r.periods.stream().map(p -> p.order).toList());
        for (SoakResult.Period p : r.periods) {
            assertTrue(p.consistencyOk, p.violations.toString());
            assertTrue(p.committed > 0, "period " + p.index);
            assertTrue(p.heapAfterGcBytes > 0);
        }
        assertTrue(r.periods.get(2).growingRows > r.periods.get(0).growingRows, "New-Order grew the tables");
        assertTrue(r.indexOk && r.indexCheck.contains("indexes walked: sound"), r.indexCheck);
        assertTrue(r.heap.judged(), r.heap.note());

        SoakReport.write(out, List.of(r), new SoakReport.Meta("test-soak", "tpcc soak --seconds 3", MachineFacts.current(),
                3, 3, 1, 16, 1, 9L, "serializable", false, "", Map.of(), 1.0, List.of()));
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("every check held"), md);
        assertTrue(md.contains("| fork-lf | HSQL Database Engine 2.7.4-a2l |"), md);
        for (String f : List.of("report.md", "periods.csv", "soak.json", "configs/fork-lf/soak.json")) {
            String text = Files.readString(out.resolve(f));
            assertFalse(text.contains(out.toAbsolutePath().toString()), f + " names the run folder's absolute path");
        }
        assertEquals(4, Files.readAllLines(out.resolve("periods.csv")).size());
    }
}
