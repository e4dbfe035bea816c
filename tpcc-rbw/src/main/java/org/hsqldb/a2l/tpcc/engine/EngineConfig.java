package org.hsqldb.a2l.tpcc.engine;

import java.util.List;

/**
 * How to reach one engine: a registry entry (an HSQLDB jar, URL properties, setup SQL), or an
 * arbitrary JDBC URL with the jars of its driver ({@code --url --jar}).
 */
public record EngineConfig(String name, JarKind jar, String urlProperties, List<String> setupSql, String hook,
                           String customUrl, List<String> customJars, String driverClass, String user,
                           String password) {

    public enum JarKind { UPSTREAM, FORK, CUSTOM }

    public static EngineConfig hsqldb(String name, JarKind jar, String urlProperties, List<String> setupSql,
                                      String hook) {
        return new EngineConfig(name, jar, urlProperties, setupSql, hook, null, List.of(),
                "org.hsqldb.jdbc.JDBCDriver", "SA", "");
    }

    public static EngineConfig custom(String url, List<String> jars, String driverClass, String user,
                                      String password) {
        return new EngineConfig("custom", JarKind.CUSTOM, "", List.of(), "none", url, List.copyOf(jars),
                driverClass, user, password);
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

    /** A one-line description for reports. */
    public String describe() {
        if (!isHsqldb()) return customUrl + " (" + String.join(", ", customJars) + ")";
        return jar.name().toLowerCase() + " jar, " + (urlProperties.isEmpty() ? "no URL properties" : urlProperties)
                + (setupSql.isEmpty() ? "" : ", setup: " + String.join("; ", setupSql))
                + ("none".equals(hook) ? "" : ", hook: " + hook);
    }
}
