package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad requests end with exit code 2 and one line on stderr, before anything is loaded. */
class CliTest {

    @TempDir
    static Path out;

    record Outcome(int code, String out, String err) {}

    static Outcome run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int code = Main.execute(args, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Outcome(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    static String upstreamJar() {
        return EngineJars.locate(null, null).upstream().toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "run --mix 9-91",
        "run --order sideways",
        "run --config no-such-config",
        "run --clients 0",
        "run --warehouses 0",
        "run --seconds 0",
        "run --isolation chaos",
        "run --url jdbc:hsqldb:mem:x",
        "run --jar some.jar",
        "run --no-such-option",
        "compare --clients 1,0",
        "compare --mixes 8-92,nope",
        "compare --configs upstream,no-such-config",
        "compare --orders rbw,backwards",
        "compare --preset nope",
        "compare --point-start sideways",
        "run --acks acks.txt",
        "run --client sometimes",
        "run --schema loose",
        "compare --client sometimes",
        "run --url jdbc:hsqldb:mem:x --jar hsqldb.jar --database-dir db",
        "run --url jdbc:hsqldb:mem:x --jar hsqldb.jar --server",
        "verify",
        "verify --database-dir no/such/dir",
        "verify --database-dir no/such/dir --shutdown sideways",
        "verify --database-dir no/such/dir --url jdbc:hsqldb:mem:x --jar hsqldb.jar",
        "soak",
        "soak --minutes 0",
        "soak --minutes 1 --configs fork-lf,no-such-config",
        "soak --minutes 1 --warehouses 0",
        "chaos",
        "chaos --minutes 0",
        "chaos --minutes 30 --configs fork-lf,no-such-config",
        "chaos --minutes 30 --configs fork-lf,fork-lf",
        "chaos --minutes 30 --kill-every 0",
        "chaos --minutes 30 --period-seconds 0",
        "chaos --minutes 3",
        "nonsense"})
    void badOptionsGiveOneLineAndExitCode2(String args) {
        String[] argv = args.startsWith("run") ? (args + " --out " + out.resolve("never")).split(" ") : args.split(" ");
        Outcome r = run(argv);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertTrue(r.err().startsWith("tpcc: "), r.err());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // nothing listens on port 1 of the loopback address
        "jdbc:hsqldb:hsql://127.0.0.1:1/nothing",
        "jdbc:nosuchengine:whatever"})
    void anUnreachableUrlGivesExitCode2(String url) {
        Outcome r = run("run", "--url", url, "--jar", upstreamJar(), "--warehouses", "1", "--out",
                out.resolve("unreachable").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @org.junit.jupiter.api.Test
    void helpExitsZero() {
        Outcome r = run("run", "--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("--order"), r.out());
    }

    /** A run as applications talk: per-call statements, batches, the constrained schema; recorded in the summary. */
    @org.junit.jupiter.api.Test
    void aRunInTheApplicationsShapeSaysSoInItsSummary() throws Exception {
        java.nio.file.Path dir = out.resolve("application");
        Outcome r = run("run", "--url", "jdbc:hsqldb:mem:cliApplication", "--jar", upstreamJar(), "--warehouses", "1",
                "--tiny-scale", "--seconds", "2", "--warmup", "0", "--clients", "2", "--client", "per-call",
                "--batches", "--schema", "constrained", "--out", dir.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        String summary = java.nio.file.Files.readString(dir.resolve("summary.json"));
        assertTrue(summary.contains("\"client\": \"per-call+batches+constrained\""), summary);
    }

    /** Without --out a run writes its summary under the harness's target/runs, in a folder of its own. */
    @org.junit.jupiter.api.Test
    void aRunWithoutOutWritesUnderTheHarnessTargetFolder() throws Exception {
        long start = System.currentTimeMillis() - 1000;
        Outcome r = run("run", "--url", "jdbc:hsqldb:mem:cliNoOut", "--jar", upstreamJar(), "--warehouses", "1",
                "--tiny-scale", "--seconds", "1", "--warmup", "0", "--clients", "1");
        assertEquals(0, r.code(), r.err() + r.out());
        java.nio.file.Path runs = EngineJars.harnessTargetDir().resolve("runs");
        try (var dirs = java.nio.file.Files.list(runs)) {
            assertTrue(dirs.anyMatch(d -> d.getFileName().toString().endsWith("-custom")
                    && d.resolve("summary.json").toFile().lastModified() >= start), "no new run folder in " + runs);
        }
    }
}
