package org.hsqldb.a2l.fork.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import org.hsqldb.Table;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Point lookups and inserts through JDBC on {@code jdbc:hsqldb:mem:}, latched vs latch free.
 *
 * <p><b>Why this level.</b> It is what an application sees: a prepared statement executed by a
 * session, with everything around the index access that {@link IndexStorageBench} leaves out:
 * statement execution, result sets, the transaction manager and its table locks (upstream's
 * TransactionManager2PL when latched; the lockmgr-based manager the fork uses under
 * {@code hsqldb.latch_free=true}), and a commit per statement (autocommit). The engine takes
 * the locks itself, as for any statement. Comparing the two levels shows how much of the
 * latch's cost is left once the rest of the statement path is paid, and whether that path
 * (not the latch) is what two threads contend on.
 *
 * <ul>
 * <li>{@code pkLookup_*}: {@code SELECT V FROM T WHERE ID = ?} on a random preloaded key;
 * two threads share S locks on T.</li>
 * <li>{@code insert_*}: {@code INSERT INTO INS (ID, V) VALUES (?, ?)}, two threads into the
 * same table on disjoint keys: each insert takes X on INS until its commit, so the two
 * writers take turns, as they would in any application under table locking.</li>
 * </ul>
 * Each thread has its own connection: SERIALIZABLE (as the TPC-C harness runs), autocommit
 * on. Inserted rows are tagged with their thread and deleted after every iteration, so the
 * table starts each iteration at {@code rows} rows. Throughput in operations per microsecond,
 * summed over threads; every {@code latchFree} value runs in its own JVM.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms8g", "-Xmx8g", "-Xmn4g"})
@State(Scope.Benchmark)
public class IndexJdbcBench {

    /** hsqldb.latch_free: false keeps upstream's latches, true runs MEMORY tables without. */
    @Param({"false", "true"})
    public boolean latchFree;

    /**
     * Rows in T (lookups) and, at the start of each iteration, in INS (inserts): 1000 (the
     * index in the cache) and 100000 (a TPC-C-sized table, lookups mostly cache misses).
     */
    @Param({"1000", "100000"})
    public int rows;

    String url;
    Connection admin;
    BenchTables.KeySpace keySpace;

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        keySpace = new BenchTables.KeySpace(rows);
        url = BenchTables.newUrl("jdbc", latchFree);
        admin = BenchTables.connect(url);
        keySpace.createFilled(admin, "T");
        keySpace.createFilled(admin, "INS");
        for (String name : new String[] {"T", "INS"}) {
            Table table = BenchTables.table(BenchTables.session(admin), name);
            BenchTables.checkLatchFree(table.getRowStore(BenchTables.session(admin)), latchFree);
        }
    }

    /**
     * No SHUTDOWN: JMH runs this as soon as one thread is done with its last iteration, while
     * another may still be deleting its rows, and shutting the database down then would roll
     * that back under it. The in-memory database goes with the forked JVM.
     */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        admin.close();
    }

    /** One application thread: a connection with its two prepared statements. */
    @State(Scope.Thread)
    public static class Client {
        Connection connection;
        PreparedStatement select;
        PreparedStatement insert;
        BenchTables.KeySpace keySpace;
        int rows;
        int thread;
        int threads;
        int random;
        long inserted;

        @Setup(Level.Trial)
        public void setUp(IndexJdbcBench b, ThreadParams tp) throws SQLException {
            rows = b.rows;
            keySpace = b.keySpace;
            thread = tp.getThreadIndex();
            threads = tp.getThreadCount();
            random = 0x9E3779B9 * (thread + 1);
            connection = BenchTables.connect(b.url);
            connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            connection.setAutoCommit(true);
            select = connection.prepareStatement("SELECT V FROM T WHERE ID = ?");
            insert = connection.prepareStatement("INSERT INTO INS (ID, V) VALUES (?, ?)");
            insert.setInt(2, tag());
        }

        /** V of this thread's inserted rows (preloaded rows have V = 0). */
        int tag() {
            return thread + 1;
        }

        @Setup(Level.Iteration)
        public void startIteration() {
            inserted = 0;
        }

        /** Deletes the rows this thread inserted (all of them, or the run fails). */
        @TearDown(Level.Iteration)
        public void endIteration() throws SQLException {
            if (inserted == 0) {
                return;
            }
            int deleted;
            try (Statement s = connection.createStatement()) {
                deleted = s.executeUpdate("DELETE FROM INS WHERE V = " + tag());
            }
            if (deleted != inserted) {
                throw new IllegalStateException("thread " + thread + ": inserted " + inserted
                    + " rows in the iteration, deleted " + deleted);
            }
            BenchTables.collect();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            connection.close();
        }

        int lookup() throws SQLException {
            random = BenchTables.nextRandom(random);
            select.setInt(1, keySpace.preloaded((random >>> 1) % rows));
            try (ResultSet r = select.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("preloaded key not found");
                }
                return r.getInt(1);
            }
        }

        int insert() throws SQLException {
            // threads own the gap positions thread + 1, thread + 1 + threads, ...: disjoint keys
            insert.setInt(1, keySpace.inserted(inserted, thread + 1, threads));
            int count = insert.executeUpdate();
            inserted++;
            return count;
        }
    }

    @Benchmark
    @Threads(1)
    public int pkLookup_1thread(Client c) throws SQLException {
        return c.lookup();
    }

    @Benchmark
    @Threads(2)
    public int pkLookup_2threads(Client c) throws SQLException {
        return c.lookup();
    }

    @Benchmark
    @Threads(1)
    public int insert_1thread(Client c) throws SQLException {
        return c.insert();
    }

    @Benchmark
    @Threads(2)
    public int insert_2threads(Client c) throws SQLException {
        return c.insert();
    }
}
