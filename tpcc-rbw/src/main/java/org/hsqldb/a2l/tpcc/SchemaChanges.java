package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The chaos run's online DDL, run by the fault thread: a session of its own adds a column to one of
 * the tables the terminals change, or an index, and later drops it again, as a migration does while
 * an application keeps working. ADD and DROP COLUMN copy the table into a new shape; the checks after
 * each period and after each kill then show whether a committed change was lost on the way (upstream
 * 2.7.4 loses some: see the fork's patch "Compile no statement while a schema change runs").
 *
 * <p>It runs in a thread of its own from {@link #start} to {@link #stop} (a change can wait seconds
 * for its locks, and must not hold up the other faults, nor wait for the fault thread's own hold).
 * {@link #stop} drops what the period added, so the checks and the next period see the schema as
 * loaded; {@link #dropLeftovers} drops what a killed runner left behind.
 */
final class SchemaChanges {

    /** What one period changed. */
    record Counts(long changes, long failed, List<String> errors) {}

    /** The column added to a table, and the prefix of the indexes added. */
    static final String COLUMN = "CHAOS_DDL";
    static final String INDEX_PREFIX = "CHAOS_DDL_";

    /** Tables the terminals change, each with a column an index can be made on. */
    private static final String[][] TABLES = {
        {"WAREHOUSE", "W_YTD"}, {"DISTRICT", "D_NEXT_O_ID"}, {"CUSTOMER", "C_BALANCE"}, {"STOCK", "S_QUANTITY"},
        {"ORDERS", "O_CARRIER_ID"}, {"NEW_ORDER", "NO_O_ID"}, {"ORDER_LINE", "OL_DELIVERY_D"},
        {"HISTORY", "H_AMOUNT"}};

    /** A change waits at most this long for its locks (the terminals' transactions are short). */
    private static final int TIMEOUT_SECONDS = 10;

    /** How often the end of a period tries to drop what it added. */
    private static final int UNDO_ATTEMPTS = 5;

    private final Connection session;
    private final SplittableRandom random;
    private final int everyMillis;
    /** What this session added and has not dropped yet: "COLUMN table" or "INDEX table". */
    private final Set<String> added = new LinkedHashSet<>();
    private Thread thread;
    private boolean stopping;
    private long changes;
    private long failed;
    private List<String> errors = new ArrayList<>();

    /** {@code everyMillis}: the mean time between two changes. */
    SchemaChanges(Connection session, int everyMillis, long seed) throws SQLException {
        this.session = session;
        this.random = new SplittableRandom(seed);
        this.everyMillis = everyMillis;
        session.setAutoCommit(true);
    }

    /** Starts changing tables, one change every {@code everyMillis} on average. */
    synchronized void start() {
        stopping = false;
        changes = 0;
        failed = 0;
        errors = new ArrayList<>();
        thread = new Thread(this::changeUntilStopped, "tpcc-schema-changes");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Lets the change in progress end, drops what the period added and returns the period's counts
     * (a table it could not bring back is an error, as is a thread that did not stop in time).
     */
    Counts stop(long millis) throws InterruptedException {
        Thread t;
        synchronized (this) {
            stopping = true;
            notifyAll();
            t = thread;
        }
        if (t != null) {
            t.join(millis);
            if (t.isAlive()) {
                synchronized (this) {
                    error("the schema-change thread did not stop within " + millis / 1000 + " s");
                    return new Counts(changes, failed, List.copyOf(errors));
                }
            }
        }
        List<String> left = undoAll();
        synchronized (this) {
            thread = null;
            left.forEach(this::error);
            return new Counts(changes, failed, List.copyOf(errors));
        }
    }

    private void changeUntilStopped() {
        while (pause((long) (everyMillis * (0.5 + random.nextDouble())))) {
            try {
                next();
                synchronized (this) {
                    changes++;
                }
            } catch (SQLException e) {
                // a deadlock victim or a change that waited too long is tried again later; anything
                // else is reported
                synchronized (this) {
                    failed++;
                    String state = String.valueOf(e.getSQLState());
                    if (!state.startsWith("40")) error("SQLSTATE " + state + " " + e.getMessage());
                }
            }
        }
    }

    /** Sleeps {@code millis}; false (at once) when stop() was called. */
    private synchronized boolean pause(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        try {
            while (!stopping) {
                long left = (end - System.nanoTime()) / 1_000_000;
                if (left <= 0) return true;
                wait(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private void error(String what) {
        if (errors.size() < 5) errors.add("schema change: " + what);
    }

    /**
     * One change: on a table picked at random, adds the column or an index if it is not there,
     * drops it if it is. Returns the statement run; throws what it failed with.
     */
    private String next() throws SQLException {
        String[] t = TABLES[random.nextInt(TABLES.length)];
        boolean column = random.nextBoolean();
        String key = (column ? "COLUMN " : "INDEX ") + t[0];
        String sql;
        if (column) {
            sql = added.contains(key) ? "ALTER TABLE " + t[0] + " DROP COLUMN " + COLUMN
                    : "ALTER TABLE " + t[0] + " ADD COLUMN " + COLUMN + " INT DEFAULT 0";
        } else {
            sql = added.contains(key) ? "DROP INDEX " + INDEX_PREFIX + t[0]
                    : "CREATE INDEX " + INDEX_PREFIX + t[0] + " ON " + t[0] + " (" + t[1] + ")";
        }
        run(sql);
        if (!added.remove(key)) {
            added.add(key);
        }
        return sql;
    }

    /** Drops what this session added; returns what it could not drop, with the error. */
    private List<String> undoAll() {
        List<String> failed = new ArrayList<>();
        for (String key : new ArrayList<>(added)) {
            String table = key.substring(key.indexOf(' ') + 1);
            String sql = key.startsWith("COLUMN ") ? "ALTER TABLE " + table + " DROP COLUMN " + COLUMN
                    : "DROP INDEX " + INDEX_PREFIX + table;
            for (int attempt = 1; ; attempt++) {
                try {
                    run(sql);
                    added.remove(key);
                    break;
                } catch (SQLException e) {
                    // a deadlock victim or a timeout: the terminals still run, try again
                    if (attempt < UNDO_ATTEMPTS && String.valueOf(e.getSQLState()).startsWith("40")) continue;
                    failed.add(sql + ": SQLSTATE " + e.getSQLState() + " " + e.getMessage());
                    break;
                }
            }
        }
        return failed;
    }

    /** Drops the column and indexes of this class that are in the database (a killed runner's). */
    static void dropLeftovers(Connection c) throws SQLException {
        List<String> drops = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.COLUMNS"
                + " WHERE TABLE_SCHEMA = CURRENT_SCHEMA AND COLUMN_NAME = ?")) {
            ps.setString(1, COLUMN);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) drops.add("ALTER TABLE " + rs.getString(1) + " DROP COLUMN " + COLUMN);
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT INDEX_NAME FROM"
                + " INFORMATION_SCHEMA.SYSTEM_INDEXINFO WHERE TABLE_SCHEM = CURRENT_SCHEMA AND INDEX_NAME LIKE ?")) {
            ps.setString(1, INDEX_PREFIX + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) drops.add("DROP INDEX " + rs.getString(1));
            }
        }
        try (Statement s = c.createStatement()) {
            for (String sql : drops) s.execute(sql);
        }
    }

    private void run(String sql) throws SQLException {
        try (Statement s = session.createStatement()) {
            s.setQueryTimeout(TIMEOUT_SECONDS);
            s.execute(sql);
        }
    }
}
