package org.hsqldb.a2l.lockmgr;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The A2L lock manager: locks on tables {@code T} and attributes {@code T.c} in modes S,
 * U and X, held by {@link Owner}s (engine sessions) until the end of the statement or of
 * the transaction.
 *
 * <h2>Compatibility</h2>
 * Locks of the same owner never conflict with each other. Between two owners:
 * <ul>
 * <li>two locks on the same name conflict when one of them is X, or both are U (U, the
 * update mode, is compatible with S);</li>
 * <li>X(T) conflicts with every lock on T and on any attribute of T;</li>
 * <li>S(T) is compatible with S(T.c) and X(T.c); S(T.c) conflicts only with X(T.c) and X(T).</li>
 * </ul>
 *
 * <h2>Use</h2>
 * <pre>{@code
 * LockManager m = LockManager.create();                 // the fast implementation
 * TableLock t = m.table(tableObject, "PUBLIC.STOCK");   // once, at compile time
 * LockRequest[] set = { LockRequest.s(t), LockRequest.s(t.attribute(0, "S_I_ID")),
 *                       LockRequest.x(t.attribute(2, "S_QUANTITY")) };
 * Owner o = m.register(sessionId, "SA");                // once per session
 * LockResult r = m.acquire(o, set, LockDuration.TRANSACTION, timeoutNanos);
 * if (!r.isGranted()) throw new SQLException(r.message(), "40001");
 * m.releaseStatementLocks(o);                           // at statement end
 * m.releaseAll(o);                                      // at commit / rollback
 * }</pre>
 *
 * <h2>Waiting, fairness, deadlocks</h2>
 * {@link #acquire} takes the set's locks in array order and blocks until all are
 * granted, or returns why not; a failed call leaves the owner holding exactly what it
 * held before the call (locks granted earlier in the same call are released again, and
 * upgrades or duration changes made by it are undone). Each name has a FIFO of
 * waiters: a request from an owner that holds nothing on the name waits behind any
 * queued request it conflicts with (so a waiting X is not starved by a stream of new S
 * requests); a request from an owner that already holds something on the name (an
 * upgrade, or S(T) while holding T's attributes) only waits for conflicting holders.
 * When a wait closes a cycle in the wait-for graph (held-lock and queue-order edges),
 * the youngest transaction of the cycle (the owner whose first lock since it last held
 * nothing is the most recent) is refused with {@link LockResult.Status#DEADLOCK}, whoever
 * closed the cycle and whoever found it; its own waiting {@code acquire} returns that. See
 * the implementations for how detection cannot miss a cycle.
 *
 * <p>Implementations: {@link FastLockManager} (the default, no global lock on the fast
 * path) and {@link MutexLockManager} (one global mutex; a baseline and a test oracle).
 */
public abstract class LockManager {

    // modes of a hold / kinds of a request, weakest first (I: a table's intention, taken by
    // attribute locks; compatible with S, U and I, it conflicts only with X)
    static final int NONE = 0, S = 1, U = 2, X = 3, I = 4;
    // outcomes of the primitives
    static final int GRANTED_NOW = 0, GRANTED_WAITED = 1, R_DEADLOCK = 2, R_TIMEOUT = 3,
            R_CANCELLED = 4, R_INTERRUPTED = 5;

    private final ConcurrentHashMap<Object, TableLock> tables = new ConcurrentHashMap<>();
    private final AtomicInteger nameIds = new AtomicInteger();
    private final AtomicInteger ownerSeq = new AtomicInteger();
    /** Registered owners. */
    final Set<Owner> owners = ConcurrentHashMap.newKeySet();
    private final Object registryLock = new Object();
    private final long[] retired = new long[LockCounters.COUNT];
    private final long[] baseline = new long[LockCounters.COUNT];
    private volatile long defaultTimeoutNanos;

    LockManager() {
    }

    /** A new manager of the default (fast) implementation. */
    public static LockManager create() {
        return new FastLockManager();
    }

    int nextNameId() {
        return nameIds.incrementAndGet();
    }

    /** Per-name storage an implementation wants (FastLockManager's stripes). */
    long[] newStripes() {
        return null;
    }

    // ---- names -----------------------------------------------------------------------

    /**
     * The canonical lock name of the table identified by {@code key} (compared with
     * {@code equals}; the engine's table object or its qualified name): the same object
     * for the same key until {@link #dropTable}. {@code displayName} (e.g.
     * {@code PUBLIC.ORDERS}) is taken from the first call.
     */
    public final TableLock table(Object key, String displayName) {
        TableLock t = tables.get(key);
        if (t != null) {
            return t;
        }
        return tables.computeIfAbsent(key, k -> new TableLock(this, nextNameId(), k, displayName));
    }

    /**
     * Forgets the names of a dropped table: the next {@link #table} call for the key makes
     * a new name. Locks held or awaited on the old names are unaffected and are released
     * as usual.
     */
    public final void dropTable(Object key) {
        TableLock t = tables.remove(key);
        if (t != null) {
            t.dropped = true;
        }
    }

    // ---- owners ----------------------------------------------------------------------

    /** Registers a lock owner (one per engine session). */
    public final Owner register(long id, String label) {
        Owner o = new Owner(this, id, label, ownerSeq.getAndIncrement());
        owners.add(o);
        return o;
    }

    /**
     * Releases everything the owner holds and forgets it. Must not run while the owner
     * waits in {@link #acquire} (cancel it first and let that call return).
     */
    public final void unregister(Owner o) {
        checkOwner(o);
        releaseAll(o);
        synchronized (registryLock) {
            o.unregistered = true;
            owners.remove(o);
            for (int i = 0; i < LockCounters.COUNT; i++) {
                retired[i] += o.counter(i);
            }
        }
    }

    /**
     * Makes the owner's current wait, or if it is not waiting its next one, end with
     * {@link LockResult.Status#CANCELLED}. Callable from any thread (statement timeouts,
     * session resets, shutdown). A pending cancel is consumed by the CANCELLED result and
     * dropped by {@link #releaseAll}. Cancelling an unregistered owner does nothing (a
     * timer may fire while its session closes).
     */
    public final void cancel(Owner o) {
        if (o.manager != this) {
            throw new IllegalArgumentException(o + " belongs to another lock manager");
        }
        if (o.unregistered) {
            return;
        }
        o.cancelRequested = true;
        wake(o);
    }

    /**
     * The timeout used when {@link #acquire} is given {@code timeoutNanos <= 0}; 0 (the
     * initial value) means wait without limit.
     */
    public final void setDefaultTimeoutNanos(long nanos) {
        defaultTimeoutNanos = Math.max(0, nanos);
    }

    public final long defaultTimeoutNanos() {
        return defaultTimeoutNanos;
    }

    final void checkOwner(Owner o) {
        if (o.manager != this) {
            throw new IllegalArgumentException(o + " belongs to another lock manager");
        }
        if (o.unregistered) {
            throw new IllegalStateException(o + " is unregistered");
        }
    }

    // ---- acquire ---------------------------------------------------------------------

    /** {@link #acquire(Owner, LockRequest[], LockDuration, long)} with the default timeout. */
    public final LockResult acquire(Owner o, LockRequest[] set, LockDuration duration) {
        return acquire(o, set, duration, 0);
    }

    /**
     * Acquires every lock of {@code set} for {@code o}, in array order, blocking until all
     * are granted or the call fails.
     *
     * <p>A lock the owner already holds in the same or a stronger mode, for at least as
     * long, costs an owner-local check. A weaker mode held and a stronger one asked (S to U
     * or X, U to X) is an upgrade. A STATEMENT lock asked for the TRANSACTION becomes a
     * TRANSACTION lock; U and X locks are always held for the transaction whatever
     * {@code duration} says.
     *
     * @param timeoutNanos how long to wait at most; {@code <= 0} means the manager's
     *        default ({@link #setDefaultTimeoutNanos}), which by default is no limit
     * @return {@link LockResult#GRANTED}, or the reason for failure; after a failure the
     *         owner holds exactly what it held before the call. An INTERRUPTED result
     *         leaves the thread's interrupt flag set (a thread already interrupted when
     *         it would have to wait gets INTERRUPTED at once; granting without waiting
     *         does not look at the flag).
     */
    public final LockResult acquire(Owner o, LockRequest[] set, LockDuration duration,
            long timeoutNanos) {
        checkOwner(o);
        final boolean txn = duration == LockDuration.TRANSACTION;
        if (!txn && duration != LockDuration.STATEMENT) {
            throw new NullPointerException("duration");
        }
        final long timeout = timeoutNanos > 0 ? timeoutNanos : defaultTimeoutNanos;
        int processed = 0, immediate = 0, waited = 0, upgrades = 0, upgradeWaits = 0;
        int status = GRANTED_NOW;
        LockRequest failed = null;
        boolean failedUpgrade = false;
        boolean writing = false;
        beginCall();
        try {
            for (LockRequest r : set) {
                LockName name = r.name();
                if (name.manager != this) {
                    throw new IllegalArgumentException(name + " belongs to another lock manager");
                }
                processed++;
                int mode = r.mode().code();
                Hold h = o.find(name);
                if (h != null && h.mode >= mode && (h.txn || !txn)) {
                    immediate++;
                    continue;
                }
                if (!writing) {
                    writing = true;
                    o.beginWrite();
                    if (++o.callStamp == 0) {
                        o.callStamp = 1;
                    }
                    o.journalSize = 0;
                    if (o.size == 0) {
                        o.txnStartNanos = System.nanoTime(); // a transaction's first lock
                    }
                }
                if (h != null && h.mode >= mode) {
                    o.journal(h, false);
                    h.txn = true; // a STATEMENT lock asked for the TRANSACTION
                    immediate++;
                    continue;
                }
                boolean didWait = false;
                int st;
                if (name instanceof TableLock) {
                    if (h == null) {
                        h = o.add(name, null);
                        o.journal(h, true);
                    } else {
                        o.journal(h, false);
                    }
                    st = lockTable(o, h, (TableLock) name, mode, r, txn, timeout);
                } else {
                    AttributeLock a = (AttributeLock) name;
                    Hold th = h != null ? h.parent : o.find(a.table());
                    if (th == null) {
                        th = o.add(a.table(), null);
                        o.journal(th, true);
                    } else {
                        o.journal(th, false);
                    }
                    st = GRANTED_NOW;
                    if (!th.intent) {
                        st = lockTable(o, th, a.table(), I, r, txn, timeout);
                        if (st <= GRANTED_WAITED) {
                            th.intent = true;
                        }
                    }
                    if (st <= GRANTED_WAITED) {
                        didWait = st == GRANTED_WAITED;
                        if (h == null) {
                            h = o.add(a, th);
                            o.journal(h, true);
                            th.attrHolds++;
                        } else {
                            o.journal(h, false);
                        }
                        st = lockAttr(o, h, a, mode, r, txn, timeout);
                    }
                }
                if (st == GRANTED_WAITED || st > GRANTED_WAITED) {
                    didWait = true;
                }
                boolean upgrade = h != null && h.mode != NONE; // held weaker: a conversion
                if (didWait) {
                    waited++;
                    if (upgrade) {
                        upgradeWaits++;
                    }
                } else {
                    immediate++;
                }
                if (st > GRANTED_WAITED) {
                    status = st;
                    failed = r;
                    failedUpgrade = upgrade;
                    break;
                }
                if (upgrade) {
                    upgrades++;
                }
                boolean wasTxn = h.mode != NONE && h.txn;
                h.mode = mode;
                h.txn = mode >= U || txn || wasTxn;
                if (!h.txn) {
                    o.mayHoldStatementLocks = true;
                }
            }
            if (status > GRANTED_WAITED) {
                undo(o);
            }
        } catch (RuntimeException | Error e) {
            if (writing) {
                undo(o);
            }
            throw e;
        } finally {
            if (writing) {
                o.endWrite();
            }
            endCall();
        }
        o.count(LockCounters.REQUESTS, processed);
        o.count(LockCounters.IMMEDIATE, immediate);
        if (waited != 0) {
            o.count(LockCounters.WAITS, waited);
        }
        if (upgrades != 0) {
            o.count(LockCounters.UPGRADES, upgrades);
        }
        if (upgradeWaits != 0) {
            o.count(LockCounters.UPGRADE_WAITS, upgradeWaits);
        }
        if (status <= GRANTED_WAITED) {
            return LockResult.GRANTED;
        }
        switch (status) {
            case R_DEADLOCK: {
                o.count(LockCounters.DEADLOCKS, 1);
                if (failedUpgrade) {
                    o.count(LockCounters.UPGRADE_DEADLOCKS, 1);
                }
                List<WaitEdge> cycle = o.lastCycle;
                o.lastCycle = null;
                return new LockResult(LockResult.Status.DEADLOCK, failed, cycle);
            }
            case R_TIMEOUT:
                o.count(LockCounters.TIMEOUTS, 1);
                return new LockResult(LockResult.Status.TIMEOUT, failed, List.of());
            case R_CANCELLED:
                o.count(LockCounters.CANCELS, 1);
                return new LockResult(LockResult.Status.CANCELLED, failed, List.of());
            default:
                o.count(LockCounters.INTERRUPTS, 1);
                return new LockResult(LockResult.Status.INTERRUPTED, failed, List.of());
        }
    }

    /** Puts back every hold the failed call changed (attributes before their tables). */
    private void undo(Owner o) {
        Hold[] j = o.journal;
        for (int i = o.journalSize - 1; i >= 0; i--) {
            Hold h = j[i];
            if (h.isTable()) {
                if (h.mode != h.pMode || h.intent != h.pIntent) {
                    unlockTable(o, (TableLock) h.name, h.mode, h.intent, h.pMode, h.pIntent);
                }
            } else if (h.mode != h.pMode) {
                unlockAttr(o, (AttributeLock) h.name, h.mode, h.pMode);
            }
            h.mode = h.pMode;
            h.txn = h.pTxn;
            h.intent = h.pIntent;
            h.attrHolds = h.pAttrHolds;
        }
        for (int i = o.journalSize - 1; i >= 0; i--) {
            if (j[i].pNew) {
                o.remove(j[i]);
            }
            j[i] = null;
        }
        o.journalSize = 0;
    }

    // ---- release ---------------------------------------------------------------------

    /**
     * Releases the owner's STATEMENT-duration locks (those it does not also hold for the
     * transaction). Call at the end of every statement; cheap when there are none.
     */
    public final void releaseStatementLocks(Owner o) {
        checkOwner(o);
        if (!o.mayHoldStatementLocks) {
            return;
        }
        release(o, true);
        o.mayHoldStatementLocks = false;
    }

    /**
     * Releases every S lock the owner holds and did not upgrade to U or X, whatever its
     * duration (RbW-RL's early release of read locks); U and X locks stay. An owner holding
     * U(T.c) or X(T.c) keeps T's intention, so X(T) stays excluded for others.
     */
    public final void releaseShared(Owner o) {
        releaseShared(o, null);
    }

    /**
     * As {@link #releaseShared(Owner)}, but keeps the S locks whose names {@code keep} accepts
     * (the engine keeps those on the tables a transaction declared it will write, whose later
     * statements still read them). {@code null} keeps nothing.
     */
    public final void releaseShared(Owner o, Predicate<LockName> keep) {
        checkOwner(o);
        release(o, false, keep);
        o.mayHoldStatementLocks = false;
    }

    private void release(Owner o, boolean statementOnly) {
        release(o, statementOnly, null);
    }

    private void release(Owner o, boolean statementOnly, Predicate<LockName> keep) {
        if (o.size == 0) {
            return;
        }
        beginCall();
        o.beginWrite();
        try {
            Hold[] d = o.dense;
            int n = o.size;
            boolean changed = false;
            for (int i = 0; i < n; i++) {
                Hold h = d[i];
                if (!h.isTable() && h.mode == S && !(statementOnly && h.txn)
                        && (keep == null || !keep.test(h.name))) {
                    unlockAttr(o, (AttributeLock) h.name, S, NONE);
                    h.mode = NONE;
                    h.parent.attrHolds--;
                    changed = true;
                }
            }
            for (int i = 0; i < n; i++) {
                Hold h = d[i];
                if (h.isTable()) {
                    int mode = h.mode == S && !(statementOnly && h.txn)
                            && (keep == null || !keep.test(h.name)) ? NONE : h.mode;
                    boolean intent = h.attrHolds > 0;
                    if (mode != h.mode || intent != h.intent) {
                        unlockTable(o, (TableLock) h.name, h.mode, h.intent, mode, intent);
                        if (mode == NONE) {
                            h.txn = false;
                        }
                        h.mode = mode;
                        h.intent = intent;
                        changed = true;
                    }
                }
            }
            if (changed) {
                o.compact();
            }
        } finally {
            o.endWrite();
            endCall();
        }
    }

    /** Releases everything the owner holds (commit, rollback). Drops a pending cancel. */
    public final void releaseAll(Owner o) {
        checkOwner(o);
        o.cancelRequested = false;
        if (o.size == 0) {
            return;
        }
        beginCall();
        o.beginWrite();
        try {
            Hold[] d = o.dense;
            int n = o.size;
            for (int i = 0; i < n; i++) {
                Hold h = d[i];
                if (!h.isTable() && h.mode != NONE) {
                    unlockAttr(o, (AttributeLock) h.name, h.mode, NONE);
                }
            }
            for (int i = 0; i < n; i++) {
                Hold h = d[i];
                if (h.isTable() && (h.mode != NONE || h.intent)) {
                    unlockTable(o, (TableLock) h.name, h.mode, h.intent, NONE, false);
                }
            }
            o.clear();
        } finally {
            o.endWrite();
            endCall();
        }
    }

    /**
     * The mode in which the owner holds {@code name}, or null. For the owner's own thread
     * (e.g. assertions in the engine); other threads should use {@link #snapshot()}.
     */
    public final LockMode held(Owner o, LockName name) {
        Hold h = o.find(name);
        if (h == null || h.mode == NONE) {
            return null;
        }
        return LockMode.of(h.mode);
    }

    // ---- observability -----------------------------------------------------------------

    /** The counters since creation or the last {@link #resetCounters()}. Cheap. */
    public final LockCounters counters() {
        long[] c = new long[LockCounters.COUNT];
        synchronized (registryLock) {
            for (int i = 0; i < c.length; i++) {
                c[i] = retired[i] - baseline[i];
            }
            for (Owner o : owners) {
                for (int i = 0; i < c.length; i++) {
                    c[i] += o.counter(i);
                }
            }
        }
        return LockCounters.of(c);
    }

    /** Starts the counters from zero. */
    public final void resetCounters() {
        synchronized (registryLock) {
            System.arraycopy(retired, 0, baseline, 0, baseline.length);
            for (Owner o : owners) {
                for (int i = 0; i < baseline.length; i++) {
                    baseline[i] += o.counter(i);
                }
            }
        }
    }

    /**
     * Every lock held or waited for, per owner. Each owner's part is read consistently
     * through its seqlock, without blocking it; owners are read one after the other, so
     * the whole is not one instant. Intention locks (an owner's internal mark on a table
     * whose attributes it locks) are not listed.
     */
    public final List<LockInfo> snapshot() {
        List<LockInfo> out = new ArrayList<>();
        for (Owner o : owners) {
            readOwner(o, out);
        }
        return out;
    }

    private static void readOwner(Owner o, List<LockInfo> out) {
        List<LockInfo> tmp = new ArrayList<>();
        for (int attempt = 0; attempt < 10_000; attempt++) {
            int v = o.readBegin();
            if (v < 0) {
                if (attempt > 100) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
                continue;
            }
            tmp.clear();
            try {
                Hold[] d = o.dense;
                int n = Math.min(o.size, d.length);
                for (int i = 0; i < n; i++) {
                    Hold h = d[i];
                    if (h == null) {
                        continue;
                    }
                    LockName name = h.name;
                    int mode = h.mode;
                    boolean txn = h.txn;
                    if (name != null && (mode == S || mode == U || mode == X)) {
                        tmp.add(new LockInfo(o.id, o.label, name, LockMode.of(mode),
                                LockInfo.State.HELD,
                                txn ? LockDuration.TRANSACTION : LockDuration.STATEMENT));
                    }
                }
                Waiter w = o.waitingOn;
                if (w != null) {
                    LockRequest r = w.request;
                    boolean txn = w.txn;
                    if (r != null) {
                        tmp.add(new LockInfo(o.id, o.label, r.name(), r.mode(), LockInfo.State.WAITING,
                                txn || r.mode() != LockMode.S ? LockDuration.TRANSACTION
                                        : LockDuration.STATEMENT));
                    }
                }
            } catch (RuntimeException racy) {
                continue; // a torn read; validation would fail anyway
            }
            if (o.readValidate(v)) {
                out.addAll(tmp);
                return;
            }
        }
    }

    // ---- deadlock detection (shared by both implementations) ---------------------------

    /** A waiting owner as seen by the detector. */
    private static final class View {
        final Owner owner;
        final int version;
        final Waiter w;
        final LockName name;
        final int kind;
        final boolean converter;
        final LockRequest request;
        final long txnStartNanos;
        List<Object[]> succ; // {View, WaitEdge}
        int state;
        boolean invalid;

        View(Owner owner, int version, Waiter w) {
            this.owner = owner;
            this.version = version;
            this.w = w;
            this.name = w.name;
            this.kind = w.kind;
            this.converter = w.converter;
            this.request = w.request;
            this.txnStartNanos = owner.txnStartNanos;
        }

        /** Younger: its transaction took its first lock later (ties: registered later). */
        boolean isYoungerThan(View o) {
            long d = txnStartNanos - o.txnStartNanos;
            return d != 0 ? d > 0 : owner.seq > o.owner.seq;
        }
    }

    /**
     * The victim rule: of the owners of a cycle, the youngest transaction is refused, so
     * that the least work is lost; the rule does not depend on which member's search found
     * the cycle. {@code self} is the searching waiter.
     *
     * @return the cycle starting with self's edge if self is the victim; null if another
     *         member is, which has then been marked (its wait ends with DEADLOCK) and woken
     */
    private List<WaitEdge> chooseVictim(Owner self, List<WaitEdge> cycle, Map<Owner, View> views) {
        View victim = null;
        int at = 0;
        for (int i = 0; i < cycle.size(); i++) {
            View v = views.get(cycle.get(i).waiter());
            if (victim == null || v.isYoungerThan(victim)) {
                victim = v;
                at = i;
            }
        }
        List<WaitEdge> fromVictim = new ArrayList<>(cycle.size());
        for (int i = 0; i < cycle.size(); i++) {
            fromVictim.add(cycle.get((at + i) % cycle.size()));
        }
        if (victim.owner == self) {
            return List.copyOf(fromVictim);
        }
        victim.owner.victimCycle = List.copyOf(fromVictim);
        victim.owner.victimVersion = victim.version;
        wake(victim.owner);
        return null;
    }

    /** Whether another member's search chose the owner's current wait as a deadlock victim. */
    static boolean isChosenVictim(Owner o, Waiter w) {
        return o.victimVersion == w.version;
    }

    /**
     * Looks for a cycle of the wait-for graph through {@code self}, which must be waiting
     * (published). Nodes are the owners that are waiting, read through their seqlocks
     * (a waiting owner cannot change what it holds, so its state is stable); an edge
     * A -> B means B holds a lock that conflicts with A's request, or (for an A that holds
     * nothing on the name) B is queued ahead of A on the same name with a conflicting
     * request. Owners that are running are not nodes: they cannot be part of a cycle now,
     * and when they start waiting they run this search themselves. The caller holds the
     * implementation's detection exclusion, so searches are serialized: of the owners of
     * any cycle, the one that started waiting last searches after all the others were
     * published, and finds it. Owners already chosen as victims are about to leave their
     * queues and are not nodes.
     *
     * <p>A cycle found is resolved by the victim rule ({@link #chooseVictim}): if the
     * youngest member is another owner, that owner's wait is ended with DEADLOCK and the
     * search goes on, since self may be on other cycles that do not pass through it; it
     * returns null, and self waits on, once no cycle through self is left.
     *
     * @return the cycle starting with self's edge when self is the victim, or null
     */
    final List<WaitEdge> findCycle(Owner self) {
        for (int round = 0; round < 100; round++) {
            Map<Owner, View> views = new IdentityHashMap<>();
            for (Owner o : owners) {
                int v = o.readBegin();
                if (v < 0) {
                    continue;
                }
                Waiter w = o.waitingOn;
                if (w == null || w.name == null || w.request == null
                        || o.victimVersion == v) {
                    continue;
                }
                View view = new View(o, v, w);
                if (o.readValidate(v)) {
                    views.put(o, view);
                }
            }
            View start = views.get(self);
            if (start == null) {
                return null;
            }
            List<WaitEdge> path = new ArrayList<>();
            if (!dfs(start, start, views, path)) {
                return null;
            }
            boolean valid = true;
            for (WaitEdge e : path) {
                View b = views.get(e.blocker());
                if (!b.owner.readValidate(b.version)) {
                    valid = false;
                }
            }
            if (valid) {
                List<WaitEdge> mine = chooseVictim(self, path, views);
                if (mine != null) {
                    return mine;
                }
                // another member was chosen; self may be on other cycles: look again
                continue;
            }
            // a member stopped waiting while we looked: look again
        }
        return null;
    }

    private boolean dfs(View a, View target, Map<Owner, View> views, List<WaitEdge> path) {
        a.state = 1;
        for (Object[] e : successors(a, views)) {
            View b = (View) e[0];
            if (b.invalid) {
                continue;
            }
            if (b == target) {
                path.add((WaitEdge) e[1]);
                return true;
            }
            if (b.state == 0) {
                path.add((WaitEdge) e[1]);
                if (dfs(b, target, views, path)) {
                    return true;
                }
                path.remove(path.size() - 1);
            }
        }
        a.state = 2;
        return false;
    }

    private List<Object[]> successors(View a, Map<Owner, View> views) {
        if (a.succ != null) {
            return a.succ;
        }
        List<Object[]> succ = new ArrayList<>();
        boolean table = a.name instanceof TableLock;
        for (View b : views.values()) {
            if (b == a || b.invalid) {
                continue;
            }
            LockRequest blockerLock = null;
            try {
                Hold hb = b.owner.findRacy(a.name);
                int mode = NONE;
                boolean intent = false;
                if (hb != null) {
                    mode = hb.mode;
                    intent = hb.intent;
                }
                if (conflicts(a.kind, mode, table && intent)) {
                    blockerLock = mode != NONE
                            ? new LockRequest(a.name, LockMode.of(mode))
                            : attributeHeldUnder(b.owner, (TableLock) a.name);
                }
            } catch (RuntimeException racy) {
                blockerLock = null;
            }
            if (!b.owner.readValidate(b.version)) {
                b.invalid = true;
                continue;
            }
            if (blockerLock != null) {
                succ.add(new Object[] {b, new WaitEdge(a.owner, a.request, b.owner, blockerLock, false)});
            }
        }
        if (!a.converter) {
            WaitQueue q = a.name.queue;
            synchronized (q) {
                for (Waiter e = q.head; e != null && e != a.w; e = e.next) {
                    if (kindsConflict(e.kind, a.kind)) {
                        View b = views.get(e.owner);
                        if (b != null && b.w == e && !b.invalid) {
                            succ.add(new Object[] {b,
                                new WaitEdge(a.owner, a.request, b.owner, b.request, true)});
                        }
                    }
                }
            }
        }
        a.succ = succ;
        return succ;
    }

    private static LockRequest attributeHeldUnder(Owner b, TableLock t) {
        Hold[] d = b.dense;
        int n = Math.min(b.size, d.length);
        for (int i = 0; i < n; i++) {
            Hold h = d[i];
            if (h != null) {
                LockName name = h.name;
                int mode = h.mode;
                if (name instanceof AttributeLock && name.table() == t && mode != NONE) {
                    return new LockRequest(name, LockMode.of(mode));
                }
            }
        }
        return new LockRequest(t, LockMode.S); // intention taken, attribute still awaited
    }

    /**
     * Whether a request of {@code kind} conflicts with another owner's hold of {@code held}
     * on the same name ({@code intent}: that owner holds the table's intention): X conflicts
     * with any hold and with an intention; U with U and X; S and I with X only.
     */
    static boolean conflicts(int kind, int held, boolean intent) {
        switch (kind) {
            case X:
                return held != NONE || intent;
            case U:
                return held == U || held == X;
            default:
                return held == X;
        }
    }

    /** Whether two requests of these kinds, on the same name, conflict (queue order). */
    static boolean kindsConflict(int a, int b) {
        return a == X || b == X || (a == U && b == U);
    }

    // ---- implementation primitives ---------------------------------------------------------

    /** Called at the start and end of every acquire/release call. */
    void beginCall() {
    }

    void endCall() {
    }

    /**
     * Takes kind S, U, X or I on table {@code t} for {@code o}, whose hold {@code h} on t
     * is in its state before the request. Waits if needed.
     */
    abstract int lockTable(Owner o, Hold h, TableLock t, int kind, LockRequest r, boolean txn,
            long timeoutNanos);

    /** Takes S, U or X on attribute {@code a}; the owner already holds a's table intention. */
    abstract int lockAttr(Owner o, Hold h, AttributeLock a, int kind, LockRequest r, boolean txn,
            long timeoutNanos);

    /** Weakens the owner's hold on {@code t} (mode and intention) and wakes waiters. */
    abstract void unlockTable(Owner o, TableLock t, int fromMode, boolean fromIntent, int toMode,
            boolean toIntent);

    abstract void unlockAttr(Owner o, AttributeLock a, int fromMode, int toMode);

    /** Wakes the owner if it waits (after a cancel, or when it was chosen as a deadlock victim). */
    abstract void wake(Owner o);
}
