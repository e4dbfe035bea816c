package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Upstream 2.7.4's LOCKS mode (and MVLOCKS, which shares its table-lock
 * bookkeeping in TransactionManagerCommon) stalls for good under write
 * contention: a stale entry in a holder's waitingSessions lets resetLocks()
 * grant locks to a deadlock victim that has already rolled back, so the
 * victim holds a table lock outside any transaction; its rollback is a no-op
 * and every retry is refused as a deadlock while the other sessions wait
 * behind the lock (hsqldb-fork/upstream-locks-stall.md).
 *
 * <p>The workload is TPC-C's write pattern in miniature: one hot WAREHOUSE
 * row, a few DISTRICT rows, New-Order (reads WAREHOUSE and DISTRICT, inserts
 * NEW_ORDER, then updates DISTRICT: a lock upgrade), Payment (updates
 * WAREHOUSE, then DISTRICT) and Delivery, 16 terminals at SERIALIZABLE,
 * deadlock victims retried with the same input. On the unmodified jar the
 * test wants the stall (commits frozen while terminals wait for a lock) to
 * come within {@link #UPSTREAM_BUDGET_MS}, and skips if it did not come that
 * soon; on the fork, LOCKS and MVLOCKS must run the same load with steady
 * progress and leave a consistent database.
 *
 * <p>A second, deterministic schedule shows the other way the bookkeeping
 * loses a deadlock: resetLocks() checks each waiter's recomputed blockers
 * before the other waiters' new waits of the same pass are registered, so a
 * cycle made of two of them plus an older wait is never seen.
 *
 * <p>Never hangs: terminals are daemon threads, every wait is bounded, and a
 * stalled workload is abandoned (its connections closed from daemon threads,
 * not waited for).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class UpstreamLocksStallTest {

    static final int TERMINALS = Integer.getInteger("stall.terminals", 16);
    static final int DISTRICTS = 4;
    static final int ITEMS = 50;
    static final int STOCK = 1_000_000;

    /** The load both engines are given: this many commits. */
    static final long TARGET_COMMITS = Long.getLong("stall.targetCommits", 20_000);

    /** How long the unmodified jar may take to stall (else the test is skipped). */
    static final long UPSTREAM_BUDGET_MS = Long.getLong("stall.upstreamBudgetMs", 18_000);

    /**
     * How long the fork may take for the load: far more than it needs (a few seconds here), so
     * that a slow or shared machine cannot fail the test; only a stall makes it run out.
     */
    static final long FORK_BUDGET_MS = Long.getLong("stall.forkBudgetMs", 120_000);

    /** No commit for this long while a terminal waits for a lock is a stall (upstream's run). */
    static final long STALL_MS = 2_500;

    /** The same for the fork's run, where only a real stall may fail the test. */
    static final long FORK_STALL_MS = 20_000;

    @Test
    void upstreamLocksStallsUnderWriteContention() throws Exception {
        String url = "jdbc:hsqldb:mem:stall_upstream_" + System.nanoTime() + ";hsqldb.tx=locks";
        Workload w = new Workload(url, true);
        try {
            w.createSchema();
            Outcome o = w.run(Long.MAX_VALUE, UPSTREAM_BUDGET_MS, STALL_MS);
            System.out.println("upstream 2.7.4 LOCKS: " + o);
            assumeTrue(o.stalled, "upstream 2.7.4 (LOCKS) did not stall within " + UPSTREAM_BUDGET_MS
                    + " ms this time (" + o + "); the stall is timing-dependent");
            assertTrue(o.parkedAtStall >= 1, "a stall has terminals parked in a lock wait: " + o);
            // the stall lasts: a second window later, still no commit (else it was only a slow
            // moment of a loaded machine, and there is nothing to show)
            long before = w.commits.get();
            Thread.sleep(STALL_MS);
            assumeTrue(before == w.commits.get(), "upstream resumed committing: not a permanent stall this time");
        } finally {
            w.abandon();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS"})
    @RequiresPatch("Release-at-rollback-the-2PL-locks")
    void forkRunsTheSameLoadWithoutStalling(EngineMode mode) throws Exception {
        String url = mode.url("jdbc:hsqldb:mem:stall_fork_" + mode.id() + "_" + System.nanoTime());
        Workload w = new Workload(url, false);
        try {
            w.createSchema();
            Outcome o = w.run(TARGET_COMMITS, FORK_BUDGET_MS, FORK_STALL_MS);
            System.out.println("fork " + mode.id() + ": " + o);
            assertFalse(o.stalled, mode.id() + " stalled: " + o);
            assertTrue(o.commits >= TARGET_COMMITS, mode.id() + " did not run the load in time: " + o);
            assertTrue(o.aborts > 0, "the load makes deadlock victims (else it tests nothing): " + o);
            assertTrue(w.stopAndJoin(5_000), mode.id() + ": a terminal did not finish its transaction");
            assertEquals(List.of(), w.failures, mode.id() + ": unexpected errors");
            assertEquals(List.of(), w.verify(), mode.id() + ": inconsistent after " + o);
        } finally {
            w.abandon();
        }
    }

    /**
     * S reads T1 and T2, X reads T1. A (holding T3) waits for S and X to
     * write T1; B then reads T1 and waits for S to write T2; C reads T2 and
     * waits for A to write T3. When S commits, A now waits for X and B, and B
     * for C: each new wait is checked before the other is registered, so
     * upstream misses the cycle A -> B -> C -> A and the three wait for ever.
     * X's next lock request then walks the cycle in checkDeadlock() until the
     * stack overflows (the recursion seen under MVLOCKS).
     */
    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS"})
    void upstreamMissesADeadlockClosedInOneResetPass(EngineMode mode) throws Exception {
        String url = mode.url("jdbc:hsqldb:mem:stall_cycle_upstream_" + mode.id() + "_" + System.nanoTime());
        Cycle cycle = new Cycle(url, true);
        try {
            cycle.build();
            cycle.s.commit();
            // S's commit re-evaluated A, B and C before it returned; let their threads park again
            for (int i = 0; i < 1000 && !(cycle.a.isWaitingForLock() && cycle.b.isWaitingForLock()
                    && cycle.c.isWaitingForLock()); i++) {
                Thread.sleep(10);
            }
            assertTrue(cycle.a.isWaitingForLock() && cycle.b.isWaitingForLock() && cycle.c.isWaitingForLock(),
                    "upstream 2.7.4 (" + mode.id() + ") now detects the cycle: A, B and C are no longer all waiting");
            assertFalse(cycle.updateA.isDone() || cycle.updateB.isDone() || cycle.updateC.isDone());
            // A also waits for X (a reader of T1): X's next lock request makes checkDeadlock()
            // walk the waiters of X, A -> C -> B -> A -> ..., and it never returns
            Future<Integer> updateX = cycle.x.submit("INSERT INTO t4 VALUES (2, 0)");
            Throwable failure = failure(updateX, 10);
            Throwable overflow = failure;
            while (overflow.getCause() != null && !(overflow instanceof StackOverflowError)) {
                overflow = overflow.getCause();
            }
            System.out.println("upstream 2.7.4 " + mode.id() + ": X's lock request failed with " + overflow + " at "
                    + Arrays.asList(overflow.getStackTrace()).subList(0, Math.min(3, overflow.getStackTrace().length)));
            assertTrue(causedBy(failure, StackOverflowError.class),
                    mode.id() + ": X's lock request should overflow the stack in checkDeadlock(): " + failure);
        } finally {
            cycle.abandon();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS"})
    @RequiresPatch("Keep-the-2PL-waits-for-graph-exact")
    void forkDetectsADeadlockClosedInOneResetPass(EngineMode mode) throws Exception {
        String url = mode.url("jdbc:hsqldb:mem:stall_cycle_fork_" + mode.id() + "_" + System.nanoTime());
        Cycle cycle = new Cycle(url, false);
        try {
            cycle.build();
            cycle.s.commit();
            // exactly one of the three is the victim; the others go on once it has rolled back
            List<String> victims = new ArrayList<>();
            SessionThread[] sessions = {cycle.a, cycle.b, cycle.c};
            Future<?>[] updates = {cycle.updateA, cycle.updateB, cycle.updateC};
            String[] names = {"A", "B", "C"};
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (victims.isEmpty() && System.nanoTime() < deadline) {
                for (int i = 0; i < 3; i++) {
                    if (updates[i].isDone() && outcome(updates[i]).equals("40001")) {
                        victims.add(names[i]);
                    }
                }
                Thread.sleep(10);
            }
            assertEquals(1, victims.size(), mode.id() + ": the cycle A -> B -> C -> A was not broken: " + victims);
            int v = Arrays.asList(names).indexOf(victims.get(0));
            // X's lock request is an ordinary wait for Y
            Future<Integer> updateX = cycle.x.submit("INSERT INTO t4 VALUES (2, 0)");
            cycle.x.awaitLockWait();
            cycle.y.commit();
            assertEquals(1, SessionThread.await(updateX));
            cycle.x.commit();
            sessions[v].rollback();
            // the other two go on once the victim has rolled back: commit each as its update completes
            List<Integer> pending = new ArrayList<>(List.of(0, 1, 2));
            pending.remove(Integer.valueOf(v));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!pending.isEmpty() && System.nanoTime() < end) {
                for (Iterator<Integer> it = pending.iterator(); it.hasNext(); ) {
                    int i = it.next();
                    if (updates[i].isDone()) {
                        String result = outcome(updates[i]);
                        if (mode == EngineMode.MVLOCKS && result.equals("23505")) {
                            // MVLOCKS reads the snapshot of the transaction's start: an update of a row
                            // another transaction has since changed fails instead of overwriting it
                            sessions[i].rollback();
                        } else {
                            assertEquals("ok", result, mode.id() + ": " + names[i]);
                            sessions[i].commit();
                        }
                        it.remove();
                    }
                }
                Thread.sleep(10);
            }
            assertEquals(List.of(), pending, mode.id() + ": still waiting after the victim " + names[v]
                    + " rolled back (indexes of A, B, C)");
        } finally {
            cycle.abandon();
        }
    }

    /** What the future failed with, waiting at most {@code seconds}; an AssertionError if it did not fail. */
    private static Throwable failure(Future<?> f, int seconds) throws InterruptedException {
        try {
            f.get(seconds, TimeUnit.SECONDS);
            throw new AssertionError("the statement succeeded");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the statement neither failed nor finished within " + seconds + " s", e);
        }
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c) || String.valueOf(c.getMessage()).contains(type.getName())) {
                return true;
            }
        }
        return false;
    }

    private static String outcome(Future<?> f) throws InterruptedException {
        try {
            f.get();
            return "ok";
        } catch (ExecutionException e) {
            return e.getCause() instanceof SQLException s ? s.getSQLState() : String.valueOf(e.getCause());
        }
    }

    /** The schedule of the cycle tests, up to (not including) S's commit. */
    static final class Cycle {

        final String url;
        final boolean upstream;
        SessionThread s;
        SessionThread a;
        SessionThread b;
        SessionThread c;
        SessionThread x;
        SessionThread y;
        Future<Integer> updateA;
        Future<Integer> updateB;
        Future<Integer> updateC;

        Cycle(String url, boolean upstream) {
            this.url = url;
            this.upstream = upstream;
        }

        private SessionThread session(String name) throws SQLException {
            Connection conn = upstream ? Engines.upstream(url) : Engines.fork(url);
            SessionThread t = new SessionThread(conn, name);
            t.setAutoCommit(false);
            t.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            return t;
        }

        void build() throws Exception {
            s = session("S");
            s.execute("CREATE TABLE t1 (id INT PRIMARY KEY, v INT)");
            s.execute("CREATE TABLE t2 (id INT PRIMARY KEY, v INT)");
            s.execute("CREATE TABLE t3 (id INT PRIMARY KEY, v INT)");
            s.execute("CREATE TABLE t4 (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t1 VALUES (1, 0)");
            s.execute("INSERT INTO t2 VALUES (1, 0)");
            s.execute("INSERT INTO t3 VALUES (1, 0)");
            s.execute("INSERT INTO t4 VALUES (1, 0)");
            s.commit();
            a = session("A");
            b = session("B");
            c = session("C");
            x = session("X");
            y = session("Y");
            s.execute("SELECT v FROM t1");
            s.execute("SELECT v FROM t2");
            x.execute("SELECT v FROM t1");
            y.execute("UPDATE t4 SET v = v + 1");
            a.execute("UPDATE t3 SET v = v + 1");
            updateA = a.submit("UPDATE t1 SET v = v + 1");
            a.awaitLockWait();
            b.execute("SELECT v FROM t1");
            updateB = b.submit("UPDATE t2 SET v = v + 1");
            b.awaitLockWait();
            c.execute("SELECT v FROM t2");
            updateC = c.submit("UPDATE t3 SET v = v + 1");
            c.awaitLockWait();
        }

        /** Closes sessions that are not waiting; waiting ones are abandoned (daemon threads). */
        void abandon() {
            for (SessionThread t : new SessionThread[] {s, a, b, c, x, y}) {
                if (t != null) {
                    Connection conn = t.connection();
                    Thread closer = new Thread(() -> {
                        try {
                            conn.close();
                        } catch (SQLException ignored) {
                            // abandoned
                        }
                    }, "stall-closer");
                    closer.setDaemon(true);
                    closer.start();
                }
            }
        }
    }

    /** What a run did. */
    static final class Outcome {
        boolean stalled;
        long commits;
        long aborts;
        long millis;
        int parkedAtStall;

        @Override
        public String toString() {
            return commits + " commits, " + aborts + " aborts in " + millis + " ms"
                    + (stalled ? ", stalled with " + parkedAtStall + " terminal(s) waiting for a lock" : "");
        }
    }

    /** Miniature TPC-C: schema, terminals, stall monitor and consistency checks. */
    static final class Workload {

        final String url;
        final boolean upstream;
        final AtomicLong commits = new AtomicLong();
        final AtomicLong aborts = new AtomicLong();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final List<Connection> connections = Collections.synchronizedList(new ArrayList<>());
        final List<Thread> terminals = new ArrayList<>();
        volatile boolean stop;

        Workload(String url, boolean upstream) {
            this.url = url;
            this.upstream = upstream;
        }

        Connection connect() throws SQLException {
            Connection c = upstream ? Engines.upstream(url) : Engines.fork(url);
            connections.add(c);
            return c;
        }

        void createSchema() throws SQLException {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_ytd BIGINT NOT NULL)");
                s.execute("CREATE TABLE district (d_id INT PRIMARY KEY, d_next_o_id INT NOT NULL, d_ytd BIGINT NOT NULL)");
                s.execute("CREATE TABLE orders (o_d_id INT, o_id INT, o_qty INT NOT NULL, o_carrier INT,"
                        + " PRIMARY KEY (o_d_id, o_id))");
                s.execute("CREATE TABLE new_order (no_d_id INT, no_o_id INT, PRIMARY KEY (no_d_id, no_o_id))");
                s.execute("CREATE TABLE history (h_d_id INT NOT NULL, h_amount INT NOT NULL)");
                s.execute("CREATE TABLE stock (s_i_id INT PRIMARY KEY, s_qty INT NOT NULL)");
                s.execute("INSERT INTO warehouse VALUES (1, 0)");
                for (int d = 1; d <= DISTRICTS; d++) {
                    s.execute("INSERT INTO district VALUES (" + d + ", 1, 0)");
                }
                for (int i = 1; i <= ITEMS; i++) {
                    s.execute("INSERT INTO stock VALUES (" + i + ", " + STOCK + ")");
                }
            }
            connections.clear();
        }

        /**
         * Runs the terminals until {@code targetCommits} commits, a stall, or
         * {@code budgetMillis}, whichever comes first; the terminals are
         * stopped (asked to) before it returns.
         */
        Outcome run(long targetCommits, long budgetMillis, long stallMillis) throws Exception {
            for (int t = 0; t < TERMINALS; t++) {
                Connection c = connect();
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                Thread thread = new Thread(() -> terminal(c), "stall-terminal-" + t);
                thread.setDaemon(true);
                terminals.add(thread);
            }
            long start = System.nanoTime();
            terminals.forEach(Thread::start);
            Outcome o = new Outcome();
            long lastCount = -1;
            long lastChange = start;
            while (true) {
                Thread.sleep(20);
                long now = System.nanoTime();
                long count = commits.get();
                if (count != lastCount) {
                    lastCount = count;
                    lastChange = now;
                }
                if (count >= targetCommits || now - start >= TimeUnit.MILLISECONDS.toNanos(budgetMillis)) {
                    break;
                }
                if (now - lastChange >= TimeUnit.MILLISECONDS.toNanos(stallMillis)) {
                    int parked = parkedInLockWait();
                    if (parked > 0) {
                        o.stalled = true;
                        o.parkedAtStall = parked;
                        break;
                    }
                }
            }
            o.millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            o.commits = commits.get();
            o.aborts = aborts.get();
            stop = true;
            return o;
        }

        /** Terminals whose thread is parked in a lock manager's wait. */
        int parkedInLockWait() {
            int n = 0;
            for (Thread t : terminals) {
                Thread.State state = t.getState();
                if ((state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                        && Arrays.stream(t.getStackTrace()).anyMatch(
                                f -> f.getClassName().equals("org.hsqldb.lib.CountUpDownLatch")
                                        || f.getClassName().startsWith("org.hsqldb.a2l.lockmgr"))) {
                    n++;
                }
            }
            return n;
        }

        boolean stopAndJoin(long millis) throws InterruptedException {
            stop = true;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            for (Thread t : terminals) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Stops the terminals and closes every connection from daemon threads
         * without waiting for them: a session parked in a lock wait holds its
         * monitor, so closing it would block for good on a stalled engine.
         */
        void abandon() {
            stop = true;
            synchronized (connections) {
                for (Connection c : connections) {
                    Thread closer = new Thread(() -> {
                        try {
                            c.close();
                        } catch (SQLException ignored) {
                            // abandoned
                        }
                    }, "stall-closer");
                    closer.setDaemon(true);
                    closer.start();
                }
                connections.clear();
            }
        }

        private void terminal(Connection c) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            Sql sql = new Sql(c);
            try {
                while (!stop) {
                    int kind = random.nextInt(100);
                    int d = 1 + random.nextInt(DISTRICTS);
                    int amount = 1 + random.nextInt(5000);
                    int[] items = {1 + random.nextInt(ITEMS), 1 + random.nextInt(ITEMS), 1 + random.nextInt(ITEMS)};
                    for (int attempt = 1; !stop; attempt++) {
                        try {
                            if (kind < 45) {
                                newOrder(sql, d, items);
                            } else if (kind < 88) {
                                payment(sql, d, amount);
                            } else {
                                delivery(sql, d);
                            }
                            c.commit();
                            commits.incrementAndGet();
                            break;
                        } catch (SQLException e) {
                            rollbackQuietly(c);
                            String state = e.getSQLState();
                            // 40001: deadlock victim; 23505: MVLOCKS's snapshot read of D_NEXT_O_ID
                            if (!"40001".equals(state) && !"23505".equals(state)) {
                                failures.add(state + " " + e.getMessage());
                                return;
                            }
                            aborts.incrementAndGet();
                            LockSupport.parkNanos(random.nextLong(Math.min(attempt, 20) * 200_000L + 1));
                        }
                    }
                }
            } catch (RuntimeException e) {
                failures.add(e.toString());
            }
        }

        /** A terminal's prepared statements, prepared once. */
        static final class Sql {
            final Connection c;
            final java.util.Map<String, PreparedStatement> prepared = new java.util.HashMap<>();

            Sql(Connection c) {
                this.c = c;
            }

            PreparedStatement bind(String sql, Object... args) throws SQLException {
                PreparedStatement ps = prepared.get(sql);
                if (ps == null) {
                    ps = c.prepareStatement(sql);
                    prepared.put(sql, ps);
                }
                for (int i = 0; i < args.length; i++) {
                    ps.setObject(i + 1, args[i]);
                }
                return ps;
            }

            int update(String sql, Object... args) throws SQLException {
                return bind(sql, args).executeUpdate();
            }

            long query(String sql, Object... args) throws SQLException {
                try (ResultSet rs = bind(sql, args).executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0;
                }
            }
        }

        /** TPC-C's original order: read WAREHOUSE and DISTRICT, insert NEW_ORDER, then update DISTRICT. */
        private static void newOrder(Sql c, int d, int[] items) throws SQLException {
            c.query("SELECT w_ytd FROM warehouse WHERE w_id = 1");
            int oid = (int) c.query("SELECT d_next_o_id FROM district WHERE d_id = ?", d);
            c.update("INSERT INTO new_order VALUES (?, ?)", d, oid);
            c.update("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_id = ?", d);
            int qty = 0;
            for (int item : items) {
                c.query("SELECT s_qty FROM stock WHERE s_i_id = ?", item);
                c.update("UPDATE stock SET s_qty = s_qty - 1 WHERE s_i_id = ?", item);
                qty++;
            }
            c.update("INSERT INTO orders VALUES (?, ?, ?, NULL)", d, oid, qty);
        }

        /** Payment: WAREHOUSE then DISTRICT, each updated then read, and a HISTORY row. */
        private static void payment(Sql c, int d, int amount) throws SQLException {
            c.update("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = 1", amount);
            c.query("SELECT w_ytd FROM warehouse WHERE w_id = 1");
            c.update("UPDATE district SET d_ytd = d_ytd + ? WHERE d_id = ?", amount, d);
            c.query("SELECT d_ytd FROM district WHERE d_id = ?", d);
            c.update("INSERT INTO history VALUES (?, ?)", d, amount);
        }

        /** Delivery: the oldest NEW_ORDER of a district, deleted, and its order given a carrier. */
        private static void delivery(Sql c, int d) throws SQLException {
            long oid = c.query("SELECT COALESCE(MIN(no_o_id), 0) FROM new_order WHERE no_d_id = ?", d);
            if (oid == 0) {
                return;
            }
            c.update("DELETE FROM new_order WHERE no_d_id = ? AND no_o_id = ?", d, (int) oid);
            c.update("UPDATE orders SET o_carrier = 1 WHERE o_d_id = ? AND o_id = ?", d, (int) oid);
        }

        /** TPC-C's consistency conditions, adapted; empty if all hold. */
        List<String> verify() throws SQLException {
            List<String> problems = new ArrayList<>();
            try (Connection c = connect()) {
                long wYtd = queryLong(c, "SELECT w_ytd FROM warehouse");
                long dYtd = queryLong(c, "SELECT SUM(d_ytd) FROM district");
                long hSum = queryLong(c, "SELECT COALESCE(SUM(h_amount), 0) FROM history");
                if (wYtd != dYtd || wYtd != hSum) {
                    problems.add("W_YTD " + wYtd + ", sum(D_YTD) " + dYtd + ", sum(H_AMOUNT) " + hSum);
                }
                for (int d = 1; d <= DISTRICTS; d++) {
                    long next = queryLong(c, "SELECT d_next_o_id FROM district WHERE d_id = " + d);
                    long count = queryLong(c, "SELECT COUNT(*) FROM orders WHERE o_d_id = " + d);
                    long max = queryLong(c, "SELECT COALESCE(MAX(o_id), 0) FROM orders WHERE o_d_id = " + d);
                    if (next - 1 != count || next - 1 != max) {
                        problems.add("district " + d + ": D_NEXT_O_ID - 1 = " + (next - 1) + ", orders " + count
                                + ", max(O_ID) " + max);
                    }
                }
                long undelivered = queryLong(c, "SELECT COUNT(*) FROM orders WHERE o_carrier IS NULL");
                long newOrders = queryLong(c, "SELECT COUNT(*) FROM new_order");
                long joined = queryLong(c, "SELECT COUNT(*) FROM new_order n JOIN orders o"
                        + " ON o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id WHERE o.o_carrier IS NULL");
                if (undelivered != newOrders || joined != newOrders) {
                    problems.add("undelivered orders " + undelivered + ", NEW_ORDER rows " + newOrders
                            + ", of which matching an undelivered order " + joined);
                }
                long stock = queryLong(c, "SELECT SUM(s_qty) FROM stock");
                long ordered = queryLong(c, "SELECT COALESCE(SUM(o_qty), 0) FROM orders");
                if (stock + ordered != (long) ITEMS * STOCK) {
                    problems.add("stock " + stock + " + ordered " + ordered + " != " + (long) ITEMS * STOCK);
                }
            }
            return problems;
        }

        private static void rollbackQuietly(Connection c) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the statement's error is what counts
            }
        }

        private static long queryLong(Connection c, String sql) throws SQLException {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
