package org.hsqldb.a2l.fork;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Connections to the two engines a fork test compares: the fork under test
 * (on the test class path) and the unmodified upstream 2.7.4 jar, loaded in a
 * class loader of its own so the two never share a class or a database.
 */
public final class Engines {

    private static Driver upstreamDriver;

    private Engines() {}

    /** A connection to the fork, as user SA. */
    public static Connection fork(String url) throws SQLException {
        return DriverManager.getConnection(url, "SA", "");
    }

    /** A connection to unmodified HSQLDB 2.7.4, as user SA. */
    public static synchronized Connection upstream(String url) throws SQLException {
        if (upstreamDriver == null) {
            upstreamDriver = loadDriver(upstreamJar());
        }
        Properties p = new Properties();
        p.setProperty("user", "SA");
        p.setProperty("password", "");
        return upstreamDriver.connect(url, p);
    }

    public static Path upstreamJar() {
        String jar = System.getProperty("upstream.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("upstream.jar (set by hsqldb-fork/pom.xml) does not name the upstream 2.7.4 jar: " + jar);
        }
        return Path.of(jar);
    }

    static Driver loadDriver(Path jar) {
        try {
            // parent = platform loader: nothing of the fork is visible from here
            ClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
            return (Driver) loader.loadClass("org.hsqldb.jdbc.JDBCDriver")
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | java.net.MalformedURLException e) {
            throw new IllegalStateException("cannot load a JDBC driver from " + jar, e);
        }
    }
}
