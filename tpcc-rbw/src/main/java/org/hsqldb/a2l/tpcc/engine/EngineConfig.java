package org.hsqldb.a2l.tpcc.engine;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsqldb.a2l.tpcc.ReadsForUpdate;
import org.hsqldb.a2l.tpcc.TransactionHooks;

/**
 * How to reach one engine: a registry entry (an HSQLDB jar, or a peer engine's driver jars, with URL
 * properties, setup SQL and a hook), or an arbitrary JDBC URL with the jars of its driver
 * ({@code --url --jar}). {@code reads} is how the TPC-C reads that precede an update are written;
 * {@code systemProperties} are set in the JVM before the engine opens its database (one configuration
 * per JVM, so they do not leak). What differs between engines beyond that is in {@link Dialect}.
 */
public record EngineConfig(String name, JarKind jar, String urlProperties, List<String> setupSql, String hook,
                           String customUrl, List<String> customJars, String driverClass, String user,
                           String password, ReadsForUpdate reads, Map<String, String> systemProperties) {

    /**
     * Where the engine's jars come from: UPSTREAM and FORK are HSQLDB's, H2, DERBY and POSTGRESQL the
     * peers' drivers that the build copies to target/engines/, CUSTOM names its own ({@code --jar}).
     */
    public enum JarKind {
        UPSTREAM(Dialect.HSQLDB), FORK(Dialect.HSQLDB), H2(Dialect.H2), DERBY(Dialect.DERBY),
        POSTGRESQL(Dialect.POSTGRESQL), CUSTOM(null);

        final Dialect dialect;

        JarKind(Dialect dialect) {
            this.dialect = dialect;
        }

        /** The registry's jar field: upstream, fork, h2, derby or postgresql. */
        public static JarKind parse(String s) {
            for (JarKind k : values()) {
                if (k != CUSTOM && k.name().toLowerCase(Locale.ROOT).equals(s.toLowerCase(Locale.ROOT))) return k;
            }
            throw new IllegalArgumentException("jar must be upstream, fork, h2, derby or postgresql: " + s);
        }
    }

    /**
     * HSQLDB, upstream and fork alike, accepts {@code FOR UPDATE OF} a column list; a configuration
     * whose hook declares its writes reads plainly (see {@link TransactionHooks#declaresWrites}).
     */
    public static EngineConfig hsqldb(String name, JarKind jar, String urlProperties, List<String> setupSql,
                                      String hook) {
        return new EngineConfig(name, jar, urlProperties, setupSql, hook, null, List.of(),
                "org.hsqldb.jdbc.JDBCDriver", "SA", "", naturalReads(Dialect.HSQLDB, hook), Map.of());
    }

    private static ReadsForUpdate naturalReads(Dialect dialect, String hook) {
        return TransactionHooks.declaresWrites(hook) ? ReadsForUpdate.PLAIN : dialect.readsForUpdate();
    }

    /** A registry entry of a peer engine (H2, Derby, PostgreSQL): its dialect knows URL, driver and user. */
    public static EngineConfig peer(String name, JarKind jar, String urlProperties, List<String> setupSql, String hook) {
        Dialect d = jar.dialect;
        return new EngineConfig(name, jar, urlProperties, setupSql, hook, null, List.of(), d.driverClass, d.user,
                d.password, naturalReads(d, hook), Map.of());
    }

    public static EngineConfig of(String name, JarKind jar, String urlProperties, List<String> setupSql, String hook) {
        return jar == JarKind.UPSTREAM || jar == JarKind.FORK ? hsqldb(name, jar, urlProperties, setupSql, hook)
                : peer(name, jar, urlProperties, setupSql, hook);
    }

    /**
     * Any JDBC engine: the reads its URL's dialect takes (an engine we do not know: plain
     * {@code FOR UPDATE}, the form SQL engines share).
     */
    public static EngineConfig custom(String url, List<String> jars, String driverClass, String user,
                                      String password) {
        return new EngineConfig("custom", JarKind.CUSTOM, "", List.of(), "none", url, List.copyOf(jars),
                driverClass, user, password, Dialect.ofUrl(url).readsForUpdate(), Map.of());
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
        return jar == JarKind.UPSTREAM || jar == JarKind.FORK;
    }

    /** The suffix of a configuration run on a file database with durable commits. */
    public static final String DURABLE = "@durable";

    /**
     * Runs on a database in files with its engine's durable setting, not in memory: HSQLDB with
     * {@code write_delay=false}, H2 with {@code WRITE_DELAY=0}, Derby with its defaults, PostgreSQL as
     * always (Dialect.commitDurability says what each syncs). Named {@code NAME@durable}.
     */
    public boolean isDurable() {
        return name.endsWith(DURABLE);
    }

    /**
     * What this configuration's durable form writes and syncs at a commit, for reports: the engine's
     * (Dialect.commitDurability), and for HSQLDB whether the jar shares a sync among commits.
     */
    public String commitDurability() {
        String base = dialect().commitDurability();
        if (jar == JarKind.UPSTREAM) return base + ", one sync per commit, one commit after the other";
        if (isBaseline()) return base + " (the baseline jar: group commit if it was built with it)";
        if (jar == JarKind.FORK) return base + "; commits that wait for a sync together share it (group commit)";
        return base;
    }

    /** This HSQLDB or peer configuration on a durable file database ({@link #isDurable}). */
    public EngineConfig onDurableFiles() {
        if (!(isHsqldb() || isPeer()) || isDurable()) throw new IllegalArgumentException(name + " has no durable form");
        return new EngineConfig(name + DURABLE, jar, urlProperties, setupSql, hook, customUrl, customJars, driverClass,
                user, password, reads, systemProperties);
    }

    /** The suffix of a fork configuration run on the baseline fork jar ({@code --baseline-jar}). */
    public static final String BASELINE = "@baseline";

    /**
     * A fork configuration run on the baseline fork jar instead of the fork jar: the same settings,
     * named {@code NAME@baseline}, to measure a change of the fork against the jar before it in one run.
     */
    public boolean isBaseline() {
        return jar == JarKind.FORK && (name.endsWith(BASELINE) || name.endsWith(BASELINE + DURABLE));
    }

    /** This fork configuration on the baseline jar ({@link #isBaseline}). */
    public EngineConfig onBaseline() {
        if (jar != JarKind.FORK || isBaseline()) throw new IllegalArgumentException(name + " is not a fork configuration");
        return new EngineConfig(name + BASELINE, jar, urlProperties, setupSql, hook, customUrl, customJars, driverClass,
                user, password, reads, systemProperties);
    }

    /** A registry entry of H2, Derby or PostgreSQL. */
    public boolean isPeer() {
        return jar == JarKind.H2 || jar == JarKind.DERBY || jar == JarKind.POSTGRESQL;
    }

    public boolean isCustom() {
        return jar == JarKind.CUSTOM;
    }

    /** The engine's dialect; a custom URL's is guessed from its prefix (GENERIC if none of ours). */
    public Dialect dialect() {
        return jar == JarKind.CUSTOM ? Dialect.ofUrl(customUrl) : jar.dialect;
    }

    /**
     * The JDBC URL of the in-memory database {@code database}: {@code jdbc:hsqldb:mem:<database>;<properties>}
     * for HSQLDB entries, the peer's own form for the others (a PostgreSQL entry names the running
     * server's database and ignores {@code database}).
     */
    public String url(String database) {
        if (isCustom()) return customUrl;
        try {
            return dialect().url(database, urlProperties);
        } catch (EngineException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Runs one of HSQLDB's multi-version modes (hsqldb.tx=mvlocks or mvcc). */
    public boolean isMultiVersion() {
        return isHsqldb() && (hsqldbTransactionControl().equals("mvlocks") || hsqldbTransactionControl().equals("mvcc"));
    }

    /** The hsqldb.tx property asked for, lower case ("locks" when none is given); "" for other engines. */
    public String hsqldbTransactionControl() {
        return hsqldbProperty("hsqldb.tx", "locks");
    }

    /**
     * The hsqldb.lock_granularity property asked for, lower case ("column" when none is given); "" for
     * other engines.
     */
    public String hsqldbLockGranularity() {
        return hsqldbProperty("hsqldb.lock_granularity", "column");
    }

    /** The last value of URL property {@code key}, lower case, or {@code absent}; "" for other engines. */
    private String hsqldbProperty(String key, String absent) {
        if (!isHsqldb()) return "";
        String prefix = key + "=";
        return Arrays.stream(urlProperties.split(";")).map(String::strip)
                .filter(p -> p.toLowerCase(Locale.ROOT).startsWith(prefix))
                .map(p -> p.substring(prefix.length()).strip().toLowerCase(Locale.ROOT))
                .reduce((a, b) -> b).orElse(absent);
    }

    /**
     * A variant of another configuration, there to be measured against it by name: reads written
     * in another form than its engine's, or JVM properties.
     */
    public boolean isVariant() {
        return reads != naturalReads(dialect(), hook) || !systemProperties.isEmpty();
    }

    /** A one-line description for reports. */
    public String describe() {
        if (isCustom()) return customUrl + " (" + String.join(", ", customJars) + "), reads " + reads.label;
        String engine = isBaseline() ? "baseline fork jar" : isHsqldb() ? jar.name().toLowerCase(Locale.ROOT) + " jar"
                : dialect().product + " (peer)";
        return engine + ", " + (urlProperties.isEmpty() ? "no URL properties" : urlProperties)
                + (setupSql.isEmpty() ? "" : ", setup: " + String.join("; ", setupSql))
                + ("none".equals(hook) ? "" : ", hook: " + hook) + ", reads " + reads.label
                + (systemProperties.isEmpty() ? "" : ", JVM properties " + systemProperties);
    }
}
