package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What soak runs in each child JVM ({@link Soak}): one configuration's share of the soak. */
@Command(name = "soak-run", hidden = true, mixinStandardHelpOptions = true,
        description = "Loads, then runs period after period with checks in between; writes OUT/soak.json.")
public final class SoakRunCommand implements Callable<Integer> {

    @Option(names = "--seconds", paramLabel = "N", required = true, description = "running time in all")
    int seconds;

    @Option(names = "--period-seconds", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int periodSeconds = 60;

    @Option(names = "--clients", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int clients = 16;

    @Option(names = "--warehouses", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int warehouses = 1;

    @Option(names = "--tiny-scale", hidden = true)
    boolean tinyScale;

    @Option(names = "--seed", paramLabel = "N", required = true)
    long seed;

    @Option(names = "--isolation", paramLabel = "LEVEL", description = "default: ${DEFAULT-VALUE}")
    Isolation isolation = Isolation.SERIALIZABLE;

    @Option(names = "--retry-backoff-us", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int retryBackoffMicros = 500;

    @Option(names = "--server", description = "serve the in-memory database with org.hsqldb.server.Server")
    boolean server;

    @Option(names = "--out", paramLabel = "DIR", required = true)
    Path out;

    @Mixin
    EngineOptions engine;

    @Override
    public Integer call() throws Exception {
        if (seconds < 1 || periodSeconds < 1 || clients < 1 || warehouses < 1) {
            throw new UsageException("--seconds, --period-seconds, --clients and --warehouses must be at least 1");
        }
        if (engine.url != null) throw new UsageException("the soak runs named configurations (--config), not --url");
        DatabaseLocation db = DatabaseLocation.memory("tpcc");
        if (server) db = db.servedOverNetwork();
        var plan = new Soak.Plan(engine.resolve(), engine.jars(),
                tinyScale ? Scale.tiny(warehouses) : Scale.standard(warehouses), clients, seconds, periodSeconds, seed,
                isolation, retryBackoffMicros, Math.max(2, Runtime.getRuntime().availableProcessors()), out, db);
        return Soak.run(plan, System.out);
    }
}
