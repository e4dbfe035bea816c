package org.hsqldb.a2l.tpcc.engine;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The PostgreSQL server the {@code postgresql} configuration runs against. {@code scripts/postgres
 * start} (scripts/lib/postgres.sh) starts one on 127.0.0.1 with its data under
 * {@code tpcc-rbw/target/postgres/} and describes it in {@code server.properties} there (url, user,
 * password, version); {@code stop} removes the file. Any other server can be named with the system
 * properties {@code tpcc.postgres.url}, {@code tpcc.postgres.user} and {@code tpcc.postgres.password};
 * {@code tpcc.postgres.dir} points at another directory of the script's.
 */
public record PostgresServer(String url, String user, String password, String version) {

    public static final String DESCRIPTOR = "server.properties";

    public static Path defaultDir() {
        String dir = System.getProperty("tpcc.postgres.dir");
        return dir != null && !dir.isBlank() ? Path.of(dir) : EngineJars.harnessTargetDir().resolve("postgres");
    }

    /** The server to use, or an EngineException saying why there is none (and how to get one). */
    public static PostgresServer find() throws EngineException {
        String url = System.getProperty("tpcc.postgres.url");
        if (url != null && !url.isBlank()) {
            return new PostgresServer(url, System.getProperty("tpcc.postgres.user"),
                    System.getProperty("tpcc.postgres.password"), null);
        }
        Path file = defaultDir().resolve(DESCRIPTOR);
        if (!Files.isRegularFile(file)) {
            throw new EngineException("no PostgreSQL server running (" + file + " is missing): "
                    + installHint() + "; scripts/tpcc and scripts/compare start and stop one themselves");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new EngineException("cannot read " + file + ": " + e.getMessage());
        }
        if (p.getProperty("url") == null) throw new EngineException(file + " names no url");
        return new PostgresServer(p.getProperty("url"), p.getProperty("user"), p.getProperty("password"),
                p.getProperty("version"));
    }

    /** What scripts/postgres start would do here: start the installed PostgreSQL, or install one first. */
    static String installHint() {
        Path installed = installedBinDir();
        if (installed != null) return "PostgreSQL is installed (" + installed + "), start it with scripts/postgres start";
        return "PostgreSQL is not installed; scripts/postgres start installs it (apt-get install postgresql)";
    }

    /** The newest /usr/lib/postgresql/N/bin with pg_ctl, or pg_ctl on the PATH; null if none. */
    static Path installedBinDir() {
        Path lib = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> versions = Files.list(lib)) {
                Path best = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                        .max(Comparator.comparing(b -> versionOf(b.getParent().getFileName().toString())))
                        .orElse(null);
                if (best != null) return best;
            } catch (IOException ignored) {
                // look on the PATH
            }
        }
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "pg_ctl"))) return Path.of(dir);
        }
        return null;
    }

    private static int versionOf(String s) {
        try {
            return Integer.parseInt(s.replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
