package org.hsqldb.a2l.tpcc.cli;

import java.nio.file.Path;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import picocli.CommandLine.Option;

/** Where an HSQLDB configuration keeps the database, and whether it is served over the network. */
public final class DatabaseOptions {

    @Option(names = "--database-dir", paramLabel = "DIR",
            description = {"keep the database in files: jdbc:hsqldb:file:DIR/tpcc;hsqldb.write_delay=false;<config"
                    + " properties>. Loaded (and checkpointed) only if DIR holds none yet; otherwise it is reused"
                    + " as it is, with the configuration, scale and seed recorded in DIR/tpcc-load.properties"})
    Path databaseDir;

    @Option(names = "--server",
            description = "serve the database with HSQLDB's own org.hsqldb.server.Server (from the engine jar) on a"
                    + " free port of 127.0.0.1; every connection goes to jdbc:hsqldb:hsql://127.0.0.1:PORT/tpcc")
    boolean server;

    DatabaseLocation database() {
        DatabaseLocation d = databaseDir == null ? DatabaseLocation.memory("tpcc") : DatabaseLocation.file(databaseDir);
        return server ? d.servedOverNetwork() : d;
    }
}
