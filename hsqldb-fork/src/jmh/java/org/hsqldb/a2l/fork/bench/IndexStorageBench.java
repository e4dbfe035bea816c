package org.hsqldb.a2l.fork.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import org.hsqldb.Row;
import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.index.Index;
import org.hsqldb.navigator.RowIterator;
import org.hsqldb.persist.PersistentStore;
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
 * Index lookups and inserts at the storage level: the engine's own API, below SQL.
 *
 * <p><b>Why this level.</b> The LF switch changes one thing in the storage of a MEMORY table:
 * whether {@code RowStoreAVLMemory.readLock() .. writeUnlock()} take the store's fair
 * {@code ReentrantReadWriteLock}. {@code IndexAVL} takes the read latch around every traversal
 * ({@code findFirstRow}, and again in the iterator's {@code next()}), {@code RowStoreAVL} the
 * write latch around every change ({@code indexRow}). Here one operation is exactly such a
 * traversal or change, called on the table's {@code PersistentStore} and primary {@code Index}
 * from a {@code Session}, with no parsing, statement execution, transaction manager or lock
 * manager in the timed path, so the difference between {@code latchFree=false} and {@code true}
 * is the cost of the latch itself: an uncontended CAS pair per operation with one thread, and
 * with two threads the cache line of the latch's state word bouncing between cores (readers of
 * a {@code ReentrantReadWriteLock} all CAS the same word, so even read-only lookups contend).
 * {@link IndexJdbcBench} measures how much of that an application sees.
 *
 * <p><b>The table locks.</b> Without latches only the lock manager keeps a writer away from
 * other sessions' readers and writers, so every operation here runs the way a statement
 * would: inside a transaction of its session that holds the table lock the operation needs.
 * Each benchmark thread has its own session (a JDBC connection, SERIALIZABLE, autocommit off)
 * that takes the lock through SQL before each iteration (a statement that reads the table for
 * S, one that deletes from it for X), holds it through the iteration and commits after it.
 * The same happens in both modes, so the locks cost nothing in the timed path of either.
 * Run with {@code -jvmArgsAppend -Dhsqldb.lock_check=true} to have the fork verify, on every
 * latch-free index access, that the session holds that lock.
 * <ul>
 * <li>{@code pkLookup_*}: two threads may read one table at once without latches: both hold
 * S on it, and no writer can get X while they do.</li>
 * <li>{@code insert_*}: two threads inserting into <em>one</em> table at the storage level
 * with no lock manager between them would be a data race on the AVL tree, not a latch-free
 * scenario (under LF the second writer waits for the first one's X lock). So each thread
 * inserts into a table of its own, under X on it: {@code insert_2threads} measures two
 * writers on two tables, which under LF share nothing, while their latches (one per store)
 * are uncontended too; it shows what a second core adds when writers do not conflict.</li>
 * </ul>
 *
 * <p>Throughput in operations per microsecond, summed over threads. Every {@code latchFree}
 * value runs in its own JVM (JMH forks per parameter set).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms8g", "-Xmx8g", "-Xmn4g"})
@State(Scope.Benchmark)
public class IndexStorageBench {

    /** hsqldb.latch_free: false keeps upstream's latches, true runs MEMORY tables without. */
    @Param({"false", "true"})
    public boolean latchFree;

    /**
     * Rows in each table (the lookups' table, and every writer's table at the start of each
     * iteration): 1000 keep the index in the cache, so the latch is a visible part of a
     * lookup; 100000 (TPC-C's STOCK has 100000 rows per warehouse) make a lookup mostly
     * cache misses down the tree.
     */
    @Param({"1000", "100000"})
    public int rows;

    String url;
    Connection admin;
    BenchTables.KeySpace keySpace;
    /** The preloaded keys, boxed once so that lookups do not box them. */
    Integer[] keys;

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        keySpace = new BenchTables.KeySpace(rows);
        url = BenchTables.newUrl("storage", latchFree);
        admin = BenchTables.connect(url);
        keySpace.createFilled(admin, "T");
        keys = new Integer[rows];
        for (int k = 0; k < rows; k++) {
            keys[k] = keySpace.preloaded(k);
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

    /** A session that looks up rows of T, holding S(T) for each iteration. */
    @State(Scope.Thread)
    public static class Reader {
        Connection connection;
        Session session;
        PersistentStore store;
        Index index;
        Integer[] keys;
        int rows;
        /** The search row: the primary key column set, in the table's column layout. */
        final Object[] probe = new Object[2];
        int random;

        @Setup(Level.Trial)
        public void setUp(IndexStorageBench b, ThreadParams tp) throws SQLException {
            connection = BenchTables.connect(b.url);
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            session = BenchTables.session(connection);
            Table table = BenchTables.table(session, "T");
            store = table.getRowStore(session);
            index = table.getPrimaryIndex();
            BenchTables.checkLatchFree(store, b.latchFree);
            keys = b.keys;
            rows = b.rows;
            random = 0x9E3779B9 * (tp.getThreadIndex() + 1);
        }

        /** S(T) until the commit after the iteration (SERIALIZABLE: read locks are long). */
        @Setup(Level.Iteration)
        public void lock() throws SQLException {
            if (BenchTables.count(connection, "SELECT COUNT(*) FROM T WHERE ID = 0") != 1) {
                throw new IllegalStateException("T has no row with ID 0");
            }
        }

        @TearDown(Level.Iteration)
        public void unlock() throws SQLException {
            connection.commit();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            connection.close();
        }

        Row lookup() {
            random = BenchTables.nextRandom(random);
            probe[0] = keys[(random >>> 1) % rows];
            RowIterator it = index.findFirstRow(session, store, probe);
            it.next();
            Row row = it.getCurrentRow();
            it.release();
            if (row == null) {
                throw new IllegalStateException("key " + probe[0] + " not found");
            }
            return row;
        }
    }

    /** A session that inserts into a table of its own, INS{thread}, holding X on it. */
    @State(Scope.Thread)
    public static class Writer {
        Connection connection;
        Session session;
        Table table;
        PersistentStore store;
        String name;
        BenchTables.KeySpace keySpace;
        long inserted;
        static final Integer TAG = 1;

        @Setup(Level.Trial)
        public void setUp(IndexStorageBench b, ThreadParams tp) throws SQLException {
            name = "INS" + tp.getThreadIndex();
            keySpace = b.keySpace;
            connection = BenchTables.connect(b.url);
            keySpace.createFilled(connection, name);
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            session = BenchTables.session(connection);
            table = BenchTables.table(session, name);
            store = table.getRowStore(session);
            BenchTables.checkLatchFree(store, b.latchFree);
        }

        /** X(INSi) until the commit after the iteration (a DELETE that matches nothing). */
        @Setup(Level.Iteration)
        public void lock() throws SQLException {
            inserted = 0;
            try (Statement s = connection.createStatement()) {
                s.executeUpdate("DELETE FROM " + name + " WHERE ID < 0");
            }
        }

        /** Deletes this iteration's rows (all of them, or the run fails) and commits. */
        @TearDown(Level.Iteration)
        public void unlock() throws SQLException {
            int deleted;
            try (Statement s = connection.createStatement()) {
                deleted = s.executeUpdate("DELETE FROM " + name + " WHERE V = " + TAG);
            }
            connection.commit();
            if (deleted != inserted) {
                throw new IllegalStateException(name + ": inserted " + inserted
                    + " rows in the iteration, deleted " + deleted);
            }
            long left = store.elementCount();
            if (left != keySpace.rows) {
                throw new IllegalStateException(name + ": " + left + " rows in the store after"
                    + " the iteration's rows were deleted, not " + keySpace.rows);
            }
            // the next iteration starts from a collected heap: see BenchTables.collect()
            BenchTables.collect();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            connection.close();
        }

        void insert() {
            int key = keySpace.inserted(inserted, 1, 1);
            // the storage insert of Table.insertData: a new row, then indexRow() under the
            // store's write latch (none when latch free); no transaction bookkeeping
            table.insertData(session, store, new Object[] {key, TAG}, true);
            inserted++;
        }
    }

    @Benchmark
    @Threads(1)
    public Row pkLookup_1thread(Reader r) {
        return r.lookup();
    }

    @Benchmark
    @Threads(2)
    public Row pkLookup_2threads(Reader r) {
        return r.lookup();
    }

    @Benchmark
    @Threads(1)
    public void insert_1thread(Writer w) {
        w.insert();
    }

    @Benchmark
    @Threads(2)
    public void insert_2threads(Writer w) {
        w.insert();
    }
}
