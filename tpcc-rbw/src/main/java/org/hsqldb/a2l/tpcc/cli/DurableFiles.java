package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;

/**
 * The database of a {@code NAME@durable} configuration ({@link EngineConfig#isDurable}): files in a
 * directory of its own under the system's temporary directory, on this machine's disk, made for
 * one measurement JVM and deleted when it ends.
 */
final class DurableFiles {

    private DurableFiles() {}

    /**
     * Runs {@code run} with the configuration's database: {@code otherwise} for a configuration that
     * is not durable, else a new file database, deleted afterwards.
     */
    static Integer around(EngineConfig config, DatabaseLocation otherwise,
                          java.util.function.Function<DatabaseLocation, Callable<Integer>> run) throws Exception {
        if (!config.isDurable()) return run.apply(otherwise).call();
        if (otherwise.isFile() || otherwise.served()) {
            throw new UsageException(config.name() + " makes its own file database: no --database-dir or --server");
        }
        Path dir = Files.createTempDirectory("tpcc-durable-");
        try {
            return run.apply(DatabaseLocation.file(dir)).call();
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
