package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import org.hsqldb.a2l.tpcc.isolation.Anomaly;
import org.hsqldb.a2l.tpcc.isolation.IsolationTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** scripts/tpcc isolation: the anomaly schedules against every configuration, as a table. */
@Command(name = "isolation", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Plays the anomaly schedules (G0, G1a-c, lost update, non-repeatable read, phantom, read skew,",
                "write skew, G2 on a predicate) on two connections against each configuration, at the isolation",
                "level the benchmark uses, and says per (anomaly, configuration) ALLOWED or how it was prevented",
                "(blocked, aborted with SQLSTATE, or versions). Writes OUT/isolation.md and OUT/isolation.json."})
public final class IsolationCommand implements Callable<Integer> {

    @Option(names = "--configs", paramLabel = "NAME", split = ",",
            description = "configurations (default: upstream, upstream-mvlocks, upstream-mvcc, fork-lf, fork-a2l, h2,"
                    + " derby, postgresql)")
    List<String> configs = new ArrayList<>();

    @Option(names = "--anomalies", paramLabel = "CODE", split = ",",
            description = "a subset by code: G0, G1a, G1b, G1c, P4, P2, P3, G-single, G2-item, G2 (default: all)")
    List<String> anomalies = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "output folder (default: out/runs/<time>-isolation, git-ignored)")
    Path out;

    @Option(names = "--block-ms", paramLabel = "MS",
            description = "a step not finished after this long is blocked (default: ${DEFAULT-VALUE})")
    long blockMillis = 500;

    @Option(names = "--resolve-seconds", paramLabel = "S",
            description = "a blocked step not finished this long after the schedule's last step is hung (default: ${DEFAULT-VALUE})")
    long resolveSeconds = 30;

    @Option(names = "--isolation", paramLabel = "LEVEL",
            description = "run every engine at this level instead of the benchmark's (serializable on all)")
    Isolation isolation;

    @Option(names = "--fork-jar", paramLabel = "JAR") Path forkJar;

    @Option(names = "--upstream-jar", paramLabel = "JAR") Path upstreamJar;

    @Override
    public Integer call() throws Exception {
        if (blockMillis < 10) throw new UsageException("--block-ms must be at least 10");
        if (resolveSeconds < 1) throw new UsageException("--resolve-seconds must be at least 1");
        List<Anomaly> chosen = new ArrayList<>();
        for (String code : anomalies) {
            chosen.add(java.util.Arrays.stream(Anomaly.values()).filter(a -> a.code.equalsIgnoreCase(code)).findFirst()
                    .orElseThrow(() -> new UsageException("unknown anomaly '" + code + "' (G0, G1a, G1b, G1c, P4, P2, P3,"
                            + " G-single, G2-item, G2)")));
        }
        if (chosen.isEmpty()) chosen.addAll(List.of(Anomaly.values()));
        EngineRegistry registry = EngineRegistry.load();
        List<String> names = configs.isEmpty() ? IsolationTable.DEFAULT_CONFIGS : configs;
        for (String n : names) EngineOptions.named(n);
        Path dir = out != null ? out : Path.of("out", "runs").resolve(
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm")) + "-isolation");
        IsolationTable.Result result = IsolationTable.run(IsolationTable.configs(names, registry),
                EngineJars.locate(upstreamJar, forkJar),
                new IsolationTable.Options(blockMillis, resolveSeconds * 1000, isolation, chosen), System.out);
        result.write(dir);
        System.out.println();
        System.out.print(result.toMarkdown());
        System.out.println();
        System.out.println("written: " + dir.resolve("isolation.md") + ", " + dir.resolve("isolation.json"));
        boolean errors = result.cells().stream().anyMatch(c -> c.verdict() == IsolationTable.Verdict.ERROR);
        return errors ? Main.FAILED : Main.OK;
    }
}
