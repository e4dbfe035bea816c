package org.hsqldb.a2l.lockmgr;

import java.util.HashSet;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A deliberately simple lock manager: every call runs under one global mutex, like the
 * thesis' A2L prototype and upstream HSQLDB's 2PL manager, and each name keeps explicit
 * holder sets (the X holder, the S holders and, for a table, the owners holding any of
 * its attributes). Waiters wait on one condition that every change signals, and search
 * for deadlocks, exactly, when they start waiting. Same semantics, fairness and deadlock
 * policy as {@link FastLockManager}; kept as the baseline of the benchmarks and as an
 * oracle in the tests.
 */
public final class MutexLockManager extends LockManager {

    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition changed = mutex.newCondition();

    private static final class State {
        Owner x;
        Owner u;
        final HashSet<Owner> s = new HashSet<>();
        final HashSet<Owner> intents = new HashSet<>();
        final HashSet<Owner> ix = new HashSet<>();

        boolean isFree() {
            return x == null && u == null && s.isEmpty() && intents.isEmpty() && ix.isEmpty();
        }
    }

    public MutexLockManager() {
    }

    private static State state(LockName n) {
        State st = (State) n.mutexState;
        if (st == null) {
            st = new State();
            n.mutexState = st;
        }
        return st;
    }

    @Override
    void beginCall() {
        mutex.lock();
    }

    @Override
    void endCall() {
        mutex.unlock();
    }

    private static boolean othersIn(HashSet<Owner> holders, Owner o) {
        return holders.size() > (holders.contains(o) ? 1 : 0);
    }

    /** Whether another owner's hold conflicts with {@code kind} (see {@link LockManager#conflicts}). */
    private static boolean blocked(Owner o, LockName n, int kind) {
        State st = state(n);
        if (st.x != null && st.x != o) {
            return true;
        }
        boolean u = st.u != null && st.u != o;
        switch (kind) {
            case IS:
                return false;
            case S:
                return othersIn(st.ix, o);
            case U:
                return u || othersIn(st.ix, o);
            case IX:
                return u || othersIn(st.s, o);
            default: // X
                return u || othersIn(st.s, o) || othersIn(st.intents, o) || othersIn(st.ix, o);
        }
    }

    private static void grant(Owner o, LockName n, int kind) {
        State st = state(n);
        if (kind == IS) {
            st.intents.add(o);
        } else if (kind == IX) {
            st.ix.add(o);
        } else if (kind == S) {
            st.s.add(o);
        } else if (kind == U) {
            st.s.remove(o);
            st.u = o;
        } else {
            st.s.remove(o);
            if (st.u == o) {
                st.u = null;
            }
            st.x = o;
        }
    }

    @Override
    int lockNode(Owner o, Hold h, int kind, LockRequest r, boolean txn, long timeout) {
        return lock(o, h.name, kind, h.mode != NONE || h.intent || h.ix, r, txn, timeout);
    }

    private int lock(Owner o, LockName n, int kind, boolean converter, LockRequest r, boolean txn,
            long timeout) {
        if ((n.word() & LockWord.DEAD) != 0) {
            // killed since the lookup: the mutex was let go meanwhile, while an intention
            // above it was awaited, and a release or a sweep killed the name then
            return R_RETRY;
        }
        if (!blocked(o, n, kind) && (converter || n.queueEmpty()
                || !n.queue().conflictAheadOfArrival(kind, bargeLimit))) {
            if (!converter && !n.queueEmpty() && bargeLimit > 0) {
                n.queue().notePassed(kind);
            }
            grant(o, n, kind);
            return GRANTED_NOW;
        }
        if (timeout == NO_WAIT) {
            return R_TIMEOUT;
        }
        WaitQueue q = n.queue(); // (a keyed name's is made by its first waiter)
        Waiter w = o.waiter;
        w.set(n, kind, converter, 0, 0, 0, 0, 0, r, txn);
        q.enqueue(w);
        o.waitingOn = w;
        o.endWrite();
        w.version = o.version();
        final long start = System.nanoTime();
        final long deadline = timeout > 0 ? start + timeout : 0;
        // (stands if an Error is thrown while waiting: the wait ends ungranted)
        int result = R_INTERRUPTED;
        try {
            waitPublished();
            List<WaitEdge> cycle = findCycle(o);
            if (cycle != null) {
                o.lastCycle = cycle;
                result = R_DEADLOCK;
            } else {
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
                    try {
                        if (deadline == 0) {
                            changed.await();
                        } else {
                            changed.awaitNanos(deadline - now);
                        }
                    } catch (InterruptedException e) {
                        result = R_INTERRUPTED;
                        break;
                    }
                    if (!blocked(o, n, kind) && (converter || !q.conflictAhead(w, kind))) {
                        result = GRANTED_WAITED;
                        break;
                    }
                }
            }
        } finally {
            // every end of the wait leaves the queue, an Error thrown while waiting included
            // (see FastLockManager.lockSlow)
            o.beginWrite();
            o.waitingOn = null;
            q.remove(w);
            if (result == GRANTED_WAITED) {
                grant(o, n, kind);
            }
            changed.signalAll();
        }
        o.count(LockCounters.WAIT_NANOS, System.nanoTime() - start);
        if (result == R_INTERRUPTED) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    @Override
    void unlockNode(Owner o, LockName n, int fromMode, boolean fromIntent, boolean fromIx,
            int toMode, boolean toIntent, boolean toIx) {
        unlock(o, n, fromMode, toMode);
        State st = state(n);
        if (fromIntent != toIntent) {
            if (toIntent) {
                st.intents.add(o);
            } else {
                st.intents.remove(o);
            }
        }
        if (fromIx != toIx) {
            if (toIx) {
                st.ix.add(o);
            } else {
                st.ix.remove(o);
            }
        }
        changed.signalAll();
    }

    /** Called with the mutex held (sweeps and forgetting run inside acquire and the releases). */
    @Override
    boolean tryKill(KeyLock k) {
        if (!state(k).isFree() || !k.queueEmpty()) {
            return false;
        }
        k.orWord(LockWord.DEAD);
        return true;
    }

    private static void unlock(Owner o, LockName n, int fromMode, int toMode) {
        if (fromMode == toMode) {
            return;
        }
        State st = state(n);
        // what the new mode holds first, then what the old one held goes (downgrades, as on undo)
        if (toMode == S) {
            st.s.add(o);
        } else if (toMode == U) {
            st.u = o;
        }
        if (fromMode == X && st.x == o) {
            st.x = null;
        } else if (fromMode == U && st.u == o) {
            st.u = null;
        } else if (fromMode == S) {
            st.s.remove(o);
        }
    }

    @Override
    void wake(Owner o) {
        mutex.lock();
        try {
            changed.signalAll();
        } finally {
            mutex.unlock();
        }
    }

}
