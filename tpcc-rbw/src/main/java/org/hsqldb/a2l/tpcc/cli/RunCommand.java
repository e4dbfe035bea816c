package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** scripts/tpcc: load, run one measurement point, check consistency, write DIR/summary.json. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads a TPC-C database, runs one measurement and checks the consistency conditions.",
                "Writes OUT/summary.json; exit code 0 ok, 1 consistency violated or run failed, 2 bad options."})
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--order", paramLabel = "ORDER", description = "original or rbw (default: ${DEFAULT-VALUE})")
    StatementOrder order = StatementOrder.ORIGINAL;

    @Option(names = "--mix", paramLabel = "MIX", description = "8-92, 50-50, 80-20 or 100-0 (default: ${DEFAULT-VALUE})")
    Mix mix = Mix.M8_92;

    @Option(names = "--clients", paramLabel = "N", description = "terminals, one connection each (default: ${DEFAULT-VALUE})")
    int clients = 4;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "directory for summary.json")
    Path out;

    @Mixin
    EngineOptions engine;

    @Mixin
    WorkloadOptions workload;

    @Override
    public Integer call() throws Exception {
        if (clients < 1) throw new UsageException("--clients must be at least 1");
        workload.validate();
        var config = engine.resolve();
        var plan = new Session.Plan(config, engine.jars(), Scale.standard(workload.warehouses),
                List.of(new Point(order, mix, clients)), workload.seconds, workload.warmup,
                Session.seedOrRandom(workload.seed), workload.isolation, workload.progress, workload.retryBackoffMicros,
                workload.loaderThreads(), out, false, null);
        return Session.run(plan, System.out);
    }
}
