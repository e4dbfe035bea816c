package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Lists the engine configurations and whether the jars at hand support them. */
@Command(name = "configs", mixinStandardHelpOptions = true,
        description = "Lists engine-configs.txt and probes each configuration (available, or the engine's reason).")
public final class ConfigsCommand implements Callable<Integer> {

    @Option(names = "--fork-jar", paramLabel = "JAR") Path forkJar;

    @Option(names = "--upstream-jar", paramLabel = "JAR") Path upstreamJar;

    @Override
    public Integer call() {
        EngineJars jars = EngineJars.locate(upstreamJar, forkJar);
        for (EngineConfig c : EngineRegistry.load().all()) {
            String reason = Engine.probe(c, jars);
            System.out.printf("%-20s %-14s %s%n", c.name(), reason == null ? "available" : "NOT AVAILABLE",
                    c.describe() + (reason == null ? "" : " -- " + reason));
        }
        return Main.OK;
    }
}
