package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Durability and crash safety, per mode on the fork jar: a child JVM runs TPC-C against a file
 * database (write_delay=false) and logs every acknowledged commit; it is killed with SIGKILL
 * mid-run; the reopened database must satisfy the consistency conditions and hold every
 * acknowledged commit. Then the same after a clean SHUTDOWN and after SHUTDOWN COMPACT (where
 * three forged acknowledgements must be reported missing, and nothing else). Runs at the tests'
 * tiny scale for a few seconds per mode.
 */
class CrashSafetyTest {

    /** Acknowledged commits to wait for before the kill: the run is well under way by then. */
    static final int ACKS_BEFORE_KILL = 150;

    static final Pattern ACKS_LINE = Pattern.compile("acks: (\\d+) acknowledged commits checked \\((\\d+) New-Order,"
            + " (\\d+) Payment, (\\d+) Delivery with (\\d+) delivered orders\\): (.*)");

    @TempDir
    Path tmp;

    record Outcome(int code, String out) {}

    static Outcome tpcc(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(o, true, StandardCharsets.UTF_8);
        PrintStream saved = System.out;
        // the commands print on System.out
        System.setOut(stream);
        int code;
        try {
            code = Main.execute(args, stream, stream);
        } finally {
            System.setOut(saved);
        }
        return new Outcome(code, o.toString(StandardCharsets.UTF_8));
    }

    static EngineJars jars() {
        return EngineJars.locate(null, null);
    }

    static List<String> jarOptions() {
        return List.of("--fork-jar", jars().fork().toString(), "--upstream-jar", jars().upstream().toString());
    }

    /** The acknowledged commits verify checked; fails unless it exited 0 with all of them present. */
    static long verify(Path db, Path acks, String config, String shutdown, String when) {
        List<String> args = new ArrayList<>(List.of("verify", "--config", config, "--database-dir", db.toString(),
                "--acks", acks.toString(), "--shutdown", shutdown));
        args.addAll(jarOptions());
        Outcome r = tpcc(args.toArray(String[]::new));
        assertEquals(0, r.code(), config + " " + when + ":\n" + r.out());
        Matcher m = ACKS_LINE.matcher(r.out());
        assertTrue(m.find(), r.out());
        assertEquals("all present", m.group(6).strip().replaceAll(" \\(.*", ""), r.out());
        System.out.println(config + " " + when + ": " + m.group(0));
        return Long.parseLong(m.group(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork-locks", "fork-lf", "fork-a2l", "fork-a2l-latched", "fork-mvlocks", "fork-mvcc"})
    void everyAcknowledgedCommitSurvivesAKillAndAShutdown(String config) throws Exception {
        assumeTrue(Files.isRegularFile(jars().fork()), "the fork jar is not built");
        Path db = tmp.resolve("db"), acks = tmp.resolve("acks.txt"), log = tmp.resolve("run1.log");

        // C1 only: the child lives seconds, C2 compiling would take CPU the terminals need
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--config", config,
                "--database-dir", db.toString(), "--acks", acks.toString(), "--tiny-scale", "--warehouses", "1",
                "--clients", "4", "--seconds", "600", "--warmup", "0", "--progress", "0", "--seed", "11",
                "--out", tmp.resolve("out1").toString()));
        cmd.addAll(jarOptions());
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acknowledged(acks) < ACKS_BEFORE_KILL) {
                if (!child.isAlive()) fail("the run ended by itself (exit " + child.exitValue() + "):\n" + Files.readString(log));
                if (System.nanoTime() > deadline) fail("fewer than " + ACKS_BEFORE_KILL + " commits in 60 s:\n" + Files.readString(log));
                Thread.sleep(20);
            }
            // somewhere in the middle of a transaction, not right after an acknowledgement
            Thread.sleep(ThreadLocalRandom.current().nextInt(300));
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the killed run did not end");
        }
        assertTrue(Files.readString(log).contains("point 1/1"), "killed while running:\n" + Files.readString(log));
        // the process is gone: its lock file is stale, and HSQLDB would wait 10 s for the heartbeat to say so
        Files.deleteIfExists(db.resolve("tpcc.lck"));

        long afterKill = verify(db, acks, config, "normal", "after SIGKILL");
        assertTrue(afterKill >= ACKS_BEFORE_KILL, "" + afterKill);

        List<String> again = new ArrayList<>(List.of("run", "--config", config, "--database-dir", db.toString(),
                "--acks", acks.toString(), "--tiny-scale", "--warehouses", "1", "--clients", "4", "--seconds", "1",
                "--warmup", "0", "--progress", "0", "--seed", "12", "--out", tmp.resolve("out2").toString()));
        again.addAll(jarOptions());
        Outcome second = tpcc(again.toArray(String[]::new));
        assertEquals(0, second.code(), second.out());
        assertTrue(second.out().contains("reusing what is there"), second.out());

        long afterShutdown = verify(db, acks, config, "compact", "after SHUTDOWN");
        assertTrue(afterShutdown > afterKill, "the second run committed something");

        // after SHUTDOWN COMPACT, with one forged commit of each kind added: exactly those three are missing
        Path forged = tmp.resolve("forged.txt");
        Files.copy(acks, forged);
        Instant t = Instant.parse("2001-02-03T04:05:06.000007Z");
        Files.writeString(forged, "NO 1 1 999999 1 5 " + t + "\nPAY 1 2 1 2 3 12.34 " + t + "\nDEL 1 4 " + t + " 3:1\n",
                StandardOpenOption.APPEND);
        List<String> args = new ArrayList<>(List.of("verify", "--config", config, "--database-dir", db.toString(),
                "--acks", forged.toString()));
        args.addAll(jarOptions());
        Outcome r = tpcc(args.toArray(String[]::new));
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains((afterShutdown + 3) + " acknowledged commits checked"), r.out());
        assertTrue(r.out().contains("): 3 MISSING OR WRONG"), r.out());
        assertTrue(r.out().contains("MISSING New-Order W1/D1/O999999: no ORDERS row"), r.out());
        assertTrue(r.out().contains("consistency: all 12 conditions hold"), r.out());
        assertTrue(r.out().contains("index check: ") && r.out().contains("indexes walked: sound"), r.out());
        System.out.println(config + " after SHUTDOWN COMPACT: " + afterShutdown + " acknowledged commits present,"
                + " the 3 forged ones missing");
    }

    /** Complete lines in the side file (it may not exist yet while the child loads). */
    static long acknowledged(Path acks) throws IOException {
        if (!Files.exists(acks)) return 0;
        byte[] b = Files.readAllBytes(acks);
        long n = 0;
        for (byte x : b) if (x == '\n') n++;
        return n;
    }
}
