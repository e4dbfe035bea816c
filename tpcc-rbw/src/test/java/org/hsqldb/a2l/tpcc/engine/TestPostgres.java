package org.hsqldb.a2l.tpcc.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server of the tests' own (scripts/postgres start --dir target/pg-test), started once
 * per test class and stopped after it; the harness finds it through tpcc.postgres.dir. Where it
 * cannot be started (not installed: the tests never install it; no script; initdb refused) {@link
 * #start} returns the reason, and the tests skip with it.
 */
public final class TestPostgres {

    private static final Path SCRIPT = Path.of("..", "scripts", "postgres").toAbsolutePath().normalize();
    private static final Path DIR = Path.of("target", "pg-test").toAbsolutePath();

    private TestPostgres() {}

    /** Null when a server runs (and the harness will find it), else why not. */
    public static String start() {
        if (!Files.isExecutable(SCRIPT)) return "no " + SCRIPT;
        try {
            ProcessBuilder pb = new ProcessBuilder(SCRIPT.toString(), "start", "--dir", DIR.toString())
                    .redirectErrorStream(true);
            pb.environment().put("TPCC_PG_NO_INSTALL", "1");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "scripts/postgres start did not finish in 120 s";
            }
            if (p.exitValue() != 0) return "scripts/postgres start failed: " + out.replace('\n', ' ');
            System.setProperty("tpcc.postgres.dir", DIR.toString());
            return null;
        } catch (IOException e) {
            return "cannot run " + SCRIPT + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    public static void stop() {
        System.clearProperty("tpcc.postgres.dir");
        if (!Files.isExecutable(SCRIPT)) return;
        try {
            Process p = new ProcessBuilder(SCRIPT.toString(), "stop", "--dir", DIR.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            // nothing to stop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
