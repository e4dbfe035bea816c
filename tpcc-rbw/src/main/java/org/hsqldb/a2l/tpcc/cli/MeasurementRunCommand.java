package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What compare runs in each child JVM ({@link MeasurementRun}): one configuration, one load, several points. */
@Command(name = "measurement-run", hidden = true, mixinStandardHelpOptions = true,
        description = "Loads once and measures each point (order:mix:clients) in turn; OUT/<point>/summary.json each.")
public final class MeasurementRunCommand implements Callable<Integer> {

    /** Lets picocli say "unknown point start 'x' (restore, reload, carry)" and nothing more. */
    static final class PointStartConverter implements picocli.CommandLine.ITypeConverter<PointStart> {
        @Override
        public PointStart convert(String value) {
            try {
                return PointStart.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Option(names = "--points", paramLabel = "ORDER:MIX:CLIENTS", split = ",", required = true)
    List<String> points = new ArrayList<>();

    @Option(names = "--rep", paramLabel = "N", description = "repetition number, recorded in the summaries")
    Integer rep;

    @Option(names = "--out", paramLabel = "DIR", required = true)
    Path out;

    @Option(names = "--run-folder", paramLabel = "DIR",
            description = "the compare run's folder, which summaries name their path relative to (default: --out)")
    Path runFolder;

    @Option(names = "--point-start", paramLabel = "HOW", converter = PointStartConverter.class,
            description = "restore, reload or carry (see PointStart; default: restore for HSQLDB, reload for others)")
    PointStart pointStart;

    @Mixin
    EngineOptions engine;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    ClientOptions client;

    @Override
    public Integer call() throws Exception {
        workload.validate();
        List<Point> parsed = points.stream().map(Point::parse).toList();
        var config = engine.resolve();
        return DurableFiles.around(config, DatabaseLocation.memory("tpcc"), database -> () -> MeasurementRun.run(
                new MeasurementRun.Plan(config, engine.jars(), workload.scale(), parsed,
                        workload.seconds, workload.warmup, MeasurementRun.seedOrRandom(workload.seed),
                        workload.isolation, workload.progress, workload.retryBackoffMicros, workload.loaderThreads(),
                        out, true, rep, database, null, runFolder != null ? runFolder : out,
                        pointStart != null ? pointStart : PointStart.sameDatabaseFor(config))
                        .clientShape(client.shape()), System.out));
    }
}
