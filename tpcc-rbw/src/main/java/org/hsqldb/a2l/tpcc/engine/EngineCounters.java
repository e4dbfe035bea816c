package org.hsqldb.a2l.tpcc.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * The engine's own counters (lock requests, waits, deadlocks, upgrades ...), read at the start
 * and at the end of the measured window; the summary reports their difference as
 * {@code engine_counters}. Cumulative numbers are expected.
 */
public final class EngineCounters {

    private EngineCounters() {}

    /**
     * Empty for every engine today. For the fork: query its lock-counter system table on
     * {@code c} when {@code config} runs on the fork jar, and return name -> value.
     */
    public static Map<String, Number> read(Connection c, EngineConfig config) throws SQLException {
        return Map.of();
    }
}
