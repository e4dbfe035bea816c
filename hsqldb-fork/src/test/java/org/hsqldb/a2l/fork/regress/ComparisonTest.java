package org.hsqldb.a2l.fork.regress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hsqldb.a2l.fork.EngineMode;
import org.hsqldb.a2l.fork.regress.ScriptRunner.RunResult;
import org.junit.jupiter.api.Test;

/** What counts as a regression, on fabricated runs. */
class ComparisonTest {

    private static Check check(String script, int line, boolean pass) {
        return new Check(script, script, line, "c", "select 1", "1 rows", pass ? "1 rows" : "2 rows", pass);
    }

    private static RunResult run(String name, EngineMode mode, Check... checks) {
        return new RunResult(name, mode, List.of(checks), List.of(), List.of(), Set.of("A.txt", "B.txt"),
                Duration.ZERO);
    }

    @Test
    void aCheckUpstreamPassesAndTheForkFailsIsARegression() {
        RunResult upstream = run("upstream", null, check("A.txt", 1, true), check("A.txt", 2, false));
        RunResult upstreamMvcc = run("upstream-mvcc", EngineMode.MVCC, check("A.txt", 1, true), check("A.txt", 2, false));
        RunResult forkMvcc = run("fork-mvcc", EngineMode.MVCC, check("A.txt", 1, false), check("A.txt", 2, false));

        Comparison.Report r = Comparison.compare(upstream, Map.of(EngineMode.MVCC, upstreamMvcc),
                Map.of(EngineMode.MVCC, forkMvcc), Map.of());

        assertEquals("2 scripts, 2 checks, 1 regressions", r.summaryLine());
        assertEquals(1, r.regressions().size());
        Comparison.Regression reg = r.regressions().get(0);
        assertEquals(EngineMode.MVCC, reg.mode());
        assertEquals(1, reg.fork().line());
        // the check upstream fails too is listed, not counted
        assertEquals(List.of(check("A.txt", 2, false)), r.upstreamFails());

        String printed = print(r);
        assertTrue(printed.startsWith("2 scripts, 2 checks, 1 regressions\n"), printed);
        assertTrue(printed.contains("upstream fails (1 checks"), printed);
        assertTrue(printed.contains("- A.txt:1 /*c*/, mode mvcc\n"), printed);
        assertTrue(printed.contains("got:      2 rows"), printed);
    }

    @Test
    void theForkIsHeldToUpstreamInTheSameMode() {
        // passes on upstream verbatim, fails on upstream in mvcc: mode-dependent on upstream too
        RunResult upstream = run("upstream", null, check("A.txt", 1, true));
        RunResult upstreamLocks = run("upstream-locks", EngineMode.LOCKS, check("A.txt", 1, true));
        RunResult upstreamMvcc = run("upstream-mvcc", EngineMode.MVCC, check("A.txt", 1, false));
        Map<EngineMode, RunResult> upstreamModes = new LinkedHashMap<>();
        upstreamModes.put(EngineMode.LOCKS, upstreamLocks);
        upstreamModes.put(EngineMode.MVCC, upstreamMvcc);
        Map<EngineMode, RunResult> fork = new LinkedHashMap<>();
        fork.put(EngineMode.LOCKS, run("fork-locks", EngineMode.LOCKS, check("A.txt", 1, true)));
        fork.put(EngineMode.MVCC, run("fork-mvcc", EngineMode.MVCC, check("A.txt", 1, false)));

        Comparison.Report r = Comparison.compare(upstream, upstreamModes, fork, Map.of());

        assertEquals(0, r.regressions().size(), r.regressions().toString());
        assertEquals(List.of(check("A.txt", 1, false)), r.upstreamModeFails().get(EngineMode.MVCC));
        assertTrue(print(r).contains("upstream fails only in mode mvcc (1 checks"), print(r));
    }

    @Test
    void checksTheForkNeverReachedOrUpstreamNeverMadeCount() {
        RunResult upstream = run("upstream", null, check("A.txt", 1, true), check("A.txt", 2, true));
        RunResult upstreamLocks = run("upstream-locks", EngineMode.LOCKS, check("A.txt", 1, true),
                check("A.txt", 2, true));
        Check timeout = new Check("A.txt", "A.txt", 3, "timeout", "", "the unit finishes", "still running", false);
        RunResult forkLocks = run("fork-locks", EngineMode.LOCKS, check("A.txt", 1, true), timeout);

        Comparison.Report r = Comparison.compare(upstream, Map.of(EngineMode.LOCKS, upstreamLocks),
                Map.of(EngineMode.LOCKS, forkLocks), Map.of());

        List<Comparison.Regression> regs = new ArrayList<>(r.regressions());
        assertEquals(2, regs.size(), regs.toString());
        assertTrue(regs.stream().anyMatch(x -> x.fork() == null && x.upstream().line() == 2), "never reached");
        assertTrue(regs.stream().anyMatch(x -> x.upstream() == null && x.fork() == timeout), "a failure upstream never had");
        assertTrue(print(r).contains("(not executed: the run stopped before it)"), print(r));
    }

    @Test
    void skippedModesAreReported() {
        RunResult upstream = run("upstream", null, check("A.txt", 1, true));
        Comparison.Report r = Comparison.compare(upstream, Map.of(), Map.of(),
                Map.of(EngineMode.MVCC, "patch x is not in the applied prefix of the series"));
        assertEquals(0, r.checks());
        assertTrue(print(r).contains("mvcc:        skipped: patch x is not in the applied prefix"), print(r));
        assertNull(r.upstreamModeFails().get(EngineMode.MVCC));
    }

    private static String print(Comparison.Report r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
