package org.hsqldb.a2l.lockmgr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.hsqldb.a2l.lockmgr.LockResult.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many owners run random transactions (random lock sets over a few tables, attributes,
 * row keys and cells, in canonical or random order, random durations, statement-lock
 * releases, early release of shared locks, commits and aborts) against one manager. Keys
 * come from a small space, the escalation threshold is low and the key tables are swept
 * all the time, so cells conflict, escalate and are swept while others look them up.
 * <ul>
 * <li>A checker, under its own global lock, keeps every owner's holdings as the test
 *     computes them from the contract and asserts on every grant that no two owners hold
 *     incompatible locks (the compatibility rule of lockmgr/README.md, written out independently here). Holdings
 *     are added after a grant and removed before a release, so the checker never sees
 *     more than the manager grants.</li>
 * <li>After every call each owner compares {@code held()} of every name with its model
 *     (durations, upgrades, releases, undo of failed calls).</li>
 * <li>Every deadlock must be detected: in the "forever" variants nobody ever times out
 *     or is cancelled and the fast manager's periodic re-check is off, so a missed cycle
 *     is a hang, which the watchdog turns into a failure with a thread dump.</li>
 * <li>At the end the counters add up, nothing is held, and every lock word and shared
 *     count is zero.</li>
 * </ul>
 */
class RandomizedConcurrencyTest {

    static final int THREADS = 12;
    static final int TABLES = 3;
    static final int ATTRS = 4;
    static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(3);
    static final int MAX_TXNS = 4000;
    static final long WATCHDOG_SECONDS = 40;
    /** Keys 0..KEYS-1 for row keys and cells: few, so they conflict. */
    static final int KEYS = 4;
    /** Escalation threshold: 1 in the hot mixes (the second key under a parent escalates), 3 in reads. */
    static final int ESCALATION_HOT = 1, ESCALATION_READS = 3;
    static final int SWEEP = 2;

    /**
     * Key k: all keys share the first value 0, so they share one partition of each key table
     * and the sweep size (SWEEP per partition) is reached.
     */
    static List<Integer> key(int k) {
        return List.of(0, k);
    }

    /**
     * @param mix "hot": every statement kind, many conflicts and deadlocks; "reads": 90%
     *        selects, races between fast-path readers and writers rather than queues
     * @param limit the barge limit: 0, strictly FIFO queues; 4, arrivals pass a waiter
     *        until it has been passed 4 times, so both rules are met
     */
    @ParameterizedTest(name = "{0}, {1}, {2}, barge limit {3}")
    @CsvSource({"fast, forever, hot, 0", "fast, forever, hot, 4", "fast, timeouts, hot, 4",
        "mutex, forever, hot, 4", "mutex, timeouts, hot, 0", "fast, forever, reads, 4",
        "mutex, forever, reads, 0"})
    void randomWorkload(String impl, String waits, String mix, int limit) throws Exception {
        boolean forever = waits.equals("forever");
        LockManager m;
        if (impl.equals("fast")) {
            FastLockManager f = new FastLockManager();
            if (forever) {
                f.setDeadlockRecheckNanos(0); // detection must come from the waits themselves
            }
            m = f;
        } else {
            m = new MutexLockManager();
        }
        m.setBargeLimit(limit);
        new Run(m, forever, mix.equals("reads"), 42 + impl.hashCode() + waits.hashCode() + mix.hashCode()).go();
    }

    static final class Held {
        final LockMode mode;
        final boolean txn;

        Held(LockMode mode, boolean txn) {
            this.mode = mode;
            this.txn = txn;
        }
    }

    /** What a holding is on: a table or attribute, a keyed name (key not null), or a table's IX. */
    static final class Target {
        final LockName name;
        final Object key;
        final boolean ix;

        Target(LockName name, Object key, boolean ix) {
            this.name = name;
            this.key = key;
            this.ix = ix;
        }

        static Target of(LockRequest r) {
            return new Target(r.name(), r.key(), r.mode() == LockMode.IX);
        }

        boolean keyed() {
            return key != null;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Target && ((Target) o).name == name
                    && java.util.Objects.equals(((Target) o).key, key) && ((Target) o).ix == ix;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(name) * 31 + java.util.Objects.hashCode(key) + (ix ? 1 : 0);
        }

        @Override
        public String toString() {
            return name + (key != null ? "" + key : "") + (ix ? "(IX)" : "");
        }
    }

    /** The independent rule and the global view of what the test says is held. */
    static final class Checker {
        private final Map<Owner, Map<Target, Held>> all = new HashMap<>();

        /** Two holdings on the same name (a table's IX is a mode of the table here). */
        static boolean modesConflict(LockMode m1, LockMode m2) {
            if (m1 == LockMode.X || m2 == LockMode.X) {
                return true;
            }
            if (m1 == LockMode.IX || m2 == LockMode.IX) {
                return m1 != m2;
            }
            return m1 == LockMode.U && m2 == LockMode.U;
        }

        /** {@code above} (a table or an attribute, not keyed) and a holding under it. */
        static boolean aboveConflicts(LockName n, LockMode above, Target under, LockMode m) {
            if (above == LockMode.X) {
                return true;
            }
            if (above == LockMode.IX) {
                return false; // under a table: IS or IX, both go with IX
            }
            // S or U on a table: rows read; conflicts with inserters and deleters (row key U/X,
            // or IX on a key range). S or U on an attribute: values read; conflicts with writers
            // of its cells (U/X, or IX on a range of them). Cells are not under a table's rows;
            // attributes are not under anybody's S or U.
            boolean writesUnder = m == LockMode.U || m == LockMode.X || m == LockMode.IX || under.ix;
            return under.name == n && under.keyed() && writesUnder;
        }

        static boolean conflict(Target t1, LockMode m1, Target t2, LockMode m2) {
            if (t1.name == t2.name && java.util.Objects.equals(t1.key, t2.key)) {
                return modesConflict(t1.ix ? LockMode.IX : m1, t2.ix ? LockMode.IX : m2);
            }
            if (!t1.keyed() && isUnder(t2, t1.name)) {
                return aboveConflicts(t1.name, t1.ix ? LockMode.IX : m1, t2, m2);
            }
            if (!t2.keyed() && isUnder(t1, t2.name)) {
                return aboveConflicts(t2.name, t2.ix ? LockMode.IX : m2, t1, m1);
            }
            return false;
        }

        /** Whether {@code t} is strictly under name {@code n}: an attribute, row key or cell of a table, or a cell of an attribute. */
        static boolean isUnder(Target t, LockName n) {
            if (n instanceof TableLock) {
                return t.name.table() == n && (t.name != n || t.keyed());
            }
            return t.name == n && t.keyed();
        }

        synchronized void set(Owner o, Map<Target, Held> holdings, boolean check) {
            if (check) {
                for (Map.Entry<Owner, Map<Target, Held>> other : all.entrySet()) {
                    if (other.getKey() == o) {
                        continue;
                    }
                    for (Map.Entry<Target, Held> mine : holdings.entrySet()) {
                        for (Map.Entry<Target, Held> theirs : other.getValue().entrySet()) {
                            if (conflict(mine.getKey(), mine.getValue().mode, theirs.getKey(),
                                    theirs.getValue().mode)) {
                                throw new AssertionError("incompatible locks granted together: " + o
                                        + " " + mine.getValue().mode + "(" + mine.getKey() + ") and "
                                        + other.getKey() + " " + theirs.getValue().mode + "("
                                        + theirs.getKey() + ")");
                            }
                        }
                    }
                }
            }
            all.put(o, new HashMap<>(holdings));
        }
    }

    static final class Run {
        final LockManager m;
        final boolean forever;
        final boolean reads;
        final int escalation;
        final long seed;
        final Checker checker = new Checker();
        final List<TableLock> tables = new ArrayList<>();
        final List<LockName> names = new ArrayList<>();
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        volatile boolean stop;
        final AtomicLong deadlocks = new AtomicLong(), timeouts = new AtomicLong(),
                cancels = new AtomicLong(), granted = new AtomicLong(), grantedRequests = new AtomicLong(),
                txns = new AtomicLong(), refusedTries = new AtomicLong();
        final Owner[] owners = new Owner[THREADS];

        Run(LockManager m, boolean forever, boolean reads, long seed) {
            this.m = m;
            this.escalation = reads ? ESCALATION_READS : ESCALATION_HOT;
            m.setEscalationThreshold(escalation);
            m.setKeyTableSweepSize(16 * SWEEP);
            this.forever = forever;
            this.reads = reads;
            this.seed = seed;
            for (int i = 0; i < TABLES; i++) {
                TableLock t = m.table("T" + i, "S.T" + i);
                tables.add(t);
                names.add(t);
                for (int c = 0; c < ATTRS; c++) {
                    names.add(t.attribute(c, "C" + c));
                }
            }
        }

        void go() throws Exception {
            m.resetCounters();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                owners[i] = m.register(i + 1, "w" + i);
                final int id = i;
                Thread th = new Thread(() -> {
                    try {
                        worker(owners[id], new SplittableRandom(seed * 31 + id));
                    } catch (Throwable e) {
                        failures.add(e);
                        stop = true;
                        m.releaseAll(owners[id]); // let the others finish
                    }
                }, "worker-" + i);
                th.setDaemon(true);
                threads.add(th);
            }
            Thread helper = new Thread(() -> helper(new SplittableRandom(seed)), "helper");
            helper.setDaemon(true);
            long start = System.nanoTime();
            threads.forEach(Thread::start);
            helper.start();
            long deadline = start + TimeUnit.SECONDS.toNanos(WATCHDOG_SECONDS);
            for (Thread th : threads) {
                th.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (th.isAlive()) {
                    String dump = threadDump() + "\nlocks: " + m.snapshot();
                    stop = true;
                    for (Owner o : owners) {
                        m.cancel(o); // free the hung threads
                    }
                    fail("watchdog: " + th.getName() + " still running after " + WATCHDOG_SECONDS
                            + " s (missed deadlock or lost wake-up?)\n" + dump);
                }
            }
            stop = true;
            helper.join();
            if (!failures.isEmpty()) {
                Throwable f = failures.peek();
                throw new AssertionError(failures.size() + " worker failure(s), first: " + f, f);
            }
            // everything released
            assertEquals(List.of(), m.snapshot());
            if (m instanceof FastLockManager) {
                for (LockName n : names) {
                    assertEquals(0L, n.word(), () -> "lock word of " + n);
                    assertEquals(0L, FastLockManager.shared(n), () -> "shared count of " + n);
                    assertTrue(n.queueEmpty());
                }
            }
            LockCounters c = m.counters();
            assertEquals(c.requests(), c.immediate() + c.waits(), c.toString());
            assertEquals(deadlocks.get(), c.deadlocks(), c.toString());
            assertEquals(timeouts.get(), c.timeouts(), c.toString());
            assertEquals(cancels.get(), c.cancels(), c.toString());
            assertEquals(0, c.interrupts());
            assertTrue(c.requests() >= grantedRequests.get(), c.toString());
            assertTrue(c.waits() >= c.deadlocks() + c.timeouts() + c.cancels(), c.toString());
            // the workload really exercised the slow paths
            assertTrue(c.waits() > 0, c.toString());
            if (!reads) {
                assertTrue(deadlocks.get() > 0, "no deadlock happened: " + c);
            }
            if (!forever) {
                assertTrue(timeouts.get() + cancels.get() > 0, c.toString());
            }
            if (!reads) {
                assertTrue(refusedTries.get() > 0, "no try was refused: " + c);
            }
            System.out.println(m.getClass().getSimpleName() + (forever ? " forever" : " timeouts")
                    + (reads ? " reads" : " hot")
                    + ": " + txns.get() + " transactions, " + granted.get() + " grants, "
                    + refusedTries.get() + " tries refused; " + c);
        }

        /** Cancels random owners (timeouts variant) and takes snapshots meanwhile. */
        void helper(SplittableRandom rnd) {
            while (!stop) {
                if (!forever && rnd.nextInt(4) == 0) {
                    m.cancel(owners[rnd.nextInt(THREADS)]);
                }
                if (rnd.nextInt(8) == 0) {
                    m.snapshot();
                    m.counters();
                }
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        LockRequest[] statement(SplittableRandom rnd) {
            List<LockRequest> set = new ArrayList<>();
            int parts = !reads && rnd.nextInt(10) == 0 ? 2 : 1;
            for (int p = 0; p < parts; p++) {
                TableLock t = tables.get(rnd.nextInt(TABLES));
                int kind = rnd.nextInt(34);
                if (reads) {
                    int k = rnd.nextInt(100);
                    kind = k < 2 ? 0 : k < 60 ? 5 : k < 92 ? 20 : k < 99 ? 15 : 19;
                }
                List<Integer> key = key(rnd.nextInt(KEYS));
                if (kind < 2) { // insert / delete of the whole table
                    set.add(LockRequest.x(t));
                } else if (kind < 11) { // select
                    set.add(LockRequest.s(t));
                    for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                        set.add(LockRequest.s(attr(t, rnd)));
                    }
                } else if (kind < 16) { // update
                    set.add(LockRequest.s(t));
                    for (int i = rnd.nextInt(3); i > 0; i--) {
                        set.add(LockRequest.s(attr(t, rnd)));
                    }
                    for (int i = 1 + rnd.nextInt(2); i > 0; i--) {
                        set.add(LockRequest.x(attr(t, rnd)));
                    }
                } else if (kind < 19) { // a read for update (U), a table's or an attribute's
                    if (rnd.nextInt(4) == 0) {
                        set.add(LockRequest.u(t));
                    } else {
                        set.add(LockRequest.s(t));
                        set.add(LockRequest.u(attr(t, rnd)));
                    }
                } else if (kind < 20) { // a bare attribute request, no table lock
                    set.add(rnd.nextBoolean() ? LockRequest.s(attr(t, rnd))
                            : LockRequest.x(attr(t, rnd)));
                } else if (kind < 24) { // a point read: cells of one row
                    set.add(LockRequest.s(t));
                    for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                        set.add(LockRequest.cell(attr(t, rnd), key, LockMode.S));
                    }
                } else if (kind < 27) { // a point update: read some cells, write others (or U)
                    set.add(LockRequest.s(t));
                    for (int i = rnd.nextInt(2); i > 0; i--) {
                        set.add(LockRequest.cell(attr(t, rnd), key, LockMode.S));
                    }
                    LockMode w = rnd.nextInt(4) == 0 ? LockMode.U : LockMode.X;
                    for (int i = 1 + rnd.nextInt(2); i > 0; i--) {
                        set.add(LockRequest.cell(attr(t, rnd), key, w));
                    }
                } else if (kind < 29) { // an insert (IX and a row key) or a delete (S too)
                    if (rnd.nextBoolean()) {
                        set.add(LockRequest.s(t));
                    }
                    set.add(LockRequest.rowKey(t, key, rnd.nextInt(5) == 0 ? LockMode.S : LockMode.X));
                } else if (kind < 30) { // an insert into a table without keys
                    set.add(LockRequest.ix(t));
                } else if (kind < 31) { // an insert or delete in a key range: IX on the range
                    set.add(LockRequest.rowKey(t, key(rnd.nextInt(KEYS)), LockMode.IX));
                    set.add(LockRequest.rowKey(t, key, LockMode.X));
                } else if (kind < 32) { // a read of a key range: its rows and its values
                    set.add(LockRequest.rowKey(t, key, LockMode.S));
                    set.add(LockRequest.cell(attr(t, rnd), key, rnd.nextInt(3) == 0 ? LockMode.U
                            : LockMode.S));
                } else { // an update of a key range: IX and S on its values, X on cells in it
                    AttributeLock a = attr(t, rnd);
                    set.add(LockRequest.rowKey(t, key, LockMode.S));
                    set.add(LockRequest.cell(a, key, LockMode.IX));
                    set.add(LockRequest.cell(a, key, LockMode.S));
                    set.add(LockRequest.cell(a, key(rnd.nextInt(KEYS)), LockMode.X));
                }
            }
            LockRequest[] a = set.toArray(new LockRequest[0]);
            if (rnd.nextBoolean()) {
                return LockRequest.canonical(a);
            }
            Collections.shuffle(set, new java.util.Random(rnd.nextLong()));
            return set.toArray(new LockRequest[0]);
        }

        static AttributeLock attr(TableLock t, SplittableRandom rnd) {
            return t.attribute(rnd.nextInt(ATTRS), null);
        }

        /**
         * What the owner holds after a granted request, as the contract says: covered requests
         * change nothing; a keyed request past the escalation threshold locks its parent.
         */
        /** Per worker: parents under which a request of the current call tried to escalate. */
        final ThreadLocal<Map<LockName, LockMode>> escalatingUnder = ThreadLocal.withInitial(
                java.util.IdentityHashMap::new);

        /**
         * After a granted call that tried escalations: the model from what the owner holds,
         * modes and durations, as its snapshot shows them (whether an escalation was made
         * depends on the other owners, and what it covers on what came after it in the call).
         */
        void resync(Owner o, Map<Target, Held> model) {
            Map<LockName, LockMode> escalating = escalatingUnder.get();
            if (escalating.isEmpty()) {
                return;
            }
            Map<Target, Held> actual = new HashMap<>();
            for (LockInfo i : m.snapshot()) {
                if (i.ownerId() != o.id() || i.state() != LockInfo.State.HELD) {
                    continue;
                }
                LockName n = i.name();
                Target t = n instanceof KeyLock
                        ? new Target(n.parent(), ((KeyLock) n).key(), i.mode() == LockMode.IX)
                        : new Target(n, null, i.mode() == LockMode.IX);
                actual.put(t, new Held(i.mode(), i.duration() == LockDuration.TRANSACTION));
            }
            // all of it: an escalation to X on a table also covers the cells asked for after it
            model.clear();
            model.putAll(actual);
            escalating.clear();
        }

        /** keyed names held under the request's parent (S and IX on one key are one name) */
        static long keysUnder(Map<Target, Held> model, LockRequest q) {
            return model.keySet().stream().filter(k -> k.keyed() && k.name == q.name())
                    .map(k -> k.key).distinct().count();
        }

        void grant(Map<Target, Held> model, LockRequest q, LockDuration d) {
            boolean txnCall = d == LockDuration.TRANSACTION;
            LockMode mode = q.mode();
            Target target = Target.of(q);
            if (q.key() != null) {
                Held parent = model.get(new Target(q.name(), null, false));
                Held table = model.get(new Target(q.name().table(), null, false));
                if (mode == LockMode.IX) { // a key range: covered by X above only, escalated to X
                    if (parent != null && parent.mode == LockMode.X
                            || table != null && table.mode == LockMode.X) {
                        return;
                    }
                    if (keysUnder(model, q) >= escalation) {
                        escalatingUnder.get().merge(q.name(), LockMode.X, (x, y) -> x.covers(y) ? x : y);
                        return;
                    }
                    Held same = model.get(new Target(q.name(), q.key(), false));
                    if (same == null || same.mode != LockMode.X) {
                        model.put(target, new Held(LockMode.IX, true));
                    }
                    return;
                }
                if (parent != null && parent.mode != LockMode.IX && parent.mode.covers(mode)
                        && (parent.txn || !txnCall)) {
                    return;
                }
                if (!(q.name() instanceof TableLock) && table != null && table.mode == LockMode.X) {
                    return;
                }
                if (keysUnder(model, q) >= escalation) {
                    // an escalation is only tried (it takes the parent if that is free now,
                    // else the key): the owner's state after the call says which; see resync
                    escalatingUnder.get().merge(q.name(), mode, (x, y) -> x.covers(y) ? x : y);
                    return;
                }
            }
            if (mode == LockMode.IX) {
                Held table = model.get(new Target(q.name(), null, false));
                if (table == null || table.mode != LockMode.X) {
                    model.put(target, new Held(LockMode.IX, true));
                }
                return;
            }
            Held h = model.get(target);
            LockMode held = h != null && h.mode.covers(mode) ? h.mode : mode;
            boolean t = (h != null && h.txn) || txnCall || held != LockMode.S;
            model.put(target, new Held(held, t));
        }

        void worker(Owner o, SplittableRandom rnd) {
            Map<Target, Held> model = new HashMap<>();
            long end = System.nanoTime() + RUN_NANOS;
            for (int txn = 0; txn < MAX_TXNS && !stop && System.nanoTime() < end; txn++) {
                txns.incrementAndGet();
                int statements = 1 + rnd.nextInt(reads ? 2 : 4);
                boolean abort = false;
                for (int st = 0; st < statements && !abort && !stop; st++) {
                    LockRequest[] set = statement(rnd);
                    LockDuration d = rnd.nextInt(5) < 2 ? LockDuration.STATEMENT : LockDuration.TRANSACTION;
                    long timeout = !forever && rnd.nextInt(3) == 0
                            ? TimeUnit.MICROSECONDS.toNanos(200 + rnd.nextInt(5000)) : 0;
                    // a try now and then: all at once, or nothing and no wait
                    boolean trying = rnd.nextInt(8) == 0;
                    LockResult r = !trying ? m.acquire(o, set, d, timeout)
                            : m.tryAcquire(o, set, d) ? LockResult.GRANTED : null;
                    if (r == null) {
                        refusedTries.incrementAndGet();
                        escalatingUnder.get().clear();
                        verify(o, model); // the owner holds exactly what it held before the call
                    } else if (r.isGranted()) {
                        granted.incrementAndGet();
                        grantedRequests.addAndGet(set.length);
                        for (LockRequest q : set) {
                            grant(model, q, d);
                        }
                        resync(o, model);
                        checker.set(o, model, true);
                        verify(o, model);
                        work(rnd);
                        int after = rnd.nextInt(20);
                        if (after < 14) {
                            model.values().removeIf(h -> h.mode == LockMode.S && !h.txn);
                            checker.set(o, model, false);
                            m.releaseStatementLocks(o);
                        } else if (after == 14) {
                            model.values().removeIf(h -> h.mode == LockMode.S);
                            checker.set(o, model, false);
                            m.releaseShared(o);
                        }
                        verify(o, model);
                    } else {
                        escalatingUnder.get().clear();
                        // the owner holds exactly what it held before the call
                        verify(o, model);
                        switch (r.status()) {
                            case DEADLOCK:
                                deadlocks.incrementAndGet();
                                List<WaitEdge> cycle = r.cycle();
                                assertTrue(cycle.size() >= 2, r.message());
                                assertSame(o, cycle.get(0).waiter(), r.message());
                                for (int i = 0; i < cycle.size(); i++) {
                                    assertSame(cycle.get(i).blocker(),
                                            cycle.get((i + 1) % cycle.size()).waiter(), r.message());
                                }
                                abort = true;
                                break;
                            case TIMEOUT:
                                timeouts.incrementAndGet();
                                abort = rnd.nextBoolean(); // sometimes go on with the transaction
                                break;
                            case CANCELLED:
                                cancels.incrementAndGet();
                                abort = rnd.nextBoolean();
                                break;
                            default:
                                throw new AssertionError(r.toString());
                        }
                    }
                }
                // commit or abort: the same for the lock manager
                model.clear();
                checker.set(o, model, false);
                m.releaseAll(o);
                verify(o, model);
            }
        }

        void verify(Owner o, Map<Target, Held> model) {
            for (LockName n : names) {
                Held h = model.get(new Target(n, null, false));
                LockMode expected = h == null ? null : h.mode;
                if (expected == null && n instanceof TableLock && (model.containsKey(new Target(n, null, true))
                        || model.entrySet().stream().anyMatch(e -> e.getKey().name == n && e.getKey().keyed()
                                && e.getValue().mode != LockMode.S))) {
                    expected = LockMode.IX; // asked for, or under a U or X row key
                }
                check(o, n, expected);
                for (int k = 0; k < KEYS; k++) {
                    Object key = key(k);
                    Held kh = model.get(new Target(n, key, false));
                    LockMode keyed = kh != null ? kh.mode
                            : model.containsKey(new Target(n, key, true)) ? LockMode.IX : null;
                    check(o, new KeyLock(n, key), keyed);
                }
            }
        }

        private void check(Owner o, LockName n, LockMode expected) {
            LockMode actual = m.held(o, n);
            if (expected != actual) {
                throw new AssertionError(o + " holds " + actual + " on " + n + ", expected " + expected);
            }
        }

        static void work(SplittableRandom rnd) {
            int n = rnd.nextInt(4);
            if (n == 0) {
                Thread.yield();
            } else {
                for (int i = n * 50; i > 0; i--) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    static String threadDump() {
        StringBuilder sb = new StringBuilder();
        for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            sb.append(ti);
        }
        return sb.toString();
    }
}
