package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The default lock manager: no global lock on the fast path, and read-only work writes
 * no shared cache line.
 *
 * <h2>Fast path</h2>
 * Each name has a word with an X bit, a U bit and a WAITER bit (padded to its own cache
 * line), and a small array of <em>stripes</em>, each on its own cache line, that together
 * count its shared holders: S holders, and for a table also the owners holding any of its
 * attributes (its intention, which X(T) must see). An owner always counts in the stripe
 * of its registration order, so owners running on different cores write different
 * lines.
 * <ul>
 * <li>S (or a table's intention): add 1 to the owner's stripe, then read the word; if it
 *     shows neither X (other than the owner's own) nor WAITER the lock is held, otherwise
 *     take the 1 back and go the slow way. Release: subtract 1, then read the word and wake
 *     waiters if WAITER is set. The U bit does not stop S.</li>
 * <li>U: CAS the word from 0 to U; readers do not matter (a conversion from S then takes
 *     the owner's S out of its stripe). Release: clear U atomically.</li>
 * <li>X: CAS the word from 0 (U, when the owner converts its U) to X, then sum the stripes:
 *     if they hold only the owner's own shared locks, X is held (a conversion then takes
 *     the owner's S out of its stripe); otherwise put the word back and go the slow way.
 *     Release: clear X atomically.</li>
 * </ul>
 * <h2>Slow path</h2>
 * A request that conflicts, or finds WAITER set, enters the name's queue monitor, sets
 * WAITER (from then on every grant on that name is made under the monitor; releases
 * still go straight to the stripes and word and, seeing WAITER, wake the waiters that
 * can now proceed), and queues (see {@link LockManager} for the fairness rule). The
 * waiter parks and grants itself under the monitor when its request fits.
 *
 * <h2>Deadlocks</h2>
 * A new waiter publishes its wait (owner seqlock) and then, under a detection lock used
 * only by waiters, searches the wait-for graph of the waiting owners
 * ({@link LockManager#findCycle}). Holdings of a waiting owner cannot change, and the
 * searches are serialized, so the last owner of any cycle to start waiting sees the
 * whole cycle: no cycle is missed however the waits race. The youngest member is refused
 * (the searcher itself, or a member it marks and wakes; see
 * {@link LockManager#findCycle}). As a second line, a waiter searches again every
 * {@code 100 ms} of waiting.
 */
public final class FastLockManager extends LockManager {

    private static final long X_BIT = LockWord.X_BIT, U_BIT = LockWord.U_BIT, WAITER = LockWord.WAITER;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Stripes per name: a power of two, from the number of processors. */
    static final int STRIPES;
    /** longs per stripe: one 64-byte line each; slot 0 (next to the array header) unused. */
    private static final int STRIDE = 8;

    static {
        int p = Runtime.getRuntime().availableProcessors();
        int k = Integer.highestOneBit(Math.max(1, p - 1)) << 1;
        STRIPES = Math.max(4, Math.min(32, k));
    }

    private final Object detectLock = new Object();
    private volatile long recheckNanos = TimeUnit.MILLISECONDS.toNanos(100);

    public FastLockManager() {
    }

    /** Test hook: period of the extra deadlock search while waiting; 0 disables it. */
    void setDeadlockRecheckNanos(long nanos) {
        recheckNanos = Math.max(0, nanos);
    }

    @Override
    long[] newStripes() {
        return new long[(STRIPES + 1) * STRIDE];
    }

    private static int slot(Owner o) {
        return ((o.seq & (STRIPES - 1)) + 1) * STRIDE;
    }

    private static void addShared(LockName n, int slot, long d) {
        LONGS.getAndAdd(n.stripes, slot, d);
    }

    /** Sum of a name's shared counts. */
    static long shared(LockName n) {
        long[] st = n.stripes;
        long sum = 0;
        for (int i = STRIDE; i < st.length; i += STRIDE) {
            sum += (long) LONGS.getVolatile(st, i);
        }
        return sum;
    }

    @Override
    int lockTable(Owner o, Hold h, TableLock t, int kind, LockRequest r, boolean txn, long timeout) {
        return lock(o, t, kind, h.mode == S ? 1 : 0, h.mode == X ? 1 : 0, h.intent ? 1 : 0,
                h.mode == U ? 1 : 0, h.mode != NONE || h.intent, r, txn, timeout);
    }

    @Override
    int lockAttr(Owner o, Hold h, AttributeLock a, int kind, LockRequest r, boolean txn, long timeout) {
        return lock(o, a, kind, h.mode == S ? 1 : 0, h.mode == X ? 1 : 0, 0, h.mode == U ? 1 : 0,
                h.mode != NONE, r, txn, timeout);
    }

    /*
     * What an owner's hold contributes to a name: S and a table's intention count 1 each in
     * the owner's stripe; U is the word's U bit (an U hold replaces the S it converted);
     * X is the word's X bit (it replaces S and U). selfS/selfX/selfI/selfU describe the
     * requesting owner's contribution before the request.
     */
    private int lock(Owner o, LockName n, int kind, int selfS, int selfX, int selfI, int selfU,
            boolean converter, LockRequest r, boolean txn, long timeout) {
        int slot = slot(o);
        if (kind == S || kind == I) {
            long w = n.word;
            if ((w & WAITER) == 0 && ((w & X_BIT) == 0 || selfX != 0)) {
                addShared(n, slot, 1);
                w = n.word;
                if ((w & WAITER) == 0 && ((w & X_BIT) == 0 || selfX != 0)) {
                    return GRANTED_NOW;
                }
                // a writer or a waiter came: back off. Like any decrement, read the word
                // afterwards: a waiter whose check saw our transient 1 has set WAITER by then
                addShared(n, slot, -1);
                if (n.word < 0) {
                    wakeAll(n);
                }
            }
        } else if (kind == U) {
            // other readers do not matter; another U or X, or a queue, does
            if (n.word == 0 && n.casWord(0, U_BIT)) {
                if (selfS != 0) {
                    addShared(n, slot, -selfS);
                }
                return GRANTED_NOW;
            }
        } else {
            long own = selfS + selfI;
            long mine = selfU != 0 ? U_BIT : 0;
            if (n.word == mine && shared(n) == own && n.casWord(mine, X_BIT)) {
                if (shared(n) == own) {
                    if (selfS != 0) {
                        addShared(n, slot, -selfS);
                    }
                    return GRANTED_NOW;
                }
                release(n, mine - X_BIT); // a reader came in between: back off
            }
        }
        return lockSlow(o, n, slot, kind, selfS, selfX, selfI, selfU, converter, r, txn, timeout);
    }

    /**
     * Under the queue monitor, with WAITER set: grants the request if it fits the holders
     * and (unless it is a conversion) the waiters queued ahead of {@code self} (null: a
     * new arrival, behind everybody).
     */
    private static boolean tryGrant(WaitQueue q, Waiter self, LockName n, int slot, int kind,
            int selfS, int selfX, int selfI, int selfU, boolean converter) {
        if (!converter && q.conflictAhead(self, kind)) {
            return false;
        }
        long w = n.word;
        if (kind == S || kind == I) {
            if ((w & X_BIT) != 0 && selfX == 0) {
                return false;
            }
            addShared(n, slot, 1);
            return true;
        }
        if ((w & X_BIT) != 0 || ((w & U_BIT) != 0 && selfU == 0)) {
            return false;
        }
        if (kind == U) {
            n.orWord(U_BIT);
            if (selfS != 0) {
                addShared(n, slot, -selfS);
            }
            return true;
        }
        long own = selfS + selfI;
        if (shared(n) != own) {
            return false;
        }
        n.orWord(X_BIT);
        if (shared(n) != own) {
            // a fast-path reader is backing off (it sees WAITER and will wake us)
            n.addWord(-X_BIT);
            return false;
        }
        if (selfU != 0) {
            n.addWord(-U_BIT);
        }
        if (selfS != 0) {
            addShared(n, slot, -selfS);
        }
        return true;
    }

    private int lockSlow(Owner o, LockName n, int slot, int kind, int selfS, int selfX, int selfI,
            int selfU, boolean converter, LockRequest r, boolean txn, long timeout) {
        WaitQueue q = n.queue;
        Waiter w = o.waiter;
        synchronized (q) {
            n.setWaiterBit();
            if (tryGrant(q, null, n, slot, kind, selfS, selfX, selfI, selfU, converter)) {
                if (q.isEmpty()) {
                    n.clearWaiterBit();
                }
                return GRANTED_NOW;
            }
            w.set(n, kind, converter, selfS, selfX, selfI, selfU, r, txn);
            q.enqueue(w);
            o.waitingOn = w;
            o.endWrite(); // publish holds + wait for the detector and snapshots
            w.version = o.version();
        }
        final long start = System.nanoTime();
        o.waitThread = Thread.currentThread();
        int result;
        try {
            if (detect(o, w)) {
                result = R_DEADLOCK;
            } else {
                result = waitLoop(o, n, w, slot, start, timeout);
            }
        } finally {
            o.waitThread = null;
        }
        o.count(LockCounters.WAIT_NANOS, System.nanoTime() - start);
        if (result == R_INTERRUPTED) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    private int waitLoop(Owner o, LockName n, Waiter w, int slot, long start, long timeout) {
        WaitQueue q = n.queue;
        final long deadline = timeout > 0 ? start + timeout : 0;
        final long recheck = recheckNanos;
        long nextCheck = recheck > 0 ? start + recheck : 0;
        int result;
        for (;;) {
            if (isChosenVictim(o, w)) {
                o.lastCycle = o.victimCycle;
                result = R_DEADLOCK;
                break;
            }
            if (o.cancelRequested) {
                o.cancelRequested = false;
                result = R_CANCELLED;
                break;
            }
            if (Thread.interrupted()) {
                result = R_INTERRUPTED;
                break;
            }
            long now = System.nanoTime();
            if (deadline != 0 && now - deadline >= 0) {
                result = R_TIMEOUT;
                break;
            }
            if (nextCheck != 0 && now - nextCheck >= 0) {
                if (detect(o, w)) {
                    return R_DEADLOCK;
                }
                nextCheck = now + recheck;
                continue; // the search may have chosen this owner's wait: look before parking
            }
            long park = Long.MAX_VALUE;
            if (deadline != 0) {
                park = deadline - now;
            }
            if (nextCheck != 0) {
                park = Math.min(park, nextCheck - now);
            }
            if (park == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, park);
            }
            synchronized (q) {
                if (tryGrant(q, w, n, slot, w.kind, w.selfS, w.selfX, w.selfI, w.selfU, w.converter)) {
                    o.beginWrite();
                    o.waitingOn = null;
                    q.remove(w);
                    if (q.isEmpty()) {
                        n.clearWaiterBit();
                    }
                    return GRANTED_WAITED;
                }
            }
        }
        leave(o, n, w);
        return result;
    }

    /** Takes the owner's waiter out of the queue (failure) and wakes whom that unblocks. */
    private void leave(Owner o, LockName n, Waiter w) {
        WaitQueue q = n.queue;
        synchronized (q) {
            o.beginWrite();
            o.waitingOn = null;
            q.remove(w);
            if (q.isEmpty()) {
                n.clearWaiterBit();
            } else {
                wakeGrantable(q, n);
            }
        }
    }

    /**
     * Searches for a cycle through o. If o is the victim it leaves the queue and returns
     * true; if another member is, that member has been marked and woken, and o waits on.
     */
    private boolean detect(Owner o, Waiter w) {
        synchronized (detectLock) {
            List<WaitEdge> cycle = findCycle(o);
            if (cycle == null) {
                return false;
            }
            o.lastCycle = cycle;
            // leave while still holding detectLock, so no other member sees this cycle again
            leave(o, w.name, w);
            return true;
        }
    }

    /**
     * Unparks the queued waiters that can be granted now, simulating the grants in queue
     * order so that only those are woken. Called under the queue's monitor.
     */
    private static void wakeGrantable(WaitQueue q, LockName n) {
        long word = n.word;
        boolean x = (word & X_BIT) != 0;
        boolean u = (word & U_BIT) != 0;
        long shared = shared(n);
        for (Waiter e = q.head; e != null; e = e.next) {
            if (!e.converter && q.conflictAhead(e, e.kind)) {
                continue;
            }
            if (e.kind == S || e.kind == I) {
                if (!x || e.selfX != 0) {
                    shared++;
                    LockSupport.unpark(e.thread);
                }
            } else if (e.kind == U) {
                if (!x && (!u || e.selfU != 0)) {
                    u = true;
                    shared -= e.selfS;
                    LockSupport.unpark(e.thread);
                }
            } else if (!x && (!u || e.selfU != 0) && shared == e.selfS + e.selfI) {
                x = true;
                u = false;
                shared -= e.selfS;
                LockSupport.unpark(e.thread);
            }
        }
    }

    private static void wakeAll(LockName n) {
        WaitQueue q = n.queue;
        synchronized (q) {
            if (!q.isEmpty()) {
                wakeGrantable(q, n);
            }
        }
    }

    /** Adds {@code d} (negative) to the word; wakes waiters if WAITER was set. */
    private static void release(LockName n, long d) {
        if (n.addWord(d) < 0) {
            wakeAll(n);
        }
    }

    /*
     * Moves the owner's contribution to a name from one state to another: shared count, X
     * bit, U bit. What the new state adds is added before what the old one held is taken
     * away (a downgrade X -> U or X -> S never leaves the name free in between), and a
     * release that finds WAITER set wakes the waiters.
     */
    private static void unlock(Owner o, LockName n, int fromShared, boolean fromX, boolean fromU,
            int toShared, boolean toX, boolean toU) {
        int d = toShared - fromShared;
        if (d > 0) {
            addShared(n, slot(o), d);
        }
        if (toU && !fromU) {
            n.addWord(U_BIT);
        }
        if (fromX && !toX) {
            release(n, -X_BIT);
        }
        if (fromU && !toU) {
            release(n, -U_BIT);
        }
        if (d < 0) {
            addShared(n, slot(o), d);
            if (n.word < 0) {
                wakeAll(n);
            }
        }
    }

    @Override
    void unlockTable(Owner o, TableLock t, int fromMode, boolean fromIntent, int toMode,
            boolean toIntent) {
        unlock(o, t, (fromMode == S ? 1 : 0) + (fromIntent ? 1 : 0), fromMode == X, fromMode == U,
                (toMode == S ? 1 : 0) + (toIntent ? 1 : 0), toMode == X, toMode == U);
    }

    @Override
    void unlockAttr(Owner o, AttributeLock a, int fromMode, int toMode) {
        unlock(o, a, fromMode == S ? 1 : 0, fromMode == X, fromMode == U, toMode == S ? 1 : 0,
                toMode == X, toMode == U);
    }

    @Override
    void wake(Owner o) {
        Thread t = o.waitThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
