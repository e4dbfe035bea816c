package org.hsqldb.a2l.fork.regress;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.hsqldb.a2l.fork.EngineMode;
import org.hsqldb.a2l.fork.regress.ScriptRunner.RunResult;

/**
 * Judges the fork's runs against upstream's.
 *
 * <p>Upstream is run verbatim (its default mode, the scripts as written): the
 * checks it fails there are "upstream fails", listed, never regressions. The
 * fork in mode M is held to upstream in M's {@link EngineMode#upstreamCounterpart()
 * counterpart} (M itself for locks/mvlocks/mvcc, LOCKS for fork-only modes),
 * run the same way (same URL properties, same substitutions), because some
 * checks depend on the mode on upstream too. A regression is then a check
 * that upstream passes in the counterpart mode and the fork in M fails or
 * never reaches, or a failing fork check that upstream never made at all
 * (e.g. a connection the fork refused). Checks that upstream passes verbatim
 * but fails in a mode are listed as mode-dependent upstream fails.
 */
public final class Comparison {

    /** A check upstream passes and the fork, in {@code mode}, does not. */
    public record Regression(EngineMode mode, Check upstream, Check fork) {}

    /** Per fork mode: how it did, and against what. */
    public record ModeSummary(EngineMode mode, String baseline, int checks, long failed, long baselineFailed,
                              int regressions, int substitutions, List<String> notes) {}

    public record Report(int scripts, int checks, List<Regression> regressions, RunResult upstream,
                         List<Check> upstreamFails, Map<EngineMode, List<Check>> upstreamModeFails,
                         List<ModeSummary> modes, Map<EngineMode, String> skipped) {

        public String summaryLine() {
            return scripts + " scripts, " + checks + " checks, " + regressions.size() + " regressions";
        }

        public void print(PrintStream out, boolean verbose) {
            out.println(summaryLine());
            out.printf("  upstream 2.7.4, scripts verbatim: %d checks, %d fail%n",
                    upstream.checks().size(), upstreamFails.size());
            for (ModeSummary m : modes) {
                out.printf("  %-12s fork %d checks, %d fail; %s %d fail; %d regressions; %d substitution(s)%n",
                        m.mode().id() + ":", m.checks(), m.failed(), m.baseline(), m.baselineFailed(),
                        m.regressions(), m.substitutions());
            }
            skipped.forEach((mode, why) -> out.printf("  %-12s skipped: %s%n", mode.id() + ":", why));
            if (!upstreamFails.isEmpty()) {
                out.println("upstream fails (" + upstreamFails.size() + " checks fail on unmodified 2.7.4 too;"
                        + " not regressions):");
                upstreamFails.forEach(c -> out.println("  " + oneLine(c)));
            }
            upstreamModeFails.forEach((mode, fails) -> {
                if (!fails.isEmpty()) {
                    out.println("upstream fails only in mode " + mode.id() + " (" + fails.size()
                            + " checks; the fork in that mode is not held to them):");
                    fails.forEach(c -> out.println("  " + oneLine(c)));
                }
            });
            if (verbose) {
                for (ModeSummary m : modes) {
                    m.notes().forEach(n -> out.println("note [" + m.mode().id() + "]: " + n));
                }
            }
            if (!regressions.isEmpty()) {
                out.println("regressions:");
                for (Regression r : regressions) {
                    Check c = r.fork() != null ? r.fork() : r.upstream();
                    out.println("- " + c.where() + " /*" + c.tag() + "*/, mode " + r.mode().id());
                    if (!c.sql().isEmpty()) {
                        out.println("    sql:      " + indent(c.sql()));
                    }
                    out.println("    expected: " + indent(c.expected()));
                    if (r.upstream() != null) {
                        out.println("    upstream: " + indent(r.upstream().got()));
                    }
                    out.println("    got:      " + indent(r.fork() == null ? "(not executed: the run stopped before it)"
                            : r.fork().got()));
                }
            }
        }

        private static String oneLine(Check c) {
            return c.where() + " /*" + c.tag() + "*/ expected " + flat(c.expected()) + ", got " + flat(c.got());
        }

        private static String flat(String s) {
            String f = s.replace("\n", " / ");
            return f.length() > 160 ? f.substring(0, 160) + "..." : f;
        }

        private static String indent(String s) {
            return s.replace("\n", "\n              ");
        }
    }

    private Comparison() {}

    /**
     * @param upstream      upstream run verbatim
     * @param upstreamModes upstream run in each counterpart mode the fork modes need
     * @param forkModes     the fork in each mode that was run
     * @param skipped       modes not run, and why
     */
    public static Report compare(RunResult upstream, Map<EngineMode, RunResult> upstreamModes,
                                 Map<EngineMode, RunResult> forkModes, Map<EngineMode, String> skipped) {
        List<Check> upstreamFails = upstream.checks().stream().filter(c -> !c.pass()).sorted(ORDER).toList();
        Map<String, Check> verbatim = byKey(upstream.checks());

        Map<EngineMode, List<Check>> modeFails = new LinkedHashMap<>();
        upstreamModes.forEach((mode, run) -> modeFails.put(mode, run.checks().stream()
                .filter(c -> !c.pass())
                .filter(c -> {
                    Check v = verbatim.get(c.key());
                    return v == null || v.pass();
                })
                .sorted(ORDER).toList()));

        List<Regression> regressions = new ArrayList<>();
        List<ModeSummary> summaries = new ArrayList<>();
        int checks = 0;
        Set<String> scripts = new LinkedHashSet<>(upstream.scripts());
        for (Map.Entry<EngineMode, RunResult> e : forkModes.entrySet()) {
            EngineMode mode = e.getKey();
            RunResult fork = e.getValue();
            RunResult base = upstreamModes.get(mode.upstreamCounterpart());
            if (base == null) {
                throw new IllegalArgumentException("no upstream run in mode " + mode.upstreamCounterpart().id()
                        + " to hold the fork's mode " + mode.id() + " to");
            }
            scripts.addAll(fork.scripts());
            List<Regression> found = regressions(mode, base, fork);
            regressions.addAll(found);
            checks += fork.checks().size();
            summaries.add(new ModeSummary(mode, "upstream " + base.mode().id(), fork.checks().size(),
                    fork.failed(), base.failed(), found.size(), fork.substitutions().size(), notes(fork)));
        }
        return new Report(scripts.size(), checks, regressions, upstream, upstreamFails, modeFails, summaries,
                skipped);
    }

    /** The checks {@code base} passes and {@code fork} does not (or never made), and fork fails base never made. */
    static List<Regression> regressions(EngineMode mode, RunResult base, RunResult fork) {
        Map<String, Check> forkByKey = byKey(fork.checks());
        Map<String, Check> baseByKey = byKey(base.checks());
        List<Regression> out = new ArrayList<>();
        for (Check b : base.checks()) {
            Check f = forkByKey.get(b.key());
            if (b.pass() && (f == null || !f.pass())) {
                out.add(new Regression(mode, b, f));
            }
        }
        for (Check f : fork.checks()) {
            if (!f.pass() && !baseByKey.containsKey(f.key())) {
                out.add(new Regression(mode, null, f));
            }
        }
        out.sort(Comparator.comparing((Regression r) -> r.fork() != null ? r.fork() : r.upstream(), ORDER));
        return out;
    }

    private static List<String> notes(RunResult run) {
        List<String> out = new ArrayList<>(run.notes());
        run.substitutions().forEach(s -> out.add("substituted " + s));
        return out;
    }

    private static Map<String, Check> byKey(List<Check> checks) {
        return checks.stream().collect(Collectors.toMap(Check::key, Function.identity(), (a, b) -> a,
                LinkedHashMap::new));
    }

    private static final Comparator<Check> ORDER = Comparator.comparing(Check::unit)
            .thenComparing(Check::script).thenComparingInt(Check::line);
}
