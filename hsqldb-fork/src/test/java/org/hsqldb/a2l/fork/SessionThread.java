package org.hsqldb.a2l.fork;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A JDBC session driven from a thread of its own, so a test can leave it
 * waiting for a lock and look at it: {@link #awaitLockWait()} returns once
 * the session's thread is parked waiting for a lock, and fails after a
 * minute if it never is. Used to write multi-session schedules without
 * sleeping and hoping.
 */
public final class SessionThread implements AutoCloseable {

    private final Connection connection;
    private final AtomicReference<Thread> thread = new AtomicReference<>();
    private final ExecutorService executor;

    public SessionThread(Connection connection, String name) {
        this.connection = connection;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            thread.set(t);
            return t;
        });
    }

    public Connection connection() {
        return connection;
    }

    /** Runs the statement in the session's thread; the future holds the update count, or -1 for a query. */
    public Future<Integer> submit(String sql) {
        return submit(sql, 0);
    }

    /** As {@link #submit(String)}, with a JDBC query timeout in seconds (0: none). */
    public Future<Integer> submit(String sql, int timeoutSeconds) {
        return submit(sql, timeoutSeconds, null);
    }

    /**
     * As {@link #submit(String, int)}; {@code running}, if not null, receives the JDBC statement
     * while it runs, so that another thread can {@link Statement#cancel()} it.
     */
    public Future<Integer> submit(String sql, int timeoutSeconds, AtomicReference<Statement> running) {
        return executor.submit(() -> {
            try (Statement s = connection.createStatement()) {
                if (running != null) {
                    running.set(s);
                }
                s.setQueryTimeout(timeoutSeconds);
                if (s.execute(sql)) {
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) {
                            // materialize
                        }
                    }
                    return -1;
                }
                return s.getUpdateCount();
            }
        });
    }

    /** As {@link #submit(String)}, as a prepared statement with these parameter values. */
    public Future<Integer> submitPrepared(String sql, Object... parameters) {
        return executor.submit(() -> {
            try (java.sql.PreparedStatement s = connection.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    s.setObject(i + 1, parameters[i]);
                }
                if (s.execute()) {
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) {
                            // materialize
                        }
                    }
                    return -1;
                }
                return s.getUpdateCount();
            }
        });
    }

    /** Runs the statement and waits for it (at most a minute). */
    public int execute(String sql) throws SQLException {
        return await(submit(sql));
    }

    /** Runs a query in the session and returns the first column of its first row. */
    public long queryLong(String sql) throws SQLException {
        return await(submitQueryLong(sql));
    }

    /** As {@link #queryLong}, without waiting for it. */
    public Future<Long> submitQueryLong(String sql) {
        return executor.submit(() -> {
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /**
     * A counter of the fork's INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS (REQUESTS, WAITS, DEADLOCKS,
     * ESCALATIONS, ...): the database's, all sessions together, read through this session.
     */
    public long lockCounter(String name) throws SQLException {
        return queryLong("SELECT COUNTER_VALUE FROM INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS WHERE COUNTER_NAME = '"
                + name + "'");
    }

    /** {@link #queryLong} for a string value. */
    public String queryString(String sql) throws SQLException {
        return await(executor.submit(() -> {
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getString(1);
            }
        }));
    }

    public void commit() throws SQLException {
        await(executor.submit(() -> {
            connection.commit();
            return 0;
        }));
    }

    public void rollback() throws SQLException {
        await(executor.submit(() -> {
            connection.rollback();
            return 0;
        }));
    }

    public void setAutoCommit(boolean on) throws SQLException {
        await(executor.submit(() -> {
            connection.setAutoCommit(on);
            return 0;
        }));
    }

    public void setIsolation(int level) throws SQLException {
        await(executor.submit(() -> {
            connection.setTransactionIsolation(level);
            return 0;
        }));
    }

    /** The outcome of a submitted statement, waiting at most a minute; an SQLException is rethrown as is. */
    public static <T> T await(Future<T> f) throws SQLException {
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException s) {
                throw s;
            }
            throw new AssertionError(e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the statement did not finish within a minute: a hang", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Returns once the session's thread is parked waiting for a lock; fails if that never happens. */
    public void awaitLockWait() throws InterruptedException {
        for (int i = 0; i < 6000; i++) {
            if (isWaitingForLock()) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(thread.get().getName() + " never waited for a lock");
    }

    /**
     * Whether the session's thread is parked in a lock manager (the fork's or upstream's latch):
     * one snapshot of its stack shows it parked (the top frame), by lock-manager code (the first
     * frame that is not the JDK's), and its state says it waits before and after the snapshot.
     * State and stack are two looks at a running thread, so neither alone will do: a thread
     * seen waiting for its next task may be running lock-manager code by the time its stack is
     * taken (registering its session, say), long before it waits for anything.
     */
    public boolean isWaitingForLock() {
        Thread t = thread.get();
        if (t == null || !isParked(t.getState())) {
            return false;
        }
        StackTraceElement[] stack = t.getStackTrace();
        if (stack.length == 0 || !isParked(t.getState())) {
            return false;
        }
        String top = stack[0].getClassName() + "." + stack[0].getMethodName();
        if (!top.equals("jdk.internal.misc.Unsafe.park") && !top.equals("java.lang.Object.wait")) {
            return false;
        }
        for (StackTraceElement f : stack) {
            String c = f.getClassName();
            if (!c.startsWith("java.") && !c.startsWith("jdk.")) {
                return c.startsWith("org.hsqldb.a2l.lockmgr.") || c.startsWith("org.hsqldb.lib.CountUpDownLatch");
            }
        }
        return false;
    }

    private static boolean isParked(Thread.State state) {
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    /** The thread the session's statements run in (null before the first one). */
    public Thread thread() {
        return thread.get();
    }

    /**
     * Closes the session. A session still stuck in a statement keeps its
     * monitor, and closing it would hang the test run: that fails instead.
     */
    @Override
    public void close() throws SQLException {
        executor.shutdownNow();
        AtomicReference<SQLException> failure = new AtomicReference<>();
        Thread closer = new Thread(() -> {
            try {
                connection.close();
            } catch (SQLException e) {
                failure.set(e);
            }
        }, "close " + thread.get());
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            throw new AssertionError("the session could not be closed: a statement of it is still running");
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
