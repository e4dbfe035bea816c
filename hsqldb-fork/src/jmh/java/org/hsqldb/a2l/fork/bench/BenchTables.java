package org.hsqldb.a2l.fork.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.persist.PersistentStore;

/**
 * What the index benchmarks share: the databases, the tables and their keys.
 *
 * <p>Every table is {@code (ID INT PRIMARY KEY, V INT)}, a MEMORY table (HSQLDB's default),
 * preloaded with {@code rows} rows whose keys are multiples of {@link #STRIDE}, {@code V = 0}.
 * Inserted rows take the keys between them, so an insert lands anywhere in the index (not
 * always at its right edge), the table's size stays that of the lookups' table, and the
 * inserted rows are found again by their {@code V} (the writer's tag) to be deleted after each
 * iteration.
 */
final class BenchTables {

    /** Preloaded keys are {@code k * STRIDE}; inserted keys use the {@code STRIDE - 1} gaps. */
    static final int STRIDE = 64;

    /** Multiplier that spreads consecutive inserts over the preloaded keys (a prime). */
    private static final long SPREAD = 1_000_003L;

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private BenchTables() {}

    /** A new in-memory database, table locking, latches on or off. */
    static String newUrl(String name, boolean latchFree) {
        return "jdbc:hsqldb:mem:" + name + DATABASES.incrementAndGet()
            + ";hsqldb.tx=locks;hsqldb.latch_free=" + latchFree;
    }

    static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, "SA", "");
    }

    static void checkRows(int rows) {
        if (rows < 1 || (long) rows * STRIDE > Integer.MAX_VALUE || rows % SPREAD == 0) {
            throw new IllegalArgumentException("rows must be in 1.." + (Integer.MAX_VALUE / STRIDE)
                + " and not a multiple of " + SPREAD + ": " + rows);
        }
    }

    /** Creates {@code table} and loads {@code rows} rows, keys {@code k * STRIDE}, V = 0. */
    static void createFilled(Connection c, String table, int rows) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (ID INT PRIMARY KEY, V INT)");
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, 0)")) {
            int pending = 0;
            for (int k = 0; k < rows; k++) {
                p.setInt(1, k * STRIDE);
                p.addBatch();
                if (++pending == 10_000) {
                    p.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                p.executeBatch();
            }
        }
        c.commit();
        c.setAutoCommit(autoCommit);
    }

    /**
     * The {@code n}-th key (from 0) a writer inserts in one iteration. The writer owns the gap
     * positions {@code first, first + step, ...} (1 .. STRIDE-1) between preloaded keys, so
     * writers sharing a table never insert the same key; consecutive inserts go to preloaded
     * keys {@code SPREAD} apart, all of them before a gap position is used twice.
     */
    static int insertedKey(long n, int rows, int first, int step) {
        long gap = first + step * (n / rows);
        if (gap >= STRIDE) {
            throw new IllegalStateException("after " + n + " inserts by one thread in one"
                + " iteration, the keys -p rows=" + rows + " leaves it are used up: use shorter"
                + " iterations (-r) or more rows");
        }
        long slot = (n * SPREAD) % rows;
        return (int) (slot * STRIDE + gap);
    }

    /** The preloaded key at position {@code k}. */
    static int preloadedKey(int k) {
        return k * STRIDE;
    }

    /** The engine session behind a JDBC connection to an in-process database. */
    static Session session(Connection c) {
        return (Session) ((JDBCConnection) c).getSession();
    }

    static Table table(Session session, String name) {
        return session.getDatabase().schemaManager.getUserTable(name, "PUBLIC");
    }

    /** Fails unless the table's store runs with or without latches as the benchmark asked. */
    static void checkLatchFree(PersistentStore store, boolean latchFree) {
        if (store.isLatchFree() != latchFree) {
            throw new IllegalStateException("store latch free = " + store.isLatchFree()
                + ", asked for " + latchFree + ": hsqldb.latch_free was not applied");
        }
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** A per-thread xorshift generator: no shared state, no allocation. */
    static int nextRandom(int x) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return x;
    }
}
