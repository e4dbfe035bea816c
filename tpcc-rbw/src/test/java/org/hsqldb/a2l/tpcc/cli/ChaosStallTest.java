package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.report.ChaosResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chaos run whose terminals can never finish (the fault thread locks every table for good) fails
 * loudly with the harness' stall report, neither hangs nor hides the stall behind its kill, and
 * still verifies the database.
 */
class ChaosStallTest {

    @TempDir
    Path tmp;

    @Test
    void aStallFailsTheModeWithItsReportAndTheDatabaseIsStillVerified() throws Exception {
        assumeTrue(Files.isRegularFile(CrashSafetyTest.jars().fork()), "the fork jar is not built");
        Path out = tmp.resolve("run");
        // the kill is due 2.8-5.2 s after the terminals start, the stall is reported 3 s after the first period
        List<String> args = new ArrayList<>(List.of("chaos", "--configs", "fork-locks", "--seconds", "10",
                "--kill-every-seconds", "4", "--period-seconds", "2", "--stall-seconds", "3", "--provoke-stall",
                "--tiny-scale", "--seed", "8", "--out", out.toString(), "--jvm-opts", "-XX:TieredStopAtLevel=1"));
        args.addAll(CrashSafetyTest.jarOptions());
        CrashSafetyTest.Outcome run = CrashSafetyTest.tpcc(args.toArray(String[]::new));
        assertEquals(1, run.code(), run.out());
        // how many terminals are caught inside a statement by then depends on the machine's load
        assertTrue(java.util.regex.Pattern.compile("!!! fork-locks segment 1 period 1: engine stalled: \\d+ of 16"
                + " terminal\\(s\\)").matcher(run.out()).find(), run.out());

        ChaosResult r = ChaosResult.read(out.resolve("configs/fork-locks/chaos.json"));
        assertEquals(1, r.segments.size(), run.out());
        ChaosResult.Segment s = r.segments.get(0);
        assertEquals("stalled", s.ended, run.out());
        assertEquals(0, r.kills, "the kill waited for a commit that never came");
        assertTrue(s.verify.ok, run.out());
        assertEquals(1, r.stalls.size());
        assertTrue(r.stalls.get(0).contains("at org.hsqldb."), "names where the terminals wait: " + r.stalls.get(0));
        assertTrue(r.databaseKept && Files.isRegularFile(out.resolve("configs/fork-locks/db/.gitignore")));
        // every thread of the stalled runner, whole stacks, for finding who holds what the terminals wait for
        assertEquals(List.of("threads-segment-1-stall.txt"), r.periods.stream().map(p -> p.threadDump).toList());
        String dump = Files.readString(out.resolve("configs/fork-locks/threads-segment-1-stall.txt"));
        assertTrue(dump.contains("\"tpcc-terminal-15\"") && dump.contains("at org.hsqldb."), dump);
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.startsWith("# Chaos run: **FAILED**"), md);
        assertTrue(md.contains("engine stalled: 16 of 16 terminal(s)") && md.contains("Stall, as the harness reported it")
                && md.contains("`configs/fork-locks/threads-segment-1-stall.txt`"), md);
    }
}
