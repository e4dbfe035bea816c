package org.hsqldb.a2l.tpcc.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.TransactionHooks;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import org.hsqldb.a2l.tpcc.isolation.Anomaly;
import org.hsqldb.a2l.tpcc.isolation.IsolationTable;
import org.hsqldb.a2l.tpcc.report.CompareReport;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import org.hsqldb.a2l.tpcc.report.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The side-by-side comparison. One child JVM per (configuration, repetition): it loads once and
 * measures every point (order x mix x clients) with its own warm-up, each point starting from the
 * loaded database ({@link PointStart}), the points rotated by one per repetition so no point always
 * runs first. Configurations alternate A B A B across repetitions. Before it starts it prints the plan
 * and its estimated duration ({@link CompareCost}); while it runs, one progress line per point on
 * stderr ({@link CompareProgress}). Afterwards: runs.csv, report.md and PNGs per mix in results/RUN-ID/.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs upstream (LOCKS, MVLOCKS, MVCC) against every available fork configuration, in both",
                "statement orders, and writes out/runs/RUN-ID/ (summaries, runs.csv, report.md, PNGs; --results results keeps it in the tree).",
                "The defaults are a smoke test (about 4 minutes here, more with the build), not a result: widen with the options below,",
                "or run --preset headline (the one long run, under 90 minutes)."})
public final class CompareCommand implements Callable<Integer> {

    static final class PresetConverter implements picocli.CommandLine.ITypeConverter<Preset> {
        @Override
        public Preset convert(String value) {
            try {
                return Preset.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final List<Integer> DEFAULT_CLIENTS = List.of(4);

    @Option(names = "--configs", paramLabel = "NAME", split = ",",
            description = "configurations (default: upstream, upstream-mvlocks, upstream-mvcc and every available"
                    + " fork configuration but fork-mvlocks and fork-mvcc)")
    List<String> configs = new ArrayList<>();

    @Option(names = "--plain-reads",
            description = "plain SELECTs where TPC-C reads rows it then updates, in every configuration"
                    + " (default: each configuration's form, FOR UPDATE [OF columns])")
    boolean plainReads;

    @Option(names = "--orders", paramLabel = "ORDER", split = ",", description = "default: original,rbw")
    List<StatementOrder> orders = new ArrayList<>(List.of(StatementOrder.ORIGINAL, StatementOrder.RBW));

    @Option(names = "--mixes", paramLabel = "MIX", split = ",", description = "default: 8-92")
    List<Mix> mixes = new ArrayList<>(List.of(Mix.M8_92));

    @Option(names = "--clients", paramLabel = "N", split = ",", description = "default: 4")
    List<Integer> clients = new ArrayList<>(DEFAULT_CLIENTS);

    @Option(names = "--warehouses", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int warehouses = 1;

    @Option(names = "--seconds", paramLabel = "N", description = "measured seconds per point (default: ${DEFAULT-VALUE})")
    int seconds = 3;

    @Option(names = "--warmup", paramLabel = "N", description = "warm-up seconds per point (default: ${DEFAULT-VALUE})")
    int warmup = 2;

    @Option(names = "--reps", paramLabel = "N", description = "repetitions (default: ${DEFAULT-VALUE})")
    int reps = 1;

    @Option(names = "--seed", paramLabel = "N", description = "seed of load and inputs, the same for every run (default: ${DEFAULT-VALUE})")
    long seed = 2015;

    @Option(names = "--isolation", paramLabel = "LEVEL", description = "default: ${DEFAULT-VALUE}")
    Isolation isolation = Isolation.SERIALIZABLE;

    @Option(names = "--retry-backoff-us", paramLabel = "N", description = "see tpcc run --help (default: ${DEFAULT-VALUE})")
    int retryBackoffMicros = 500;

    @Option(names = "--results", paramLabel = "DIR", description = "parent of the run folder (default: ${DEFAULT-VALUE})")
    Path results = Path.of("out", "runs");

    @Option(names = "--label", description = "run-id suffix (default: quick for the defaults, else sweep)")
    String label;

    @Option(names = "--jvm-opts", paramLabel = "OPTS", description = "JVM options of each run's JVM (space-separated)")
    String jvmOpts = "";

    @Option(names = "--fork-jar", paramLabel = "JAR") Path forkJar;

    @Option(names = "--upstream-jar", paramLabel = "JAR") Path upstreamJar;

    @Option(names = "--baseline-jar", paramLabel = "JAR",
            description = "another fork jar (an earlier build, say): configurations named NAME@baseline (fork-a2l@baseline)"
                    + " run fork configuration NAME on it, beside the others, to measure a change in one run")
    Path baselineJar;

    @picocli.CommandLine.Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Option(names = "--command-line", hidden = true, description = "the command as the user typed it, for the report")
    String commandLine;

    @Option(names = "--preset", paramLabel = "NAME", converter = PresetConverter.class,
            description = {"headline: the one long run (within 90 min here): upstream and upstream-mvlocks, fork-a2l,"
                    + " fork-a2l-cell (and h2, postgresql, fork-lf, derby where available and the budget allows), 4 warehouses,"
                    + " clients 1,2,8,16, mixes 8-92 and 100-0 (50-50 if it fits); durations chosen to fit, printed"
                    + " first. Options given beside it override it (e.g. short durations for a smoke run of its shape)."})
    Preset preset;

    @Option(names = "--dry-run", description = "print the plan (configurations, points, durations, estimated time) and stop")
    boolean dryRun;

    @Option(names = "--isolation-table", negatable = true, defaultValue = "false", fallbackValue = "true",
            description = {"after the measurements, play the anomaly schedules (tpcc isolation) on the run's"
                    + " configurations into the run folder, for the report's isolation table (about 20 s per"
                    + " configuration; default: on with --preset headline, else off)"})
    boolean isolationTable;

    @Option(names = "--point-start", paramLabel = "HOW", converter = MeasurementRunCommand.PointStartConverter.class,
            description = {"what each point starts from: restore (HSQLDB: a copy of the loaded database), reload"
                    + " (load again), or carry (the database the previous point left: the old way, biased)"
                    + " (default: restore for HSQLDB, reload for other engines)"})
    PointStart pointStart;

    /** The costs the plan and the progress estimate use. */
    CompareCost cost = CompareCost.DEFAULT;

    /** What each configuration's points start from. */
    PointStart startFor(EngineConfig c) {
        return pointStart != null ? pointStart : PointStart.sameDatabaseFor(c);
    }

    private boolean given(String option) {
        return spec != null && spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    @Override
    public Integer call() throws Exception {
        validate();
        client.shape();
        EngineJars jars = EngineJars.locate(upstreamJar, forkJar).withBaseline(baselineJar);
        EngineRegistry registry = EngineRegistry.load();
        List<EngineConfig> candidates = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        if (!configs.isEmpty()) {
            for (String name : configs) candidates.add(EngineOptions.named(name));
        } else if (preset == Preset.HEADLINE) {
            for (String name : Preset.HEADLINE_CONFIGS) {
                registry.find(name).ifPresentOrElse(candidates::add,
                        () -> unavailable.put(name, "not in this build's engine registry (engine-configs.txt)"));
            }
        } else {
            candidates.addAll(defaultConfigs(registry));
        }
        List<EngineConfig> available = new ArrayList<>();
        for (EngineConfig c : candidates) {
            String reason = Engine.probe(c, jars);
            System.out.printf("config %-18s %s%n", c.name(), reason == null ? "available: " + c.describe()
                    : "NOT AVAILABLE: " + reason);
            if (reason == null) available.add(c);
            else unavailable.put(c.name(), reason);
        }
        unavailable.forEach((name, reason) -> {
            if (candidates.stream().noneMatch(c -> c.name().equals(name))) {
                System.out.printf("config %-18s SKIPPED: %s%n", name, reason);
            }
        });
        if (available.isEmpty()) throw new UsageException("no configuration is available");

        // the isolation table is cheap: it covers the configurations a preset leaves out for time too
        List<EngineConfig> isolationConfigs = List.copyOf(available);
        List<Point> points;
        Double presetPlan = null;
        if (preset == Preset.HEADLINE) {
            if (!given("--warehouses")) warehouses = Preset.HEADLINE_WAREHOUSES;
            if (!given("--clients")) clients = new ArrayList<>(Preset.HEADLINE_CLIENTS);
            Preset.Fit fit = Preset.fit(available, configs.isEmpty() ? 4 : available.size(), clients, warehouses, cost,
                    this::startFor);
            Preset.Choice choice = fit.choice();
            for (String name : fit.leftOut()) {
                available.removeIf(c -> c.name().equals(name));
                String reason = "left out so that the preset fits its " + CompareCost.duration(Preset.BUDGET_SECONDS)
                        + " budget here (run it with --configs)";
                unavailable.put(name, reason);
                System.out.printf("config %-18s SKIPPED: %s%n", name, reason);
            }
            if (!given("--warmup")) warmup = choice.rung().warmup();
            if (!given("--seconds")) seconds = choice.rung().seconds();
            if (!given("--reps")) reps = choice.rung().reps();
            if (!given("--mixes")) mixes = new ArrayList<>(choice.rung().mixes());
            points = Preset.points(mixes, clients);
            if (given("--orders")) points = points.stream().filter(p -> orders.contains(p.order())).toList();
            orders = points.stream().map(Point::order).distinct().toList();
            Preset.Rung rung = choice.rung();
            System.out.printf("preset %s: for %d available configuration(s) at %d warehouse(s) its ladder gives %s,"
                            + " %d s warm-up + %d s measured, %d repetitions (%s): planned %s, which %s the %s budget%n",
                    preset, available.size(), warehouses, rung.mixes().stream().map(m -> m.label).toList(),
                    rung.warmup(), rung.seconds(), rung.reps(),
                    rung.meetsDesign() ? "the method's durations" : "SHORTER than the method's 20 s + 30 s",
                    CompareCost.duration(choice.seconds()), choice.fits() ? "fits" : "DOES NOT FIT",
                    CompareCost.duration(Preset.BUDGET_SECONDS));
            List<String> overridden = java.util.stream.Stream.of("--warehouses", "--clients", "--warmup", "--seconds",
                    "--reps", "--mixes", "--orders").filter(this::given).toList();
            if (!overridden.isEmpty()) {
                System.out.printf("preset %s: %s given, so the plan below is not the preset's own%n", preset,
                        String.join(", ", overridden));
            }
        } else {
            points = new ArrayList<>();
            for (Mix m : mixes) for (StatementOrder o : orders) for (int c : clients) points.add(new Point(o, m, c));
        }
        List<CompareCost.Job> jobs = Preset.jobs(available, points, reps, this::startFor);
        double planned = cost.totalSeconds(jobs, warehouses, warmup, seconds);
        if (preset != null) presetPlan = planned;
        System.out.printf("plan: %d configuration(s) x %d repetition(s), %d JVM(s), %d point(s) in all (%s),"
                        + " %d warehouse(s), %d s warm-up + %d s measured per point: about %s%n",
                available.size(), reps, jobs.size(), jobs.stream().mapToInt(j -> j.points().size()).sum(),
                describePoints(points), warehouses, warmup, seconds, CompareCost.duration(planned));
        if (dryRun) {
            for (CompareCost.Job j : jobs) {
                System.out.printf("  %-18s rep %d, %2d point(s), each from %s: %s%n", j.config(), j.rep(),
                        j.points().size(), j.start(), j.points());
            }
            System.out.println("dry run: nothing measured");
            return Main.OK;
        }
        Path runDir = newRunDir();
        System.out.println("run folder: " + runDir);

        CompareProgress progress = CompareProgress.of(jobs, cost, warehouses, warmup, seconds, System::nanoTime);
        long started = System.nanoTime();
        List<String> failures = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            CompareCost.Job job = jobs.get(j);
            EngineConfig c = available.stream().filter(x -> x.name().equals(job.config())).findFirst().orElseThrow();
            Path out = runDir.resolve("runs").resolve(c.name()).resolve("rep" + job.rep());
            progress.jobStarted(j);
            System.err.printf("compare: JVM %d/%d, %s rep %d (%d point(s)); %s%n", j + 1, jobs.size(), c.name(),
                    job.rep(), job.points().size(), progress.line().substring("compare: ".length()));
            int code = runChild(c, job, runDir, out, jars, progress, j);
            progress.jobEnded(j);
            if (code != 0) {
                failures.add(CompareReport.failure(runDir, c.name(), job.rep(), code, out.resolve("session.log")));
                System.err.println(progress.line() + " (" + c.name() + " rep " + job.rep() + " failed)");
            }
        }
        // given in either form, the option decides; else the headline has the table and other runs do not
        if (given("--isolation-table") ? isolationTable : preset == Preset.HEADLINE) {
            System.err.println("compare: the isolation table for " + isolationConfigs.size() + " configuration(s)");
            try {
                IsolationTable.run(isolationConfigs, jars, new IsolationTable.Options(500, 30_000, isolation,
                        List.of(Anomaly.values())), System.out).write(runDir);
            } catch (RuntimeException e) {
                failures.add("the isolation table: " + e);
            }
        }
        double elapsed = (System.nanoTime() - started) / 1e9;

        List<RunSummary> runs = new ArrayList<>();
        Path runsDir = runDir.resolve("runs");
        if (Files.isDirectory(runsDir)) {
            try (Stream<Path> files = Files.walk(runsDir)) {
                for (Path f : files.filter(p -> p.getFileName().toString().equals("summary.json")).sorted().toList()) {
                    runs.add(RunSummary.read(f));
                }
            }
        }
        // the machine as a measuring JVM saw it (its heap and flags), not as this one does
        MachineFacts machine = runs.stream().map(r -> r.machine).filter(java.util.Objects::nonNull).findFirst()
                .orElseGet(MachineFacts::current);
        CompareReport.Meta meta = new CompareReport.Meta(runDir.getFileName().toString(),
                commandLine != null ? commandLine : "tpcc " + String.join(" ", rawArgs()),
                available, unavailable, orders, mixes, clients, warehouses, seconds, warmup, reps, seed, isolation,
                jvmOpts, machine, elapsed, failures, isQuick(), preset == null ? null : preset.label,
                describeStart(available), planned);
        CompareReport.write(runDir, runs, meta);
        System.out.println("report: " + runDir.resolve("report.md"));
        System.err.printf("compare: done in %s (planned %s)%n", CompareCost.duration(elapsed), CompareCost.duration(planned));
        for (String f : failures) System.out.println("FAILED: " + f);
        return failures.isEmpty() && runs.stream().allMatch(r -> r.consistencyOk) ? Main.OK : Main.FAILED;
    }

    /**
     * Upstream in each of its modes (LOCKS, MVLOCKS, MVCC: the registry's upstream configurations) and every fork
     * configuration but the fork's copies of upstream's MV modes (fork-mvlocks, fork-mvcc, there for the
     * reliability tests); variants (another form of the reads, a JVM property) are for measurements that
     * name them.
     */
    static List<EngineConfig> defaultConfigs(EngineRegistry registry) {
        List<EngineConfig> out = new ArrayList<>();
        registry.all().stream().filter(c -> c.jar() == EngineConfig.JarKind.UPSTREAM && !c.isVariant())
                .forEach(out::add);
        registry.all().stream().filter(c -> c.jar() == EngineConfig.JarKind.FORK && !c.isMultiVersion()
                && !c.isVariant()).forEach(out::add);
        return out;
    }

    private static String describePoints(List<Point> points) {
        Map<String, List<String>> byMix = new LinkedHashMap<>();
        for (Point p : points) {
            List<String> orders = byMix.computeIfAbsent(p.mix().label, k -> new ArrayList<>());
            if (!orders.contains(p.order().label)) orders.add(p.order().label);
        }
        List<Integer> cs = points.stream().map(Point::clients).distinct().toList();
        List<String> parts = new ArrayList<>();
        byMix.forEach((m, os) -> parts.add(m + " " + String.join("+", os)));
        return String.join(", ", parts) + " x clients " + cs;
    }

    /** The report's sentence on what each point started from. */
    private String describeStart(List<EngineConfig> available) {
        Map<PointStart, List<String>> by = new java.util.EnumMap<>(PointStart.class);
        for (EngineConfig c : available) by.computeIfAbsent(startFor(c), k -> new ArrayList<>()).add(c.name());
        List<String> parts = new ArrayList<>();
        by.forEach((how, names) -> parts.add(switch (how) {
            case RESTORE -> "copies its loaded tables into schema TPCC_LOADED after the load and re-creates the"
                    + " TPC-C tables from that copy before every point (but a point after a read-only one, which"
                    + " changed nothing): every point starts from the same loaded rows";
            case RELOAD -> "loads the database again before every point but the first: every point starts from"
                    + " the same loaded database";
            case CARRY -> "carries the database over from point to point (the old way: New-Order grows it, so"
                    + " later points measure a bigger database than earlier ones)";
        } + (by.size() > 1 ? " (" + String.join(", ", names) + ")" : "")));
        return "Each JVM " + String.join("; ", parts) + ".";
    }

    private List<String> rawArgs() {
        return spec.commandLine().getParseResult().originalArgs();
    }

    private void validate() {
        if (clients.isEmpty() || clients.stream().anyMatch(c -> c < 1)) throw new UsageException("--clients must all be at least 1");
        if (warehouses < 1) throw new UsageException("--warehouses must be at least 1");
        if (seconds < 1) throw new UsageException("--seconds must be at least 1");
        if (warmup < 0) throw new UsageException("--warmup must not be negative");
        if (reps < 1) throw new UsageException("--reps must be at least 1");
        if (orders.isEmpty() || mixes.isEmpty()) throw new UsageException("--orders and --mixes need at least one value");

    }

    /** The child's headline lines; its full output is in session.log. */
    private static boolean shown(String line) {
        if (line.startsWith("load: ")) return line.contains(" rows in ");
        // upstream HSQLDB 2.7.4 prints this from TransactionManagerCommon.setWaitingSessionTPL
        if (line.startsWith("latch count ")) return false;
        return !line.startsWith(" ") || line.startsWith("   committed") || line.startsWith("   consistency")
                || line.startsWith("   OTHER") || line.startsWith("     ") && line.contains("FAIL");
    }

    boolean isQuick() {
        return seconds < 30 || warmup < 20 || reps < 3;
    }

    private Path newRunDir() throws IOException {
        boolean defaults = configs.isEmpty() && orders.size() == 2 && mixes.equals(List.of(Mix.M8_92))
                && clients.equals(DEFAULT_CLIENTS) && warehouses == 1 && seconds == 3 && warmup == 2 && reps == 1
                && preset == null;
        String suffix = label != null ? label : defaults ? "quick" : preset != null ? preset.label : "sweep";
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm"));
        Path dir = results.resolve(stamp + "-" + suffix);
        for (int n = 2; Files.exists(dir); n++) dir = results.resolve(stamp + "-" + suffix + "-" + n);
        Files.createDirectories(dir);
        return dir.toAbsolutePath();
    }

    private int runChild(EngineConfig c, CompareCost.Job job, Path runDir, Path out, EngineJars jars,
                         CompareProgress progress, int jobIndex) throws IOException, InterruptedException {
        Files.createDirectories(out);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : jvmOpts.trim().split("\\s+")) if (!o.isEmpty()) cmd.add(o);
        cmd.add("-Djava.awt.headless=true");
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "measurement-run",
                "--config", c.name(), "--upstream-jar", jars.upstream().toString(),
                "--fork-jar", jars.fork().toString(), "--warehouses", "" + warehouses, "--seconds", "" + seconds,
                "--warmup", "" + warmup, "--seed", "" + seed, "--isolation", isolation.label,
                "--retry-backoff-us", "" + retryBackoffMicros,
                "--progress", seconds + warmup >= 20 ? "10" : "0", "--rep", "" + job.rep(), "--out", out.toString(),
                "--run-folder", runDir.toString(), "--point-start", job.start().label,
                "--points", String.join(",", job.points().stream().map(Point::toString).toList())));
        if (plainReads) cmd.add("--plain-reads");
        cmd.addAll(ClientOptions.args(client.shape()));
        if (jars.baseline() != null) cmd.addAll(List.of("--baseline-jar", jars.baseline().toString()));
        String prefix = "[" + c.name() + " rep " + job.rep() + "] ";
        System.out.println(prefix + "points " + job.points());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter log = new PrintWriter(Files.newBufferedWriter(out.resolve("session.log")))) {
            for (String line; (line = r.readLine()) != null; ) {
                log.println(line);
                if (shown(line)) System.out.println(prefix + line);
                // HumanSummary's first line: the point is measured and checked
                if (line.startsWith("== TPC-C ")) {
                    progress.pointDone(jobIndex);
                    System.err.println(progress.line());
                }
            }
        }
        return p.waitFor();
    }

}
