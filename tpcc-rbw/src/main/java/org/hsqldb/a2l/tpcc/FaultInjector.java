package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The chaos run's fault thread. While the terminals run a period it
 * <ul>
 * <li>asks a terminal to close its connection in the middle of a transaction (at the start of the
 * period, then every {@code closeEveryMillis} on average);</li>
 * <li>once per period gives half of the terminals a JDBC query timeout of {@code queryTimeoutSeconds},
 * then holds an exclusive lock on a hot row in a transaction of its own for {@code holdMillis}
 * (W_YTD of a warehouse in even periods, which every Payment updates; D_NEXT_O_ID of a district in
 * odd ones, which every New-Order of its warehouse reads and updates), so the terminals that wait
 * for it with a timeout end with one; while it holds the lock it cancels terminals that wait
 * without a timeout;</li>
 * <li>cancels a terminal's statement every {@code cancelEveryMillis} on average: four times in
 * five one that waits (for a lock) if there is one, else one that runs (during the hold never one
 * with a timeout: its wait is the timeout's to end);</li>
 * <li>changes the definition of a table the terminals use every {@code schemaChangeEveryMillis} on
 * average, in a session and a thread of its own ({@link SchemaChanges}: a column or an index added,
 * later dropped; what a period added is dropped when it ends).</li>
 * </ul>
 * {@link #stop} ends the hold (rolls back), lifts the timeouts and returns the period's counts, so
 * the terminals can reach their transaction boundaries and the checks see no lock of the fault
 * thread. Nothing here fails the run: an injection that goes wrong is counted in {@code errors}.
 */
public final class FaultInjector {

    /**
     * {@code provokeStall} (tests only): instead of faults, lock every table for good before the first
     * period starts, so that the terminals wait for ever and the run must report a stall.
     */
    public record Settings(int holdMillis, int queryTimeoutSeconds, int cancelEveryMillis, int closeEveryMillis,
                           int schemaChangeEveryMillis, boolean provokeStall) {
        public static final int HOLD_MILLIS = 3000;
        public static final int CANCEL_EVERY_MILLIS = 700;
        public static final int CLOSE_EVERY_MILLIS = 5000;
        public static final int SCHEMA_CHANGE_EVERY_MILLIS = 2000;

        public static Settings defaults() {
            return new Settings(HOLD_MILLIS, 1, CANCEL_EVERY_MILLIS, CLOSE_EVERY_MILLIS, SCHEMA_CHANGE_EVERY_MILLIS,
                    false);
        }
    }

    /** What one period injected, by kind. */
    public static final class Counts {
        /** Statement.cancel() on a terminal blocked inside a transaction (waiting for a lock). */
        public long cancelWaiting;
        /** Statement.cancel() on a terminal running inside a transaction. */
        public long cancelRunning;
        /** Statement.cancel() that found its terminal between transactions by the time it was sent (no effect). */
        public long cancelIdle;
        /** Exclusive locks held for {@code holdMillis} while some terminals had a query timeout. */
        public long lockHolds;
        /** Holds that did not happen: the fault thread's own UPDATE failed (timeout, deadlock victim). */
        public long lockHoldsFailed;
        /** Terminals given a query timeout for a hold. */
        public long timeoutTerminals;
        /** Terminals asked to close their connection in the middle of a transaction. */
        public long closeRequests;
        /** Columns and indexes added to or dropped from the terminals' tables while they ran. */
        public long schemaChanges;
        /** Schema changes that did not happen: a deadlock victim, or one that waited too long for its locks. */
        public long schemaChangesFailed;
        /** What went wrong in the fault thread itself (not a failure of the run). */
        public List<String> errors = new ArrayList<>();

        public long cancels() {
            return cancelWaiting + cancelRunning + cancelIdle;
        }
    }

    static final String STALL_SQL = "LOCK TABLE warehouse WRITE, district WRITE, customer WRITE, orders WRITE,"
            + " new_order WRITE, order_line WRITE, stock WRITE, item WRITE, history WRITE";
    private static final int OWN_TIMEOUT_SECONDS = 10;
    private static final long HOLD_CANCEL_NANOS = 300_000_000L;
    private static final long RETRY_CANCEL_NANOS = 20_000_000L;
    private static final long STOP_MILLIS = 20_000;

    private final Benchmark.Terminals terminals;
    private final Connection blocker;
    private final Scale scale;
    private final Settings settings;
    private final SplittableRandom random;
    private final SchemaChanges schemaChanges;
    private Thread thread;
    private boolean stopping;
    private boolean holding;
    private Counts counts = new Counts();

    /**
     * {@code blocker}: the fault thread's own connection (autocommit is turned off); {@code schemaSession}:
     * the connection that changes tables (autocommit on), used when {@code schemaChangeEveryMillis > 0}.
     */
    public FaultInjector(Benchmark.Terminals terminals, Connection blocker, Connection schemaSession, Scale scale,
                         Settings settings, long seed) throws SQLException {
        this.terminals = terminals;
        this.blocker = blocker;
        this.scale = scale;
        this.settings = settings;
        this.random = new SplittableRandom(seed);
        this.schemaChanges = settings.schemaChangeEveryMillis() > 0
                ? new SchemaChanges(schemaSession, settings.schemaChangeEveryMillis(), seed * 31 + 7) : null;
        if (schemaChanges != null) {
            // what a killed runner's schema changes left in the tables
            SchemaChanges.dropLeftovers(schemaSession);
        }
        blocker.setAutoCommit(false);
    }

    /** Starts injecting for period {@code period} (call it just before the terminals resume). */
    public synchronized void start(int period) throws SQLException {
        counts = new Counts();
        if (thread != null) {
            // stop() gave up on it: never two fault threads on one connection
            counts.errors.add("the fault thread of an earlier period is still stuck (" + stackOf(thread)
                    + "): no faults this period");
            return;
        }
        stopping = false;
        if (settings.provokeStall()) {
            if (!holding) {
                try (Statement s = blocker.createStatement()) {
                    s.execute(STALL_SQL);
                }
                holding = true;
            }
            counts.lockHolds++;
            return;
        }
        thread = new Thread(() -> inject(period), "tpcc-faults");
        thread.setDaemon(true);
        thread.start();
        if (schemaChanges != null) schemaChanges.start();
    }

    /**
     * Stops injecting (call it before pausing the terminals): the fault thread's lock is released,
     * every query timeout lifted. Returns what the period injected.
     */
    public Counts stop() throws InterruptedException {
        Thread t;
        synchronized (this) {
            stopping = true;
            notifyAll();
            t = thread;
        }
        if (t != null) {
            t.join(STOP_MILLIS);
            if (t.isAlive()) {
                synchronized (this) {
                    counts.errors.add("the fault thread did not stop within " + STOP_MILLIS / 1000 + " s: "
                            + stackOf(t));
                }
            }
        }
        SchemaChanges.Counts changed = schemaChanges == null ? null : schemaChanges.stop(STOP_MILLIS);
        synchronized (this) {
            if (thread != null && !thread.isAlive()) thread = null;
            if (changed != null) {
                counts.schemaChanges = changed.changes();
                counts.schemaChangesFailed = changed.failed();
                counts.errors.addAll(changed.errors());
            }
            return counts;
        }
    }

    private void inject(int period) {
        List<Integer> timed = new ArrayList<>();
        try {
            long now = System.nanoTime();
            long nextClose = now + 200_000_000L;
            long holdAt = now + 300_000_000L;
            long nextCancel = now + jitter(settings.cancelEveryMillis());
            long holdEnd = Long.MAX_VALUE, nextHoldCancel = Long.MAX_VALUE;
            while (true) {
                long next = Math.min(Math.min(nextClose, holdAt), Math.min(nextCancel, Math.min(holdEnd, nextHoldCancel)));
                if (!pause((next - System.nanoTime() + 999_999) / 1_000_000)) return;
                now = System.nanoTime();
                if (now >= nextClose) {
                    requestClose();
                    nextClose = now + jitter(settings.closeEveryMillis());
                }
                if (now >= holdAt) {
                    holdAt = Long.MAX_VALUE;
                    if (!beginHold(period, timed)) return;
                    now = System.nanoTime();
                    holdEnd = now + settings.holdMillis() * 1_000_000L;
                    nextHoldCancel = now + HOLD_CANCEL_NANOS;
                }
                if (now >= holdEnd) {
                    endHold();
                    liftTimeouts(timed);
                    holdEnd = nextHoldCancel = Long.MAX_VALUE;
                }
                if (now >= nextHoldCancel) {
                    // a terminal that waits (for the held lock) without a timeout: its wait ends by cancel;
                    // the ones with a timeout are left to it
                    cancelWaiting(timed);
                    nextHoldCancel = now + HOLD_CANCEL_NANOS;
                }
                if (now >= nextCancel) {
                    // no terminal inside a transaction (all backing off, say): try again soon
                    nextCancel = now + (cancelOne(random.nextInt(5) > 0, timed) ? jitter(settings.cancelEveryMillis())
                            : RETRY_CANCEL_NANOS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            error("fault thread: " + e);
        } finally {
            endHold();
            liftTimeouts(timed);
        }
    }

    /**
     * Half of the terminals (at least one; into {@code timed}) get a query timeout, then a hot row is
     * held exclusively. False when stop() came first.
     */
    private boolean beginHold(int period, List<Integer> timed) throws InterruptedException {
        for (int t = 0; t < terminals.size(); t++) if (random.nextBoolean()) timed.add(t);
        if (timed.isEmpty()) timed.add(random.nextInt(terminals.size()));
        for (int t : timed) terminals.queryTimeout(t, settings.queryTimeoutSeconds());
        synchronized (this) {
            counts.timeoutTerminals += timed.size();
        }
        // the terminals take the timeout with their next statement
        if (!pause(100)) return false;
        int w = 1 + random.nextInt(scale.warehouses());
        String sql;
        Object[] params;
        if (period % 2 == 0) {
            sql = "UPDATE warehouse SET w_ytd = w_ytd WHERE w_id = ?";
            params = new Object[] {w};
        } else {
            sql = "UPDATE district SET d_next_o_id = d_next_o_id WHERE d_w_id = ? AND d_id = ?";
            params = new Object[] {w, 1 + random.nextInt(scale.districtsPerWarehouse())};
        }
        try (PreparedStatement ps = blocker.prepareStatement(sql)) {
            ps.setQueryTimeout(OWN_TIMEOUT_SECONDS);
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            ps.executeUpdate();
        } catch (SQLException e) {
            synchronized (this) {
                counts.lockHoldsFailed++;
            }
            error("the fault thread's " + sql.substring(0, sql.indexOf(" SET")) + ": SQLSTATE " + e.getSQLState()
                    + " " + e.getMessage());
            rollbackQuietly();
            return true;
        }
        synchronized (this) {
            counts.lockHolds++;
            holding = true;
        }
        return true;
    }

    private void liftTimeouts(List<Integer> timed) {
        for (int t : timed) terminals.queryTimeout(t, 0);
        timed.clear();
    }

    /**
     * Cancels one terminal inside a transaction, not one of {@code spared}: {@code preferWaiting} one
     * that waits if any, else one that runs (and the other way round); false if none is inside a
     * transaction.
     */
    private boolean cancelOne(boolean preferWaiting, List<Integer> spared) {
        List<Integer> waiting = new ArrayList<>(), running = new ArrayList<>();
        for (int t = 0; t < terminals.size(); t++) {
            if (spared.contains(t)) continue;
            switch (terminals.activity(t)) {
                case WAITING -> waiting.add(t);
                case RUNNING -> running.add(t);
                default -> { }
            }
        }
        List<Integer> from = preferWaiting ? (waiting.isEmpty() ? running : waiting) : (running.isEmpty() ? waiting : running);
        if (from.isEmpty()) return false;
        cancel(from.get(random.nextInt(from.size())));
        return true;
    }

    /** Cancels one terminal that waits, not one of {@code spared}; nothing if there is none. */
    private void cancelWaiting(List<Integer> spared) {
        List<Integer> waiting = new ArrayList<>();
        for (int t = 0; t < terminals.size(); t++) {
            if (!spared.contains(t) && terminals.activity(t) == Benchmark.Terminals.Activity.WAITING) waiting.add(t);
        }
        if (!waiting.isEmpty()) cancel(waiting.get(random.nextInt(waiting.size())));
    }

    private void cancel(int t) {
        try {
            Benchmark.Terminals.Activity a = terminals.cancel(t);
            synchronized (this) {
                switch (a) {
                    case WAITING -> counts.cancelWaiting++;
                    case RUNNING -> counts.cancelRunning++;
                    default -> counts.cancelIdle++;
                }
            }
        } catch (SQLException e) {
            error("cancel of terminal " + t + ": SQLSTATE " + e.getSQLState() + " " + e.getMessage());
        }
    }

    private void requestClose() {
        terminals.closeMidTransaction(random.nextInt(terminals.size()));
        synchronized (this) {
            counts.closeRequests++;
        }
    }

    private void endHold() {
        boolean wasHolding;
        synchronized (this) {
            wasHolding = holding;
            holding = false;
        }
        if (wasHolding) rollbackQuietly();
    }

    private void rollbackQuietly() {
        try {
            blocker.rollback();
        } catch (SQLException e) {
            error("rollback of the fault thread's lock: " + e.getMessage());
        }
    }

    /** Sleeps {@code millis}; false (at once) when stop() was called. */
    private synchronized boolean pause(long millis) throws InterruptedException {
        long end = System.nanoTime() + Math.max(0, millis) * 1_000_000L;
        while (!stopping) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) return true;
            wait(left);
        }
        return false;
    }

    private long jitter(int millis) {
        return (long) (millis * (0.5 + random.nextDouble())) * 1_000_000L;
    }

    private synchronized void error(String what) {
        if (counts.errors.size() < 5) counts.errors.add(what);
    }

    private static String stackOf(Thread t) {
        StringBuilder b = new StringBuilder(t.getState().toString());
        StackTraceElement[] stack = t.getStackTrace();
        for (int i = 0; i < Math.min(8, stack.length); i++) b.append(" at ").append(stack[i]);
        return b.toString();
    }
}
