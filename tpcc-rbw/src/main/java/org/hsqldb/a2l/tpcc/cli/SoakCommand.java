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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import org.hsqldb.a2l.tpcc.report.RunPaths;
import org.hsqldb.a2l.tpcc.report.SoakReport;
import org.hsqldb.a2l.tpcc.report.SoakResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The soak: every configuration for its share of the minutes, one child JVM each, one after the
 * other. Each child loads, rotates mix (and order, where allowed) every period, checks the
 * consistency conditions between periods with the terminals waiting, records heap after a full
 * GC, and walks the indexes at the end. Afterwards: report.md, periods.csv, soak.json, heap.png.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs TPC-C at 16 clients on every fork configuration for --minutes in total, split evenly",
                "(one JVM each), rotating the mix every minute, checking the consistency conditions every minute",
                "and the indexes at the end, recording heap after GC every minute. Writes results/<time>-soak/.",
                "Exit code 0 every check held, 1 a check failed or a configuration did not run, 2 bad options."})
public final class SoakCommand implements Callable<Integer> {

    static final List<String> DEFAULT_CONFIGS = List.of("fork-locks", "fork-lf", "fork-a2l", "fork-a2l-latched",
            "fork-lf-rl", "fork-a2l-rl");

    @Option(names = "--minutes", paramLabel = "N", description = "running time of the whole soak (loads and checks come on top)")
    Integer minutes;

    @Option(names = "--configs", paramLabel = "NAME", split = ",",
            description = "configurations (default: " + "fork-locks,fork-lf,fork-a2l,fork-a2l-latched,fork-lf-rl,fork-a2l-rl)")
    List<String> configs = new ArrayList<>(DEFAULT_CONFIGS);

    @Option(names = "--warehouses", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int warehouses = 1;

    @Option(names = "--clients", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int clients = 16;

    @Option(names = "--out", paramLabel = "DIR", description = "the run folder (default: RESULTS/<yyyy-MM-ddTHHmm>-soak)")
    Path out;

    @Option(names = "--results", paramLabel = "DIR", description = "parent of the default run folder (default: ${DEFAULT-VALUE})")
    Path results = Path.of("out", "runs");

    @Option(names = "--seed", paramLabel = "N", description = "seed of load and inputs (default: random, recorded)")
    Long seed;

    @Option(names = "--isolation", paramLabel = "LEVEL", description = "default: ${DEFAULT-VALUE}")
    Isolation isolation = Isolation.SERIALIZABLE;

    @Option(names = "--server", description = "every terminal through org.hsqldb.server.Server on 127.0.0.1")
    boolean server;

    @Option(names = "--jvm-opts", paramLabel = "OPTS", description = "JVM options of each configuration's JVM (space-separated)")
    String jvmOpts = "";

    @Option(names = "--fork-jar", paramLabel = "JAR") Path forkJar;

    @Option(names = "--upstream-jar", paramLabel = "JAR") Path upstreamJar;

    // finer grain than minutes, for the tests and quick proofs; a soak is minutes long
    @Option(names = "--seconds", hidden = true) Integer seconds;

    @Option(names = "--period-seconds", hidden = true) int periodSeconds = 60;

    @Option(names = "--tiny-scale", hidden = true) boolean tinyScale;

    @Option(names = "--command-line", hidden = true) String commandLine;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        int total = validate();
        EngineJars jars = EngineJars.locate(upstreamJar, forkJar);
        List<EngineConfig> candidates = configs.stream().map(EngineOptions::named).toList();
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
        int share = total / candidates.size();
        if (share < 1) throw new UsageException(total + " s cannot be shared by " + candidates.size() + " configurations");
        long runSeed = MeasurementRun.seedOrRandom(seed);
        Path runDir = runDir();
        System.out.printf("%s: %d configuration(s) x %d s running, periods of %d s, %d client(s), %d warehouse(s),"
                + " seed %d%n", runDir, available.size(), share, periodSeconds, clients, warehouses, runSeed);

        long started = System.nanoTime();
        List<String> failures = new ArrayList<>();
        unavailable.forEach((name, reason) -> failures.add(name + " did not run: " + reason));
        List<SoakResult> done = new ArrayList<>();
        for (EngineConfig c : available) {
            Path dir = runDir.resolve("configs").resolve(c.name());
            int code = runChild(c, share, runSeed, dir, jars);
            Path file = dir.resolve("soak.json");
            if (Files.isRegularFile(file)) {
                SoakResult r = SoakResult.read(file);
                done.add(r);
                r.failures.forEach(f -> failures.add(c.name() + ": " + f));
            } else {
                failures.add(c.name() + ": no soak.json (see " + RunPaths.relative(runDir, dir.resolve("session.log")) + ")");
            }
            if (code != 0 && failures.stream().noneMatch(f -> f.startsWith(c.name() + ":"))) {
                failures.add(c.name() + ": its JVM exited " + code + " (see "
                        + RunPaths.relative(runDir, dir.resolve("session.log")) + ")");
            }
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        SoakReport.Meta meta = new SoakReport.Meta(runDir.getFileName().toString(),
                commandLine != null ? commandLine : "tpcc " + String.join(" ", spec.commandLine().getParseResult().originalArgs()),
                MachineFacts.current(), total, share, periodSeconds, clients, warehouses, runSeed, isolation.label,
                server, jvmOpts, unavailable, elapsed, failures);
        SoakReport.write(runDir, done, meta);
        System.out.println("report: " + runDir.resolve("report.md"));
        for (String f : failures) System.out.println("FAILED: " + f);
        System.out.println(failures.isEmpty() ? "soak: every check held" : "soak: FAILED");
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
        for (String c : configs) EngineOptions.named(c);
        return seconds != null ? seconds : minutes * 60;
    }

    private Path runDir() throws IOException {
        Path dir = out;
        if (dir == null) {
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm"));
            dir = results.resolve(stamp + "-soak");
            for (int n = 2; Files.exists(dir); n++) dir = results.resolve(stamp + "-soak-" + n);
        } else if (Files.isDirectory(dir.resolve("configs"))) {
            throw new UsageException(dir + " holds a soak already");
        }
        Files.createDirectories(dir);
        return dir.toAbsolutePath();
    }

    /** The child's headline lines; its full output is in session.log. */
    static boolean shown(String line) {
        if (line.startsWith("load: ")) return line.contains(" rows in ");
        return line.startsWith("engine: ") || line.startsWith("period ") || line.startsWith("heap")
                || line.startsWith("index check") || line.startsWith("soak ") || line.startsWith("FAILED")
                || line.startsWith("   VIOLATED") || line.startsWith("   OTHER") || line.startsWith("   PROBLEM")
                || line.startsWith("tpcc: ");
    }

    private int runChild(EngineConfig c, int share, long runSeed, Path dir, EngineJars jars)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : jvmOpts.trim().split("\\s+")) if (!o.isEmpty()) cmd.add(o);
        cmd.add("-Djava.awt.headless=true");
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "soak-run",
                "--config", c.name(), "--upstream-jar", jars.upstream().toString(), "--fork-jar", jars.fork().toString(),
                "--seconds", "" + share, "--period-seconds", "" + periodSeconds, "--clients", "" + clients,
                "--warehouses", "" + warehouses, "--seed", "" + runSeed, "--isolation", isolation.label,
                "--out", dir.toString()));
        if (tinyScale) cmd.add("--tiny-scale");
        if (server) cmd.add("--server");
        String prefix = "[" + c.name() + "] ";
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter log = new PrintWriter(Files.newBufferedWriter(dir.resolve("session.log")), true)) {
            for (String line; (line = r.readLine()) != null; ) {
                log.println(line);
                if (shown(line)) System.out.println(prefix + line);
            }
        }
        return p.waitFor();
    }
}
