package org.hsqldb.a2l.lockmgr;

import static org.hsqldb.a2l.lockmgr.LockDuration.TRANSACTION;
import static org.hsqldb.a2l.lockmgr.LockRequest.s;
import static org.hsqldb.a2l.lockmgr.LockRequest.u;
import static org.hsqldb.a2l.lockmgr.LockRequest.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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
        // null: forgotten, which also means free; a count left behind keeps a name from
        // being killed, so a name still found is checked here
        if (k != null) {
            org.junit.jupiter.api.Assertions.assertEquals(0, FastLockManager.shared(k), k.toString());
            org.junit.jupiter.api.Assertions.assertEquals(0, k.word(), k.toString());
        }
    }

    /*
     * A commit frees every name it held before it wakes anyone: a wake-up enters the name's
     * queue monitor, where its waiters contend, and a name still held behind it would keep
     * out whoever needs it next. Here a holds X on ta and then tb, b waits for ta, and the
     * test holds ta's queue monitor, so that a's commit stops at ta's wake-up; c must get tb
     * meanwhile, and b ta once the monitor is let go. (A commit releases a level's names in
     * the order they were taken, so waking in place would stop before tb's release.)
     */
    @Test
    void aCommitFreesEveryNameBeforeItWakesAnyone() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(x(ta), x(tb));
        Future<LockResult> bw = b.start(x(ta));
        awaitWaiting(b);
        Future<LockResult> commit;
        synchronized (ta.queue()) {
            commit = a.ex.submit(() -> {
                m.releaseAll(a.o);
                return (LockResult) null;
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(LONG_S);
            while (a.thread.getState() != Thread.State.BLOCKED) {
                if (System.nanoTime() > end) {
                    fail("the commit never reached ta's wake-up: " + a.thread.getState());
                }
                Thread.onSpinWait();
            }
            assertEquals(Status.GRANTED, c.tryShort(x(tb)), () -> "tb: " + m.snapshot());
        }
        get(commit);
        assertEquals(Status.GRANTED, get(bw).status());
        b.releaseAll();
        c.releaseAll();
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
        synchronized (t.queue()) {
            m.releaseAll(a.o); // wakes b only
            assertEquals(Status.GRANTED, m.acquire(d.o, new LockRequest[] {s(t)}, TRANSACTION).status());
        }
        assertEquals(Status.GRANTED, get(cw).status()); // S(T) beside d's S(T)
        m.releaseAll(d.o);
        c.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
    }

    /*
     * An escalation's try that others' holds refuse is refused from the parent's lock word,
     * without its queue monitor: a try that went through the monitor set the parent's WAITER
     * bit for a moment and sent every other owner's fast path on it through the monitor as
     * well (TPC-C's Stock-Level against New-Orders on STOCK.S_QUANTITY). Here b's X cell holds
     * IX on the column, and the test holds the column's monitor while a's try runs: the try
     * must come back, refused, with the cell it asked for, while the monitor is still held.
     * (The column's key table already exists, made by b's cell: making it takes the same
     * monitor, once.)
     */
    @Test
    void aTryThatOthersHoldsRefuseDoesNotEnterTheQueueMonitor() throws Exception {
        m.setEscalationThreshold(4);
        Session a = session(1), b = session(2);
        b.grant(cellX(ta, -1));                  // IX(T.a): refuses S(T.a)
        for (int k = 0; k < 4; k++) {
            a.grant(cellS(ta, k));
        }
        synchronized (ta.queue()) {
            Future<LockResult> tried = a.start(cellS(ta, 4)); // tried at 4 keys
            try {
                assertEquals(Status.GRANTED, tried.get(LONG_S, TimeUnit.SECONDS).status());
            } catch (TimeoutException e) {
                fail("the refused try waited for the column's queue monitor");
            }
        }
        // the try was made and refused: the next one waits for twice the keys
        assertEquals(8, (int) a.call(() -> a.o.find(ta).escalateAt));
        assertEquals(0, m.counters().escalations());
        assertEquals(0, m.counters().waits());
        assertNull(a.held(ta));                  // only its intention
        assertEquals(LockMode.S, a.held(new KeyLock(ta, List.of(4))));
        a.releaseAll();
        b.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    /*
     * A keyed name counts its shared holders in two fields of its own, not in stripes, and
     * makes its wait queue only when somebody waits: a cell read by two owners counts 2 S and
     * has no queue; a writer that queues behind them makes one; the readers' release wakes the
     * writer through that queue (with the deadlock re-check off, a wake-up sent to another
     * queue, or none, would leave it waiting: no other wake comes) and leaves the counts at 0.
     * Then a smoke check of the queue's making: threads released together by a spin on one
     * flag ask a fresh name for its queue and must all get the same one (how often they really
     * meet between the read and the compare-and-set, on 2 cores, is not measured).
     */
    @Test
    void aKeyedNameCountsItsReadersInItsOwnFieldsAndMakesItsQueueWhenSomebodyWaits()
            throws Exception {
        ((FastLockManager) m).setDeadlockRecheckNanos(0);
        Session a = session(1), b = session(2), c = session(3);
        a.grant(cellS(ta, 5));
        b.grant(cellS(ta, 5));
        KeyLock k = ta.keyed(List.of(5));
        assertNull(k.stripes);
        assertEquals(2, FastLockManager.shared(k, 0));
        assertFalse(k.hasQueue());
        Future<LockResult> w = c.start(cellX(ta, 5));
        awaitWaiting(c);
        assertTrue(k.hasQueue());
        assertFalse(k.queueEmpty());
        a.releaseAll();
        assertEquals(1, FastLockManager.shared(k, 0));
        b.releaseAll();
        assertEquals(Status.GRANTED, get(w).status());
        assertEquals(0, FastLockManager.shared(k));
        assertTrue(k.queueEmpty());
        c.releaseAll();

        for (int round = 0; round < 200; round++) {
            KeyLock fresh = m.child(ta, List.of(1000 + round));
            AtomicBoolean go = new AtomicBoolean();
            AtomicInteger ready = new AtomicInteger();
            Set<WaitQueue> seen = Collections.synchronizedSet(
                    Collections.newSetFromMap(new IdentityHashMap<>()));
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Thread t = new Thread(() -> {
                    ready.incrementAndGet();
                    while (!go.get()) {
                        Thread.onSpinWait();
                    }
                    seen.add(fresh.queue());
                });
                threads.add(t);
                t.start();
            }
            while (ready.get() < threads.size()) {
                Thread.onSpinWait();
            }
            go.set(true);
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(1, seen.size(), "round " + round);
            assertTrue(fresh.hasQueue());
        }
    }
}
