package org.hsqldb.a2l.fork.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Statements prepared on every call against statements prepared once: the loop of a stock
 * update as applications write it, a point read {@code SELECT q, d1, d2 FROM s WHERE w = ? AND
 * i = ? FOR UPDATE} and an {@code UPDATE s SET q = q + ? WHERE w = ? AND i = ?} by primary key,
 * one session at SERIALIZABLE, a commit every ten pairs.
 *
 * <ul>
 * <li>{@code preparedOnce}: both statements prepared at setup and kept, as the TPC-C harness
 * does;</li>
 * <li>{@code preparedPerCall}: each prepared, executed and closed on every call, as Spring's
 * JdbcTemplate and ORMs without a statement cache do.</li>
 * </ul>
 * The engine modes are upstream's three and the fork's default and cells; the statement cache
 * size is the database's default unless {@code statementCacheSize} says otherwise (0: every
 * prepare compiles, as 2.7.4 does). One operation is one read-and-update pair; throughput in
 * pairs per millisecond.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class PrepareBench {

    static final String READ = "SELECT q, d1, d2 FROM s WHERE w = ? AND i = ? FOR UPDATE";
    static final String UPDATE = "UPDATE s SET q = q + ? WHERE w = ? AND i = ?";
    static final int WAREHOUSES = 4;
    static final int ITEMS = 10_000;

    /** The engine mode, as URL properties. */
    @Param({"hsqldb.tx=locks", "hsqldb.tx=mvlocks", "hsqldb.tx=mvcc", "hsqldb.tx=a2l",
        "hsqldb.tx=a2l;hsqldb.lock_granularity=cell"})
    public String mode;

    /** hsqldb.statement_cache_size; -1: the database's default. */
    @Param({"-1"})
    public int statementCacheSize;

    private Connection c;
    private PreparedStatement read;
    private PreparedStatement update;
    private final SplittableRandom random = new SplittableRandom(42);
    private int pairs;

    @Setup(Level.Trial)
    public void open() throws SQLException {
        String url = "jdbc:hsqldb:mem:prepare_bench;" + mode
                + (statementCacheSize >= 0 ? ";hsqldb.statement_cache_size=" + statementCacheSize : "");
        c = DriverManager.getConnection(url, "SA", "");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE s (w INT, i INT, q INT, d1 CHAR(24), d2 CHAR(24), PRIMARY KEY (w, i))");
        }
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO s VALUES (?, ?, 50, 'dist-one', 'dist-two')")) {
            for (int w = 1; w <= WAREHOUSES; w++) {
                for (int i = 1; i <= ITEMS; i++) {
                    ins.setInt(1, w);
                    ins.setInt(2, i);
                    ins.executeUpdate();
                }
            }
        }
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
        c.commit();
        try (Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
        c.close();
    }

    @Benchmark
    public int preparedOnce() throws SQLException {
        // prepared here, not at setup: a PreparedStatement of the same SQL left open would let
        // preparedPerCall share its compiled statement, as 2.7.4 already does for open ones
        if (read == null) {
            read = c.prepareStatement(READ);
            update = c.prepareStatement(UPDATE);
        }
        return pair(read, update);
    }

    @Benchmark
    public int preparedPerCall() throws SQLException {
        try (PreparedStatement r = c.prepareStatement(READ); PreparedStatement u = c.prepareStatement(UPDATE)) {
            return pair(r, u);
        }
    }

    private int pair(PreparedStatement r, PreparedStatement u) throws SQLException {
        int w = 1 + random.nextInt(WAREHOUSES);
        int i = 1 + random.nextInt(ITEMS);
        int q;
        r.setInt(1, w);
        r.setInt(2, i);
        try (ResultSet rs = r.executeQuery()) {
            rs.next();
            q = rs.getInt(1);
        }
        u.setInt(1, 1);
        u.setInt(2, w);
        u.setInt(3, i);
        u.executeUpdate();
        if (++pairs % 10 == 0) {
            c.commit();
        }
        return q;
    }
}
