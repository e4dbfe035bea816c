package org.hsqldb.a2l.tpcc.engine;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where an HSQLDB configuration keeps its database and how the terminals reach it: in memory
 * (the default) or in files under a directory, opened in-process or served by HSQLDB's own
 * network server ({@code org.hsqldb.server.Server}) on the loopback address. A value, not a
 * connection: {@link Engine#load} opens what it names.
 *
 * <p>A file database is opened with {@code hsqldb.write_delay=false}: every commit is written to
 * the log before {@code commit()} returns, which is the durability the crash tests check.
 */
public record DatabaseLocation(String name, Path directory, boolean served) {

    /** The file databases' name inside their directory (DIR/tpcc.script, DIR/tpcc.log, ...). */
    public static final String FILE_NAME = "tpcc";

    public static DatabaseLocation memory(String name) {
        return new DatabaseLocation(name, null, false);
    }

    public static DatabaseLocation file(Path directory) {
        return new DatabaseLocation(FILE_NAME, directory.toAbsolutePath().normalize(), false);
    }

    public DatabaseLocation servedOverNetwork() {
        return new DatabaseLocation(name, directory, true);
    }

    public boolean isFile() {
        return directory != null;
    }

    /** Whether the directory already holds an HSQLDB database (its .properties or .script file). */
    public boolean exists() {
        return isFile() && (Files.exists(directory.resolve(name + ".properties"))
                || Files.exists(directory.resolve(name + ".script")));
    }

    /** HSQLDB's database path with the configuration's properties: what follows jdbc:hsqldb: or server.database.0. */
    public String path(String urlProperties) {
        String base = isFile() ? "file:" + directory.resolve(name) + ";hsqldb.write_delay=false" : "mem:" + name;
        return base + (urlProperties.isEmpty() ? "" : ";" + urlProperties);
    }

    public String describe() {
        String where = isFile() ? "file database " + directory.resolve(name) + " (write_delay=false)"
                : "in-memory database " + name;
        return served ? where + ", served by org.hsqldb.server.Server on 127.0.0.1" : where;
    }
}
