package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/** The packaged jar is a drop-in hsqldb.jar: checked on the jar itself, in a fresh JVM. */
class DropInJarIT {

    private static Path forkJar() {
        Path jar = Path.of(System.getProperty("fork.jar", ""));
        assertTrue(Files.isRegularFile(jar), "fork.jar (set by hsqldb-fork/pom.xml) is not a file: " + jar);
        return jar;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "failed: " + command + "\n" + out);
        return out;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Test
    @RequiresPatch("Identify-the-fork-in-the-product-version-and-the-ser")
    void aloneOnTheClassPathTheJarAnswersAndNamesTheFork() throws Exception {
        Path probe = Path.of(getClass().getResource("/probe/DropInProbe.java").toURI());
        String out = run(List.of(java(), "-cp", forkJar().toString(), probe.toString()));
        assertTrue(out.contains("answer=1"), out);
        assertTrue(out.contains("driver=org.hsqldb.jdbc.JDBCDriver"), out);
        assertTrue(out.contains("version=2.7.4-a2l"), out);
    }

    @Test
    void theJarIsTheOrgHsqldbModuleProvidingTheDriver() throws Exception {
        String out = run(List.of(java(), "--module-path", forkJar().toString(),
                "--describe-module", "org.hsqldb"));
        assertTrue(out.contains("provides java.sql.Driver with org.hsqldb.jdbc.JDBCDriver"), out);
        assertTrue(out.contains("exports org.hsqldb.jdbc"), out);
    }

    @Test
    void theJarCarriesUpstreamLicensesAndTheLockManager() throws Exception {
        try (ZipFile z = new ZipFile(forkJar().toFile())) {
            for (String entry : List.of("META-INF/hsqldb_lic.txt", "META-INF/hypersonic_lic.txt",
                    "META-INF/services/java.sql.Driver", "org/hsqldb/jdbc/JDBCDriver.class",
                    "org/hsqldb/server/Server.class", "org/hsqldb/resources/sql-state-messages.properties",
                    "org/hsqldb/a2l/lockmgr/package-info.class")) {
                assertTrue(z.getEntry(entry) != null, "missing from the jar: " + entry);
            }
            assertTrue(z.stream().noneMatch(e -> e.getName().startsWith("org/hsqldb/cmdline/")),
                    "SqlTool is not part of hsqldb.jar");
        }
    }
}
