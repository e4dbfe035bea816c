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
 * preloaded with {@code rows} rows whose keys are multiples of a stride ({@link KeySpace}),
 * {@code V = 0}. Inserted rows take the keys between them, so an insert lands anywhere in the
 * index (not always at its right edge), and the inserted rows are found again by their
 * {@code V} (the writer's tag) to be deleted after each iteration.
 */
final class BenchTables {

    /** What one thread may insert in one iteration (~1.2 GB of rows): the memory bound. */
    static final long MAX_INSERTS = 8_000_000L;

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

    /**
     * The keys of a table of {@code rows} preloaded rows: {@code k * stride}, with
     * {@code stride - 1} free keys after each for inserts, enough for {@link #MAX_INSERTS}
     * per thread with two threads sharing the table (at least 63).
     */
    static final class KeySpace {
        final int rows;
        final int stride;

        KeySpace(int rows) {
            if (rows < 1 || rows % SPREAD == 0) {
                throw new IllegalArgumentException("rows must be positive and not a multiple of "
                    + SPREAD + ": " + rows);
            }
            long gaps = Math.max(63, (2 * MAX_INSERTS + rows - 1) / rows);
            if ((gaps + 1) * rows > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("rows too large for INT keys: " + rows);
            }
            this.rows = rows;
            this.stride = (int) gaps + 1;
        }

        /** The preloaded key at position {@code k} (0 .. rows-1). */
        int preloaded(int k) {
            return k * stride;
        }

        /**
         * The {@code n}-th key (from 0) a writer inserts in one iteration. The writer owns the
         * gap positions {@code first, first + step, ...} (1 .. stride-1) after each preloaded
         * key, so writers sharing a table never insert the same key; consecutive inserts go
         * next to preloaded keys {@code SPREAD} apart, each of them before any gap is used twice.
         */
        int inserted(long n, int first, int step) {
            long gap = first + step * (n / rows);
            if (gap >= stride || n >= MAX_INSERTS) {
                throw new IllegalStateException("one thread inserted " + n + " rows in one"
                    + " iteration, the most it may (memory, keys of -p rows=" + rows + "):"
                    + " use shorter iterations (-r)");
            }
            return (int) ((n * SPREAD) % rows * stride + gap);
        }

        /** Creates {@code table} and loads the preloaded rows, V = 0. */
        void createFilled(Connection c, String table) throws SQLException {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + table + " (ID INT PRIMARY KEY, V INT)");
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, 0)")) {
                int pending = 0;
                for (int k = 0; k < rows; k++) {
                    p.setInt(1, preloaded(k));
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

    /**
     * Collects the heap after an iteration's inserted rows are deleted. Inserted rows stay
     * live until the end of their iteration, so a young collection during it copies all of
     * them: with the forks' young generation (-Xmn4g, of an 8 GB heap whose old generation
     * holds what survives) and iterations (-r) of 1-2 s, none happens inside the measured
     * window once each iteration starts from a collected heap, and the scores measure the
     * insert path, not how many rows a collection happened to copy.
     */
    static void collect() {
        System.gc();
    }

    /** A per-thread xorshift generator: no shared state, no allocation. */
    static int nextRandom(int x) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return x;
    }
}
