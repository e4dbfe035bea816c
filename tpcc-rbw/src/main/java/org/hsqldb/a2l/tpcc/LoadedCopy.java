package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.hsqldb.a2l.tpcc.engine.Dialect;

/**
 * A copy of the loaded tables kept inside the same database (HSQLDB, H2, Derby, PostgreSQL), so that every measurement point can
 * start from the rows the load made. {@link #save} copies the nine tables, as loaded, into schema
 * {@value #SCHEMA} (plain tables: no keys, no indexes); {@link #restore} drops and re-creates the TPC-C
 * tables ({@link Schema#create}) and fills them from the copy with one {@code INSERT ... SELECT} per table,
 * on a few connections at once, with referential integrity checks off (the copy is consistent: it is the
 * load), or, on an engine without that switch for a plain user (Derby, PostgreSQL), parents first on one
 * connection. What differs per engine is in {@link Dialect}. The transactions name their tables without a schema, so they never see the copy; it costs heap
 * (about 300 MB at 4 warehouses).
 *
 * <p>What it costs on this 2-core machine at 4 warehouses, measured beside the alternatives
 * (tpcc-rbw/README.md, "compare"): saving 3.6 s, restoring 15-25 s, against 27-42 s for a load and
 * 34-55 s for opening a SCRIPT of the loaded database read-only-files.
 */
public final class LoadedCopy {

    public static final String SCHEMA = "TPCC_LOADED";

    /** Largest first, so that the threads finish together. */
    static final List<String> BY_SIZE = List.of("order_line", "stock", "customer", "history", "orders", "new_order",
            "item", "district", "warehouse");

    private LoadedCopy() {}

    /** Copies the loaded tables into {@value #SCHEMA} (dropping an older copy). */
    public static void save(Connection c) throws SQLException {
        Dialect dialect = Dialect.of(c);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            String drop = dialect.dropSchemaIfExists(SCHEMA);
            if (drop != null) s.execute(drop);
            s.execute("CREATE SCHEMA " + SCHEMA);
            for (String t : Schema.TABLES) {
                for (String sql : dialect.copyTable(SCHEMA, t)) s.execute(sql);
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /**
     * Puts the TPC-C tables back as {@link #save} found them: on {@code threads} connections with the
     * engine's foreign key checks off where it has such a switch, else parents first on one connection.
     */
    public static void restore(ConnectionSource connections, int threads) throws SQLException, InterruptedException {
        restore(connections, threads, false);
    }

    /** {@link #restore(ConnectionSource, int)} into the constrained schema when {@code constrained}. */
    public static void restore(ConnectionSource connections, int threads, boolean constrained)
            throws SQLException, InterruptedException {
        try (Connection c = connections.open()) {
            c.setAutoCommit(true);
            Schema.create(c, constrained);
            String off = Dialect.of(c).referentialChecks(false);
            if (off == null) {
                try (Statement s = c.createStatement()) {
                    for (String t : Schema.TABLES) s.execute(fill(t));
                }
                return;
            }
            try (Statement s = c.createStatement()) {
                s.execute(off);
            }
            try {
                copyBack(connections, threads);
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute(Dialect.of(c).referentialChecks(true));
                }
            }
        }
    }

    private static String fill(String table) {
        return "INSERT INTO " + table + " SELECT * FROM " + SCHEMA + "." + table;
    }

    private static void copyBack(ConnectionSource connections, int threads) throws SQLException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "tpcc-restore");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> done = new ArrayList<>();
            for (String t : BY_SIZE) {
                done.add(pool.submit(() -> {
                    try (Connection c = connections.open(); Statement s = c.createStatement()) {
                        c.setAutoCommit(true);
                        s.execute(fill(t));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof SQLException s) throw s;
                    throw new IllegalStateException("restoring the loaded tables failed: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
