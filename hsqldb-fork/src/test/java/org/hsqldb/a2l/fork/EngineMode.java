package org.hsqldb.a2l.fork;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The engine modes tests run the fork in: a name, the JDBC URL properties that
 * select the mode, and the patch that introduced it ({@code null} for
 * upstream's own modes, which the unmodified 2.7.4 jar has too).
 *
 * <p>Adding a mode is adding one constant. A mode whose patch is not in the
 * applied prefix of the series (see {@link RequiresPatch}) is not
 * {@link #isApplied() applied}: tests skip it and say so.
 */
public enum EngineMode {

    LOCKS("locks", "hsqldb.tx=locks", null),
    MVLOCKS("mvlocks", "hsqldb.tx=mvlocks", null),
    MVCC("mvcc", "hsqldb.tx=mvcc", null),
    LF("lf", "hsqldb.tx=locks;hsqldb.latch_free=true", "Add-the-LATCH-FREE-database-setting"),
    A2L("a2l", "hsqldb.tx=a2l", "Add-transaction-control-A2L"),
    A2L_LATCHED("a2l-latched", "hsqldb.tx=a2l;hsqldb.latch_free=false", "Add-transaction-control-A2L"),
    A2L_CELL("a2l-cell", "hsqldb.tx=a2l;hsqldb.lock_granularity=cell", "Lock-cells-row-keys-and-key-ranges");

    /**
     * The SQL statement that sets each URL property a mode may use, as a
     * format with the value as its one argument. Scripts that set one of these
     * themselves would take the database out of the mode under test; the
     * regression runner uses this table to find such statements and to put
     * the mode's own setting in their place.
     */
    private static final Map<String, String> SETTING_SQL = Map.of(
            "hsqldb.tx", "SET DATABASE TRANSACTION CONTROL %s",
            "hsqldb.latch_free", "SET DATABASE LATCH FREE %s",
            "hsqldb.lock_granularity", "SET DATABASE LOCK GRANULARITY %s");

    private final String id;
    private final Map<String, String> urlProperties;
    private final String patch;

    EngineMode(String id, String urlProperties, String patch) {
        this.id = id;
        this.urlProperties = parseProperties(urlProperties);
        this.patch = patch;
    }

    /** The mode's name as people type it: {@code locks}, {@code mvcc}, ... */
    public String id() {
        return id;
    }

    /** The URL properties that select the mode, in the order they are written. */
    public Map<String, String> urlProperties() {
        return urlProperties;
    }

    /** The subject slug of the patch that introduced the mode, or null for upstream's own modes. */
    public String patch() {
        return patch;
    }

    /** True for the modes the unmodified 2.7.4 jar has as well. */
    public boolean isUpstreamMode() {
        return patch == null;
    }

    /**
     * The upstream mode that the fork in this mode is held to: the same mode
     * where upstream has it, LOCKS for fork-only modes (they are all locking
     * modes; LOCKS is the behaviour they must keep).
     */
    public EngineMode upstreamCounterpart() {
        return isUpstreamMode() ? this : LOCKS;
    }

    /** {@code baseUrl} with the mode's properties appended. */
    public String url(String baseUrl) {
        StringBuilder url = new StringBuilder(baseUrl);
        urlProperties.forEach((k, v) -> {
            if (url.charAt(url.length() - 1) != ';') {
                url.append(';');
            }
            url.append(k).append('=').append(v);
        });
        return url.toString();
    }

    /** SQL statements that put a database into this mode, one per URL property. */
    public List<String> settingStatements() {
        List<String> out = new ArrayList<>();
        urlProperties.forEach((k, v) -> out.add(String.format(settingSql(k), v.toUpperCase(Locale.ROOT))));
        return out;
    }

    private static String settingSql(String property) {
        String sql = SETTING_SQL.get(property);
        if (sql == null) {
            throw new IllegalStateException("EngineMode: no SQL statement is known for URL property " + property
                    + "; add it to EngineMode.SETTING_SQL");
        }
        return sql;
    }

    /** Property -> the SQL format that sets it, for every property a mode may use. */
    public static Map<String, String> settablePropertiesSql() {
        return SETTING_SQL;
    }

    /**
     * Whether the fork under test has this mode: always for upstream's modes,
     * otherwise only if the mode's patch is in the applied prefix of the series.
     * A patch name that the series does not have at all is an error.
     */
    public boolean isApplied() {
        if (patch == null) {
            return true;
        }
        return PatchSeries.isApplied(patch);
    }

    public static List<EngineMode> all() {
        return List.of(values());
    }

    public static EngineMode byId(String id) {
        for (EngineMode m : values()) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown engine mode '" + id + "' (known: "
                + Arrays.stream(values()).map(EngineMode::id).collect(Collectors.joining(", ")) + ")");
    }

    private static Map<String, String> parseProperties(String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : spec.split(";")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("mode property is not key=value: " + part);
            }
            out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
        }
        return Collections.unmodifiableMap(out);
    }
}
