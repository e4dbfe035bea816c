package org.hsqldb.a2l.tpcc.engine;

import java.util.List;
import java.util.Map;
import org.hsqldb.a2l.tpcc.ReadsForUpdate;

/**
 * How to reach one engine: a registry entry (an HSQLDB jar, URL properties, setup SQL), or an
 * arbitrary JDBC URL with the jars of its driver ({@code --url --jar}). {@code reads} is how the
 * TPC-C reads that precede an update are written; {@code systemProperties} are set in the JVM
 * before the engine opens its database (one configuration per JVM, so they do not leak).
 */
public record EngineConfig(String name, JarKind jar, String urlProperties, List<String> setupSql, String hook,
                           String customUrl, List<String> customJars, String driverClass, String user,
                           String password, ReadsForUpdate reads, Map<String, String> systemProperties) {

    public enum JarKind { UPSTREAM, FORK, CUSTOM }

    /** HSQLDB, upstream and fork alike, accepts {@code FOR UPDATE OF} a column list. */
    public static EngineConfig hsqldb(String name, JarKind jar, String urlProperties, List<String> setupSql,
                                      String hook) {
        return new EngineConfig(name, jar, urlProperties, setupSql, hook, null, List.of(),
                "org.hsqldb.jdbc.JDBCDriver", "SA", "", ReadsForUpdate.FOR_UPDATE_OF, Map.of());
    }

    /** Any JDBC engine: plain {@code FOR UPDATE}, the form SQL engines share. */
    public static EngineConfig custom(String url, List<String> jars, String driverClass, String user,
                                      String password) {
        return new EngineConfig("custom", JarKind.CUSTOM, "", List.of(), "none", url, List.copyOf(jars),
                driverClass, user, password, ReadsForUpdate.FOR_UPDATE, Map.of());
    }

    public EngineConfig withReads(ReadsForUpdate form) {
        return new EngineConfig(name, jar, urlProperties, setupSql, hook, customUrl, customJars, driverClass, user,
                password, form, systemProperties);
    }

    public EngineConfig withSystemProperties(Map<String, String> properties) {
        return new EngineConfig(name, jar, urlProperties, setupSql, hook, customUrl, customJars, driverClass, user,
                password, reads, Map.copyOf(properties));
    }

    public boolean isHsqldb() {
        return jar != JarKind.CUSTOM;
    }

    /** The JDBC URL: {@code jdbc:hsqldb:mem:<database>;<properties>} for registry entries. */
    public String url(String database) {
        if (!isHsqldb()) return customUrl;
        return "jdbc:hsqldb:mem:" + database + (urlProperties.isEmpty() ? "" : ";" + urlProperties);
    }

    /** Runs one of HSQLDB's multi-version modes (hsqldb.tx=mvlocks or mvcc). */
    public boolean isMultiVersion() {
        return isHsqldb() && java.util.Arrays.stream(urlProperties.split(";")).map(String::strip)
                .anyMatch(p -> p.equalsIgnoreCase("hsqldb.tx=mvlocks") || p.equalsIgnoreCase("hsqldb.tx=mvcc"));
    }

    /**
     * A variant of another configuration, there to be measured against it by name: reads written
     * in another form than its engine's, or JVM properties.
     */
    public boolean isVariant() {
        ReadsForUpdate own = isHsqldb() ? ReadsForUpdate.FOR_UPDATE_OF : ReadsForUpdate.FOR_UPDATE;
        return reads != own || !systemProperties.isEmpty();
    }

    /** A one-line description for reports. */
    public String describe() {
        if (!isHsqldb()) return customUrl + " (" + String.join(", ", customJars) + "), reads " + reads.label;
        return jar.name().toLowerCase() + " jar, " + (urlProperties.isEmpty() ? "no URL properties" : urlProperties)
                + (setupSql.isEmpty() ? "" : ", setup: " + String.join("; ", setupSql))
                + ("none".equals(hook) ? "" : ", hook: " + hook) + ", reads " + reads.label
                + (systemProperties.isEmpty() ? "" : ", JVM properties " + systemProperties);
    }
}
