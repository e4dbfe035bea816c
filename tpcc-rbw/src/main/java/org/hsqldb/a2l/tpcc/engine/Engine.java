package org.hsqldb.a2l.tpcc.engine;

import java.net.MalformedURLException;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * An engine loaded from its own jars, in a class loader whose parent is the platform loader, so
 * that nothing of the harness (or of another engine) is visible to it. The JDBC driver is
 * instantiated directly: DriverManager only hands out drivers its caller's loader can see.
 */
public final class Engine {

    private static final Map<List<Path>, ClassLoader> LOADERS = new ConcurrentHashMap<>();
    private static final AtomicLong PROBES = new AtomicLong();

    private final EngineConfig config;
    private final Driver driver;
    private final String url;
    private final Properties credentials = new Properties();

    private Engine(EngineConfig config, Driver driver, String url) {
        this.config = config;
        this.driver = driver;
        this.url = url;
        if (config.user() != null) credentials.setProperty("user", config.user());
        if (config.password() != null) credentials.setProperty("password", config.password());
    }

    /** Loads the engine's driver; {@code database} names the HSQLDB in-memory database. */
    public static Engine load(EngineConfig config, EngineJars jars, String database) throws EngineException {
        List<Path> paths = new ArrayList<>();
        if (config.isHsqldb()) {
            String missing = jars.missingMessage(config.jar());
            if (missing != null) throw new EngineException(missing);
            paths.add(jars.jarFor(config.jar()));
        } else {
            for (String j : config.customJars()) {
                Path p = Path.of(j).toAbsolutePath();
                if (!Files.isRegularFile(p)) throw new EngineException("engine jar not found: " + p);
                paths.add(p);
            }
        }
        String url = config.url(database);
        ClassLoader loader = LOADERS.computeIfAbsent(List.copyOf(paths), Engine::classLoader);
        return new Engine(config, driver(loader, config.driverClass(), url), url);
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

    /** Ends an in-memory HSQLDB database so its memory is freed; other engines are left alone. */
    public void shutdown(Connection c) {
        if (!config.isHsqldb()) return;
        try (Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException ignored) {
            // already shut down
        }
    }
}
