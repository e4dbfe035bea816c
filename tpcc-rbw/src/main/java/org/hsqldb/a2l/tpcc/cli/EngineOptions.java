package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.ReadsForUpdate;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import picocli.CommandLine.Option;

/** Which engine to run: a named configuration, or any JDBC URL with its driver's jars. */
public final class EngineOptions {

    @Option(names = "--config", paramLabel = "NAME",
            description = "engine configuration from engine-configs.txt (default: upstream); see `tpcc configs`")
    String config;

    @Option(names = "--url", paramLabel = "URL", description = "any JDBC URL instead of --config (needs --jar)")
    String url;

    @Option(names = "--jar", paramLabel = "JAR", split = ",",
            description = "jar(s) of the JDBC driver for --url (repeat or comma-separate)")
    List<String> jars = new ArrayList<>();

    @Option(names = "--driver", paramLabel = "CLASS", description = "driver class for --url (default: the jar's service entry)")
    String driver;

    @Option(names = "--user", description = "user for --url") String user;

    @Option(names = "--password", description = "password for --url") String password;

    @Option(names = "--plain-reads",
            description = "plain SELECTs where TPC-C reads rows it then updates (default: the configuration's"
                    + " form, FOR UPDATE [OF columns]), to measure the thesis' reads")
    boolean plainReads;

    @Option(names = "--fork-jar", paramLabel = "JAR", description = "the fork jar (default: hsqldb-fork/target/hsqldb-2.7.4-fork-a2l.jar)")
    Path forkJar;

    @Option(names = "--upstream-jar", paramLabel = "JAR", description = "the upstream 2.7.4 jar (default: tpcc-rbw/target/engines/)")
    Path upstreamJar;

    @Option(names = "--baseline-jar", paramLabel = "JAR",
            description = "another fork jar, which the fork configurations named NAME@baseline run on")
    Path baselineJar;

    EngineJars jars() {
        return EngineJars.locate(upstreamJar, forkJar).withBaseline(baselineJar);
    }

    EngineConfig resolve() {
        EngineConfig resolved;
        if (url != null) {
            if (config != null) throw new UsageException("--config and --url exclude each other");
            if (jars.isEmpty()) throw new UsageException("--url needs --jar with the driver's jar(s)");
            resolved = EngineConfig.custom(url, jars, driver, user, password);
        } else {
            if (!jars.isEmpty()) throw new UsageException("--jar goes with --url");
            resolved = named(config == null ? "upstream" : config);
        }
        return plainReads ? resolved.withReads(ReadsForUpdate.PLAIN) : resolved;
    }

    static EngineConfig named(String name) {
        EngineRegistry registry = EngineRegistry.load();
        return registry.find(name).orElseThrow(() -> new UsageException(
                "unknown config '" + name + "' (known: " + String.join(", ", registry.names()) + ")"));
    }
}
