package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A lock owner: one per engine session ({@link LockManager#register(long, String)}).
 *
 * <p>What an owner holds, in which mode and for how long, is kept in the owner object
 * itself (an open-addressing table indexed by the names' precomputed ids), written only
 * by the thread that acts for the owner. So re-requesting a held lock, and the
 * bookkeeping of every grant and release, touch no shared structure. Other threads (the
 * deadlock detector, {@link LockManager#snapshot()}) read it through a per-owner seqlock
 * and never block the owner.
 *
 * <p>Threading contract: {@code acquire} and the {@code release*} calls for one owner
 * must not run concurrently (an engine session runs one statement at a time); they may
 * come from different threads one after the other. {@link LockManager#cancel} may be
 * called from any thread at any time.
 */
public final class Owner extends OwnerPad {

    private static final VarHandle VERSION;
    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Counters sit in the middle of a padded array, away from other owners' lines. */
    private static final int COUNT_BASE = 8;

    static {
        try {
            VERSION = MethodHandles.lookup().findVarHandle(Owner.class, "version", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long id;
    final String label;
    final LockManager manager;
    /** Registration order; picks the owner's stripe of the shared counts. */
    final int seq;
    volatile boolean unregistered;

    /** Seqlock over the holds and the waiting state: odd while the owner changes them. */
    private volatile int version;

    // holds: dense list (iteration) + open-addressing index by name hash (lookup)
    Hold[] dense = new Hold[8];
    int size;
    private Hold[] index = new Hold[16];
    private Hold free;
    /**
     * The holds acquire calls made S for the statement since the statement ended last, for
     * LockManager.releaseStatementLocks (a hold is listed only while unmarked:
     * Hold.statementListed). A listed hold may since have been asked for the transaction,
     * released early, or removed by a failed call's undo (recycle() clears the mark, and a
     * hold reused for another name may be listed again).
     */
    Hold[] statementHolds = new Hold[8];
    int statementHoldCount;
    /** Scratch for releaseStatementLocks: the statement's holds and those above them. */
    Hold[] work = new Hold[8];

    // journal of the holds changed by the current acquire call (undo on failure)
    Hold[] journal = new Hold[8];
    int journalSize;
    int callStamp;

    /** Names a release has left waiters to wake on (see LockManager.releaseAll). */
    LockName[] wakes = new LockName[4];

    // waiting
    final Waiter waiter = new Waiter(this);
    /** The owner's queued waiter while it waits; published by the seqlock. */
    Waiter waitingOn;
    volatile boolean cancelRequested;
    volatile Thread waitThread;
    java.util.List<WaitEdge> lastCycle;

    /**
     * The age that picks deadlock victims: the manager's count of transaction starts when
     * this owner's transaction took its first lock (set when an acquire finds it holding
     * nothing), or, after {@link LockManager#keepAge}, the age of the transaction before.
     */
    long txnStart;
    /** Set by {@link LockManager#keepAge}: the next transaction start keeps txnStart. */
    boolean keepAge;
    /**
     * Set by another waiter's deadlock search that chose this owner's current wait as
     * the victim: the seqlock version the wait was published with (-1: none). A wait that
     * ended meanwhile has another version, so a late mark matches nothing.
     */
    volatile int victimVersion = -1;
    /** The cycle of that choice, starting with this owner's edge; written before victimVersion. */
    java.util.List<WaitEdge> victimCycle;

    private final long[] counts = new long[COUNT_BASE + LockCounters.COUNT + 8];

    Owner(LockManager manager, long id, String label, int seq) {
        this.manager = manager;
        this.seq = seq;
        this.id = id;
        this.label = label;
    }

    /** The id given at registration (the engine's session id). */
    public long id() {
        return id;
    }

    /** The label given at registration (e.g. the user name), for display. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return "#" + id + "(" + label + ")";
    }

    // ---- seqlock -----------------------------------------------------------------

    void beginWrite() {
        VERSION.setOpaque(this, version + 1);
        VarHandle.storeStoreFence();
    }

    void endWrite() {
        VERSION.setRelease(this, version + 1);
    }

    boolean writing() {
        return (version & 1) != 0;
    }

    /** The current version, for the owner's own thread (e.g. the version a wait was published with). */
    int version() {
        return version;
    }

    /** A stable version to read under, or -1 if the owner is changing its state. */
    int readBegin() {
        int v = (int) VERSION.getAcquire(this);
        return (v & 1) != 0 ? -1 : v;
    }

    boolean readValidate(int v) {
        VarHandle.acquireFence();
        return v == (int) VERSION.getOpaque(this);
    }

    // ---- counters ------------------------------------------------------------------

    void count(int counter, long n) {
        int i = COUNT_BASE + counter;
        COUNTS.setOpaque(counts, i, counts[i] + n);
    }

    long counter(int counter) {
        return (long) COUNTS.getOpaque(counts, COUNT_BASE + counter);
    }

    // ---- hold table ----------------------------------------------------------------

    Hold find(LockName name) {
        Hold[] idx = index;
        int mask = idx.length - 1;
        for (int i = name.hash & mask;; i = (i + 1) & mask) {
            Hold h = idx[i];
            if (h == null || h.name == name) {
                return h;
            }
        }
    }

    /**
     * The hold on the keyed name {@code key} under {@code parent}, or null if the owner holds
     * none: find() without the name, which only the parent's key table could give.
     */
    Hold findKeyed(LockName parent, Object key) {
        int hash = KeyLock.hashOf(parent, key);
        Hold[] idx = index;
        int mask = idx.length - 1;
        for (int i = hash & mask;; i = (i + 1) & mask) {
            Hold h = idx[i];
            if (h == null) {
                return null;
            }
            if (h.name.hash == hash && h.name instanceof KeyLock
                    && ((KeyLock) h.name).is(parent, key)) {
                return h;
            }
        }
    }

    /** find() for other threads: bounded, tolerant of a concurrently changing table. */
    Hold findRacy(LockName name) {
        Hold[] idx = index;
        int mask = idx.length - 1;
        for (int i = name.hash & mask, n = 0; n < idx.length; i = (i + 1) & mask, n++) {
            Hold h = idx[i];
            if (h == null) {
                return null;
            }
            if (h.name == name) {
                return h;
            }
        }
        return null;
    }

    Hold add(LockName name, Hold parent) {
        Hold h = free;
        if (h != null) {
            free = h.nextFree;
            h.nextFree = null;
        } else {
            h = new Hold();
        }
        h.name = name;
        h.parent = parent;
        h.mode = LockManager.NONE;
        h.txn = false;
        h.intent = false;
        h.ix = false;
        h.childHolds = 0;
        h.keyHolds = 0;
        h.escalateAt = 0;
        if (size == dense.length) {
            dense = Arrays.copyOf(dense, size * 2);
        }
        h.denseIndex = size;
        dense[size++] = h;
        if (size * 2 > index.length) {
            rebuildIndex(index.length * 2);
        } else {
            insert(index, h);
        }
        return h;
    }

    private static void insert(Hold[] idx, Hold h) {
        int mask = idx.length - 1;
        int i = h.name.hash & mask;
        while (idx[i] != null) {
            i = (i + 1) & mask;
        }
        idx[i] = h;
    }

    private void rebuildIndex(int capacity) {
        Hold[] idx = capacity == index.length ? index : new Hold[capacity];
        if (idx == index) {
            Arrays.fill(idx, null);
        }
        for (int i = 0; i < size; i++) {
            insert(idx, dense[i]);
        }
        index = idx;
    }

    /** Removes one hold (linear probing with backward-shift deletion). */
    void remove(Hold h) {
        Hold[] idx = index;
        int mask = idx.length - 1;
        int i = h.name.hash & mask;
        while (idx[i] != h) {
            i = (i + 1) & mask;
        }
        for (int j = i;;) {
            j = (j + 1) & mask;
            Hold e = idx[j];
            if (e == null) {
                break;
            }
            int k = e.name.hash & mask;
            boolean stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (!stays) {
                idx[i] = e;
                i = j;
            }
        }
        idx[i] = null;
        int last = --size;
        Hold moved = dense[last];
        dense[h.denseIndex] = moved;
        moved.denseIndex = h.denseIndex;
        dense[last] = null;
        recycle(h);
    }

    /** Drops every empty hold and rebuilds the index. */
    void compact() {
        int n = 0;
        for (int i = 0; i < size; i++) {
            Hold h = dense[i];
            if (h.isEmpty()) {
                recycle(h);
            } else {
                h.denseIndex = n;
                dense[n++] = h;
            }
        }
        Arrays.fill(dense, n, size, null);
        size = n;
        rebuildIndex(index.length);
    }

    /** Puts {@code n} at {@code i} of {@link #wakes}, growing it; returns i + 1. */
    int addWake(int i, LockName n) {
        if (i == wakes.length) {
            wakes = Arrays.copyOf(wakes, i * 2);
        }
        wakes[i] = n;
        return i + 1;
    }

    void clear() {
        for (int i = 0; i < size; i++) {
            recycle(dense[i]);
            dense[i] = null;
        }
        size = 0;
        Arrays.fill(index, null);
        clearStatementHolds();
    }

    // ---- the statement's holds -------------------------------------------------------

    void noteStatementHold(Hold h) {
        if (h.statementListed) {
            return;
        }
        h.statementListed = true;
        if (statementHoldCount == statementHolds.length) {
            statementHolds = Arrays.copyOf(statementHolds, statementHoldCount * 2);
        }
        statementHolds[statementHoldCount++] = h;
    }

    /** Empties the statement's list without looking at its holds. */
    void clearStatementHolds() {
        for (int i = 0; i < statementHoldCount; i++) {
            statementHolds[i].statementListed = false;
            statementHolds[i] = null;
        }
        statementHoldCount = 0;
    }

    /**
     * Moves the statement's holds that are still listed, with every hold above them, into
     * {@link #work} (each once, in no particular order) and empties the list; returns how
     * many.
     */
    int takeStatementHolds() {
        int n = 0;
        for (int i = 0; i < statementHoldCount; i++) {
            Hold h = statementHolds[i];
            statementHolds[i] = null;
            if (!h.statementListed) {
                continue; // removed since, or an earlier entry of this hold took it
            }
            h.statementListed = false;
            // (a hold already taken has its parents taken too)
            for (Hold a = h; a != null && !a.taken; a = a.parent) {
                a.taken = true;
                if (n == work.length) {
                    work = Arrays.copyOf(work, n * 2);
                }
                work[n++] = a;
            }
        }
        statementHoldCount = 0;
        for (int i = 0; i < n; i++) {
            work[i].taken = false;
        }
        return n;
    }

    private void recycle(Hold h) {
        h.statementListed = false;
        h.name = null;
        h.parent = null;
        h.stamp = 0;
        h.nextFree = free;
        free = h;
    }

    // ---- journal -------------------------------------------------------------------

    /** Forgets the last hold journaled, a new one (a keyed name killed before it was locked). */
    void dropNewest(Hold h) {
        journal[--journalSize] = null;
        h.stamp = 0;
        remove(h);
    }

    void journal(Hold h, boolean isNew) {
        if (h.stamp == callStamp) {
            return;
        }
        h.stamp = callStamp;
        h.pNew = isNew;
        h.pMode = h.mode;
        h.pTxn = h.txn;
        h.pIntent = h.intent;
        h.pIx = h.ix;
        h.pChildHolds = h.childHolds;
        h.pKeyHolds = h.keyHolds;
        if (journalSize == journal.length) {
            journal = Arrays.copyOf(journal, journalSize * 2);
        }
        journal[journalSize++] = h;
    }
}

/*
 * Superclass fields are laid out first: 128 bytes that are never written keep the hot
 * fields of owners allocated one after the other (the engine makes sessions from one
 * thread) off each other's cache lines.
 */
abstract class OwnerPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}
