package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One connection's prepared statements: prepared on first use and reused for the whole run, or, as
 * applications that do not keep them, prepared on every call and closed once the call is done (at
 * the next call; the callers close each result set before they make the next).
 */
public final class Statements implements AutoCloseable {

    /**
     * Called before every statement with the number the current attempt has executed so far
     * ({@link #beginAttempt}), and before its commit; may end the attempt by throwing. The chaos
     * run's terminals use it to apply query timeouts and to close their connection mid-transaction.
     */
    @FunctionalInterface
    public interface Checkpoint {
        void before(int executed, boolean commit) throws SQLException;
    }

    private final Connection connection;
    private final ReadsForUpdate readsForUpdate;
    private final boolean perCall;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();
    /** Per call: the statement of the last call, closed when the next one begins. */
    private PreparedStatement lastCall;
    private Consumer<String> trace = sql -> { };
    private Checkpoint checkpoint;
    private int executed;
    private int queryTimeout;

    public Statements(Connection connection) {
        this(connection, ReadsForUpdate.PLAIN);
    }

    public Statements(Connection connection, ReadsForUpdate readsForUpdate) {
        this(connection, readsForUpdate, false);
    }

    /** {@code perCall}: prepare every statement on every call and close it when the call is done. */
    public Statements(Connection connection, ReadsForUpdate readsForUpdate, boolean perCall) {
        this.connection = connection;
        this.readsForUpdate = readsForUpdate;
        this.perCall = perCall;
    }

    public Connection connection() {
        return connection;
    }

    /** Tells {@code trace} the SQL of every statement executed from now on, in order. */
    public void trace(Consumer<String> trace) {
        this.trace = trace;
    }

    /**
     * A read that precedes an update of the same rows, written as this connection's engine wants
     * it; {@code columns} are the columns the transaction will update.
     */
    public String forUpdate(String select, String... columns) {
        return readsForUpdate.apply(select, columns);
    }

    /**
     * A read of a range's first row that precedes its delete, written as this connection's engine
     * wants it ({@link ReadsForUpdate#applyToHead}).
     */
    public String forUpdateHead(String select) {
        return readsForUpdate.applyToHead(select);
    }

    /** Calls {@code checkpoint} before every statement and commit from now on (null: none). */
    public void checkpoint(Checkpoint checkpoint) {
        this.checkpoint = checkpoint;
    }

    /** A transaction attempt starts: the checkpoint's count of executed statements restarts at 0. */
    public void beginAttempt() {
        executed = 0;
    }

    /** The attempt is about to commit: tells the checkpoint. */
    public void beforeCommit() throws SQLException {
        if (checkpoint != null) checkpoint.before(executed, true);
    }

    /** The JDBC query timeout of every statement from now on, 0 for none (call it between statements). */
    public void queryTimeout(int seconds) throws SQLException {
        if (seconds == queryTimeout) return;
        for (PreparedStatement ps : prepared.values()) ps.setQueryTimeout(seconds);
        queryTimeout = seconds;
    }

    public PreparedStatement get(String sql) throws SQLException {
        trace.accept(sql);
        if (checkpoint != null) checkpoint.before(executed, false);
        PreparedStatement ps;
        if (perCall) {
            closeLastCall();
            ps = connection.prepareStatement(sql);
            if (queryTimeout != 0) ps.setQueryTimeout(queryTimeout);
            lastCall = ps;
        } else {
            ps = prepared.get(sql);
            if (ps == null) {
                ps = connection.prepareStatement(sql);
                if (queryTimeout != 0) ps.setQueryTimeout(queryTimeout);
                prepared.put(sql, ps);
            }
        }
        executed++;
        return ps;
    }

    /**
     * Runs {@code sql} once per row of {@code rows} as one JDBC batch; each must change exactly one
     * row, as {@link #updateOne}.
     */
    public void batchOfOne(String sql, List<Object[]> rows) throws SQLException {
        PreparedStatement ps = get(sql);
        for (Object[] row : rows) {
            bind(ps, row);
            ps.addBatch();
        }
        int[] counts = ps.executeBatch();
        for (int n : counts) {
            // SUCCESS_NO_INFO: the driver does not say; an engine that says, says 1
            if (n != 1 && n != java.sql.Statement.SUCCESS_NO_INFO) {
                throw new SQLException("expected 1 row changed by each of a batch, got " + n + ": " + sql,
                        NOT_ONE_ROW);
            }
        }
    }

    private void closeLastCall() {
        if (lastCall != null) {
            try {
                lastCall.close();
            } catch (SQLException ignored) {
                // a statement of a failed transaction: nothing to do
            }
            lastCall = null;
        }
    }

    /** Binds the parameters in order and executes the statement as a query. */
    public ResultSet query(String sql, Object... params) throws SQLException {
        PreparedStatement ps = get(sql);
        bind(ps, params);
        return ps.executeQuery();
    }

    /** Binds, executes and returns the update count. */
    public int update(String sql, Object... params) throws SQLException {
        PreparedStatement ps = get(sql);
        bind(ps, params);
        return ps.executeUpdate();
    }

    /** The SQLSTATE of {@link #updateOne} changing other than one row. */
    public static final String NOT_ONE_ROW = "TPCC1";

    /**
     * An update that must change exactly one row; anything else means a broken database or
     * harness, or an engine whose isolation let a concurrent transaction change the row first
     * (its Dialect says which).
     */
    public void updateOne(String sql, Object... params) throws SQLException {
        int n = update(sql, params);
        if (n != 1) throw new SQLException("expected 1 row changed, got " + n + ": " + sql, NOT_ONE_ROW);
    }

    private static void bind(PreparedStatement ps, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
    }

    @Override
    public void close() {
        closeLastCall();
        for (PreparedStatement ps : prepared.values()) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
        prepared.clear();
    }
}
