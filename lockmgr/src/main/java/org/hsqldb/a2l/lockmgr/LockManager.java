package org.hsqldb.a2l.lockmgr;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The A2L lock manager: locks on tables {@code T}, attributes {@code T.c}, row keys
 * {@code T[k]} and cells {@code T.c[k]} in modes S, U and X (and IX on a table or on a row
 * key or cell that names a key range), held by {@link Owner}s (engine sessions) until the end of the
 * statement or of the transaction.
 *
 * <h2>Compatibility</h2>
 * Locks of the same owner never conflict with each other. A lock implies intentions on
 * the names above it (IS above S, IX above a U or X row key or cell, IS on the table above
 * an attribute), and between two owners on one name IS conflicts only with X; IX with S,
 * U and X; S with IX and X; U with U, IX and X; X with everything. Hence:
 * <ul>
 * <li>two locks on the same name conflict when one of them is X, or both are U (U, the
 * update mode, is compatible with S);</li>
 * <li>X(T) conflicts with every lock on T and on anything under T;</li>
 * <li>S(T) is compatible with S(T.c) and X(T.c); S(T.c) conflicts only with X(T.c) and X(T);</li>
 * <li>a cell conflicts with the same cell, and with S, U or X on its whole column as the
 * modes say; an insert or delete (X(T[k]), with IX(T)) conflicts with S, U and X on T and
 * with the same key, not with other inserters;</li>
 * <li>a key range (a row key the engine makes of a primary key's first columns) is read in S
 * and inserted or deleted in, beside the row's own X, in IX: readers of the range exclude its
 * inserters, inserters do not exclude each other; a cell's key range likewise, read in S or U
 * and written in, beside the cell's own U or X, in IX.</li>
 * </ul>
 * The lockmgr README gives the tables and the reasons.
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
 * upgrades or duration changes made by it are undone). Each name has a queue of
 * waiters in arrival order, granted among themselves in that order. A request from an
 * owner that holds nothing on the name (an arrival) waits behind any queued request it
 * conflicts with that has been passed the barge limit of times ({@link #setBargeLimit};
 * 0, the default, makes every queue FIFO); waiters passed fewer times it may pass when the
 * holders allow it, so a waiting X is passed by at most that many new S requests. A
 * request from an owner that
 * already holds something on the name (an upgrade, or S(T) while holding T's
 * attributes) only waits for conflicting holders.
 * When a wait closes a cycle in the wait-for graph (held-lock and queue-order edges),
 * the youngest transaction of the cycle (the owner whose first lock since it last held
 * nothing is the most recent, counted in transaction starts; a transaction retried after
 * {@link #keepAge} keeps its age) is refused with {@link LockResult.Status#DEADLOCK}, whoever
 * closed the cycle and whoever found it; its own waiting {@code acquire} returns that. See
 * the implementations for how detection cannot miss a cycle.
 *
 * <p>Implementations: {@link FastLockManager} (the default, no global lock on the fast
 * path) and {@link MutexLockManager} (one global mutex; a baseline and a test oracle).
 */
public abstract class LockManager {

    // modes of a hold (NONE, S, U, X, weakest first) and kinds of a request (those and the
    // intentions: IS, taken above any lock, conflicts only with X; IX, taken above a U or X
    // cell or row key and asked for as a table's structural mode, conflicts with S, U, X)
    static final int NONE = 0, S = 1, U = 2, X = 3, IS = 4, IX = 5;
    // outcomes of the primitives (R_RETRY: the keyed name was killed; look it up again)
    static final int GRANTED_NOW = 0, GRANTED_WAITED = 1, R_DEADLOCK = 2, R_TIMEOUT = 3,
            R_CANCELLED = 4, R_INTERRUPTED = 5, R_RETRY = 6;
    static final int DEFAULT_KEY_SWEEP_SIZE = 4096, DEFAULT_ESCALATION_THRESHOLD = 1024;
    /** Strictly FIFO unless the embedder lets arrivals pass waiters (setBargeLimit). */
    static final int DEFAULT_BARGE_LIMIT = 0;
    /** A lockNode timeout: grant now or fail with R_TIMEOUT, never queue (escalation attempts). */
    static final long NO_WAIT = Long.MIN_VALUE;

    private final ConcurrentHashMap<Object, TableLock> tables = new ConcurrentHashMap<>();
    private final AtomicInteger nameIds = new AtomicInteger();
    private final AtomicInteger ownerSeq = new AtomicInteger();
    /** Transactions started (an owner's first lock since it held nothing): their ages. */
    private final AtomicLong txnStarts = new AtomicLong();
    /** Registered owners. */
    final Set<Owner> owners = ConcurrentHashMap.newKeySet();
    private final Object registryLock = new Object();
    private final long[] retired = new long[LockCounters.COUNT];
    private final long[] baseline = new long[LockCounters.COUNT];
    private volatile long defaultTimeoutNanos;
    private volatile int escalationThreshold = DEFAULT_ESCALATION_THRESHOLD;
    private volatile int keySweepSize = DEFAULT_KEY_SWEEP_SIZE;
    /** What a partition of a key table may hold before a sweep: keySweepSize / 16, at least 1. */
    private volatile int keyPartSweepSize =
            Math.max(1, DEFAULT_KEY_SWEEP_SIZE / LockName.Keys.PARTS);
    private volatile boolean forgetting = true;
    /** Read by the managers' arrival checks (WaitQueue.conflictAheadOfArrival). */
    volatile int bargeLimit = DEFAULT_BARGE_LIMIT;
    /** Test hook: run by each waiter once its wait is published (see waitPublished). */
    private volatile Runnable waitPublished;

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
    long[] newStripes(boolean keyed) {
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
     * Lets the owner's next transaction keep the age of its current one in the deadlock
     * victim rule (the youngest transaction of a cycle is refused): for a transaction that
     * was refused as a victim and is about to be retried, which would otherwise be the
     * youngest again each time it meets the same older transactions. Call it before the
     * transaction's {@link #releaseAll}; the next acquire that finds the owner holding
     * nothing takes the kept age instead of a new one, once. For the owner's own thread.
     */
    public final void keepAge(Owner o) {
        checkOwner(o);
        o.keepAge = true;
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
        return acquireSet(o, set, duration, timeoutNanos > 0 ? timeoutNanos : defaultTimeoutNanos);
    }

    /**
     * Acquires every lock of {@code set} for {@code o}, as {@link #acquire} does, if each is
     * granted without waiting: a lock that others' holds keep out, or that would have to
     * queue behind a waiter (the fairness rule, as for any new arrival), refuses the whole
     * call. For a lock that is worth taking only if it is free now, where a finer one would
     * do otherwise (the engine's join that reaches rows by key tries S on the values of their
     * whole key range, and locks each row's cells if refused). Never waits, so never
     * deadlocks; a refusal leaves no queue entry and no WAITER bit set, and is counted as an
     * immediate answer, not as a wait or a timeout.
     *
     * @return true if every lock is held; false if one was refused, and the owner then holds
     *         exactly what it held before the call
     */
    public final boolean tryAcquire(Owner o, LockRequest[] set, LockDuration duration) {
        return acquireSet(o, set, duration, NO_WAIT) == LockResult.GRANTED;
    }

    private LockResult acquireSet(Owner o, LockRequest[] set, LockDuration duration,
            final long timeout) {
        checkOwner(o);
        final boolean txn = duration == LockDuration.TRANSACTION;
        if (!txn && duration != LockDuration.STATEMENT) {
            throw new NullPointerException("duration");
        }
        int processed = 0, immediate = 0, waited = 0, upgrades = 0, upgradeWaits = 0,
                escalations = 0;
        int status = GRANTED_NOW;
        LockRequest failed = null;
        boolean failedUpgrade = false;
        boolean writing = false;
        beginCall();
        try {
            requests:
            for (LockRequest r : set) {
                LockName name = r.name();
                if (name.manager != this) {
                    throw new IllegalArgumentException(name + " belongs to another lock manager");
                }
                processed++;
                int mode = r.mode().code();
                Object key = r.key();
                // a keyed name the owner holds well enough already is found in the owner's
                // own table: no partition, key table or parent's hold to visit (a statement
                // often asks again for the cells an earlier one took, as an UPDATE does after
                // its SELECT ... FOR UPDATE). Nothing else is done for it: no escalation is
                // tried (a held name adds no lock memory).
                Hold kh = null;
                if (key != null) {
                    kh = o.findKeyed(name, key);
                    if (kh != null && covers(kh, mode) && (kh.txn || !txn || mode == IX)) {
                        immediate++;
                        continue;
                    }
                }
                // the key's partition of the parent's key table, found once per request (by
                // the first lookup of the keyed name below; a refused escalation reuses it)
                LockName.KeyPart part = null;
                boolean escalated = false;
                if (key != null) {
                    Hold ph = o.find(name);
                    if (coveredAbove(o, ph, name, mode, txn)) {
                        immediate++;
                        continue;
                    }
                    if (ph != null && ph.keyHolds >= escalationThreshold
                            && ph.keyHolds >= ph.escalateAt) {
                        key = null; // enough keys under the parent: lock the parent itself
                        escalated = true;
                        // (IX on a key range or a cell becomes X on the parent: IX there
                        // would not stand for it towards the range's or the cell's readers)
                        if (mode == IX) {
                            mode = X;
                        }
                    }
                }
                for (;;) {
                    if (key != null && part == null) {
                        part = name.keys().part(key);
                    }
                    LockName target = key == null ? name : child(part, name, key);
                    // the keyed name's hold was looked up above: none, or one on this very
                    // name (a held name stays in its key table), unless it was an empty hold
                    // on a name since forgotten
                    Hold h = key == null || kh != null && kh.name != target ? o.find(target) : kh;
                    if (h != null && covers(h, mode) && (h.txn || !txn || mode == IX)) {
                        immediate++; // (IX is held for the transaction; txn is the mode's duration)
                        continue requests;
                    }
                    if (!writing) {
                        writing = true;
                        o.beginWrite();
                        if (++o.callStamp == 0) {
                            o.callStamp = 1;
                        }
                        o.journalSize = 0;
                        if (o.size == 0) { // a transaction's first lock
                            if (o.keepAge) {
                                o.keepAge = false;
                            } else {
                                o.txnStart = txnStarts.incrementAndGet();
                            }
                        }
                    }
                    if (h != null && covers(h, mode)) {
                        journalWithAncestors(o, h);
                        h.txn = true; // a STATEMENT lock asked for the TRANSACTION
                        immediate++;
                        continue requests;
                    }
                    if (h == null) {
                        h = addHold(o, target);
                    } else {
                        journalWithAncestors(o, h);
                    }
                    boolean upgrade = mode != IX && h.mode != NONE; // held weaker: a conversion
                    int st = intend(o, h.parent, target instanceof KeyLock && mode != S ? IX : IS,
                            r, txn, timeout);
                    if (st <= GRANTED_WAITED) {
                        // an escalation is only tried: if the parent is not free now, the
                        // owner goes on with keyed locks (two owners escalating under the
                        // same parent would otherwise deadlock, each holding its intention)
                        int own = lockNode(o, h, mode, r, txn, escalated ? NO_WAIT : timeout);
                        if (escalated && own == R_TIMEOUT) {
                            // tried again once the owner's keys under the parent have
                            // doubled: a parent that others keep busy costs a try per
                            // doubling, not one per key
                            h.escalateAt = 2 * h.keyHolds;
                            escalated = false;
                            key = r.key();
                            mode = r.mode().code();
                            continue;
                        }
                        st = own > GRANTED_WAITED ? own : Math.max(st, own);
                    }
                    if (st == R_RETRY) {
                        // the keyed name was killed before it was locked (it was new to this
                        // owner, as a held name is never killed): drop the hold, look it up again
                        h.parent.childHolds--;
                        h.parent.keyHolds--;
                        o.dropNewest(h);
                        continue;
                    }
                    // (a try's refusal was answered at once: not a wait)
                    if (st == GRANTED_WAITED
                            || st > GRANTED_WAITED && !(st == R_TIMEOUT && timeout == NO_WAIT)) {
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
                        break requests;
                    }
                    if (upgrade) {
                        upgrades++;
                    }
                    if (escalated) {
                        escalations++;
                    }
                    if (mode == IX) {
                        h.ix = true;
                    } else {
                        boolean wasTxn = h.mode != NONE && h.txn;
                        h.mode = mode;
                        h.txn = mode >= U || txn || wasTxn;
                        if (!h.txn) {
                            o.noteStatementHold(h);
                        }
                    }
                    continue requests;
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
        if (escalations != 0) {
            o.count(LockCounters.ESCALATIONS, escalations);
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
                if (timeout != NO_WAIT) {
                    o.count(LockCounters.TIMEOUTS, 1); // (not a try's refusal)
                }
                return new LockResult(LockResult.Status.TIMEOUT, failed, List.of());
            case R_CANCELLED:
                o.count(LockCounters.CANCELS, 1);
                return new LockResult(LockResult.Status.CANCELLED, failed, List.of());
            default:
                o.count(LockCounters.INTERRUPTS, 1);
                return new LockResult(LockResult.Status.INTERRUPTED, failed, List.of());
        }
    }

    /** Whether a hold covers a request of {@code mode} on its name: S < U < X; IX only by IX or X. */
    private static boolean covers(Hold h, int mode) {
        return mode == IX ? h.ix || h.mode == X : h.mode >= mode;
    }

    /**
     * Whether a keyed request (a row key or a cell of {@code parent}) is covered by what the
     * owner holds above it: the parent in the same or a stronger mode, for long enough, or X
     * on the table. IX on a key range is covered by X on its parent or on the table only.
     */
    private static boolean coveredAbove(Owner o, Hold ph, LockName parent, int mode, boolean txn) {
        if (ph != null && (mode == IX ? ph.mode == X : ph.mode >= mode && (ph.txn || !txn))) {
            return true;
        }
        if (parent instanceof TableLock) {
            return false;
        }
        Hold th = ph != null ? ph.parent : o.find(parent.table());
        return th != null && th.mode == X;
    }

    /** A new, empty hold on {@code n}, with holds on its ancestors (counted as their children); all journaled. */
    private static Hold addHold(Owner o, LockName n) {
        LockName pn = n.parent();
        Hold p = null;
        if (pn != null) {
            p = o.find(pn);
            if (p == null) {
                p = addHold(o, pn);
            } else {
                journalWithAncestors(o, p);
            }
            p.childHolds++;
            if (n instanceof KeyLock) {
                p.keyHolds++;
            }
        }
        Hold h = o.add(n, p);
        o.journal(h, true);
        return h;
    }

    /** Journals a hold after its ancestors, so that undo (in reverse) restores children first. */
    private static void journalWithAncestors(Owner o, Hold h) {
        if (h.parent != null) {
            journalWithAncestors(o, h.parent);
        }
        o.journal(h, false);
    }

    /**
     * Takes intention {@code kind} (IS or IX) on the name of hold {@code p} and, above it,
     * IS on its ancestors: what a lock on a name under {@code p} needs. Nothing to do for a
     * table's own locks ({@code p} null) or an intention already held (IX covers IS).
     */
    private int intend(Owner o, Hold p, int kind, LockRequest r, boolean txn, long timeout) {
        if (p == null || p.ix || (kind == IS && p.intent)) {
            return GRANTED_NOW;
        }
        int st = intend(o, p.parent, IS, r, txn, timeout);
        if (st > GRANTED_WAITED) {
            return st;
        }
        int own = lockNode(o, p, kind, r, txn, timeout);
        if (own > GRANTED_WAITED) {
            return own;
        }
        if (kind == IS) {
            p.intent = true;
        } else {
            p.ix = true;
        }
        return Math.max(st, own);
    }

    /** Puts back every hold the failed call changed (children before their parents). */
    private void undo(Owner o) {
        Hold[] j = o.journal;
        for (int i = o.journalSize - 1; i >= 0; i--) {
            Hold h = j[i];
            if (h.mode != h.pMode || h.intent != h.pIntent || h.ix != h.pIx) {
                unlockNode(o, h.name, h.mode, h.intent, h.ix, h.pMode, h.pIntent, h.pIx);
            }
            h.mode = h.pMode;
            h.txn = h.pTxn;
            h.intent = h.pIntent;
            h.ix = h.pIx;
            h.childHolds = h.pChildHolds;
            h.keyHolds = h.pKeyHolds;
        }
        for (int i = o.journalSize - 1; i >= 0; i--) {
            if (j[i].pNew) {
                LockName n = j[i].name; // (remove recycles the hold)
                o.remove(j[i]);
                if (n instanceof KeyLock) {
                    forget((KeyLock) n); // made for the failed call, unless others hold it
                }
            }
            j[i] = null;
        }
        o.journalSize = 0;
    }

    // ---- keyed names -------------------------------------------------------------------

    /**
     * The live keyed name {@code key} under {@code parent}, made if needed. A name found
     * killed is taken out of the table and looked up again. A partition of the table that
     * grows past its share of the sweep size is swept first: every keyed name in it that nobody
     * holds or awaits is forgotten.
     */
    final KeyLock child(LockName parent, Object key) {
        return child(parent.keys().part(key), parent, key);
    }

    /** {@link #child(LockName, Object)} with the key's partition of the parent's table found. */
    private KeyLock child(LockName.KeyPart keys, LockName parent, Object key) {
        for (int spins = 0;; ) {
            KeyLock k = keys.map.get(key);
            if (k == null) {
                KeyLock made = new KeyLock(parent, key);
                k = keys.map.putIfAbsent(key, made);
                if (k == null) {
                    if (keys.map.size() > Math.max(keyPartSweepSize, 2 * keys.leftBySweep)) {
                        sweep(keys);
                    }
                    return made; // a kill may have taken it already: lockNode says RETRY then
                }
            }
            if ((k.word() & LockWord.DEAD) == 0) {
                return k;
            }
            if (k.killed) {
                keys.map.remove(key, k);
            } else if (++spins < 64) {
                Thread.onSpinWait(); // a killer is deciding: it takes DEAD back, or it removes the name
            } else {
                Thread.yield(); // the killer may have been preempted between its two steps
            }
        }
    }

    /**
     * Takes a keyed name out of its parent's table once the owner, having let it go (release,
     * commit or rollback, the undo of a failed call), finds nobody else holding, awaiting or
     * taking it, as PostgreSQL frees a lock object when nobody holds or awaits it: the tables
     * then hold the names in use, small enough to stay in cache, and the sweep (a backstop)
     * does not run. A name the kill is refused for is forgotten by whoever leaves it last.
     */
    private void forget(KeyLock k) {
        if (!forgetting) {
            return;
        }
        kill(k);
    }

    /*
     * (A name already killed may be killed again by MutexLockManager, whose tryKill does not
     * look at DEAD; removing it by key and object leaves a newer name for its key alone.)
     */
    private void kill(KeyLock k) {
        if (tryKill(k)) {
            k.killed = true;
            k.parent().keys().part(k.key()).map.remove(k.key(), k);
        }
    }

    /** Test hook: false keeps keyed names until a sweep, so that tests can make sweeps run. */
    void setForgetting(boolean on) {
        forgetting = on;
    }

    private void sweep(LockName.KeyPart keys) {
        if (!keys.sweeping.compareAndSet(false, true)) {
            return; // another owner sweeps this partition
        }
        try {
            for (KeyLock k : keys.map.values()) {
                kill(k);
            }
            keys.leftBySweep = keys.map.size();
        } finally {
            keys.sweeping.set(false);
        }
    }

    /**
     * The number of keyed names under one parent (the cells of an attribute, the row keys of a
     * table) past which making another sweeps away those nobody holds or awaits. The table is
     * kept in 16 partitions by the keys' first values, and each is swept past a sixteenth of
     * this size (at least 1), so that a parent holds about this many names however its keys
     * spread. At least twice the number a partition's last sweep left, so that sweeping costs
     * O(1) per name made.
     */
    public final void setKeyTableSweepSize(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("sweep size " + size);
        }
        keySweepSize = size;
        keyPartSweepSize = Math.max(1, size / LockName.Keys.PARTS);
    }

    public final int keyTableSweepSize() {
        return keySweepSize;
    }

    /**
     * How many keyed names (cells of one attribute, row keys of one table) an owner takes under
     * one parent before its next request of a keyed name it does not hold already takes the
     * parent itself in its mode, X for IX (lock escalation; counted in
     * {@link LockCounters#escalations()}). Keeps an owner's lock memory bounded while escalations
     * succeed; default 1024. An escalation is only tried: when the parent cannot be granted at
     * once (another owner holds something under it that conflicts), the request takes its keyed
     * lock as usual, and the owner tries again once its keys under that parent have doubled;
     * two owners escalating under one parent would otherwise deadlock, each holding its
     * intention.
     */
    public final void setEscalationThreshold(int keys) {
        if (keys < 1) {
            throw new IllegalArgumentException("escalation threshold " + keys);
        }
        escalationThreshold = keys;
    }

    public final int escalationThreshold() {
        return escalationThreshold;
    }

    /** Test hook: {@code hook} is run by each waiter once its wait is published; null for none. */
    final void setWaitPublishedHook(Runnable hook) {
        waitPublished = hook;
    }

    /**
     * Runs the test hook, if any, where a waiter has published its wait: what it throws stands
     * for an Error thrown while waiting (the deadlock search allocates), which the
     * implementations must not let leave the waiter queued.
     */
    final void waitPublished() {
        Runnable hook = waitPublished;
        if (hook != null) {
            hook.run();
        }
    }

    /**
     * How many times a queued waiter may be passed by conflicting requests that arrive after
     * it (from owners that hold nothing on the name), when the holders allow them; default 0
     * (strictly FIFO). Once a waiter has been passed that many times, arrivals that conflict
     * with it queue behind it, and it waits for the holders it finds then (those that passed
     * it included, to the end of their transactions). Keeps a busy lock with threads that run
     * rather than handing it to one that must first be woken (README, "Fairness"). A count,
     * not a time, so the same sequence of requests is granted in the same order.
     */
    public final void setBargeLimit(int passes) {
        if (passes < 0) {
            throw new IllegalArgumentException("barge limit " + passes);
        }
        bargeLimit = passes;
    }

    public final int bargeLimit() {
        return bargeLimit;
    }

    /** How many keyed names under {@code parent} the manager keeps now (held, awaited, or not yet forgotten). */
    public final int keyCount(LockName parent) {
        return parent.keyCount();
    }

    // ---- release ---------------------------------------------------------------------

    /**
     * Releases the owner's STATEMENT-duration locks (those it does not also hold for the
     * transaction). Call at the end of every statement; cheap when there are none.
     *
     * <p>It visits only the holds the statement's calls made S for the statement, and the
     * holds above them (whose intentions may go with them), not every hold the owner has:
     * a transaction that inserts one row per statement under keyed locks holds a name per
     * row and takes S for the statement on each row's parent key (the foreign key check),
     * and a walk over all its holds at every statement's end made such a transaction cost
     * the square of its rows.
     */
    public final void releaseStatementLocks(Owner o) {
        checkOwner(o);
        if (o.statementHoldCount == 0) {
            return;
        }
        beginCall();
        o.beginWrite();
        try {
            int n = o.takeStatementHolds();
            Hold[] w = o.work;
            for (int level = 2; level >= 0; level--) {
                for (int i = 0; i < n; i++) {
                    Hold h = w[i];
                    if (h.level() == level && !h.isEmpty()) {
                        releaseHold(o, h, true, null);
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                if (w[i].isEmpty()) {
                    o.remove(w[i]);
                }
                w[i] = null;
            }
        } finally {
            o.endWrite();
            endCall();
        }
    }

    /**
     * Releases every S lock the owner holds and did not upgrade to U or X, whatever its
     * duration (RbW-RL's early release of read locks); U, X and IX locks stay. An owner
     * holding U(T.c) or X(T.c), or a U or X cell, keeps the intentions above it, so X(T) and
     * S(T.c) stay excluded for others.
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
        // (the statement's list stays: a statement read that keep kept still goes at the
        // statement's end, and entries for holds released here are skipped there)
        releaseSharedHolds(o, keep);
    }

    /*
     * Releases S holds, deepest level first (cells, then attributes and row keys, then
     * tables), so that a name's IS intention goes when the last hold under it has gone. IX
     * stays: it is under U or X holds, or asked for the transaction.
     */
    private void releaseSharedHolds(Owner o, Predicate<LockName> keep) {
        if (o.size == 0) {
            return;
        }
        beginCall();
        o.beginWrite();
        try {
            Hold[] d = o.dense;
            int n = o.size;
            boolean changed = false;
            for (int level = 2; level >= 0; level--) {
                for (int i = 0; i < n; i++) {
                    Hold h = d[i];
                    if (h.level() == level && !h.isEmpty()) {
                        changed |= releaseHold(o, h, false, keep);
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

    /**
     * Lets one hold's S go (unless it is for the transaction and {@code statementOnly}, or
     * {@code keep} accepts its name) and its intention if nothing is held under it any more;
     * a hold left empty is taken off its parent's counts (the caller removes it). Whether it
     * changed anything.
     */
    private boolean releaseHold(Owner o, Hold h, boolean statementOnly, Predicate<LockName> keep) {
        int mode = h.mode == S && !(statementOnly && h.txn)
                && (keep == null || !keep.test(h.name)) ? NONE : h.mode;
        boolean intent = h.intent && h.childHolds > 0;
        if (mode == h.mode && intent == h.intent) {
            return false;
        }
        unlockNode(o, h.name, h.mode, h.intent, h.ix, mode, intent, h.ix);
        if (mode == NONE) {
            h.txn = false;
        }
        h.mode = mode;
        h.intent = intent;
        if (h.isEmpty() && h.parent != null) {
            h.parent.childHolds--;
            if (h.name instanceof KeyLock) {
                h.parent.keyHolds--;
                if (h.parent.escalateAt != 0
                        && h.parent.keyHolds < escalationThreshold) {
                    h.parent.escalateAt = 0; // the next statement starts over
                }
                forget((KeyLock) h.name);
            }
        }
        return true;
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
        int wakes = 0;
        try {
            Hold[] d = o.dense;
            int n = o.size;
            for (int level = 2; level >= 0; level--) {
                for (int i = 0; i < n; i++) {
                    Hold h = d[i];
                    if (h.level() == level && (h.mode != NONE || h.intent || h.ix)) {
                        if (releaseNode(o, h.name, h.mode, h.intent, h.ix)) {
                            wakes = o.addWake(wakes, h.name);
                        }
                        if (h.name instanceof KeyLock) {
                            forget((KeyLock) h.name);
                        }
                    }
                }
            }
            o.clear();
        } finally {
            o.endWrite();
            // the owner has let every name go before the first waiter is woken (unless the
            // loop above failed: then those it reached): a wake-up enters the name's queue
            // monitor, where the waiters contend, and what was still to be released would
            // stay held behind it, keeping out whoever needs it next
            for (int i = 0; i < wakes; i++) {
                wakeWaiters(o.wakes[i]);
                o.wakes[i] = null;
            }
            endCall();
        }
    }

    /**
     * The mode in which the owner holds {@code name}, or null: S, U or X, or IX for a table
     * or a keyed name the owner holds in IX only. For the owner's own thread (e.g. assertions
     * in the engine); other threads should use {@link #snapshot()}. A keyed name stands for its parent and key.
     */
    public final LockMode held(Owner o, LockName name) {
        if (name instanceof KeyLock) {
            KeyLock k = (KeyLock) name;
            name = k.parent().keyed(k.key()); // the live name, if any; makes nothing
            if (name == null) {
                return null;
            }
        }
        Hold h = o.find(name);
        if (h == null) {
            return null;
        }
        if (h.mode == NONE) {
            return h.ix && !(name instanceof AttributeLock) ? LockMode.IX : null;
        }
        return LockMode.of(h.mode);
    }

    /**
     * Whether the owner holds IX on the table, asked for or under a U or X row key, or X,
     * which covers it. For the owner's own thread, like {@link #held}.
     */
    public final boolean holdsIx(Owner o, TableLock table) {
        Hold h = o.find(table);
        return h != null && (h.ix || h.mode == X);
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
     * the whole is not one instant. Intention locks (an owner's internal marks above the
     * names it locks) are not listed, except IX on a table or a row key (an owner that
     * inserts or deletes rows of the table, or of the key range). A request waits under its
     * own name, whichever name above it it waits for; a cell or row key shows as its keyed
     * name.
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
                    if (!(name instanceof AttributeLock) && h.ix && mode != X) {
                        tmp.add(new LockInfo(o.id, o.label, name, LockMode.IX, LockInfo.State.HELD,
                                LockDuration.TRANSACTION));
                    }
                }
                Waiter w = o.waitingOn;
                if (w != null) {
                    LockRequest r = w.request;
                    boolean txn = w.txn;
                    if (r != null) {
                        LockName shown = r.key() == null ? r.name() : r.name().keyed(r.key());
                        tmp.add(new LockInfo(o.id, o.label, shown != null ? shown : r.name(),
                                r.mode(), LockInfo.State.WAITING,
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
        final long txnStart;
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
            this.txnStart = owner.txnStart;
        }

        /** Younger: its transaction took its first lock later (ties: registered later). */
        boolean isYoungerThan(View o) {
            long d = txnStart - o.txnStart;
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
        for (View b : views.values()) {
            if (b == a || b.invalid) {
                continue;
            }
            LockRequest blockerLock = null;
            try {
                Hold hb = b.owner.findRacy(a.name);
                int mode = NONE;
                boolean intent = false, ix = false;
                if (hb != null) {
                    mode = hb.mode;
                    intent = hb.intent;
                    ix = hb.ix;
                }
                if (conflicts(a.kind, mode, intent, ix)) {
                    blockerLock = mode != NONE ? new LockRequest(a.name, LockMode.of(mode))
                            : ix && !(a.name instanceof AttributeLock) // a table's or a key range's
                                    ? new LockRequest(a.name, LockMode.IX)
                                    : heldUnder(b.owner, a.name);
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
            WaitQueue q = a.name.queue();
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

    /** A lock the owner holds under {@code n} (what its intention on n stands for), for display. */
    private static LockRequest heldUnder(Owner b, LockName n) {
        Hold[] d = b.dense;
        int size = Math.min(b.size, d.length);
        for (int i = 0; i < size; i++) {
            Hold h = d[i];
            if (h != null) {
                LockName name = h.name;
                int mode = h.mode;
                if (name != null && name.parent() == n && mode != NONE) {
                    return new LockRequest(name, LockMode.of(mode));
                }
            }
        }
        return new LockRequest(n, LockMode.S); // intention taken, the lock under it still awaited
    }

    /**
     * Whether a request of {@code kind} conflicts with another owner's hold on the same name:
     * its mode {@code held}, and its intentions IS ({@code intent}) and IX ({@code ix}). X
     * conflicts with anything; U with U, X and IX; S with X and IX; IS with X only; IX with
     * S, U and X.
     */
    static boolean conflicts(int kind, int held, boolean intent, boolean ix) {
        switch (kind) {
            case X:
                return held != NONE || intent || ix;
            case U:
                return held == U || held == X || ix;
            case S:
                return held == X || ix;
            case IS:
                return held == X;
            default: // IX
                return held != NONE;
        }
    }

    /**
     * Whether two requests of these kinds, on the same name, conflict (queue order): the same
     * table as {@link #conflicts}, symmetric. Compatible pairs: S-S, S-U, S-IS, U-IS, IS-IS,
     * IS-IX, IX-IX.
     */
    static boolean kindsConflict(int a, int b) {
        if (a == X || b == X) {
            return true;
        }
        if (a == IS || b == IS) {
            return false;
        }
        if (a == IX || b == IX) {
            return a != b;
        }
        return a == U && b == U;
    }

    // ---- implementation primitives ---------------------------------------------------------

    /** Called at the start and end of every acquire/release call. */
    void beginCall() {
    }

    void endCall() {
    }

    /**
     * Takes kind S, U, X, IS or IX on {@code h.name} for {@code o}, whose hold {@code h} is
     * in its state before the request (the owner already holds the intentions above it).
     * Waits if needed. R_RETRY if the name is a keyed name that was killed.
     */
    abstract int lockNode(Owner o, Hold h, int kind, LockRequest r, boolean txn, long timeoutNanos);

    /**
     * Moves the owner's hold on {@code n} from one state (mode, IS, IX) to a weaker one, and
     * wakes the waiters that may now proceed.
     */
    abstract void unlockNode(Owner o, LockName n, int fromMode, boolean fromIntent, boolean fromIx,
            int toMode, boolean toIntent, boolean toIx);

    /**
     * Takes the owner's whole hold on {@code n} away, as {@link #unlockNode} to NONE does, but
     * may leave waking its waiters to {@link #wakeWaiters}: true if it did so. The default
     * wakes them at once.
     */
    boolean releaseNode(Owner o, LockName n, int fromMode, boolean fromIntent, boolean fromIx) {
        unlockNode(o, n, fromMode, fromIntent, fromIx, NONE, false, false);
        return false;
    }

    /** Wakes the waiters of {@code n} that may proceed, for a {@link #releaseNode} that left it. */
    void wakeWaiters(LockName n) {
    }

    /**
     * Marks a keyed name nobody holds or awaits as killed (its word's DEAD bit), so that a
     * request that still finds it looks it up again; false, and no change, if somebody holds
     * or awaits it, or is about to.
     */
    abstract boolean tryKill(KeyLock k);

    /** Wakes the owner if it waits (after a cancel, or when it was chosen as a deadlock victim). */
    abstract void wake(Owner o);
}
