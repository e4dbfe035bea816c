package org.hsqldb.a2l.tpcc.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The engine's own counters (lock requests, waits, deadlocks, upgrades ...), read at the start
 * and at the end of the measured window; the summary reports their difference as
 * {@code engine_counters}. Cumulative numbers are expected.
 */
public final class EngineCounters {

    private EngineCounters() {}

    /**
     * The fork's lock manager counters (INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS: requests, waits,
     * wait_nanos, upgrades, deadlocks, ...) when the configuration runs on the fork; empty for
     * other engines, and for fork modes without the lock manager (the table is then empty).
     */
    public static Map<String, Number> read(Connection c, EngineConfig config) throws SQLException {
        if (config == null || config.jar() != EngineConfig.JarKind.FORK) {
            return Map.of();
        }
        Map<String, Number> counters = new LinkedHashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNTER_NAME, COUNTER_VALUE FROM INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS")) {
            while (rs.next()) {
                counters.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getLong(2));
            }
        } catch (SQLException e) {
            // a fork built before the counters existed has no such table
            return Map.of();
        }
        return counters;
    }
}
