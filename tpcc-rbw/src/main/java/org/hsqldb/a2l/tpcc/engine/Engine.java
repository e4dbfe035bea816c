package org.hsqldb.a2l.tpcc.engine;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.MalformedURLException;
import java.net.ServerSocket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An engine loaded from its own jars, in a class loader whose parent is the platform loader, so
 * that nothing of the harness (or of another engine) is visible to it. The JDBC driver is
 * instantiated directly: DriverManager only hands out drivers its caller's loader can see.
 */
public final class Engine {

    private static final Map<List<Path>, ClassLoader> LOADERS = new ConcurrentHashMap<>();
    private static final AtomicLong PROBES = new AtomicLong();

    private static final int SERVER_ONLINE = 1;
    /** org.hsqldb.Database.CLOSEMODE_NORMAL: SHUTDOWN without COMPACT or IMMEDIATELY. */
    private static final int CLOSEMODE_NORMAL = 2;
    private static final int SERVER_START_ATTEMPTS = 5;

    private final EngineConfig config;
    private final Driver driver;
    private final String url;
    private final Properties credentials = new Properties();
    private final DatabaseLocation database;
    private final Object server;
    /** The served database's URI in the engine's registry (DatabaseManager), or null if not known. */
    private String servedUri;

    private Engine(EngineConfig config, Driver driver, String url, DatabaseLocation database, Object server) {
        this.config = config;
        this.driver = driver;
        this.url = url;
        this.database = database;
        this.server = server;
        if (config.user() != null) credentials.setProperty("user", config.user());
        if (config.password() != null) credentials.setProperty("password", config.password());
    }

    /** Loads the engine's driver; {@code database} names the HSQLDB in-memory database. */
    public static Engine load(EngineConfig config, EngineJars jars, String database) throws EngineException {
        return load(config, jars, DatabaseLocation.memory(database));
    }

    /**
     * Loads the engine's driver for an HSQLDB database in memory or in files; a served database is
     * opened by an {@code org.hsqldb.server.Server} from the engine's own jar, started here, and
     * the connections go through the network.
     */
    public static Engine load(EngineConfig config, EngineJars jars, DatabaseLocation database) throws EngineException {
        if (!config.isHsqldb() && (database.served() || database.isFile() && !config.isPeer())) {
            throw new EngineException("file databases of other engines than the peers', and the network server, are"
                    + " for HSQLDB configurations only");
        }
        // read by the engine when it opens a database (hsqldb.lock_check, say)
        config.systemProperties().forEach(System::setProperty);
        List<Path> paths = jars.jarsFor(config);
        if (!config.isHsqldb()) config.dialect().beforeLoad();
        ClassLoader loader = LOADERS.computeIfAbsent(List.copyOf(paths), Engine::classLoader);
        if (config.isCustom()) {
            String url = config.customUrl();
            return new Engine(config, driver(loader, config.driverClass(), url), url, database, null);
        }
        if (config.isPeer()) {
            String url = database.isFile()
                    ? config.dialect().fileUrl(database.directory().resolve(database.name()), config.urlProperties())
                    : config.dialect().url(database.name(), config.urlProperties());
            Engine e = new Engine(config, driver(loader, config.driverClass(), url), url, database, null);
            if (config.dialect() == Dialect.POSTGRESQL) {
                // the server's own user and password (scripts/postgres), unless the entry names them
                PostgresServer server = PostgresServer.find();
                if (server.user() != null) e.credentials.setProperty("user", server.user());
                if (server.password() != null) e.credentials.setProperty("password", server.password());
            }
            return e;
        }
        String path = database.path(config.urlProperties());
        if (!database.served()) {
            String url = "jdbc:hsqldb:" + path;
            return new Engine(config, driver(loader, config.driverClass(), url), url, database, null);
        }
        Object server = null;
        int port = 0;
        List<String> open = databaseUris(loader);
        for (int attempt = 1; server == null; attempt++) {
            port = freePort();
            try {
                server = startServer(loader, database.name(), path, port);
            } catch (EngineException e) {
                // another process may have taken the port between our probe and the server's bind
                if (attempt >= SERVER_START_ATTEMPTS || !e.getMessage().contains("BindException")) throw e;
            }
        }
        String url = "jdbc:hsqldb:hsql://127.0.0.1:" + port + "/" + database.name();
        Engine e = new Engine(config, driver(loader, config.driverClass(), url), url, database, server);
        List<String> opened = new ArrayList<>(databaseUris(loader));
        opened.removeAll(open);
        e.servedUri = opened.size() == 1 ? opened.get(0) : null;
        return e;
    }

    private static int freePort() throws EngineException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new EngineException("no free port on 127.0.0.1: " + e.getMessage());
        }
    }

    /** Upstream's Server, loaded from the engine's jar so it serves the engine under test. */
    private static Object startServer(ClassLoader loader, String alias, String path, int port) throws EngineException {
        try {
            Class<?> type = loader.loadClass("org.hsqldb.server.Server");
            Object server = type.getDeclaredConstructor().newInstance();
            type.getMethod("setAddress", String.class).invoke(server, "127.0.0.1");
            type.getMethod("setPort", int.class).invoke(server, port);
            type.getMethod("setDatabaseName", int.class, String.class).invoke(server, 0, alias);
            type.getMethod("setDatabasePath", int.class, String.class).invoke(server, 0, path);
            type.getMethod("setSilent", boolean.class).invoke(server, true);
            type.getMethod("setTrace", boolean.class).invoke(server, false);
            type.getMethod("setLogWriter", PrintWriter.class).invoke(server, (Object) null);
            type.getMethod("setErrWriter", PrintWriter.class).invoke(server, (Object) null);
            type.getMethod("setNoSystemExit", boolean.class).invoke(server, true);
            type.getMethod("setDaemon", boolean.class).invoke(server, true);
            type.getMethod("start").invoke(server);
            int state = (Integer) type.getMethod("getState").invoke(server);
            if (state != SERVER_ONLINE) {
                Object error = type.getMethod("getServerError").invoke(server);
                type.getMethod("shutdown").invoke(server);
                throw new EngineException("the HSQLDB server did not start on 127.0.0.1:" + port + " for " + path
                        + ": " + (error != null ? error : type.getMethod("getStateDescriptor").invoke(server)));
            }
            return server;
        } catch (ReflectiveOperationException e) {
            Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
            throw new EngineException("cannot start org.hsqldb.server.Server from the engine jar: " + cause, cause);
        }
    }

    public DatabaseLocation database() {
        return database;
    }

    private static ClassLoader classLoader(List<Path> jars) {
        URL[] urls = jars.stream().map(p -> {
            try {
                return p.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException(p.toString(), e);
            }
        }).toArray(URL[]::new);
        return new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
    }

    private static Driver driver(ClassLoader loader, String driverClass, String url) throws EngineException {
        try {
            if (driverClass != null) {
                return (Driver) loader.loadClass(driverClass).getDeclaredConstructor().newInstance();
            }
            for (Driver d : ServiceLoader.load(Driver.class, loader)) {
                if (d.acceptsURL(url)) return d;
            }
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new EngineException("cannot load JDBC driver " + driverClass + ": " + e);
        } catch (SQLException | java.util.ServiceConfigurationError e) {
            throw new EngineException("JDBC driver failed: " + e.getMessage());
        }
        throw new EngineException("no JDBC driver in the given jar(s) accepts " + url + " (give --driver CLASS?)");
    }

    public EngineConfig config() {
        return config;
    }

    public String url() {
        return url;
    }

    /**
     * Whether the engine executes in this JVM, so that the process's CPU is the engine's and the
     * terminals': every HSQLDB configuration (its network server too, which is started here), H2 and
     * Derby; not PostgreSQL, a server process of its own; a custom URL by its form (a {@code //host}
     * names a server, which may be elsewhere).
     */
    public boolean runsInThisJvm() {
        if (config.isCustom()) {
            return !url.contains("//");
        }
        return !(config.isPeer() && config.dialect() == Dialect.POSTGRESQL);
    }

    /** A new connection with the configuration's setup SQL already run. */
    public Connection connect() throws SQLException {
        Connection c = driver.connect(url, credentials);
        if (c == null) throw new SQLException("driver does not accept " + url, "08001");
        if (!config.setupSql().isEmpty()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                for (String sql : config.setupSql()) s.execute(sql);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            c.setAutoCommit(autoCommit);
        }
        return c;
    }

    /**
     * The reason this configuration cannot run on its engine, or null. HSQLDB ignores URL
     * properties and values it does not know, so every hsqldb.* property must come back from
     * INFORMATION_SCHEMA.SYSTEM_PROPERTIES with the value asked for.
     */
    public String unavailableReason(Connection c) throws SQLException {
        if (!config.isHsqldb()) return null;
        for (String prop : config.urlProperties().split(";")) {
            int eq = prop.indexOf('=');
            if (eq < 0 || !prop.strip().startsWith("hsqldb.")) continue;
            String name = prop.substring(0, eq).strip(), wanted = prop.substring(eq + 1).strip();
            String actual = null;
            boolean listed = false;
            try (var ps = c.prepareStatement(
                    "SELECT property_value FROM information_schema.system_properties WHERE property_name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        listed = true;
                        actual = rs.getString(1);
                    }
                }
            }
            if (!listed) return "the engine does not know " + name;
            if (actual == null || !actual.toLowerCase(Locale.ROOT).equals(wanted.toLowerCase(Locale.ROOT))) {
                return "asked for " + name + "=" + wanted + ", the engine runs " + name + "=" + actual;
            }
        }
        return null;
    }

    /** Opens the configuration on a scratch database: null if it is usable, else the engine's reason. */
    public static String probe(EngineConfig config, EngineJars jars) {
        String db = "probe_" + config.name().replaceAll("\\W", "_") + "_" + PROBES.incrementAndGet();
        try {
            Engine e = load(config, jars, db);
            try (Connection c = e.connect()) {
                String reason = e.unavailableReason(c);
                e.shutdown(c);
                return reason;
            }
        } catch (EngineException ex) {
            return ex.getMessage();
        } catch (SQLException ex) {
            return ex.getMessage();
        }
    }

    /**
     * Ends an in-memory database so its memory is freed: HSQLDB's and H2's SHUTDOWN, Derby's drop;
     * a PostgreSQL server's database is left as it is (the next load drops its tables).
     */
    public void shutdown(Connection c) {
        try {
            if (config.isHsqldb()) shutdown(c, "SHUTDOWN");
            else config.dialect().shutdown(this, c);
        } catch (SQLException ignored) {
            // already shut down
        }
    }

    /** Connects once to the URL with {@code suffix} appended and lets go (Derby's ;drop=true, ;shutdown=true). */
    void connectUrlSuffix(String suffix) {
        try (Connection c = driver.connect(url + suffix, credentials)) {
            // nothing: the connect did it
        } catch (SQLException expected) {
            // Derby answers a drop or shutdown with an exception (08006, XJ015)
        }
    }

    /** The engine's dialect (for a custom URL, guessed from the URL). */
    public Dialect dialect() {
        return config.dialect();
    }

    /**
     * Runs {@code statement} (SHUTDOWN, SHUTDOWN COMPACT ...) on an HSQLDB database, then stops
     * the server if there is one; other engines are left alone.
     */
    public void shutdown(Connection c, String statement) throws SQLException {
        if (!config.isHsqldb()) return;
        try (Statement s = c.createStatement()) {
            s.execute(statement);
        } finally {
            stopServer();
        }
    }

    /**
     * The server stops by itself once its only database is shut down; this covers the other paths
     * (a failed connect, a failed SHUTDOWN), closing the database too. Then waits, up to 10 s,
     * until the database is out of the engine's registry: a SHUTDOWN sent through the network can
     * return to the client, its connection closed, while the server's thread is still closing the
     * database, and a database opened next in this JVM under the same name (the next point, or a
     * test) would be handed the one that is closing, with its settings.
     */
    public void stopServer() {
        if (server == null) return;
        try {
            server.getClass().getMethod("shutdownWithCatalogs", int.class).invoke(server, CLOSEMODE_NORMAL);
        } catch (ReflectiveOperationException ignored) {
            // it is gone already
        }
        if (servedUri == null) return;
        ClassLoader loader = server.getClass().getClassLoader();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (databaseUris(loader).contains(servedUri) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The URIs of the databases open in the engine's registry (HSQLDB's DatabaseManager). */
    private static List<String> databaseUris(ClassLoader loader) {
        try {
            Object list = loader.loadClass("org.hsqldb.DatabaseManager").getMethod("getDatabaseURIs").invoke(null);
            int n = (Integer) list.getClass().getMethod("size").invoke(list);
            java.lang.reflect.Method get = list.getClass().getMethod("get", int.class);
            List<String> uris = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                uris.add((String) get.invoke(list, i));
            }
            return uris;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return List.of();
        }
    }
}
