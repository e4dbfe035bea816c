package org.hsqldb.a2l.tpcc.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.ChaosResult;
import org.hsqldb.a2l.tpcc.report.VerifyResult;

/**
 * One configuration's chaos run, orchestrated from the chaos command's JVM, which never opens the
 * database itself. Segment after segment, a runner JVM ({@link ChaosRun}) works on the same file
 * database with faults; it is killed with SIGKILL ({@code destroyForcibly()}) at a random moment
 * ({@code killEverySeconds} +-30% after its terminals started), and a fresh JVM runs
 * {@code tpcc verify} on the database: all twelve consistency conditions, every acknowledged commit,
 * the index check, then SHUTDOWN. The last segment ends by itself with SHUTDOWN and its verify ends
 * with SHUTDOWN COMPACT. A kill waits while nothing commits, so it can never hide a stall; a runner
 * that reports a stall, or makes no progress for the stall time plus a minute without reporting one,
 * ends the configuration: it is killed if need be, the database verified, and the failure reported.
 */
final class Chaos {

    /**
     * {@code seconds}: the configuration's running time (segments from their terminals' start, checks
     * included; loads and verifies on top); {@code stallSeconds}: the runners' stall time.
     */
    record Plan(EngineConfig config, EngineJars jars, int seconds, int killEverySeconds, int periodSeconds,
                int clients, int warehouses, boolean tinyScale, long seed, String jvmOpts, int holdMillis,
                boolean provokeStall, long stallSeconds, boolean keepDatabase, Path dir) {}

    /**
     * A kill is put off until the runner is seen committing (heartbeats come every second): a runner
     * that commits nothing may be checking, waiting for the fault thread's lock, or stalling, and a
     * kill must not hide a stall.
     */
    static final long QUIET_NANOS = 2500 * 1_000_000L;
    /** How long a runner may take to load and open its terminals. */
    static final long START_NANOS = TimeUnit.MINUTES.toNanos(30);
    static final long VERIFY_NANOS = TimeUnit.MINUTES.toNanos(30);

    private final Plan plan;
    private final PrintStream console;
    private final Path db;
    private final Path acks;
    private final Path periods;
    private final SplittableRandom random;
    private PrintWriter log;

    private Chaos(Plan plan, PrintStream console) {
        this.plan = plan;
        this.console = console;
        this.db = plan.dir().resolve("db");
        this.acks = db.resolve("acks.txt");
        this.periods = plan.dir().resolve("periods.jsonl");
        this.random = new SplittableRandom(plan.seed() ^ (plan.config().name().hashCode() * 0x9E3779B97F4A7C15L));
    }

    static ChaosResult run(Plan plan, PrintStream console) throws IOException, InterruptedException {
        return new Chaos(plan, console).run();
    }

    /** The shortest last segment: a kill is skipped if it would leave less running time than this. */
    static int minimumTail(int periodSeconds) {
        return Math.max(2, Math.min(periodSeconds, 20));
    }

    private ChaosResult run() throws IOException, InterruptedException {
        Files.createDirectories(db);
        // the database and the side file stay out of commits of the run folder
        Files.writeString(db.resolve(".gitignore"), "*\n");
        ChaosResult r = new ChaosResult();
        r.config = plan.config().name();
        r.configDescription = plan.config().describe();
        r.warehouses = plan.warehouses();
        r.scale = plan.tinyScale() ? "tiny (tests only, not TPC-C)" : "standard";
        r.clients = plan.clients();
        r.seconds = plan.seconds();
        long loadSeed = plan.seed();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(plan.dir().resolve("session.log"),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND), true)) {
            log = w;
            double used = 0;
            int nextPeriod = 1;
            for (int n = 1; used < plan.seconds() - 0.5; n++) {
                ChaosResult.Segment s = new ChaosResult.Segment();
                s.index = n;
                s.seed = random.nextLong() & Long.MAX_VALUE;
                double remaining = plan.seconds() - used;
                double killAt = plan.killEverySeconds() * (0.7 + 0.6 * random.nextDouble());
                if (killAt + minimumTail(plan.periodSeconds()) <= remaining) s.killAtSeconds = Math.round(killAt * 10) / 10.0;
                r.segments.add(s);
                runSegment(s, remaining, loadSeed, nextPeriod);
                used += s.ranSeconds;
                if (s.reopened) r.reopens++;
                if ("killed".equals(s.ended)) r.kills++;
                // the final verify compacts: SHUTDOWN COMPACT rewrites the whole database once more
                verify(s, "shutdown".equals(s.ended) ? "compact" : "normal");
                if ("killed".equals(s.ended) && s.verify != null && s.verify.openFailure == null) r.reopens++;
                if (s.verify != null && s.verify.engineProduct != null) {
                    r.engineProduct = s.verify.engineProduct;
                    r.engineVersion = s.verify.engineVersion;
                }
                nextPeriod = ChaosResult.readPeriods(periods).stream().mapToInt(p -> p.index).max().orElse(0) + 1;
                boolean verified = s.verify != null && s.verify.ok;
                if (!"killed".equals(s.ended) || !verified) break;
            }
            r.ranSeconds = Math.round(used * 10) / 10.0;
            r.periods = ChaosResult.readPeriods(periods);
            judge(r);
            r.ok = r.failures.isEmpty();
            log = null;
        }
        if (r.ok && !plan.keepDatabase()) {
            deleteTree(db);
        } else {
            r.databaseKept = true;
        }
        r.write(plan.dir().resolve("chaos.json"));
        return r;
    }

    /** Everything that fails the configuration, in r.failures (and the stalls in r.stalls). */
    private void judge(ChaosResult r) {
        for (ChaosResult.Period p : r.periods) {
            String where = "segment " + p.segment + " period " + p.index;
            if (p.stall != null) {
                r.stalls.add(where + ": " + p.stall);
                r.failures.add(where + ": " + Main.firstLine(p.stall));
                continue;
            }
            if (!p.consistencyOk) r.failures.add(where + ": consistency violated: " + String.join("; ", p.violations));
            if (Boolean.FALSE.equals(p.idleLocksOk)) {
                r.failures.add(where + ": locks held with every terminal idle: " + String.join("; ", p.idleLocks));
            }
            if (p.acksMissing > 0) {
                r.failures.add(where + ": " + p.acksMissing + " acknowledged commit(s) missing: "
                        + String.join("; ", p.acksMissingShown));
            }
            for (String e : p.faults == null ? List.<String>of() : p.faults.errors) {
                if (e.startsWith("the fault thread did not stop")) r.failures.add(where + ": " + e);
            }
        }
        for (ChaosResult.Segment s : r.segments) {
            String where = "segment " + s.index;
            switch (s.ended) {
                case "hung" -> r.failures.add(where + ": " + s.note);
                case "failed" -> r.failures.add(where + ": the runner failed (exit " + s.exitCode + "): " + s.note
                        + " (see session.log)");
                case "stalled" -> {
                    if (r.stalls.stream().noneMatch(x -> x.startsWith(where + " "))) {
                        r.failures.add(where + ": the runner reported a stall (see session.log)");
                    }
                }
                case "shutdown" -> {
                    boolean periodFailed = r.periods.stream().anyMatch(p -> p.segment == s.index && !p.ok());
                    if (s.exitCode != null && s.exitCode != 0 && !periodFailed) {
                        r.failures.add(where + ": the runner ended with SHUTDOWN but exit " + s.exitCode
                                + " (see session.log)");
                    }
                }
                default -> { }
            }
            String verifying = where + " verify" + ("killed".equals(s.ended) ? " after the kill" : "");
            if (s.verify == null) {
                r.failures.add(verifying + ": no result (exit " + s.verifyExitCode + ", see session.log)");
            } else if (!s.verify.ok) {
                r.failures.add(verifying + ": " + s.verify.oneLine());
            }
        }
    }

    private void runSegment(ChaosResult.Segment s, double remaining, long loadSeed, int firstPeriod)
            throws IOException, InterruptedException {
        List<String> cmd = java();
        cmd.addAll(List.of(Main.class.getName(), "chaos-run", "--config", plan.config().name(),
                "--database-dir", db.toString(), "--acks", acks.toString(), "--periods", periods.toString(),
                "--seconds", "" + Math.max(1, Math.round(remaining)), "--period-seconds", "" + plan.periodSeconds(),
                "--clients", "" + plan.clients(), "--warehouses", "" + plan.warehouses(), "--seed", "" + s.seed,
                "--load-seed", "" + loadSeed, "--segment", "" + s.index, "--first-period", "" + firstPeriod,
                "--hold-ms", "" + plan.holdMillis()));
        cmd.addAll(jarOptions());
        if (plan.tinyScale()) cmd.add("--tiny-scale");
        if (plan.provokeStall()) cmd.add("--provoke-stall");
        say("segment " + s.index + ": " + (s.killAtSeconds == null ? "the last, " + Math.round(remaining)
                + " s, ends with SHUTDOWN" : "SIGKILL due " + s.killAtSeconds + " s after its terminals start"));
        Child c = new Child(cmd, "[segment " + s.index + "] ", log);
        long waitStart = System.nanoTime();
        while (c.runningSince == 0 && c.process.isAlive()) {
            if (System.nanoTime() - waitStart > START_NANOS) {
                c.kill();
                s.ended = "hung";
                s.note = "its terminals did not start within " + TimeUnit.NANOSECONDS.toMinutes(START_NANOS)
                        + " min (loading?): killed";
                c.finish();
                return;
            }
            Thread.sleep(100);
        }
        long t0 = c.runningSince != 0 ? c.runningSince : System.nanoTime();
        long killDue = s.killAtSeconds == null ? Long.MAX_VALUE : t0 + (long) (s.killAtSeconds * 1e9);
        // the runner notices a stall when a pause has waited the stall time, at most a period after the last commit
        long hangNanos = TimeUnit.SECONDS.toNanos(plan.stallSeconds() + plan.periodSeconds() + 60);
        long postponed = 0;
        long last = System.nanoTime();
        while (c.process.isAlive()) {
            long now = System.nanoTime();
            long quiet = now - c.lastProgress;
            if (now >= killDue) {
                if (c.lastCommit != 0 && now - c.lastCommit < QUIET_NANOS) {
                    c.kill();
                    s.ended = "killed";
                    break;
                }
                postponed += now - last;
            }
            if (c.runningSince != 0 && quiet > hangNanos) {
                s.threadDump = dumpThreads(c, s.index);
                c.kill();
                s.ended = "hung";
                s.note = "nothing committed for " + TimeUnit.NANOSECONDS.toSeconds(quiet) + " s while the runner was "
                        + c.phase + ", and it reported no stall: killed"
                        + (s.threadDump != null ? " (threads before the kill: " + s.threadDump + ")" : "");
                console.println("[" + plan.config().name() + "] !!! segment " + s.index + " HUNG: " + s.note);
                break;
            }
            last = now;
            Thread.sleep(100);
        }
        long end = System.nanoTime();
        c.finish();
        s.ranSeconds = c.runningSince == 0 ? 0 : Math.round((end - t0) / 1e8) / 10.0;
        s.killPostponedSeconds = Math.round(postponed / 1e8) / 10.0;
        s.liveCommitted = Math.max(0, c.committed);
        s.liveAborts = c.aborts;
        if (s.ended == null) {
            s.exitCode = c.process.exitValue();
            if (c.sawEnd && c.runningSince != 0) {
                s.ended = "shutdown";
            } else if (c.sawStall) {
                s.ended = "stalled";
            } else {
                s.ended = "failed";
                s.note = c.lastError != null ? c.lastError : "it ended while " + c.phase;
            }
        }
        s.phase = c.phase;
        // segments after the first reopen what a kill left behind
        s.reopened = s.index > 1 && c.runningSince != 0;
        say("segment " + s.index + ": " + s.ended + " after " + s.ranSeconds + " s (" + s.liveCommitted
                + " committed" + (s.killPostponedSeconds > 0 ? ", the kill waited " + s.killPostponedSeconds
                + " s for a commit" : "") + ")");
        // the runner is gone: its lock file is stale (HSQLDB would wait 10 s for the heartbeat to say so)
        Files.deleteIfExists(db.resolve(DatabaseLocation.FILE_NAME + ".lck"));
        // a kill in the middle of a period's line: the next runner must append whole lines
        if (Files.isRegularFile(periods)) dropTornLine(periods);
    }

    /**
     * The hung runner's threads before it is killed: {@code jcmd PID Thread.print} into a file of
     * the configuration's folder, or, without jcmd, SIGQUIT (the JVM prints them into session.log).
     * Returns the file's name, or null.
     */
    private String dumpThreads(Child c, int segment) throws InterruptedException {
        Path file = plan.dir().resolve("threads-segment-" + segment + "-hung.txt");
        if (ThreadDumps.writeOf(c.process.pid(), file)) return file.getFileName().toString();
        try {
            new ProcessBuilder("kill", "-QUIT", "" + c.process.pid()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            Thread.sleep(2000);
        } catch (IOException e) {
            log.println("chaos: no thread dump of the hung runner: " + e);
        }
        return null;
    }

    private void verify(ChaosResult.Segment s, String shutdown) throws IOException, InterruptedException {
        if (!Files.isRegularFile(db.resolve(LoadRecord.FILE))) {
            say("segment " + s.index + ": no finished load to verify");
            return;
        }
        Path result = plan.dir().resolve("verify-" + s.index + ".json");
        Files.deleteIfExists(result);
        List<String> cmd = java();
        cmd.addAll(List.of(Main.class.getName(), "verify", "--config", plan.config().name(), "--database-dir",
                db.toString(), "--acks", acks.toString(), "--shutdown", shutdown, "--result", result.toString()));
        cmd.addAll(jarOptions());
        Child c = new Child(cmd, "[verify " + s.index + "] ", log);
        if (!c.process.waitFor(VERIFY_NANOS, TimeUnit.NANOSECONDS)) {
            c.kill();
            log.println("[verify " + s.index + "] did not end within " + TimeUnit.NANOSECONDS.toMinutes(VERIFY_NANOS)
                    + " min: killed");
            Files.deleteIfExists(db.resolve(DatabaseLocation.FILE_NAME + ".lck"));
        }
        c.finish();
        s.verifyExitCode = c.process.exitValue();
        s.verify = Files.isRegularFile(result) ? VerifyResult.read(result) : null;
        say("segment " + s.index + " verify (" + shutdown + "): " + (s.verify == null ? "NO RESULT, exit "
                + s.verifyExitCode : (s.verify.ok ? "OK, " : "FAILED, ") + s.verify.oneLine()));
        if (s.verify != null && s.verify.tornLastLine) {
            // the kill cut the last acknowledgement short; the next segment must append whole lines
            dropTornLine(acks);
            s.tornAckLineDropped = true;
        }
    }

    /** Truncates {@code file} after its last newline. */
    static void dropTornLine(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            long n = f.length();
            while (n > 0) {
                f.seek(n - 1);
                if (f.read() == '\n') break;
                n--;
            }
            f.setLength(n);
        }
    }

    private List<String> java() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Djava.awt.headless=true");
        cmd.add("-Dtpcc.stallSeconds=" + plan.stallSeconds());
        // after ours, so that they win
        for (String o : plan.jvmOpts().trim().split("\\s+")) if (!o.isEmpty()) cmd.add(o);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
        return cmd;
    }

    private List<String> jarOptions() {
        return List.of("--upstream-jar", plan.jars().upstream().toString(), "--fork-jar", plan.jars().fork().toString());
    }

    private void say(String line) {
        log.println("chaos: " + line);
        console.println("[" + plan.config().name() + "] " + line);
    }

    /** The child's headline lines for the console; its full output is in session.log. */
    static boolean shown(String line) {
        if (line.startsWith("load: ")) return line.contains(" rows in ");
        return line.startsWith("period ") || line.startsWith("!!!") || line.startsWith("   VIOLATED")
                || line.startsWith("   LOCK HELD") || line.startsWith("   OTHER") || line.startsWith("   FAULT")
                || line.startsWith("   MISSING") || line.startsWith("   PROBLEM") || line.startsWith("tpcc: ")
                || line.startsWith("consistency: VIOLATED");
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    /** A child JVM whose output goes to session.log (heartbeats read, not logged, but for changes). */
    private final class Child {
        final Process process;
        final Thread reader;
        volatile long runningSince;
        volatile long lastProgress = System.nanoTime();
        /** When a heartbeat last showed more commits than the one before (0: none yet). */
        volatile long lastCommit;
        volatile long committed = -1;
        volatile long aborts;
        volatile String phase = "starting";
        volatile boolean sawEnd;
        volatile boolean sawStall;
        volatile String lastError;
        private final PrintWriter log;

        Child(List<String> cmd, String prefix, PrintWriter log) throws IOException {
            this.log = log;
            process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            reader = new Thread(() -> read(prefix), "chaos-child-output");
            reader.setDaemon(true);
            reader.start();
        }

        private void read(String prefix) {
            String loggedPhase = null;
            boolean stallLines = false;
            long loggedAt = 0;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    long now = System.nanoTime();
                    if (line.startsWith(ChaosRun.HEARTBEAT)) {
                        heartbeat(line.substring(ChaosRun.HEARTBEAT.length()), now);
                        if (!phase.equals(loggedPhase) || now - loggedAt > TimeUnit.SECONDS.toNanos(10)) {
                            log.println(prefix + line);
                            loggedPhase = phase;
                            loggedAt = now;
                        }
                        continue;
                    }
                    log.println(prefix + line);
                    if (line.startsWith(ChaosRun.RUNNING)) {
                        lastProgress = now;
                        runningSince = now;
                    }
                    if (line.startsWith(ChaosRun.ENDED)) sawEnd = true;
                    if (line.startsWith("!!!") && line.contains("engine stalled")) sawStall = true;
                    // the stall report in full on the console too: which terminal waits where
                    stallLines = line.startsWith("!!!") ? line.contains("engine stalled")
                            : stallLines && line.startsWith("  ");
                    if (stallLines && !line.startsWith("!!!")) console.println("[" + plan.config().name() + "] " + prefix + line);
                    if (line.startsWith("tpcc: ")) lastError = line;
                    if (shown(line)) console.println("[" + plan.config().name() + "] " + prefix + line);
                }
            } catch (IOException e) {
                log.println(prefix + "(output lost: " + e + ")");
            }
        }

        private void heartbeat(String fields, long now) {
            for (String f : fields.split(" ")) {
                int eq = f.indexOf('=');
                if (eq < 0) continue;
                String k = f.substring(0, eq), v = f.substring(eq + 1);
                switch (k) {
                    case "committed" -> {
                        long n = Long.parseLong(v);
                        if (n != committed) lastProgress = now;
                        if (committed >= 0 && n > committed) lastCommit = now;
                        committed = n;
                    }
                    case "aborts" -> aborts = Long.parseLong(v);
                    case "phase" -> phase = v;
                    default -> { }
                }
            }
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(60, TimeUnit.SECONDS);
        }

        /** Waits for the process and the last of its output. */
        void finish() throws InterruptedException {
            process.waitFor();
            reader.join(10_000);
        }
    }
}
