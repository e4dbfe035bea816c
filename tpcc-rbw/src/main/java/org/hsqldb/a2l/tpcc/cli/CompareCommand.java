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
import org.hsqldb.a2l.tpcc.report.CompareReport;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import org.hsqldb.a2l.tpcc.report.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The side-by-side comparison. One child JVM per (configuration, repetition): it loads once and
 * measures every point (order x mix x clients) with its own warm-up, the points rotated by one
 * per repetition so no point always runs first. Configurations alternate A B A B across
 * repetitions. Afterwards: runs.csv, report.md and one PNG per mix in results/RUN-ID/.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs upstream against every available fork configuration, in both statement orders,",
                "and writes results/RUN-ID/ (summaries, runs.csv, report.md, throughput_MIX.png).",
                "The defaults are a ~3 minute smoke test, not a result: widen with the options below."})
public final class CompareCommand implements Callable<Integer> {

    static final List<Integer> DEFAULT_CLIENTS = List.of(1, 4);

    @Option(names = "--configs", paramLabel = "NAME", split = ",",
            description = "configurations (default: upstream and every available fork configuration but"
                    + " fork-mvlocks and fork-mvcc)")
    List<String> configs = new ArrayList<>();

    @Option(names = "--plain-reads",
            description = "plain SELECTs where TPC-C reads rows it then updates, in every configuration"
                    + " (default: each configuration's form, FOR UPDATE [OF columns])")
    boolean plainReads;

    @Option(names = "--orders", paramLabel = "ORDER", split = ",", description = "default: original,rbw")
    List<StatementOrder> orders = new ArrayList<>(List.of(StatementOrder.ORIGINAL, StatementOrder.RBW));

    @Option(names = "--mixes", paramLabel = "MIX", split = ",", description = "default: 8-92")
    List<Mix> mixes = new ArrayList<>(List.of(Mix.M8_92));

    @Option(names = "--clients", paramLabel = "N", split = ",", description = "default: 1,4")
    List<Integer> clients = new ArrayList<>(DEFAULT_CLIENTS);

    @Option(names = "--warehouses", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int warehouses = 1;

    @Option(names = "--seconds", paramLabel = "N", description = "measured seconds per point (default: ${DEFAULT-VALUE})")
    int seconds = 5;

    @Option(names = "--warmup", paramLabel = "N", description = "warm-up seconds per point (default: ${DEFAULT-VALUE})")
    int warmup = 3;

    @Option(names = "--reps", paramLabel = "N", description = "repetitions (default: ${DEFAULT-VALUE})")
    int reps = 2;

    @Option(names = "--seed", paramLabel = "N", description = "seed of load and inputs, the same for every run (default: ${DEFAULT-VALUE})")
    long seed = 2015;

    @Option(names = "--isolation", paramLabel = "LEVEL", description = "default: ${DEFAULT-VALUE}")
    Isolation isolation = Isolation.SERIALIZABLE;

    @Option(names = "--retry-backoff-us", paramLabel = "N", description = "see tpcc run --help (default: ${DEFAULT-VALUE})")
    int retryBackoffMicros = 500;

    @Option(names = "--results", paramLabel = "DIR", description = "parent of the run folder (default: ${DEFAULT-VALUE})")
    Path results = Path.of("results");

    @Option(names = "--label", description = "run-id suffix (default: quick for the defaults, else sweep)")
    String label;

    @Option(names = "--jvm-opts", paramLabel = "OPTS", description = "JVM options of each run's JVM (space-separated)")
    String jvmOpts = "";

    @Option(names = "--fork-jar", paramLabel = "JAR") Path forkJar;

    @Option(names = "--upstream-jar", paramLabel = "JAR") Path upstreamJar;

    @Spec
    CommandSpec spec;

    @Option(names = "--command-line", hidden = true, description = "the command as the user typed it, for the report")
    String commandLine;

    @Override
    public Integer call() throws Exception {
        validate();
        EngineJars jars = EngineJars.locate(upstreamJar, forkJar);
        EngineRegistry registry = EngineRegistry.load();
        List<EngineConfig> candidates = new ArrayList<>();
        if (configs.isEmpty()) {
            candidates.add(EngineOptions.named("upstream"));
            // the comparison is upstream LOCKS against the fork's locking modes; upstream's own MV modes
            // on the fork jar are in the registry for the reliability tests, and variants (another
            // form of the reads, a JVM property) for measurements that name them
            registry.all().stream().filter(c -> c.jar() == EngineConfig.JarKind.FORK && !c.isMultiVersion()
                    && !c.isVariant()).forEach(candidates::add);
        } else {
            for (String name : configs) candidates.add(EngineOptions.named(name));
        }
        List<EngineConfig> available = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        for (EngineConfig c : candidates) {
            String reason = Engine.probe(c, jars);
            System.out.printf("config %-18s %s%n", c.name(), reason == null ? "available: " + c.describe()
                    : "NOT AVAILABLE: " + reason);
            if (reason == null) available.add(c);
            else unavailable.put(c.name(), reason);
        }
        if (available.isEmpty()) throw new UsageException("no configuration is available");

        List<Point> points = new ArrayList<>();
        for (Mix m : mixes) for (StatementOrder o : orders) for (int c : clients) points.add(new Point(o, m, c));
        Path runDir = newRunDir();
        long estimate = (long) reps * available.size() * (points.size() * (warmup + seconds + 2L) + 8L + 2L * warehouses);
        System.out.printf("%s: %d configuration(s) x %d repetition(s) x %d point(s), about %d s%n",
                runDir, available.size(), reps, points.size(), estimate);

        long started = System.nanoTime();
        List<String> failures = new ArrayList<>();
        for (int rep = 1; rep <= reps; rep++) {
            List<Point> rotated = new ArrayList<>(points);
            Collections.rotate(rotated, -(rep - 1));
            for (EngineConfig c : available) {
                List<Point> own = TransactionHooks.isRbwOnly(c.hook())
                        ? rotated.stream().filter(p -> p.order() == StatementOrder.RBW).toList() : rotated;
                if (own.isEmpty()) continue;
                Path out = runDir.resolve("runs").resolve(c.name()).resolve("rep" + rep);
                int code = runChild(c, rep, own, runDir, out, jars);
                if (code != 0) failures.add(CompareReport.failure(runDir, c.name(), rep, code, out.resolve("session.log")));
            }
        }
        double elapsed = (System.nanoTime() - started) / 1e9;

        List<RunSummary> runs = new ArrayList<>();
        try (Stream<Path> files = Files.walk(runDir.resolve("runs"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals("summary.json")).sorted().toList()) {
                runs.add(RunSummary.read(f));
            }
        }
        CompareReport.Meta meta = new CompareReport.Meta(runDir.getFileName().toString(),
                commandLine != null ? commandLine : "tpcc " + String.join(" ", rawArgs()),
                available, unavailable, orders, mixes, clients, warehouses, seconds, warmup, reps, seed, isolation,
                jvmOpts, MachineFacts.current(), elapsed, failures, isQuick());
        CompareReport.write(runDir, runs, meta);
        System.out.println("report: " + runDir.resolve("report.md"));
        for (String f : failures) System.out.println("FAILED: " + f);
        return failures.isEmpty() && runs.stream().allMatch(r -> r.consistencyOk) ? Main.OK : Main.FAILED;
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
                && clients.equals(DEFAULT_CLIENTS) && warehouses == 1 && seconds == 5 && warmup == 3 && reps == 2;
        String suffix = label != null ? label : defaults ? "quick" : "sweep";
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm"));
        Path dir = results.resolve(stamp + "-" + suffix);
        for (int n = 2; Files.exists(dir); n++) dir = results.resolve(stamp + "-" + suffix + "-" + n);
        Files.createDirectories(dir);
        return dir.toAbsolutePath();
    }

    private int runChild(EngineConfig c, int rep, List<Point> points, Path runDir, Path out, EngineJars jars)
            throws IOException, InterruptedException {
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
                "--progress", seconds + warmup >= 20 ? "10" : "0", "--rep", "" + rep, "--out", out.toString(),
                "--run-folder", runDir.toString(),
                "--points", String.join(",", points.stream().map(Point::toString).toList())));
        if (plainReads) cmd.add("--plain-reads");
        String prefix = "[" + c.name() + " rep " + rep + "] ";
        System.out.println(prefix + "points " + points);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter log = new PrintWriter(Files.newBufferedWriter(out.resolve("session.log")))) {
            for (String line; (line = r.readLine()) != null; ) {
                log.println(line);
                if (shown(line)) System.out.println(prefix + line);
            }
        }
        return p.waitFor();
    }
}
