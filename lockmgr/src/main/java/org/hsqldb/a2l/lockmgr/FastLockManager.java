package org.hsqldb.a2l.lockmgr;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The default lock manager: no global lock on the fast path.
 *
 * <h2>Fast path</h2>
 * Every name carries a 64-bit lock word (S count, X bit, for a table an intention count
 * of the owners holding any of its attributes, and a WAITER bit), padded to its own
 * cache line. Granting a compatible lock when nobody waits is one CAS on the word;
 * releasing is one atomic add; an attribute lock takes the table's intention once per
 * owner and table (so X(T) sees it), then the attribute's word. What each owner holds
 * lives in the {@link Owner}, so a lock already held costs an owner-local lookup and
 * nothing is allocated in steady state.
 *
 * <h2>Slow path</h2>
 * A request that conflicts, or finds the WAITER bit set, enters the name's queue
 * monitor, sets the bit (from then on every grant on that name goes through the
 * monitor; releases still add atomically and, seeing the bit, wake the waiters that can
 * now proceed), and queues (see {@link LockManager} for the fairness rule). The waiter
 * parks; it grants itself under the monitor when its request fits the word and the
 * queue order.
 *
 * <h2>Deadlocks</h2>
 * A new waiter publishes its wait (owner seqlock) and then, under a detection lock used
 * only by waiters, searches the wait-for graph of the waiting owners
 * ({@link LockManager#findCycle}). Holdings of a waiting owner cannot change, and the
 * searches are serialized, so the last owner of any cycle to start waiting sees the
 * whole cycle and is refused: no cycle is missed however the waits race. As a second
 * line, a waiter searches again every {@code 100 ms} of waiting.
 */
public final class FastLockManager extends LockManager {

    private static final long S_ONE = LockWord.S_ONE, S_MASK = LockWord.S_MASK,
            I_ONE = LockWord.I_ONE, I_MASK = LockWord.I_MASK, X_BIT = LockWord.X_BIT;
    private static final int I_SHIFT = LockWord.I_SHIFT;

    private final Object detectLock = new Object();
    private volatile long recheckNanos = TimeUnit.MILLISECONDS.toNanos(100);

    public FastLockManager() {
    }

    /** Test hook: period of the extra deadlock search while waiting; 0 disables it. */
    void setDeadlockRecheckNanos(long nanos) {
        recheckNanos = Math.max(0, nanos);
    }

    static boolean compatible(long w, int kind, int selfS, int selfX, int selfI) {
        if (((w & X_BIT) != 0 ? 1 : 0) != selfX) {
            return false; // another owner holds X
        }
        if (kind != X) {
            return true;
        }
        return (w & S_MASK) == selfS && ((w & I_MASK) >>> I_SHIFT) == selfI;
    }

    static long delta(int kind, int selfS) {
        switch (kind) {
            case S:
                return S_ONE;
            case I:
                return I_ONE;
            default:
                return X_BIT - selfS;
        }
    }

    static long contribution(int mode, boolean intent) {
        long c = mode == S ? S_ONE : mode == X ? X_BIT : 0;
        return intent ? c + I_ONE : c;
    }

    @Override
    int lockTable(Owner o, Hold h, TableLock t, int kind, LockRequest r, boolean txn, long timeout) {
        return lock(o, t, kind, h.mode == S ? 1 : 0, h.mode == X ? 1 : 0, h.intent ? 1 : 0,
                h.mode != NONE || h.intent, r, txn, timeout);
    }

    @Override
    int lockAttr(Owner o, Hold h, AttributeLock a, int kind, LockRequest r, boolean txn, long timeout) {
        return lock(o, a, kind, h.mode == S ? 1 : 0, h.mode == X ? 1 : 0, 0, h.mode != NONE, r, txn,
                timeout);
    }

    private int lock(Owner o, LockName n, int kind, int selfS, int selfX, int selfI,
            boolean converter, LockRequest r, boolean txn, long timeout) {
        long d = delta(kind, selfS);
        for (;;) {
            long w = n.word;
            if (w < 0 || !compatible(w, kind, selfS, selfX, selfI)) {
                break;
            }
            if (n.casWord(w, w + d)) {
                return GRANTED_NOW;
            }
        }
        return lockSlow(o, n, kind, selfS, selfX, selfI, converter, d, r, txn, timeout);
    }

    private int lockSlow(Owner o, LockName n, int kind, int selfS, int selfX, int selfI,
            boolean converter, long d, LockRequest r, boolean txn, long timeout) {
        WaitQueue q = n.queue;
        Waiter w = o.waiter;
        synchronized (q) {
            n.setWaiterBit();
            if (compatible(n.word, kind, selfS, selfX, selfI)
                    && (converter || !q.conflictAhead(null, kind))) {
                n.addWord(d);
                if (q.isEmpty()) {
                    n.clearWaiterBit();
                }
                return GRANTED_NOW;
            }
            w.set(n, kind, converter, selfS, selfX, selfI, r, txn);
            q.enqueue(w);
            o.waitingOn = w;
            o.endWrite(); // publish holds + wait for the detector and snapshots
        }
        final long start = System.nanoTime();
        o.waitThread = Thread.currentThread();
        int result;
        try {
            if (detect(o, w)) {
                result = R_DEADLOCK;
            } else {
                result = waitLoop(o, n, w, kind, selfS, selfX, selfI, converter, d, start, timeout);
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

    private int waitLoop(Owner o, LockName n, Waiter w, int kind, int selfS, int selfX,
            int selfI, boolean converter, long d, long start, long timeout) {
        WaitQueue q = n.queue;
        final long deadline = timeout > 0 ? start + timeout : 0;
        final long recheck = recheckNanos;
        long nextCheck = recheck > 0 ? start + recheck : 0;
        int result;
        for (;;) {
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
                if (compatible(n.word, kind, selfS, selfX, selfI)
                        && (converter || !q.conflictAhead(w, kind))) {
                    o.beginWrite();
                    o.waitingOn = null;
                    q.remove(w);
                    n.addWord(d);
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

    /** Searches for a cycle through o; if there is one, o leaves the queue as the victim. */
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
        long vw = n.word;
        for (Waiter e = q.head; e != null; e = e.next) {
            if (compatible(vw, e.kind, e.selfS, e.selfX, e.selfI)
                    && (e.converter || !q.conflictAhead(e, e.kind))) {
                vw += delta(e.kind, e.selfS);
                LockSupport.unpark(e.thread);
            }
        }
    }

    private static void release(LockName n, long d) {
        if (d == 0) {
            return;
        }
        long old = n.addWord(d);
        if (old < 0) { // WAITER was set
            WaitQueue q = n.queue;
            synchronized (q) {
                if (!q.isEmpty()) {
                    wakeGrantable(q, n);
                }
            }
        }
    }

    @Override
    void unlockTable(Owner o, TableLock t, int fromMode, boolean fromIntent, int toMode,
            boolean toIntent) {
        release(t, contribution(toMode, toIntent) - contribution(fromMode, fromIntent));
    }

    @Override
    void unlockAttr(Owner o, AttributeLock a, int fromMode, int toMode) {
        release(a, contribution(toMode, false) - contribution(fromMode, false));
    }

    @Override
    void wake(Owner o) {
        Thread t = o.waitThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
