package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.FaultInjector;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What the chaos run starts for each segment ({@link ChaosRun}): terminals with faults on a file database. */
@Command(name = "chaos-run", hidden = true, mixinStandardHelpOptions = true,
        description = "Runs the terminals with faults on a file database (loading it if new), checking between periods.")
public final class ChaosRunCommand implements Callable<Integer> {

    @Option(names = "--database-dir", paramLabel = "DIR", required = true)
    Path databaseDir;

    @Option(names = "--acks", paramLabel = "FILE", required = true)
    Path acks;

    @Option(names = "--periods", paramLabel = "FILE", required = true, description = "periods.jsonl to append to")
    Path periods;

    @Option(names = "--seconds", paramLabel = "N", required = true, description = "running time before SHUTDOWN")
    int seconds;

    @Option(names = "--period-seconds", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int periodSeconds = 20;

    @Option(names = "--clients", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int clients = 16;

    @Option(names = "--warehouses", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int warehouses = 1;

    @Option(names = "--tiny-scale", hidden = true)
    boolean tinyScale;

    @Option(names = "--seed", paramLabel = "N", required = true, description = "seed of this segment's inputs")
    long seed;

    @Option(names = "--load-seed", paramLabel = "N", required = true, description = "seed of a load (new database)")
    long loadSeed;

    @Option(names = "--segment", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int segment = 1;

    @Option(names = "--first-period", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int firstPeriod = 1;

    @Option(names = "--retry-backoff-us", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    int retryBackoffMicros = 500;

    @Option(names = "--hold-ms", paramLabel = "N", description = "how long the fault thread holds its lock (default: ${DEFAULT-VALUE})")
    int holdMillis = FaultInjector.Settings.HOLD_MILLIS;

    @Option(names = "--provoke-stall", description = "tests: lock every table for good instead of injecting faults")
    boolean provokeStall;

    @Mixin
    EngineOptions engine;

    @Override
    public Integer call() throws Exception {
        if (seconds < 1 || periodSeconds < 1 || clients < 1 || warehouses < 1 || holdMillis < 1) {
            throw new UsageException("--seconds, --period-seconds, --clients, --warehouses and --hold-ms must be at least 1");
        }
        if (engine.url != null) throw new UsageException("the chaos run runs named HSQLDB configurations (--config), not --url");
        FaultInjector.Settings d = FaultInjector.Settings.defaults();
        var plan = new ChaosRun.Plan(engine.resolve(), engine.jars(),
                tinyScale ? Scale.tiny(warehouses) : Scale.standard(warehouses), clients, seconds, periodSeconds, seed,
                loadSeed, segment, firstPeriod, Isolation.SERIALIZABLE, retryBackoffMicros,
                Math.max(2, Runtime.getRuntime().availableProcessors()), DatabaseLocation.file(databaseDir), acks,
                periods, new FaultInjector.Settings(holdMillis, d.queryTimeoutSeconds(), d.cancelEveryMillis(),
                        d.closeEveryMillis(), d.schemaChangeEveryMillis(), provokeStall));
        return ChaosRun.run(plan, System.out);
    }
}
