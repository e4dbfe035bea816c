package org.hsqldb.a2l.fork.regress;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;

import org.hsqldb.a2l.fork.Engines;

/**
 * The engine of one run of the suite: a copy of HSQLDB (upstream's jar, or the
 * fork's classes from the test class path) in a class loader of its own, so
 * that no static state of the engine is shared with a run going on at the same
 * time, as if each run had a JVM of its own.
 *
 * <p>Why: HSQLDB keeps JVM-wide (per class loader) mutable state that is not
 * safe between sessions. In 2.7.4, {@code org.hsqldb.types.HsqlDateTime} has
 * one static {@code java.util.Date sysDate} that {@code getDateString} sets and
 * formats under the monitor of {@code sdfd} and {@code getTimestampString}
 * under the monitor of {@code sdfts}: a DATE formatted in one session can
 * overwrite it between the {@code setTime} and the {@code format} of a
 * TIMESTAMP in another, which then reads back as the other value (e.g.
 * {@code 2009-01-01 00:00:00.000000} for {@code 2009-01-01 12:00:00}). With
 * every fork run in the test class loader (and every upstream run in one
 * shared loader) the two runs going on at once could change each other's
 * results: TestSelfCheckConstraints.txt:49 failed so, once, in mvlocks.
 * That race is upstream's; it is not what the suite tests, so runs are kept
 * apart instead.
 *
 * <p>The loader is never closed: a unit abandoned after its timeout may still
 * be running in it.
 */
public final class RunEngine implements ScriptRunner.ConnectionFactory {

    private final String name;
    private final ClassLoader loader;
    private final Driver driver;

    private RunEngine(String name, URL classes) {
        this.name = name;
        // parent = platform loader: nothing of the test class path's HSQLDB is visible from here
        this.loader = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
        try {
            this.driver = (Driver) loader.loadClass("org.hsqldb.jdbc.JDBCDriver").getDeclaredConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load a JDBC driver from " + classes, e);
        }
    }

    /** A fresh copy of unmodified HSQLDB 2.7.4 (the jar named by system property upstream.jar). */
    public static RunEngine upstream() {
        return new RunEngine("upstream", url(Engines.upstreamJar()));
    }

    /** A fresh copy of the fork: the classes the test class path has it in (target/classes). */
    public static RunEngine fork() {
        return new RunEngine("fork", org.hsqldb.jdbc.JDBCDriver.class.getProtectionDomain().getCodeSource()
                .getLocation());
    }

    /** The class loader this engine's classes are in (none of them is shared with another RunEngine). */
    public ClassLoader loader() {
        return loader;
    }

    /** A connection as user SA. */
    @Override
    public Connection open(String url) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "SA");
        p.setProperty("password", "");
        Connection c = driver.connect(url, p);
        if (c == null) {
            throw new SQLException("the " + name + " driver does not accept " + url);
        }
        return c;
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return name + " engine in " + loader;
    }
}
