package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.FaultInjector;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.ChaosReport;
import org.hsqldb.a2l.tpcc.report.ChaosResult;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The chaos run: the soak's fault-injecting sibling. Every configuration in turn gets its share of
 * the minutes on a file database of its own: runner JVMs with faults (cancels, statement timeouts,
 * connections closed mid-transaction) are killed with SIGKILL every few minutes and the database
 * verified after each kill (see {@link Chaos}). Afterwards: report.md, chaos.json, periods.csv.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs TPC-C on a file database per configuration while injecting statement cancels, statement",
                "timeouts, connections closed mid-transaction, and a SIGKILL of the JVM every few minutes (then",
                "reopening it). Checks the cheap consistency conditions and the empty lock table after every fault",
                "period, and all twelve conditions, every acknowledged commit and the indexes after every kill.",
                "Writes results/<time>-chaos/. Exit code 0 every check held, 1 a check failed, something stalled",
                "or was lost, or a configuration did not run, 2 bad options."})
public final class ChaosCommand implements Callable<Integer> {

    static final List<String> DEFAULT_CONFIGS = List.of("fork-locks", "fork-mvlocks", "fork-mvcc", "fork-lf",
            "fork-a2l", "fork-a2l-latched");

    @Option(names = "--minutes", paramLabel = "N", description = "running time of the whole run, split evenly over the"
            + " configurations (loads and verifies come on top)")
    Integer minutes;

    @Option(names = "--configs", paramLabel = "NAME", split = ",",
            description = "configurations (default: fork-locks,fork-mvlocks,fork-mvcc,fork-lf,fork-a2l,fork-a2l-latched:"
                    + " every lock-manager mode)")
    List<String> configs = new ArrayList<>(DEFAULT_CONFIGS);

    @Option(names = "--warehouses", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int warehouses = 1;

    @Option(names = "--clients", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int clients = 16;

    @Option(names = "--kill-every", paramLabel = "MINUTES",
            description = "SIGKILL the runner this long (+-30%, at random) after its terminals start (default: 2, or"
                    + " less when a configuration's share is too short for one kill at 2, but not under half a minute)")
    Double killEveryMinutes;

    /** The default --kill-every, and the least it is shortened to so that each configuration gets a kill. */
    static final int KILL_EVERY_SECONDS = 120, KILL_EVERY_LEAST_SECONDS = 30;

    @Option(names = "--period-seconds", paramLabel = "N",
            description = "fault period: faults, then the terminals pause and the checks run (default: ${DEFAULT-VALUE})")
    int periodSeconds = 20;

    @Option(names = "--out", paramLabel = "DIR", description = "the run folder (default: RESULTS/<yyyy-MM-ddTHHmm>-chaos)")
    Path out;

    @Option(names = "--results", paramLabel = "DIR", description = "parent of the default run folder (default: ${DEFAULT-VALUE})")
    Path results = Path.of("out", "runs");

    @Option(names = "--seed", paramLabel = "N", description = "seed of loads, inputs, faults and kill moments (default: random, recorded)")
    Long seed;

    @Option(names = "--jvm-opts", paramLabel = "OPTS", description = "JVM options of the runner and verify JVMs (space-separated)")
    String jvmOpts = "";

    @Option(names = "--keep-databases", description = "keep each configuration's database files (a failed one's are always kept)")
    boolean keepDatabases;

    @Option(names = "--fork-jar", paramLabel = "JAR") Path forkJar;

    @Option(names = "--upstream-jar", paramLabel = "JAR") Path upstreamJar;

    // a finer grain for the tests and quick proofs; a chaos run is minutes long
    @Option(names = "--seconds", hidden = true) Integer seconds;

    @Option(names = "--kill-every-seconds", hidden = true) Integer killEverySeconds;

    @Option(names = "--tiny-scale", hidden = true) boolean tinyScale;

    @Option(names = "--hold-ms", hidden = true) int holdMillis = FaultInjector.Settings.HOLD_MILLIS;

    @Option(names = "--stall-seconds", hidden = true) Long stallSeconds;

    @Option(names = "--provoke-stall", hidden = true) boolean provokeStall;

    @Option(names = "--command-line", hidden = true) String commandLine;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        int total = validate();
        EngineJars jars = EngineJars.locate(upstreamJar, forkJar);
        List<EngineConfig> candidates = configs.stream().map(EngineOptions::named).toList();
        int share = total / candidates.size();
        int killEvery = killEvery(share);
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
        long runSeed = MeasurementRun.seedOrRandom(seed);
        long stall = stallSeconds != null ? stallSeconds : Long.getLong("tpcc.stallSeconds", 60);
        Path runDir = runDir();
        System.out.printf("%s: %d configuration(s) x %d s, SIGKILL every %d s +-30%%, fault periods of %d s, %d client(s),"
                + " %d warehouse(s), seed %d%n", runDir, available.size(), share, killEvery, periodSeconds, clients,
                warehouses, runSeed);

        long started = System.nanoTime();
        List<String> failures = new ArrayList<>();
        unavailable.forEach((name, reason) -> failures.add(name + " did not run: " + reason));
        List<ChaosResult> done = new ArrayList<>();
        for (EngineConfig c : available) {
            Path dir = runDir.resolve("configs").resolve(c.name());
            Files.createDirectories(dir);
            ChaosResult r = Chaos.run(new Chaos.Plan(c, jars, share, killEvery, periodSeconds, clients, warehouses,
                    tinyScale, runSeed, jvmOpts, holdMillis, provokeStall, stall, keepDatabases, dir), System.out);
            done.add(r);
            r.failures.forEach(f -> failures.add(c.name() + ": " + f));
            System.out.println("[" + c.name() + "] " + (r.ok ? "every check held, nothing lost" : "FAILED"));
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        ChaosReport.Meta meta = new ChaosReport.Meta(runDir.getFileName().toString(),
                commandLine != null ? commandLine : "tpcc " + String.join(" ", spec.commandLine().getParseResult().originalArgs()),
                MachineFacts.current(), total, share, killEvery, periodSeconds, clients, warehouses,
                tinyScale ? "tiny (tests only, not TPC-C)" : "standard", runSeed, jvmOpts, holdMillis,
                FaultInjector.Settings.defaults(), stall, unavailable, elapsed, failures);
        ChaosReport.write(runDir, done, meta);
        System.out.println("report: " + runDir.resolve("report.md"));
        for (String f : failures) System.out.println("FAILED: " + Main.firstLine(f));
        System.out.println(failures.isEmpty() ? "chaos: every check held, nothing lost, nothing stalled" : "chaos: FAILED");
        return failures.isEmpty() ? Main.OK : Main.FAILED;
    }

    /** Total running seconds. */
    private int validate() {
        if (minutes == null && seconds == null) throw new UsageException("--minutes is required");
        if (minutes != null && minutes < 1) throw new UsageException("--minutes must be at least 1");
        if (seconds != null && seconds < 1) throw new UsageException("--seconds must be at least 1");
        if (configs.isEmpty()) throw new UsageException("--configs needs at least one configuration");
        if (warehouses < 1) throw new UsageException("--warehouses must be at least 1");
        if (clients < 1) throw new UsageException("--clients must be at least 1");
        if (periodSeconds < 1) throw new UsageException("--period-seconds must be at least 1");
        if (killEveryMinutes != null && !(killEveryMinutes > 0)) throw new UsageException("--kill-every must be more than 0 minutes");
        if (killEverySeconds != null && killEverySeconds < 1) throw new UsageException("--kill-every-seconds must be at least 1");
        if (holdMillis < 1) throw new UsageException("--hold-ms must be at least 1");
        if (stallSeconds != null && stallSeconds < 1) throw new UsageException("--stall-seconds must be at least 1");
        if (configs.stream().distinct().count() != configs.size()) throw new UsageException("--configs names a configuration twice");
        for (String c : configs) {
            if (!EngineOptions.named(c).isHsqldb()) throw new UsageException(c + " is not an HSQLDB configuration");
        }
        return seconds != null ? seconds : minutes * 60;
    }

    /**
     * The seconds between kills: as given, or the default shortened so that a configuration's
     * {@code share} holds one kill at +30% and the shortest last segment after it (with less the
     * first kill might fall past the end, and a run would have no kill at all).
     */
    private int killEvery(int share) {
        int tail = Chaos.minimumTail(periodSeconds);
        boolean given = killEverySeconds != null || killEveryMinutes != null;
        int killEvery = killEverySeconds != null ? killEverySeconds
                : killEveryMinutes != null ? (int) Math.max(1, Math.round(killEveryMinutes * 60)) : KILL_EVERY_SECONDS;
        int fits = (int) Math.floor((share - tail) / 1.3);
        if (!given && fits < killEvery) killEvery = Math.max(fits, KILL_EVERY_LEAST_SECONDS);
        int needed = (int) Math.ceil(killEvery * 1.3) + tail;
        if (share < needed) {
            throw new UsageException(share + " s per configuration (" + configs.size() + " of them) is too short: a kill"
                    + " every " + killEvery + " s (+-30%) needs at least " + needed + " s each (give more --minutes,"
                    + " fewer --configs" + (given ? " or a shorter --kill-every)" : ")"));
        }
        return killEvery;
    }

    private Path runDir() throws IOException {
        Path dir = out;
        if (dir == null) {
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm"));
            dir = results.resolve(stamp + "-chaos");
            for (int n = 2; Files.exists(dir); n++) dir = results.resolve(stamp + "-chaos-" + n);
        } else if (Files.isDirectory(dir.resolve("configs"))) {
            throw new UsageException(dir + " holds a chaos run already");
        }
        Files.createDirectories(dir);
        return dir.toAbsolutePath();
    }
}
