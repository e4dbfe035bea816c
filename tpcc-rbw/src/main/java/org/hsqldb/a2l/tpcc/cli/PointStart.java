package org.hsqldb.a2l.tpcc.cli;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.hsqldb.a2l.tpcc.engine.Dialect;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;

/**
 * What each measurement point of a {@link MeasurementRun} starts from. New-Order grows the database
 * (ORDERS, ORDER_LINE, HISTORY) and Delivery empties NEW_ORDER, so a point measured on the database an
 * earlier point left behind runs on a different workload than the first: {@code carry} is that old way,
 * kept to measure what it biased. The other two start every point from the same loaded rows.
 */
public enum PointStart {
    /**
     * Load once, copy the loaded tables into another schema of the same database, and before every
     * point re-create the TPC-C tables from that copy ({@link org.hsqldb.a2l.tpcc.LoadedCopy}): HSQLDB
     * and the peers.
     * The cheapest of the ways measured (tpcc-rbw/README.md, "compare", gives the costs).
     */
    RESTORE("restore"),
    /** Load the database again before every point but the first (drop and create the tables): any engine. */
    RELOAD("reload"),
    /** The database carries over from point to point (the old way; biased, see {@link PointStart}). */
    CARRY("carry");

    public final String label;

    PointStart(String label) {
        this.label = label;
    }

    /**
     * The cheapest way that starts every point from the same database: restore for the engines whose
     * dialect we know (HSQLDB, H2, Derby, PostgreSQL), reload for any other.
     */
    public static PointStart sameDatabaseFor(EngineConfig config) {
        return config.dialect() != Dialect.GENERIC ? RESTORE : RELOAD;
    }

    public static PointStart parse(String s) {
        for (PointStart p : values()) if (p.label.equals(s.toLowerCase(Locale.ROOT))) return p;
        throw new IllegalArgumentException("unknown point start '" + s + "' ("
                + Arrays.stream(values()).map(p -> p.label).collect(Collectors.joining(", ")) + ")");
    }

    @Override
    public String toString() {
        return label;
    }
}
