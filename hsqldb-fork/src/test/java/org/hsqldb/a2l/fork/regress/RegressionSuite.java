package org.hsqldb.a2l.fork.regress;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.hsqldb.a2l.fork.EngineMode;
import org.hsqldb.a2l.fork.regress.ScriptRunner.RunResult;

/**
 * The differential regression suite: upstream's TestSelf scripts on the
 * unmodified 2.7.4 jar (verbatim, then in each mode the fork needs a
 * counterpart for), then on the fork in every requested mode that its patch
 * series has, compared by {@link Comparison}. Each run has a copy of its engine
 * of its own ({@link RunEngine}), as if it ran in a JVM of its own.
 */
public final class RegressionSuite {

    /**
     * @param modes     the fork modes to run (all when empty)
     * @param glob      which scripts (file-name glob; null for all)
     * @param scriptDir where the scripts are
     * @param workDir   where file databases and per-run check records go
     * @param threads   runs executed at once
     * @param log       progress lines, or null for none
     */
    public record Options(List<EngineMode> modes, String glob, Path scriptDir, Path workDir, int threads,
                          PrintStream log) {}

    /** The default place of upstream's scripts: system property testself.dir (set by the pom and scripts/regress). */
    public static Path defaultScriptDir() {
        String dir = System.getProperty("testself.dir");
        if (dir == null || !Files.isDirectory(Path.of(dir))) {
            throw new IllegalStateException("testself.dir does not name the directory of upstream's TestSelf*.txt"
                    + " scripts (../shared/hsqldb-testself next to the repository): " + dir);
        }
        return Path.of(dir);
    }

    static final Duration UNIT_TIMEOUT = Duration.ofSeconds(120);

    private RegressionSuite() {}

    public static Comparison.Report run(Options o) throws InterruptedException {
        List<ScriptPlan.Unit> units = ScriptPlan.units(o.scriptDir(), o.glob());
        if (units.isEmpty()) {
            throw new IllegalArgumentException("no script in " + o.scriptDir() + " matches " + o.glob());
        }
        List<EngineMode> requested = o.modes().isEmpty() ? EngineMode.all() : o.modes();
        Map<EngineMode, String> skipped = new LinkedHashMap<>();
        List<EngineMode> forkModes = new ArrayList<>();
        for (EngineMode m : requested) {
            if (m.isApplied()) {
                forkModes.add(m);
            } else {
                skipped.put(m, "patch " + m.patch() + " is not in the applied prefix of the series");
            }
        }
        Set<EngineMode> upstreamModes = new LinkedHashSet<>();
        forkModes.forEach(m -> upstreamModes.add(m.upstreamCounterpart()));

        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, o.threads()));
        try {
            // each run its own copy of its engine (RunEngine): runs going on at once share no static state
            Future<RunResult> upstream = pool.submit(() -> run(o, "upstream", upstreamEngine(), null, units));
            Map<EngineMode, Future<RunResult>> upstreamRuns = new LinkedHashMap<>();
            Map<EngineMode, Future<RunResult>> forkRuns = new LinkedHashMap<>();
            for (EngineMode m : upstreamModes) {
                upstreamRuns.put(m, pool.submit(() -> run(o, "upstream-" + m.id(), upstreamEngine(), m, units)));
            }
            for (EngineMode m : forkModes) {
                forkRuns.put(m, pool.submit(() -> run(o, "fork-" + m.id(), forkEngine(), m, units)));
            }
            return Comparison.compare(get(upstream), getAll(upstreamRuns), getAll(forkRuns), skipped);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The engine of one upstream run: a copy of its own (see {@link RunEngine}). */
    static ScriptRunner.ConnectionFactory upstreamEngine() {
        return RunEngine.upstream();
    }

    /** The engine of one fork run: a copy of its own (see {@link RunEngine}). */
    static ScriptRunner.ConnectionFactory forkEngine() {
        return RunEngine.fork();
    }

    private static RunResult run(Options o, String name, ScriptRunner.ConnectionFactory engine, EngineMode mode,
                                 List<ScriptPlan.Unit> units) {
        Path dir = o.workDir().resolve(name);
        RunResult r = new ScriptRunner(name, engine, mode, o.scriptDir(), dir.resolve("db"), UNIT_TIMEOUT).run(units);
        CheckLog.write(dir.resolve("checks.tsv"), r);
        if (o.log() != null) {
            o.log().printf("%-18s %5d checks, %3d fail, %2d substitution(s), %5.1f s  (%s)%n", name,
                    r.checks().size(), r.failed(), r.substitutions().size(), r.elapsed().toMillis() / 1000.0,
                    dir.resolve("checks.tsv"));
        }
        return r;
    }

    private static <T> T get(Future<T> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    private static Map<EngineMode, RunResult> getAll(Map<EngineMode, Future<RunResult>> futures)
            throws InterruptedException {
        Map<EngineMode, RunResult> out = new LinkedHashMap<>();
        for (Map.Entry<EngineMode, Future<RunResult>> e : futures.entrySet()) {
            out.put(e.getKey(), get(e.getValue()));
        }
        return out;
    }
}
