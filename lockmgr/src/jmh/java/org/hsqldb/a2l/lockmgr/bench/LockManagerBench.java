package org.hsqldb.a2l.lockmgr.bench;

import java.util.concurrent.TimeUnit;

import org.hsqldb.a2l.lockmgr.FastLockManager;
import org.hsqldb.a2l.lockmgr.LockDuration;
import org.hsqldb.a2l.lockmgr.LockManager;
import org.hsqldb.a2l.lockmgr.LockMode;
import org.hsqldb.a2l.lockmgr.LockRequest;
import org.hsqldb.a2l.lockmgr.LockResult;
import org.hsqldb.a2l.lockmgr.MutexLockManager;
import org.hsqldb.a2l.lockmgr.Owner;
import org.hsqldb.a2l.lockmgr.RowKey;
import org.hsqldb.a2l.lockmgr.TableLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * One operation = acquire a statement's lock set (TRANSACTION duration) and release it
 * (commit), for typical TPC-C statements:
 * <ul>
 * <li>{@code read}: a read-only statement, {S(T), S(T.a), S(T.b), S(T.c)};</li>
 * <li>{@code update}: {S(T), S(T.k), X(T.v)} (an UPDATE of a non-indexed column);</li>
 * <li>{@code insert}: {X(T)};</li>
 * <li>{@code cellRead}, {@code cellUpdate}, {@code keyInsert}: the same statements at cell
 *     granularity, addressing one row by key: {S(T), S(T.a[k]), S(T.b[k]), S(T.c[k])},
 *     {S(T), S(T.k[k]), X(T.v[k])} and {X(T[k])} (a row key; IX on the table). Each thread
 *     goes round its own {@code rows} rows, so threads on one table do not conflict. The
 *     manager forgets a keyed name when its last holder lets it go, so every operation
 *     makes its names; {@code rows} matters where names are kept longer (1024 rows fit
 *     under the default sweep size, so such a manager finds them again past the first
 *     round; 65536 do not, so it makes them and sweeps them, as TPC-C's random rows
 *     do).</li>
 * </ul>
 * {@code uncontended}: one thread. {@code sameTable}: two threads, two owners, the same
 * table (read sets share; update and insert sets conflict and take turns).
 * {@code otherTable}: two threads on two different tables. {@code reacquireHeld}: one
 * thread re-requests a set it already holds (the owner-local check). Throughput is the
 * sum over threads. {@code work} adds simulated statement execution while the locks are
 * held.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class LockManagerBench {

    @Param({"fast", "mutex"})
    public String impl;

    @Param({"read", "update", "insert", "cellRead", "cellUpdate", "keyInsert"})
    public String set;

    /**
     * Rows each thread goes round in the keyed sets ({@code -p rows=1024,65536} for both;
     * one value by default, as the other sets do not use it and would run twice).
     */
    @Param({"1024"})
    public int rows;

    /**
     * The keyed sets' keys: {@code int}, one column (the thread's rows numbered apart);
     * {@code pair}, two columns whose first is the thread's own (as TPC-C's terminals each
     * keep a home warehouse, the first column of every key).
     */
    @Param({"int"})
    public String keys;

    final TableLock[] tables = new TableLock[2];

    LockManager manager;
    final LockRequest[][] sets = new LockRequest[2][];

    @Setup(Level.Trial)
    public void setUp() {
        manager = impl.equals("fast") ? new FastLockManager() : new MutexLockManager();
        for (int i = 0; i < 2; i++) {
            TableLock t = manager.table("T" + i, "PUBLIC.T" + i);
            tables[i] = t;
            // a few more columns, so attributes are not all neighbours of the table
            for (int c = 0; c < 8; c++) {
                t.attribute(c, "C" + c);
            }
            switch (set) {
                case "read":
                    sets[i] = new LockRequest[] {LockRequest.s(t), LockRequest.s(t.attribute(0, "C0")),
                        LockRequest.s(t.attribute(1, "C1")), LockRequest.s(t.attribute(2, "C2"))};
                    break;
                case "update":
                    sets[i] = new LockRequest[] {LockRequest.s(t), LockRequest.s(t.attribute(0, "C0")),
                        LockRequest.x(t.attribute(3, "C3"))};
                    break;
                case "insert":
                    sets[i] = new LockRequest[] {LockRequest.x(t)};
                    break;
                default:
                    sets[i] = null; // keyed: per thread and row, see keyedSet
            }
        }
    }

    /** The keyed statement of this benchmark on table {@code t}, row {@code key}. */
    LockRequest[] keyedSet(TableLock t, Object key) {
        switch (set) {
            case "cellRead":
                return new LockRequest[] {LockRequest.s(t),
                    LockRequest.cell(t.attribute(0, "C0"), key, LockMode.S),
                    LockRequest.cell(t.attribute(1, "C1"), key, LockMode.S),
                    LockRequest.cell(t.attribute(2, "C2"), key, LockMode.S)};
            case "cellUpdate":
                return new LockRequest[] {LockRequest.s(t),
                    LockRequest.cell(t.attribute(0, "C0"), key, LockMode.S),
                    LockRequest.cell(t.attribute(3, "C3"), key, LockMode.X)};
            default:
                return new LockRequest[] {LockRequest.rowKey(t, key, LockMode.X)};
        }
    }

    /**
     * A thread's statements: the fixed set, or for the keyed sets one per row of the
     * thread's own {@code rows} rows (made here, so that operations measure the lock
     * manager and not the allocation of requests).
     */
    LockRequest[][] rounds(int table, int thread) {
        if (sets[table] != null) {
            return new LockRequest[][] {sets[table]};
        }
        LockRequest[][] r = new LockRequest[rows][];
        for (int k = 0; k < rows; k++) {
            r[k] = keyedSet(tables[table],
                    keys.equals("pair") ? RowKey.of(thread, k) : (Object) (thread * rows + k));
        }
        return r;
    }

    /** A session: one owner per benchmark thread. */
    @State(Scope.Thread)
    public static class Session {
        Owner owner;
        LockRequest[][] same;
        LockRequest[][] own;
        int next;
        LockManager manager;

        @Setup(Level.Trial)
        public void setUp(LockManagerBench b, ThreadParams tp) {
            manager = b.manager;
            int i = tp.getThreadIndex();
            owner = manager.register(i, "bench-" + i);
            same = b.rounds(0, i);
            own = b.rounds(i % 2, i);
        }

        LockRequest[] next(LockRequest[][] sets) {
            LockRequest[] s = sets[next];
            next = next + 1 == sets.length ? 0 : next + 1;
            return s;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            manager.unregister(owner);
        }
    }

    /** A session that already holds its set, for {@link #reacquireHeld}. */
    @State(Scope.Thread)
    public static class Holder {
        Owner owner;
        LockRequest[] same;
        LockManager manager;

        @Setup(Level.Trial)
        public void setUp(LockManagerBench b, ThreadParams tp) {
            manager = b.manager;
            owner = manager.register(100 + tp.getThreadIndex(), "holder");
            same = b.rounds(0, tp.getThreadIndex())[0];
            if (!manager.acquire(owner, same, LockDuration.TRANSACTION, 0).isGranted()) {
                throw new IllegalStateException("could not take the set");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            manager.unregister(owner);
        }
    }

    /**
     * Simulated statement execution between acquire and release, in JMH CPU tokens
     * (0: lock calls only, the worst case for contention on the lock words).
     */
    @Param({"0"})
    public int work;

    private LockResult run(Session s, LockRequest[] set) {
        LockResult r = s.manager.acquire(s.owner, set, LockDuration.TRANSACTION, 0);
        if (work > 0) {
            Blackhole.consumeCPU(work);
        }
        s.manager.releaseAll(s.owner);
        return r;
    }

    @Benchmark
    @Threads(1)
    public LockResult uncontended(Session s) {
        return run(s, s.next(s.same));
    }

    @Benchmark
    @Threads(2)
    public LockResult sameTable(Session s) {
        return run(s, s.next(s.same));
    }

    @Benchmark
    @Threads(2)
    public LockResult otherTable(Session s) {
        return run(s, s.next(s.own));
    }

    @Benchmark
    @Threads(1)
    public LockResult reacquireHeld(Holder s) {
        return s.manager.acquire(s.owner, s.same, LockDuration.TRANSACTION, 0);
    }
}
