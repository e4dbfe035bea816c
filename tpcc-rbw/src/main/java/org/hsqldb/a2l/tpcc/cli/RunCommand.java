package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** scripts/tpcc: load, run one measurement point, check consistency, write DIR/summary.json. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads a TPC-C database, runs one measurement and checks the consistency conditions.",
                "Writes OUT/summary.json; exit code 0 ok, 1 consistency violated or run failed, 2 bad options."})
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--order", paramLabel = "ORDER", description = "original (the thesis' Table 6.1 order) or rbw (default: ${DEFAULT-VALUE})")
    StatementOrder order = StatementOrder.ORIGINAL;

    @Option(names = "--mix", paramLabel = "MIX", description = "8-92, 50-50, 80-20 or 100-0 (default: ${DEFAULT-VALUE})")
    Mix mix = Mix.M8_92;

    @Option(names = "--clients", paramLabel = "N", description = "terminals, one connection each (default: ${DEFAULT-VALUE})")
    int clients = 4;

    @Option(names = "--out", paramLabel = "DIR",
            description = "directory for summary.json (default: tpcc-rbw/target/runs/TIME-CONFIG, printed at the end)")
    Path out;

    @Option(names = "--acks", paramLabel = "FILE",
            description = "append every acknowledged commit (after commit() returned) to FILE, for `tpcc verify`;"
                    + " needs --database-dir")
    Path acks;

    @Option(names = "--sample-lock-waits", paramLabel = "MS",
            description = "read the fork's SYSTEM_LOCKS every MS milliseconds of the measured window and report the"
                    + " locks waited for most (by column or table, key left out); costs the engine some CPU, so"
                    + " not for the throughput of record (default: off)")
    int sampleLockWaitsMillis;

    @Mixin
    EngineOptions engine;

    @Mixin
    DatabaseOptions database;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    ClientOptions client;

    @Override
    public Integer call() throws Exception {
        if (clients < 1) throw new UsageException("--clients must be at least 1");
        if (sampleLockWaitsMillis < 0) throw new UsageException("--sample-lock-waits must not be negative");
        workload.validate();
        if (acks != null && database.databaseDir == null) {
            throw new UsageException("--acks needs --database-dir: acknowledgements are checked against a reopened"
                    + " file database");
        }
        var config = engine.resolve();
        if (!config.isHsqldb() && (database.databaseDir != null || database.server)) {
            throw new UsageException("--database-dir and --server are for HSQLDB configurations (--config), not --url");
        }
        if (out == null) {
            // a run someone types to see what happens should not need a folder chosen first
            out = org.hsqldb.a2l.tpcc.engine.EngineJars.harnessTargetDir().resolve("runs").resolve(
                    java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmmss"))
                            + "-" + config.name());
        }
        Path summaries = out;
        return DurableFiles.around(config, database.database(), where -> () -> MeasurementRun.run(
                new MeasurementRun.Plan(config, engine.jars(), workload.scale(),
                        List.of(new Point(order, mix, clients)), workload.seconds, workload.warmup,
                        MeasurementRun.seedOrRandom(workload.seed), workload.isolation, workload.progress,
                        workload.retryBackoffMicros, workload.loaderThreads(), summaries, false, null, where, acks)
                        .sampleLockWaits(sampleLockWaitsMillis).clientShape(client.shape()), System.out));
    }
}
