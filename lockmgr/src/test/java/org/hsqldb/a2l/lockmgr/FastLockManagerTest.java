package org.hsqldb.a2l.lockmgr;

import static org.hsqldb.a2l.lockmgr.LockDuration.TRANSACTION;
import static org.hsqldb.a2l.lockmgr.LockRequest.s;
import static org.hsqldb.a2l.lockmgr.LockRequest.u;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Future;

import org.hsqldb.a2l.lockmgr.LockResult.Status;
import org.junit.jupiter.api.Test;

/** The contract, against the fast implementation. */
class FastLockManagerTest extends LockManagerContract {
    @Override
    LockManager newManager() {
        return new FastLockManager();
    }

    @Override
    void assertKeyedNameFree(KeyLock k) {
        if (k != null) { // (a sweep may have forgotten it, which also means free)
            org.junit.jupiter.api.Assertions.assertEquals(0, FastLockManager.shared(k), k.toString());
            org.junit.jupiter.api.Assertions.assertEquals(0, k.word, k.toString());
        }
    }

    /** A request that comes while a table is frozen waits, and is granted when it thaws. */
    @Test
    void aRequestDuringAFreezeWaitsAndIsGrantedAfterIt() {
        Session a = session(1);
        assertTrue(((FastLockManager) m).tryFreeze(t));
        Future<LockResult> w = a.start(s(ta)); // IS on T first
        awaitWaiting(a);
        m.unfreeze(t);
        assertEquals(Status.GRANTED, get(w).status());
        a.releaseAll();
    }

    /*
     * A release wakes only the waiters it can grant, simulating their grants in queue order:
     * here it wakes the IX converter b and leaves the S converter c behind it asleep, as b's
     * IX would keep c out. Before b runs, d (which holds T's intention) takes S(T) past the
     * queue, which keeps b out but not c. b's wake-up must not be lost with it: c can be
     * granted now and nothing else will wake it (no release on T comes while d runs; with d
     * waiting for c next, no cycle either, and no re-check here). The test holds T's queue
     * monitor from the release to d's grant, so that b cannot look before d is in.
     */
    @Test
    void aWokenWaiterThatCannotBeGrantedPassesItsWakeUpOn() {
        ((FastLockManager) m).setDeadlockRecheckNanos(0);
        Session a = session(1), b = session(2), c = session(3), d = session(4);
        a.grant(u(t), LockRequest.ix(t)); // keeps out IX (b) and S (c)
        b.grant(s(ta));
        c.grant(s(tb));
        d.grant(s(tc));
        Future<LockResult> bw = b.start(LockRequest.ix(t)); // a converter: holds T's intention
        awaitWaiting(b);
        Future<LockResult> cw = c.start(s(t)); // a converter too, queued behind b
        awaitWaiting(c);
        synchronized (t.queue) {
            m.releaseAll(a.o); // wakes b only
            assertEquals(Status.GRANTED, m.acquire(d.o, new LockRequest[] {s(t)}, TRANSACTION).status());
        }
        assertEquals(Status.GRANTED, get(cw).status()); // S(T) beside d's S(T)
        m.releaseAll(d.o);
        c.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
    }
}
