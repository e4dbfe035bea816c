package org.hsqldb.a2l.lockmgr;

import static org.hsqldb.a2l.lockmgr.LockDuration.STATEMENT;
import static org.hsqldb.a2l.lockmgr.LockDuration.TRANSACTION;
import static org.hsqldb.a2l.lockmgr.LockRequest.s;
import static org.hsqldb.a2l.lockmgr.LockRequest.u;
import static org.hsqldb.a2l.lockmgr.LockRequest.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Collectors;

import org.hsqldb.a2l.lockmgr.LockResult.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lock rules of lockmgr/README.md and of the LockManager contract, run against both
 * implementations (subclasses below). Each owner acts from its own thread; "conflicts"
 * means a request with a short timeout ends in TIMEOUT, "compatible" that it is granted.
 * No assertion is about time.
 */
abstract class LockManagerContract {

    static final long SHORT_MS = 30;
    static final long LONG_S = 20;

    abstract LockManager newManager();

    LockManager m;
    TableLock t, u;
    AttributeLock ta, tb, tc, ua;
    final List<Session> sessions = new ArrayList<>();

    @BeforeEach
    void setUp() {
        m = newManager();
        t = m.table("T", "PUBLIC.T");
        u = m.table("U", "PUBLIC.U");
        ta = t.attribute(0, "A");
        tb = t.attribute(1, "B");
        tc = t.attribute(2, "C");
        ua = u.attribute(0, "A");
    }

    @AfterEach
    void tearDown() {
        for (Session s : sessions) {
            s.ex.shutdownNow();
        }
    }

    /** An owner with its own thread. */
    final class Session {
        final Owner o;
        final ExecutorService ex;
        volatile Thread thread;

        Session(long id, String label) {
            o = m.register(id, label);
            ex = Executors.newSingleThreadExecutor(r -> {
                Thread th = new Thread(r, "owner-" + id);
                th.setDaemon(true);
                thread = th;
                return th;
            });
            sessions.add(this);
        }

        <T> T call(Callable<T> c) {
            try {
                return ex.submit(c).get(LONG_S, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(o + ": " + e, e);
            }
        }

        LockResult acquire(LockDuration d, long timeoutMs, LockRequest... set) {
            return call(() -> m.acquire(o, set, d, TimeUnit.MILLISECONDS.toNanos(timeoutMs)));
        }

        void grant(LockDuration d, LockRequest... set) {
            LockResult r = acquire(d, 0, set);
            assertEquals(Status.GRANTED, r.status(), () -> o + " " + List.of(set) + ": " + r);
        }

        void grant(LockRequest... set) {
            grant(TRANSACTION, set);
        }

        Status tryShort(LockRequest... set) {
            return acquire(TRANSACTION, SHORT_MS, set).status();
        }

        boolean tryAcquire(LockRequest... set) {
            return call(() -> m.tryAcquire(o, set, TRANSACTION));
        }

        Future<LockResult> start(LockDuration d, LockRequest... set) {
            return ex.submit(() -> m.acquire(o, set, d, 0));
        }

        Future<LockResult> start(LockRequest... set) {
            return start(TRANSACTION, set);
        }

        void releaseAll() {
            call(() -> {
                m.releaseAll(o);
                return null;
            });
        }

        void releaseStatementLocks() {
            call(() -> {
                m.releaseStatementLocks(o);
                return null;
            });
        }

        void releaseShared() {
            call(() -> {
                m.releaseShared(o);
                return null;
            });
        }

        void releaseSharedKeeping(java.util.function.Predicate<LockName> keep) {
            call(() -> {
                m.releaseShared(o, keep);
                return null;
            });
        }

        LockMode held(LockName n) {
            return call(() -> m.held(o, n));
        }
    }

    Session session(long id) {
        return new Session(id, "s" + id);
    }

    static LockResult get(Future<LockResult> f) {
        try {
            return f.get(LONG_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    void awaitWaiting(Session s) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(LONG_S);
        while (System.nanoTime() < end) {
            if (isWaiting(s)) {
                return;
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        fail(s.o + " never started waiting: " + m.snapshot());
    }

    boolean isWaiting(Session s) {
        for (LockInfo i : m.snapshot()) {
            if (i.ownerId() == s.o.id() && i.state() == LockInfo.State.WAITING) {
                return true;
            }
        }
        return false;
    }

    void assertConflict(LockRequest first, LockRequest second) {
        Session a = session(1), b = session(2);
        a.grant(first);
        assertEquals(Status.TIMEOUT, b.tryShort(second), first + " then " + second);
        a.releaseAll();
        // and once the first is gone, the second is granted
        b.grant(second);
        b.releaseAll();
    }

    void assertCompatible(LockRequest first, LockRequest second) {
        Session a = session(1), b = session(2);
        a.grant(first);
        assertEquals(Status.GRANTED, b.tryShort(second), first + " then " + second);
        a.releaseAll();
        b.releaseAll();
    }

    // ---- compatibility rules ---------------------------------------------------------

    @Test
    void tableTable() {
        assertCompatible(s(t), s(t));
        assertConflict(s(t), x(t));
        assertConflict(x(t), s(t));
        assertConflict(x(t), x(t));
    }

    @Test
    void tableAttribute() {
        assertConflict(x(t), s(ta));
        assertConflict(s(ta), x(t));
        assertConflict(x(t), x(ta));
        assertConflict(x(ta), x(t));
        assertCompatible(s(t), x(ta));
        assertCompatible(x(ta), s(t));
        assertCompatible(s(t), s(ta));
        assertCompatible(s(ta), s(t));
    }

    @Test
    void attributeAttribute() {
        assertCompatible(s(ta), s(ta));
        assertConflict(s(ta), x(ta));
        assertConflict(x(ta), s(ta));
        assertConflict(x(ta), x(ta));
        assertCompatible(x(ta), x(tb));
        assertCompatible(x(ta), s(tb));
    }

    @Test
    void differentTablesNeverConflict() {
        assertCompatible(x(t), x(u));
        assertCompatible(x(t), x(ua));
        assertCompatible(x(ta), x(ua));
    }

    @Test
    void typicalStatementSets() {
        // two updates of different columns of the same table run together; a reader of
        // a third column too; a reader of an updated column and an insert do not
        Session a = session(1), b = session(2), c = session(3);
        a.grant(s(t), s(ta), x(tb));
        b.grant(s(t), s(ta), x(tc));
        assertEquals(Status.GRANTED, c.tryShort(s(t), s(ta)));
        assertEquals(Status.TIMEOUT, c.tryShort(s(t), s(tb)));
        assertEquals(Status.TIMEOUT, c.tryShort(x(t)));
    }

    @Test
    void sameOwnerNeverConflicts() {
        Session a = session(1), b = session(2);
        a.grant(x(t), s(ta), x(tb));
        a.grant(s(t), x(ta), s(tb), x(tc), x(t));
        assertEquals(LockMode.X, a.held(t));
        assertEquals(LockMode.X, a.held(ta));
        assertEquals(LockMode.X, a.held(tb));
        assertEquals(LockMode.X, a.held(tc));
        assertEquals(Status.TIMEOUT, b.tryShort(s(t)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(ta)));
        a.releaseAll();
        assertNull(a.held(t));
        assertNull(a.held(ta));
        b.grant(x(t));
    }

    @Test
    void alreadyHeldCostsNoWait() {
        Session a = session(1), b = session(2);
        a.grant(s(t), s(ta));
        Future<LockResult> bx = b.start(x(t));
        awaitWaiting(b);
        m.resetCounters();
        // a re-requests what it holds while b waits for X(T): no wait, no queueing
        a.grant(s(t), s(ta));
        LockCounters c = m.counters();
        assertEquals(2, c.requests());
        assertEquals(2, c.immediate());
        assertEquals(0, c.waits());
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bx).status());
    }

    // ---- upgrades ----------------------------------------------------------------------

    @Test
    void upgradeAlone() {
        Session a = session(1);
        a.grant(s(t), s(ta));
        m.resetCounters();
        a.grant(x(ta));
        a.grant(x(t));
        assertEquals(LockMode.X, a.held(ta));
        assertEquals(LockMode.X, a.held(t));
        assertEquals(2, m.counters().upgrades());
    }

    @Test
    void upgradeWaitsForOtherReaders() {
        Session a = session(1), b = session(2);
        a.grant(s(t), s(ta));
        b.grant(s(t), s(ta));
        Future<LockResult> up = a.start(x(ta));
        awaitWaiting(a);
        assertFalse(up.isDone());
        b.releaseAll();
        assertEquals(Status.GRANTED, get(up).status());
        assertEquals(LockMode.X, a.held(ta));
        assertEquals(Status.TIMEOUT, b.tryShort(s(ta)));
    }

    @Test
    void upgradeDeadlock() {
        Session a = session(1), b = session(2);
        a.grant(s(t));
        b.grant(s(t));
        Future<LockResult> au = a.start(x(t));
        awaitWaiting(a);
        LockResult br = b.acquire(TRANSACTION, 0, x(t));
        assertEquals(Status.DEADLOCK, br.status());
        assertCycle(br, Set.of(a.o, b.o), Set.of(t));
        assertEquals(LockMode.S, b.held(t)); // the victim keeps what it held
        b.releaseAll();
        assertEquals(Status.GRANTED, get(au).status());
        a.releaseAll();
        b.grant(s(t));
        b.grant(x(t)); // the victim retries and succeeds
    }

    @Test
    void upgradeCountersSayWhichConversionsWaitedAndDeadlocked() {
        Session a = session(1), b = session(2);
        a.grant(s(t), s(ta));
        b.grant(s(t), s(ta));
        m.resetCounters();
        Future<LockResult> au = a.start(x(ta));
        awaitWaiting(a);
        LockResult br = b.acquire(TRANSACTION, 0, x(ta));
        assertEquals(Status.DEADLOCK, br.status());
        b.releaseAll();
        assertEquals(Status.GRANTED, get(au).status());
        LockCounters c = m.counters();
        assertEquals(1, c.upgrades(), c.toString()); // a's, granted
        assertEquals(2, c.upgradeWaits(), c.toString()); // a's and b's both waited
        assertEquals(1, c.deadlocks(), c.toString());
        assertEquals(1, c.upgradeDeadlocks(), c.toString()); // b's refused request was a conversion
    }

    // ---- update (U) locks ----------------------------------------------------------------

    @Test
    void anUpdateLockLetsReadersInAndKeepsUpdatersAndWritersOut() {
        Session a = session(1), b = session(2);
        a.grant(s(t), u(ta));
        assertEquals(LockMode.U, a.held(ta));
        b.grant(s(t), s(ta)); // S is compatible with U
        b.releaseAll();
        assertEquals(Status.TIMEOUT, b.tryShort(s(t), u(ta)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(t), x(ta)));
        assertEquals(Status.TIMEOUT, b.tryShort(x(t))); // U(T.a) keeps T's intention
        b.grant(s(t), u(tb)); // another attribute
        a.releaseAll();
        b.grant(u(ta));
    }

    @Test
    void anUpdateLockWaitsForAWriterAndAWriterForIt() {
        Session a = session(1), b = session(2);
        a.grant(s(t), x(ta));
        assertEquals(Status.TIMEOUT, b.tryShort(s(t), u(ta)));
        a.releaseAll();
        b.grant(s(t), u(ta));
        assertEquals(Status.TIMEOUT, a.tryShort(s(t), x(ta)));
    }

    @Test
    void twoReadersForUpdateDoNotDeadlockWhereTwoPlainReadersDo() {
        // S then X: both hold S, both convert, deadlock (upgradeDeadlock above); U then X: the
        // second reader waits at its read, the first converts and commits, the second goes on
        Session a = session(1), b = session(2);
        a.grant(s(t), u(ta));
        Future<LockResult> bu = b.start(s(t), u(ta));
        awaitWaiting(b);
        a.grant(x(ta)); // U -> X: no other reader of T.a
        assertEquals(LockMode.X, a.held(ta));
        assertFalse(bu.isDone());
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bu).status());
        b.grant(x(ta));
        assertEquals(LockMode.X, b.held(ta));
        assertEquals(0, m.counters().deadlocks());
    }

    @Test
    void convertingAnUpdateLockWaitsForTheReadersItLetIn() {
        m.setBargeLimit(0); // c must not pass the waiting converter
        Session a = session(1), b = session(2), c = session(3);
        a.grant(s(t), u(ta));
        b.grant(s(t), s(ta));
        Future<LockResult> ax = a.start(x(ta));
        awaitWaiting(a);
        // the converter is queued: a new reader waits behind it rather than starve it
        Future<LockResult> cs = c.start(s(t), s(ta));
        awaitWaiting(c);
        b.releaseAll();
        assertEquals(Status.GRANTED, get(ax).status());
        assertEquals(LockMode.X, a.held(ta));
        assertFalse(cs.isDone());
        a.releaseAll();
        assertEquals(Status.GRANTED, get(cs).status());
    }

    @Test
    void aReaderConvertsToUpdateAndAFailedConversionKeepsWhatWasHeld() {
        Session a = session(1), b = session(2);
        a.grant(s(t), s(ta));
        a.grant(u(ta)); // S -> U
        assertEquals(LockMode.U, a.held(ta));
        b.grant(s(t), s(ta));
        assertEquals(Status.TIMEOUT, a.tryShort(x(ta))); // U -> X waits for b's S; timed out
        assertEquals(LockMode.U, a.held(ta)); // the failed call is undone: U again
        assertEquals(Status.TIMEOUT, b.tryShort(u(ta)));
        b.releaseAll();
        a.grant(x(ta));
        a.releaseAll();
        b.grant(s(t), u(ta), s(tb));
    }

    @Test
    void updateLocksLastForTheTransactionAndSurviveTheEarlyReleaseOfReadLocks() {
        Session a = session(1), b = session(2);
        a.grant(STATEMENT, s(t), u(ta), s(tb));
        a.releaseStatementLocks();
        assertEquals(LockMode.U, a.held(ta));
        assertNull(a.held(tb));
        a.grant(s(tc));
        a.releaseShared();
        assertEquals(LockMode.U, a.held(ta));
        assertNull(a.held(tc));
        assertEquals(Status.TIMEOUT, b.tryShort(u(ta)));
        assertTrue(m.snapshot().stream().anyMatch(i -> i.mode() == LockMode.U && i.name() == ta
                && i.duration() == TRANSACTION), m.snapshot().toString());
    }

    @Test
    void aWholeTableUpdateLockExcludesUpdatersOfTheTableButNotItsReaders() {
        Session a = session(1), b = session(2);
        a.grant(u(t));
        b.grant(s(t), s(ta), x(tb)); // S(T) and attributes are compatible with U(T)
        assertEquals(Status.TIMEOUT, a.tryShort(x(t))); // converting U(T) waits for b's attributes
        b.releaseAll();
        assertEquals(Status.TIMEOUT, b.tryShort(u(t)));
        a.grant(x(t));
    }

    // ---- durations and releases -------------------------------------------------------

    @Test
    void statementLocksAreReleasedAtStatementEnd() {
        Session a = session(1), b = session(2);
        a.grant(STATEMENT, s(t), s(ta), x(tb));
        a.grant(TRANSACTION, s(tc));
        a.releaseStatementLocks();
        assertNull(a.held(t));
        assertNull(a.held(ta));
        assertEquals(LockMode.X, a.held(tb)); // X is always held to the end of the transaction
        assertEquals(LockMode.S, a.held(tc));
        assertEquals(Status.GRANTED, b.tryShort(x(ta)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(tb)));
        assertEquals(Status.TIMEOUT, b.tryShort(x(tc)));
        assertEquals(Status.TIMEOUT, b.tryShort(x(t))); // a still has attribute locks of T
    }

    @Test
    void statementLockAskedForTransactionBecomesTransaction() {
        Session a = session(1), b = session(2);
        a.grant(STATEMENT, s(t), s(ta));
        a.grant(TRANSACTION, s(ta));
        a.grant(STATEMENT, s(tb));
        a.releaseStatementLocks();
        assertEquals(LockMode.S, a.held(ta));
        assertNull(a.held(tb));
        assertNull(a.held(t));
        assertEquals(Status.TIMEOUT, b.tryShort(x(ta)));
        assertEquals(Status.GRANTED, b.tryShort(x(tb)));
    }

    @Test
    void transactionLockAskedForStatementStaysTransaction() {
        Session a = session(1);
        a.grant(TRANSACTION, s(t), s(ta));
        a.grant(STATEMENT, s(t), s(ta));
        a.releaseStatementLocks();
        assertEquals(LockMode.S, a.held(t));
        assertEquals(LockMode.S, a.held(ta));
        assertEquals(Set.of(TRANSACTION), durationsOf(a));
    }

    @Test
    void releaseAllWakesWaiters() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(x(t));
        Future<LockResult> bw = b.start(s(t), s(ta));
        Future<LockResult> cw = c.start(s(t), s(tb));
        awaitWaiting(b);
        awaitWaiting(c);
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
        assertEquals(Status.GRANTED, get(cw).status());
    }

    @Test
    void releaseSharedKeepsOnlyExclusiveLocks() {
        Session a = session(1), b = session(2);
        a.grant(STATEMENT, s(t), s(ta), s(tb));
        a.grant(TRANSACTION, x(tb), x(tc), s(ua));
        a.releaseShared();
        assertNull(a.held(t));
        assertNull(a.held(ta));
        assertNull(a.held(ua));
        assertNull(a.held(u));
        assertEquals(LockMode.X, a.held(tb)); // upgraded: kept
        assertEquals(LockMode.X, a.held(tc));
        assertEquals(Status.GRANTED, b.tryShort(x(ta)));
        assertEquals(Status.GRANTED, b.tryShort(x(u)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(tb)));
        assertEquals(Status.TIMEOUT, b.tryShort(x(t))); // a's X(T.b), X(T.c) keep T's intention
        a.releaseStatementLocks(); // nothing left to drop
        assertEquals(LockMode.X, a.held(tc));
    }

    @Test
    void releaseSharedKeepsWhatItIsToldToKeep() {
        Session a = session(1), b = session(2);
        a.grant(TRANSACTION, s(t), s(ta), s(u), s(ua), x(tb));
        // keep every S lock on table t (a declared table), drop those on u
        a.releaseSharedKeeping(n -> n.table() == t);
        assertEquals(LockMode.S, a.held(t));
        assertEquals(LockMode.S, a.held(ta));
        assertEquals(LockMode.X, a.held(tb));
        assertNull(a.held(u));
        assertNull(a.held(ua));
        assertEquals(Status.GRANTED, b.tryShort(x(ua)));
        assertEquals(Status.TIMEOUT, b.tryShort(x(ta)));
        a.releaseAll();
        assertEquals(Status.GRANTED, b.tryShort(x(ta)));
    }

    // ---- cancel, timeout, interrupt ---------------------------------------------------------

    @Test
    void cancelEndsTheWaitAndRestoresHoldings() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(x(tb));
        b.grant(s(t));
        Future<LockResult> bw = b.start(s(u), x(ua), s(ta), x(tb));
        awaitWaiting(b);
        m.cancel(b.o);
        LockResult r = get(bw);
        assertEquals(Status.CANCELLED, r.status());
        assertEquals(x(tb), r.awaited());
        // b holds what it held before the call: S(T) only
        assertEquals(LockMode.S, b.held(t));
        assertNull(b.held(u));
        assertNull(b.held(ua));
        assertNull(b.held(ta));
        assertEquals(Status.GRANTED, c.tryShort(x(u)));
        c.releaseAll();
        // a cancel while not waiting ends the next wait; releaseAll drops a pending one
        m.cancel(b.o);
        assertEquals(Status.GRANTED, b.tryShort(s(tc)));
        assertEquals(Status.CANCELLED, b.acquire(TRANSACTION, 0, x(tb)).status());
        m.cancel(b.o);
        b.releaseAll();
        assertEquals(Status.TIMEOUT, b.tryShort(x(tb)));
        assertEquals(2, m.counters().cancels());
    }

    @Test
    void timeout() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(x(tc));
        LockResult r = b.acquire(TRANSACTION, SHORT_MS, s(t), x(ta), s(tc));
        assertEquals(Status.TIMEOUT, r.status());
        assertEquals(s(tc), r.awaited());
        assertTrue(r.message().contains("PUBLIC.T.C"), r.message());
        assertNull(b.held(t));
        assertNull(b.held(ta));
        assertEquals(Status.GRANTED, c.tryShort(x(ta)));
        assertEquals(1, m.counters().timeouts());
    }

    @Test
    void defaultTimeout() {
        Session a = session(1), b = session(2);
        m.setDefaultTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(SHORT_MS));
        a.grant(x(t));
        assertEquals(Status.TIMEOUT, b.acquire(TRANSACTION, 0, s(t)).status());
        m.setDefaultTimeoutNanos(0);
        Future<LockResult> bw = b.start(s(t));
        awaitWaiting(b);
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
    }

    @Test
    void interruptEndsTheWaitAndKeepsTheFlag() {
        Session a = session(1), b = session(2);
        a.grant(x(t));
        AtomicBoolean flagAfter = new AtomicBoolean();
        Future<LockResult> bw = b.ex.submit(() -> {
            LockResult r = m.acquire(b.o, new LockRequest[] {s(u), s(t)}, TRANSACTION, 0);
            flagAfter.set(Thread.interrupted());
            return r;
        });
        awaitWaiting(b);
        b.thread.interrupt();
        assertEquals(Status.INTERRUPTED, get(bw).status());
        assertTrue(flagAfter.get(), "interrupt flag restored");
        assertNull(b.held(u));
        assertEquals(1, m.counters().interrupts());
    }

    // ---- deadlocks ---------------------------------------------------------------------

    static void assertCycle(LockResult r, Set<Owner> owners, Set<LockName> names) {
        assertEquals(Status.DEADLOCK, r.status());
        List<WaitEdge> cycle = r.cycle();
        assertEquals(owners.size(), cycle.size(), r.message());
        Set<Owner> seen = new HashSet<>();
        Set<LockName> seenNames = new HashSet<>();
        for (int i = 0; i < cycle.size(); i++) {
            WaitEdge e = cycle.get(i);
            seen.add(e.waiter());
            seenNames.add(e.request().name());
            // a closed chain: each edge's blocker is the next edge's waiter
            assertSame(e.blocker(), cycle.get((i + 1) % cycle.size()).waiter(), r.message());
        }
        assertEquals(owners, seen, r.message());
        assertEquals(names, seenNames, r.message());
        for (Owner o : owners) {
            assertTrue(r.message().contains(o.toString()), r.message());
        }
        for (LockName n : names) {
            assertTrue(r.message().contains(n.toString()), r.message());
        }
    }

    @Test
    void twoOwnerDeadlockNamesTheCycleAndTheVictimCanRetry() {
        Session a = session(1), b = session(2);
        a.grant(s(t), x(ta));
        b.grant(s(t), x(tb));
        Future<LockResult> aw = a.start(x(tb));
        awaitWaiting(a);
        m.resetCounters();
        LockResult br = b.acquire(TRANSACTION, 0, s(tc), x(ta));
        assertCycle(br, Set.of(a.o, b.o), Set.of(ta, tb));
        assertSame(b.o, br.cycle().get(0).waiter()); // the requester is the victim
        assertNull(b.held(tc)); // granted earlier in the failed call: released again
        assertEquals(1, m.counters().deadlocks());
        assertFalse(aw.isDone());
        b.releaseAll(); // the victim aborts
        assertEquals(Status.GRANTED, get(aw).status());
        Future<LockResult> retry = b.start(s(t), x(tb), x(ta));
        awaitWaiting(b);
        a.releaseAll(); // the other commits
        assertEquals(Status.GRANTED, get(retry).status());
    }

    @Test
    void theYoungestTransactionOfACycleIsTheVictimWhoeverClosesIt() {
        Session older = session(1), younger = session(2);
        older.grant(s(t), x(ta)); // older's transaction takes its first lock first
        younger.grant(s(t), x(tb));
        Future<LockResult> youngerWaits = younger.start(x(ta));
        awaitWaiting(younger);
        // the older transaction closes the cycle; the younger, already waiting, is refused
        Future<LockResult> olderWaits = older.start(x(tb));
        LockResult refused = get(youngerWaits);
        assertCycle(refused, Set.of(older.o, younger.o), Set.of(ta, tb));
        assertSame(younger.o, refused.cycle().get(0).waiter()); // named from the victim's edge
        assertEquals(LockMode.X, younger.held(tb)); // the victim keeps what it held
        assertFalse(olderWaits.isDone());
        younger.releaseAll(); // the victim aborts
        assertEquals(Status.GRANTED, get(olderWaits).status());
        assertEquals(1, m.counters().deadlocks());
    }

    @Test
    void aVictimThatKeepsItsAgeIsNotTheVictimOfItsRetry() {
        // b is refused as the younger; retried after keepAge, it is older than c, which
        // started after b's first try: c is refused. Without keepAge b's retry would be the
        // youngest and refused again (and so on, for ever, against a stream of new ones).
        Session a = session(1), b = session(2), c = session(3);
        refuseTheYoungerOnce(a, b, true);
        c.grant(s(t), x(ta)); // c's transaction starts after b's first try
        b.grant(s(t), x(tb)); // b's retry
        Future<LockResult> bw = b.start(x(ta));
        awaitWaiting(b);
        LockResult cr = c.acquire(TRANSACTION, 0, x(tb));
        assertEquals(Status.DEADLOCK, cr.status(), cr::toString);
        assertSame(c.o, cr.cycle().get(0).waiter());
        c.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
        b.releaseAll();
    }

    @Test
    void withoutKeepAgeARetriedVictimIsTheYoungestAgain() {
        // the control of the test above: the same schedule without keepAge refuses b again
        Session a = session(1), b = session(2), c = session(3);
        refuseTheYoungerOnce(a, b, false);
        c.grant(s(t), x(ta));
        b.grant(s(t), x(tb));
        Future<LockResult> bw = b.start(x(ta));
        awaitWaiting(b);
        Future<LockResult> cw = c.start(x(tb));
        LockResult br = get(bw);
        assertEquals(Status.DEADLOCK, br.status(), br::toString);
        b.releaseAll();
        assertEquals(Status.GRANTED, get(cw).status());
        c.releaseAll();
    }

    /** a and b deadlock and b, the younger, is refused and aborts (keeping its age if asked); a commits. */
    private void refuseTheYoungerOnce(Session a, Session b, boolean keepAge) {
        a.grant(s(t), x(ta));
        b.grant(s(t), x(tb));
        Future<LockResult> aw = a.start(x(tb));
        awaitWaiting(a);
        assertEquals(Status.DEADLOCK, b.acquire(TRANSACTION, 0, x(ta)).status());
        if (keepAge) {
            m.keepAge(b.o);
        }
        b.releaseAll();
        assertEquals(Status.GRANTED, get(aw).status());
        a.releaseAll();
    }

    @Test
    void theVictimRuleHoldsWhicheverWaiterSearchesFirst() {
        // the older transaction waits first and searches again every millisecond while
        // the younger one closes the cycle: the periodic search and the closing request race
        // to find it, and whoever finds it, the younger must be the one refused
        if (m instanceof FastLockManager) {
            ((FastLockManager) m).setDeadlockRecheckNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        Session older = session(1), younger = session(2);
        for (int round = 0; round < 200; round++) {
            older.grant(s(t), x(ta));
            younger.grant(s(t), x(tb));
            Future<LockResult> olderWaits = older.start(x(tb));
            awaitWaiting(older);
            LockResult r = younger.acquire(TRANSACTION, 0, x(ta));
            assertEquals(Status.DEADLOCK, r.status(), "round " + round + ": " + r);
            assertSame(younger.o, r.cycle().get(0).waiter(), "round " + round);
            assertFalse(olderWaits.isDone(), "round " + round);
            younger.releaseAll();
            assertEquals(Status.GRANTED, get(olderWaits).status(), "round " + round);
            older.releaseAll();
        }
        assertEquals(200, m.counters().deadlocks());
    }

    @Test
    void threeOwnerDeadlock() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(x(ta));
        b.grant(x(tb));
        c.grant(x(ua));
        Future<LockResult> aw = a.start(x(tb));
        awaitWaiting(a);
        Future<LockResult> bw = b.start(x(ua));
        awaitWaiting(b);
        LockResult cr = c.acquire(TRANSACTION, 0, x(ta));
        assertCycle(cr, Set.of(a.o, b.o, c.o), Set.of(ta, tb, ua));
        c.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
        b.releaseAll();
        assertEquals(Status.GRANTED, get(aw).status());
    }

    @Test
    void deadlockThroughQueueOrder() {
        // c waits for X(T) behind b's S(T); a, holding nothing on T, must queue behind
        // c's X (fairness), so a waits for c; when b then waits for a, the cycle
        // b -> a -> c -> b goes through a queue-order edge (in a strictly FIFO queue: with
        // a barge limit, a would pass c while c has been passed fewer times)
        m.setBargeLimit(0);
        Session a = session(1), b = session(2), c = session(3);
        a.grant(x(u));
        b.grant(s(t));
        Future<LockResult> cw = c.start(x(t));
        awaitWaiting(c);
        Future<LockResult> aw = a.start(s(t));
        awaitWaiting(a);
        Future<LockResult> bw = b.start(s(u));
        // c's transaction is the youngest: its first lock request came last
        LockResult cr = get(cw);
        assertCycle(cr, Set.of(a.o, b.o, c.o), Set.of(t, u));
        assertTrue(cr.cycle().stream().anyMatch(WaitEdge::queued), cr.message());
        assertSame(c.o, cr.cycle().get(0).waiter());
        assertEquals(Status.GRANTED, get(aw).status()); // a no longer queues behind c
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
    }

    @Test
    void simultaneousDeadlocksAreAlwaysDetected() throws Exception {
        // two owners close a 2-cycle at the same instant, many times; with no timeout and
        // (fast manager) no periodic re-check, a missed cycle would hang both threads
        if (m instanceof FastLockManager) {
            ((FastLockManager) m).setDeadlockRecheckNanos(0);
        }
        final int rounds = 2000;
        Owner oa = m.register(1, "a"), ob = m.register(2, "b");
        java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.atomic.AtomicInteger deadlocks = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.function.BiFunction<Owner, AttributeLock[], Thread> side = (o, names) -> new Thread(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    assertTrue(m.acquire(o, new LockRequest[] {s(t), x(names[0])}, TRANSACTION).isGranted());
                    barrier.await(LONG_S, TimeUnit.SECONDS);
                    LockResult r = m.acquire(o, new LockRequest[] {x(names[1])}, TRANSACTION);
                    if (r.status() == Status.DEADLOCK) {
                        deadlocks.incrementAndGet();
                    } else {
                        assertEquals(Status.GRANTED, r.status());
                    }
                    m.releaseAll(o);
                    barrier.await(LONG_S, TimeUnit.SECONDS);
                }
            } catch (Throwable e) {
                errors.add(e);
                barrier.reset();
            }
        });
        Thread ta1 = side.apply(oa, new AttributeLock[] {ta, tb});
        Thread tb1 = side.apply(ob, new AttributeLock[] {tb, ta});
        ta1.setDaemon(true);
        tb1.setDaemon(true);
        ta1.start();
        tb1.start();
        ta1.join(TimeUnit.SECONDS.toMillis(LONG_S));
        tb1.join(TimeUnit.SECONDS.toMillis(LONG_S));
        if (ta1.isAlive() || tb1.isAlive()) {
            String dump = RandomizedConcurrencyTest.threadDump();
            m.cancel(oa);
            m.cancel(ob);
            fail("hung: a cycle formed in a race was missed\n" + m.snapshot() + "\n" + dump);
        }
        assertTrue(errors.isEmpty(), () -> errors.toString());
        assertEquals(rounds, deadlocks.get(), "exactly one victim per round");
        assertEquals(rounds, m.counters().deadlocks());
    }

    @Test
    void waitingExclusiveIsNotStarvedByNewReaders() {
        m.setBargeLimit(0); // strictly FIFO: no arrival passes a waiter
        Session a = session(1), b = session(2), c = session(3);
        a.grant(s(t), s(ta));
        Future<LockResult> bw = b.start(x(t));
        awaitWaiting(b);
        // c's S(T) is compatible with a's, but queues behind b's waiting X(T)
        assertEquals(Status.TIMEOUT, c.tryShort(s(t)));
        assertEquals(Status.TIMEOUT, c.tryShort(s(tb)));
        // a already holds on T: it is not held up by the queue
        a.grant(s(tb));
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
    }

    @Test
    void anArrivalPassesOnlyWaitersPassedFewerTimesThanTheBargeLimit() {
        m.setBargeLimit(2);
        Session a = session(1), b = session(2), c = session(3), d = session(4), e = session(5);
        a.grant(s(t), s(ta));
        Future<LockResult> bw = b.start(x(t));
        awaitWaiting(b);
        // b has been passed fewer than 2 times: c's and d's S(T), compatible with a's, go ahead
        c.grant(s(t), s(tb));
        d.grant(s(t));
        // b has been passed twice: e queues behind it, and so does a retry of e's
        assertEquals(Status.TIMEOUT, e.tryShort(s(t)));
        assertEquals(Status.TIMEOUT, e.tryShort(s(tc)));
        // an owner that holds something on T is not an arrival: it passes at any count
        d.grant(s(tc));
        a.releaseAll();
        c.releaseAll();
        d.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
        assertEquals(Status.TIMEOUT, e.tryShort(s(t)));
        b.releaseAll();
        e.grant(s(t));
    }

    @Test
    void theSameRequestsInTheSameOrderAreGrantedTheSameWay() {
        // no clock: the order of grants depends only on the order of requests (and the limit)
        for (int round = 0; round < 3; round++) {
            m.setBargeLimit(1);
            Session a = session(10 * round + 1), b = session(10 * round + 2), c = session(10 * round + 3),
                    d = session(10 * round + 4);
            a.grant(s(t));
            Future<LockResult> bw = b.start(x(t));
            awaitWaiting(b);
            c.grant(s(t)); // passes b once
            assertEquals(Status.TIMEOUT, d.tryShort(s(t)), "round " + round);
            a.releaseAll();
            c.releaseAll();
            assertEquals(Status.GRANTED, get(bw).status());
            b.releaseAll();
            d.grant(s(t));
            d.releaseAll();
        }
    }

    @Test
    void readersThatTakeTurnsPassAWaitingWriterOnlyUpToTheLimit() throws Exception {
        // two readers take turns so that one of them holds S(T) at every instant: a token
        // says whose turn it is to let go, and its holder lets go only once the other holds
        // S again or is queued for it, then passes the token. Under unbounded barging the
        // writer waits as long as they go on (this test then fails); with a limit, a reader
        // that comes back after the writer has been passed that many times queues behind
        // it, and the other lets go.
        m.setBargeLimit(4);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger turn = new AtomicInteger();
        AtomicIntegerArray holds = new AtomicIntegerArray(2);
        Session[] rs = {session(10), session(11)};
        List<Future<Integer>> loops = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int me = i, other = 1 - i;
            Session r = rs[i];
            loops.add(r.ex.submit(() -> {
                int rounds = 0;
                while (!stop.get()) {
                    LockResult res = m.acquire(r.o, new LockRequest[] {s(t)}, TRANSACTION,
                            TimeUnit.SECONDS.toNanos(LONG_S));
                    if (res.status() != Status.GRANTED) {
                        throw new AssertionError(r.o + ": " + res);
                    }
                    holds.set(me, 1);
                    while (!stop.get() && !(turn.get() == me
                            && (holds.get(other) == 1 || isWaiting(rs[other])))) {
                        Thread.onSpinWait();
                    }
                    holds.set(me, 0);
                    m.releaseAll(r.o);
                    turn.set(other);
                    rounds++;
                }
                return rounds;
            }));
        }
        // from the first reader's grant on, one of them holds S(T): the writer must queue
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(LONG_S);
        while (holds.get(0) + holds.get(1) == 0 && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        Session w = session(1);
        Future<LockResult> ww = w.start(x(t));
        try {
            // a reader's loop ends only when stopped: one that fails (its reader then holds S(T)
            // for good, or never again) is reported as such, not as the writer's wait
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LONG_S);
            LockResult wr = null;
            while (wr == null) {
                for (Future<Integer> f : loops) {
                    if (f.isDone()) {
                        fail("a reader's loop ended: " + outcome(f));
                    }
                }
                try {
                    wr = ww.get(10, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (System.nanoTime() - deadline > 0) {
                        fail("X(T) not granted in " + LONG_S + " s; turn " + turn + ", holds " + holds
                                + ", loops " + outcome(loops.get(0)) + " and " + outcome(loops.get(1))
                                + ", locks " + m.snapshot());
                    }
                }
            }
            LockResult granted = wr;
            assertEquals(Status.GRANTED, granted.status(), () -> granted + ", " + m.snapshot());
        } finally {
            stop.set(true);
        }
        w.releaseAll();
        for (Future<Integer> f : loops) {
            f.get(LONG_S, TimeUnit.SECONDS);
        }
        assertTrue(m.snapshot().isEmpty(), () -> m.snapshot().toString());
    }

    /**
     * An Error thrown while a request waits (here by a hook, after the wait is published; in
     * use, an OutOfMemoryError in the deadlock search) reaches the caller, and takes the waiter
     * out of the queue: a later request is not kept out by it, and the owner stays visible to
     * snapshots (its seqlock at the right parity) with what it held before.
     */
    @Test
    void aWaitThatThrowsLeavesTheQueueAndTheOwnerReadable() throws Exception {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(s(t));
        b.grant(s(u));
        m.setWaitPublishedHook(() -> {
            throw new OutOfMemoryError("thrown by the test while waiting");
        });
        Future<LockResult> bx = b.start(x(t));
        ExecutionException thrown = assertThrows(
                ExecutionException.class, () -> bx.get(LONG_S, TimeUnit.SECONDS));
        assertTrue(thrown.getCause() instanceof OutOfMemoryError, thrown::toString);
        m.setWaitPublishedHook(null);
        // no conflicting waiter may be passed: a stale X waiter would keep c's S out
        assertEquals(Status.GRANTED, c.tryShort(s(t)));
        assertFalse(isWaiting(b));
        assertTrue(m.snapshot().stream().anyMatch(i -> i.ownerId() == b.o.id() && i.name() == u),
                () -> m.snapshot().toString());
        assertEquals(LockMode.S, b.held(u));
        assertNull(b.held(t));
        a.releaseAll();
        c.releaseAll();
        assertEquals(Status.GRANTED, b.tryShort(x(t)));
        b.releaseAll();
        assertTrue(m.snapshot().isEmpty(), () -> m.snapshot().toString());
    }

    /** A future's state for a failure message: running, its value, or what it threw. */
    static String outcome(Future<?> f) {
        if (!f.isDone()) {
            return "running";
        }
        try {
            return "returned " + f.get();
        } catch (Exception e) {
            return "threw " + e.getCause();
        }
    }

    // ---- observability -------------------------------------------------------------------

    @Test
    void countersAndReset() {
        Session a = session(1), b = session(2);
        a.grant(STATEMENT, s(t), s(ta), s(tb));
        a.grant(STATEMENT, s(t), x(ta));
        Future<LockResult> bw = b.start(s(ta));
        awaitWaiting(b);
        assertEquals(Status.TIMEOUT, session(3).tryShort(x(tb)));
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
        LockCounters c = m.counters();
        assertEquals(3 + 2 + 1 + 1, c.requests(), c.toString());
        assertEquals(c.requests(), c.immediate() + c.waits(), c.toString());
        assertEquals(2, c.waits(), c.toString());
        assertEquals(1, c.upgrades());
        assertEquals(1, c.timeouts());
        assertTrue(c.waitNanos() > 0);
        assertEquals(0, c.deadlocks());
        m.resetCounters();
        assertEquals(new LockCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), m.counters());
        b.grant(s(u));
        assertEquals(1, m.counters().requests());
        m.unregister(b.o); // an owner's counts survive its unregistration
        assertEquals(1, m.counters().immediate());
    }

    @Test
    void snapshotListsHeldAndAwaitedLocks() {
        Session a = session(7), b = session(8);
        a.grant(STATEMENT, s(t), s(ta));
        a.grant(TRANSACTION, x(tb));
        Future<LockResult> bw = b.start(STATEMENT, s(t), s(tb));
        awaitWaiting(b);
        Set<String> rows = m.snapshot().stream().map(LockInfo::toString).collect(Collectors.toSet());
        assertEquals(Set.of(
                "#7(s7) HELD S(PUBLIC.T) STATEMENT",
                "#7(s7) HELD S(PUBLIC.T.A) STATEMENT",
                "#7(s7) HELD X(PUBLIC.T.B) TRANSACTION",
                "#8(s8) HELD S(PUBLIC.T) STATEMENT",
                "#8(s8) WAITING S(PUBLIC.T.B) STATEMENT"), rows);
        a.releaseAll();
        assertEquals(Status.GRANTED, get(bw).status());
        assertEquals(2, m.snapshot().size());
    }

    // ---- names and owners --------------------------------------------------------------------

    @Test
    void namesAreCanonical() {
        assertSame(t, m.table("T", "ignored"));
        assertSame(ta, t.attribute(0, "ignored"));
        assertNotSame(ta, tb);
        assertEquals("PUBLIC.T", t.toString());
        assertEquals("PUBLIC.T.B", tb.toString());
        assertSame(t, tb.table());
        assertSame(t, t.table());
        assertEquals(1, tb.column());
        AttributeLock far = t.attribute(40, "FAR");
        assertSame(far, t.attribute(40, "FAR"));
        assertSame(ta, t.attribute(0, "A"));
    }

    @Test
    void dropTableKeepsHeldLocksWorking() {
        Session a = session(1), b = session(2);
        a.grant(x(t), s(ta));
        m.dropTable("T");
        assertTrue(t.isDropped());
        TableLock t2 = m.table("T", "PUBLIC.T");
        assertNotSame(t, t2);
        assertEquals(Status.GRANTED, b.tryShort(x(t2)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(t)));
        a.releaseAll();
        assertEquals(Status.GRANTED, b.tryShort(s(t)));
    }

    @Test
    void foreignOwnersAndNamesAreRejected() {
        LockManager other = newManager();
        Owner foreign = other.register(9, "x");
        Session a = session(1);
        assertThrows(IllegalArgumentException.class,
                () -> m.acquire(foreign, new LockRequest[] {s(t)}, TRANSACTION));
        TableLock ot = other.table("T", "T");
        AssertionError e = assertThrows(AssertionError.class, () -> a.grant(s(t), s(ot)));
        assertTrue(e.getCause().getMessage().contains("another lock manager"), e.toString());
        assertNull(a.held(t)); // the partial call was undone
        m.unregister(a.o);
        assertThrows(IllegalStateException.class, () -> m.releaseAll(a.o));
        m.cancel(a.o); // a late cancel of a closed session is harmless
        assertThrows(IllegalArgumentException.class, () -> other.cancel(a.o));
    }

    @Test
    void canonicalOrder() {
        LockRequest[] c = LockRequest.canonical(x(ua), s(tb), s(t), s(ta), x(tb), s(u));
        assertEquals(List.of(s(t), s(ta), x(tb), s(u), x(ua)), List.of(c));
    }

    // ---- cells, row keys and the table's IX -------------------------------------------

    /**
     * Conversions on a keyed name that other owners read: the shared count of a keyed name is
     * one number for all owners (FastLockManager), so a conversion must wait for the others'
     * share and take out only its own.
     */
    @Test
    void aCellConvertsOnlyOnceTheOtherReadersOfItAreGone() {
        for (boolean viaU : new boolean[] {false, true}) {
            Session a = session(viaU ? 3 : 1), b = session(viaU ? 4 : 2), c = session(viaU ? 6 : 5);
            a.grant(s(t), cellS(ta, 1));
            b.grant(s(t), cellS(ta, 1));
            c.grant(s(t), cellS(ta, 1));
            if (viaU) {
                a.grant(cellU(ta, 1)); // U lets the readers stay
            }
            Future<LockResult> up = a.start(cellX(ta, 1));
            awaitWaiting(a);
            b.releaseAll();
            // c still reads it: a wrong grant would come on a's thread, so give it time to
            assertThrows(TimeoutException.class, () -> up.get(SHORT_MS, TimeUnit.MILLISECONDS));
            c.releaseAll();
            assertEquals(Status.GRANTED, get(up).status());
            assertEquals(Status.TIMEOUT, b.tryShort(cellS(ta, 1)));
            a.releaseAll();
            b.grant(cellX(ta, 1)); // nothing left behind: X is free at once
            b.releaseAll();
            assertKeyedNameFree(ta.keyed(List.of(1)));
        }
    }

    /** Implementations with per-name counts check that nothing is left counted (no-op here). */
    void assertKeyedNameFree(KeyLock k) {
    }

    @Test
    void firstRowsReadAreMarkedPerRangeLengthUnderSOnTheTableOnlyAndStay() {
        Session a = session(1), b = session(2);
        assertFalse(u.firstRowsRead());
        a.grant(keyX(u, 3));
        assertThrows(IllegalStateException.class, () -> u.markFirstRowsRead(a.o, 2), "IX, not S");
        a.releaseAll();
        a.grant(s(u), keyX(u, 4));
        assertThrows(IllegalStateException.class, () -> u.markFirstRowsRead(a.o, 2),
                "S beside IX: its own insert locked no first row");
        a.releaseAll();
        b.grant(s(u));
        u.markFirstRowsRead(b.o, 2);
        assertTrue(u.firstRowsRead());
        assertTrue(u.firstRowsRead(2));
        assertFalse(u.firstRowsRead(1));
        assertThrows(IllegalArgumentException.class, () -> u.firstRowsRead(0));
        b.releaseAll();
        assertTrue(u.firstRowsRead(2), "never cleared");
    }

    @Test
    void aRangesFirstRowNameConflictsWithItsChangersOnlyNotWithTheRangesRows() {
        LockRequest first = LockRequest.rowKey(u, RowKey.firstOf(new long[] {1, 2}, 2), LockMode.S);
        LockRequest changer = LockRequest.rowKey(u, RowKey.firstOf(new long[] {1, 2}, 2), LockMode.IX);
        assertConflict(first, changer);
        assertConflict(changer, first);
        assertCompatible(first, first);
        assertCompatible(changer, changer);
        // the range itself and its rows are other names
        assertCompatible(first, LockRequest.rowKey(u, RowKey.of(1, 2), LockMode.IX));
        assertCompatible(first, LockRequest.rowKey(u, RowKey.of(1, 2, 9), LockMode.X));
        assertCompatible(first, LockRequest.rowKey(u, RowKey.firstOf(new long[] {1, 3}, 2), LockMode.IX));
        // and the table's intentions as for any row key
        assertConflict(first, x(u));
        assertCompatible(first, LockRequest.ix(u));
    }


    static LockRequest cellS(AttributeLock a, int k) {
        return LockRequest.cell(a, List.of(k), LockMode.S);
    }

    static LockRequest cellU(AttributeLock a, int k) {
        return LockRequest.cell(a, List.of(k), LockMode.U);
    }

    static LockRequest cellX(AttributeLock a, int k) {
        return LockRequest.cell(a, List.of(k), LockMode.X);
    }

    static LockRequest keyX(TableLock t, int k) {
        return LockRequest.rowKey(t, List.of(k), LockMode.X);
    }

    static LockRequest keyS(TableLock t, int k) {
        return LockRequest.rowKey(t, List.of(k), LockMode.S);
    }

    /**
     * tryAcquire grants a set only if no lock of it would wait: for others' holds, or behind a
     * waiter (the fairness rule). Refused, the owner holds what it held before, with no keyed
     * name left made for it; nothing is queued, and no timeout is counted.
     */
    @Test
    void aTryIsGrantedOnlyIfNoLockWouldWaitAndARefusalLeavesNothingBehind() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(cellX(ta, 1));
        // the writer's intentions (IS(T), IX(T.a)) refuse neither a cell of its column nor another's
        assertTrue(b.tryAcquire(cellS(ta, 2), cellS(tb, 1)));
        assertEquals(LockMode.S, b.held(new KeyLock(ta, List.of(2))));
        // a write of another cell beside it (IX(T.a) beside IX(T.a)): granted
        assertTrue(c.tryAcquire(cellX(ta, 3)));
        c.releaseAll();
        // the written cell, and the whole column, are refused; so is a set with one of them
        assertFalse(b.tryAcquire(cellS(ta, 1)));
        assertFalse(b.tryAcquire(s(ta)));
        assertFalse(b.tryAcquire(cellS(tc, 5), cellS(ta, 1)));
        assertNull(b.held(new KeyLock(tc, List.of(5))));
        assertNull(b.held(tc), "no intention left either");
        assertEquals(0, tc.keyCount(), "the name made for the refused set is forgotten");
        assertEquals(LockMode.S, b.held(new KeyLock(tb, List.of(1))), "what it held stays");
        assertTrue(m.snapshot().stream().noneMatch(i -> i.state() == LockInfo.State.WAITING));
        assertEquals(0, m.counters().timeouts());
        assertEquals(0, m.counters().waits(), "a refusal is answered at once");
        // a reader's S is compatible with a holder's S, but not with X queued behind it
        b.releaseAll();
        a.releaseAll();
        a.grant(cellS(ta, 1));
        Future<LockResult> writer = c.start(cellX(ta, 1));
        awaitWaiting(c);
        assertFalse(b.tryAcquire(cellS(ta, 1)));
        a.releaseAll();
        assertEquals(Status.GRANTED, get(writer).status());
        c.releaseAll();
        assertTrue(b.tryAcquire(cellS(ta, 1), s(tb)));
        b.releaseAll();
        // the intentions' own conflicts: IX(T.a) under a cell write, refused beside S(T.a);
        // IS(T) under any attribute, refused beside X(T)
        a.grant(s(ta));
        assertFalse(b.tryAcquire(cellX(ta, 3)));
        assertTrue(b.tryAcquire(cellX(tb, 3)));
        a.releaseAll();
        b.releaseAll();
        a.grant(x(t));
        assertFalse(b.tryAcquire(s(tb)));
        a.releaseAll();
        assertEquals(0, m.counters().timeouts());
        assertEquals(List.of(), m.snapshot());
    }

    /**
     * A keyed name asked for again in the mode its owner holds it in (or a weaker one), for no
     * longer than it holds it, is answered from the owner's own holds: a request granted at
     * once. Held more weakly, or only for the statement when the transaction asks, it takes
     * the full path: an upgrade, or a hold kept past the statement's end.
     */
    @Test
    void aKeyedNameAskedForAgainIsFoundAmongTheOwnersHolds() {
        Session a = session(1), b = session(2);
        Object rangeOf1 = List.of(1);
        LockRequest cell = LockRequest.cell(ta, List.of(1, 7), LockMode.X);
        LockRequest range = LockRequest.cell(ta, rangeOf1, LockMode.IX);
        a.grant(range, cell);
        b.grant(LockRequest.cell(ta, List.of(1, 8), LockMode.X));
        long requests = m.counters().requests(), immediate = m.counters().immediate();
        a.grant(range, cell, LockRequest.cell(ta, List.of(1, 7), LockMode.S));
        assertEquals(requests + 3, m.counters().requests());
        assertEquals(immediate + 3, m.counters().immediate());
        assertEquals(Status.TIMEOUT, b.tryShort(cell), "and holds still");

        a.grant(STATEMENT, cellS(tb, 3));
        a.grant(cellS(tb, 3));                   // held for the statement, asked for longer
        a.releaseStatementLocks();
        KeyLock b3 = new KeyLock(tb, List.of(3));
        assertEquals(LockMode.S, a.held(b3), "kept past the statement's end");
        long upgrades = m.counters().upgrades();
        a.grant(cellX(tb, 3));                   // held weaker: converted
        assertEquals(upgrades + 1, m.counters().upgrades());
        assertEquals(LockMode.X, a.held(b3));
        assertEquals(Status.TIMEOUT, b.tryShort(cellS(tb, 3)));
        a.grant(LockRequest.cell(ta, rangeOf1, LockMode.S)); // IX held, S asked: both held
        assertEquals(LockMode.S, a.held(new KeyLock(ta, rangeOf1)));
        b.releaseAll();
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    /**
     * A held keyed name asked for again adds no lock memory, so it tries no escalation; a set
     * that asks again for held names and then fails gives back only what the call took.
     */
    @Test
    void aKeyedNameAskedForAgainTriesNoEscalationAndOutlivesItsCallsFailure() {
        m.setEscalationThreshold(2);
        Session a = session(1), b = session(2);
        a.grant(cellX(ta, 1), cellX(ta, 2));
        a.grant(cellX(ta, 1), LockRequest.cell(ta, List.of(2), LockMode.IX)); // X covers IX
        assertEquals(0, m.counters().escalations());
        assertEquals(Status.GRANTED, b.tryShort(cellX(ta, 9)), "the column is not escalated");
        // b holds X on a cell of ta: a's escalation on a third key is refused, the key kept
        a.grant(cellX(ta, 3));
        assertEquals(LockMode.X, a.held(new KeyLock(ta, List.of(3))));
        b.grant(cellX(tb, 5));
        assertEquals(Status.TIMEOUT, a.tryShort(cellX(ta, 1), cellX(tb, 4), cellX(tb, 5)));
        assertEquals(LockMode.X, a.held(new KeyLock(ta, List.of(1))), "held before the call");
        assertNull(a.held(new KeyLock(tb, List.of(4))), "taken by the failed call");
        b.releaseAll();
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void cellsOfOneColumnConflictOnlyOnTheSameKey() {
        assertCompatible(cellX(ta, 1), cellX(ta, 2));
        assertCompatible(cellX(ta, 1), cellX(tb, 1));
        assertCompatible(cellS(ta, 1), cellS(ta, 1));
        assertCompatible(cellU(ta, 1), cellS(ta, 1));
        assertConflict(cellX(ta, 1), cellX(ta, 1));
        assertConflict(cellS(ta, 1), cellX(ta, 1));
        assertConflict(cellX(ta, 1), cellS(ta, 1));
        assertConflict(cellU(ta, 1), cellU(ta, 1));
        assertCompatible(cellX(ta, 1), LockRequest.cell(ta, List.of(1, 0), LockMode.X));
    }

    @Test
    void aCellConflictsWithTheLocksOnItsWholeColumnAndTable() {
        // a writer of one cell against readers and writers of the whole column
        assertConflict(cellX(ta, 1), s(ta));
        assertConflict(s(ta), cellX(ta, 1));
        assertConflict(cellU(ta, 1), s(ta));
        assertConflict(u(ta), cellU(ta, 1));
        assertConflict(cellX(ta, 1), x(ta));
        // a reader of one cell against the column's writers only
        assertCompatible(cellS(ta, 1), s(ta));
        assertCompatible(s(ta), cellS(ta, 1));
        assertCompatible(u(ta), cellS(ta, 1));
        assertConflict(cellS(ta, 1), x(ta));
        assertConflict(x(ta), cellS(ta, 1));
        // the table: only X; S(T) is about the table's rows, not its values
        assertConflict(cellS(ta, 1), x(t));
        assertConflict(x(t), cellX(ta, 1));
        assertCompatible(cellX(ta, 1), s(t));
        assertCompatible(s(t), cellX(ta, 1));
        assertCompatible(cellX(ta, 1), x(tb));
    }

    @Test
    void rowKeysAndIxLetInsertersRunTogetherAndKeepReadersOfTheTableOut() {
        assertCompatible(keyX(t, 1), keyX(t, 2));
        assertConflict(keyX(t, 1), keyX(t, 1));
        assertCompatible(keyS(t, 1), keyS(t, 1));
        assertConflict(keyS(t, 1), keyX(t, 1));
        // X on a row key takes IX on its table: no S, U or X on the table beside it
        assertConflict(keyX(t, 1), s(t));
        assertConflict(s(t), keyX(t, 1));
        assertConflict(u(t), keyX(t, 1));
        assertConflict(keyX(t, 1), x(t));
        assertCompatible(keyS(t, 1), s(t));
        // but attribute and cell locks, and other IX, go beside it
        assertCompatible(keyX(t, 1), x(ta));
        assertCompatible(keyX(t, 1), cellX(ta, 1));
        assertCompatible(keyX(t, 1), LockRequest.ix(t));
        assertCompatible(LockRequest.ix(t), LockRequest.ix(t));
        assertConflict(LockRequest.ix(t), s(t));
        assertConflict(s(t), LockRequest.ix(t));
        assertConflict(LockRequest.ix(t), u(t));
        assertConflict(x(t), LockRequest.ix(t));
        assertCompatible(LockRequest.ix(t), s(ta));
        assertCompatible(LockRequest.ix(t), keyS(t, 1));
        assertThrows(IllegalArgumentException.class, () -> new LockRequest(ta, LockMode.IX));
    }

    @Test
    void aCellsKeyRangeIsReadInSOrUAndWrittenInIx() {
        // writers of cells of one range go together; a reader of the range's values keeps them out
        assertCompatible(cellRangeIX(ta, 1), cellRangeIX(ta, 1));
        assertConflict(cellS(ta, 1), cellRangeIX(ta, 1));
        assertConflict(cellRangeIX(ta, 1), cellS(ta, 1));
        assertConflict(LockRequest.cell(ta, List.of(1), LockMode.U), cellRangeIX(ta, 1));
        assertConflict(cellRangeIX(ta, 1), LockRequest.cell(ta, List.of(1), LockMode.U));
        // a range read in U lets plain readers of the range in (U is as S towards S)
        assertCompatible(LockRequest.cell(ta, List.of(1), LockMode.U), cellS(ta, 1));
        // other ranges, other columns and the row key of the same values go beside it
        assertCompatible(cellS(ta, 2), cellRangeIX(ta, 1));
        assertCompatible(cellS(tb, 1), cellRangeIX(ta, 1));
        assertCompatible(keyS(t, 1), cellRangeIX(ta, 1));
        assertCompatible(cellRangeIX(ta, 1), s(t));
        // IX on the range takes IX on the column: readers of the whole column keep it out
        assertConflict(cellRangeIX(ta, 1), s(ta));
        assertConflict(s(ta), cellRangeIX(ta, 1));
        assertCompatible(cellRangeIX(ta, 1), LockRequest.cell(ta, List.of(1, 5), LockMode.X));
    }

    @Test
    void aCellsKeyRangeIxEscalatesToXOnTheColumnWhichCoversIt() {
        assertARangesIxEscalatesToXOnItsParentWhichCoversIt(ta);
    }

    static LockRequest cellRangeIX(AttributeLock a, int k) {
        return LockRequest.cell(a, List.of(k), LockMode.IX);
    }

    static LockRequest rangeIX(TableLock t, int k) {
        return LockRequest.rowKey(t, List.of(k), LockMode.IX);
    }

    @Test
    void aKeyRangeIsReadInSAndInsertedIntoInIx() {
        // inserters of one range go together; a reader of the range keeps them out
        assertCompatible(rangeIX(t, 1), rangeIX(t, 1));
        assertConflict(keyS(t, 1), rangeIX(t, 1));
        assertConflict(rangeIX(t, 1), keyS(t, 1));
        assertConflict(rangeIX(t, 1), LockRequest.rowKey(t, List.of(1), LockMode.U));
        assertConflict(keyX(t, 1), rangeIX(t, 1));
        // other ranges, the table's own IX and readers of other things go beside it
        assertCompatible(keyS(t, 2), rangeIX(t, 1));
        assertCompatible(rangeIX(t, 1), LockRequest.ix(t));
        assertCompatible(rangeIX(t, 1), s(ta));
        assertCompatible(rangeIX(t, 1), cellX(ta, 1));
        // IX on the range takes IX on the table
        assertConflict(rangeIX(t, 1), s(t));
        assertConflict(s(t), rangeIX(t, 1));
        assertConflict(x(t), rangeIX(t, 1));
    }

    @Test
    void anOwnerReadsAndInsertsIntoOneRangeAndKeepsTheIxToTheEnd() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(LockDuration.STATEMENT, keyS(t, 1));
        a.grant(rangeIX(t, 1), keyX(t, 7));      // beside its own S: no wait (SIX)
        assertEquals(Status.TIMEOUT, b.tryShort(keyS(t, 1)));
        a.releaseStatementLocks();               // the range's S goes, its IX stays
        assertEquals(LockMode.IX, a.held(new KeyLock(t, List.of(1))));
        assertEquals(Status.GRANTED, c.tryShort(rangeIX(t, 1)), "IX beside IX");
        assertEquals(Status.TIMEOUT, b.tryShort(keyS(t, 1)));
        a.releaseShared();                       // RbW-RL's release keeps IX too
        assertEquals(LockMode.IX, a.held(new KeyLock(t, List.of(1))));
        Set<String> rows = m.snapshot().stream().filter(i -> i.ownerId() == a.o.id())
                .map(i -> i.mode() + " " + i.name()).collect(Collectors.toSet());
        assertEquals(Set.of("IX PUBLIC.T", "IX PUBLIC.T[1]", "X PUBLIC.T[7]"), rows);
        a.releaseAll();
        c.releaseAll();
        assertEquals(Status.GRANTED, b.tryShort(keyS(t, 1)));
        b.releaseAll();
        assertEquals(List.of(), m.snapshot());
        assertKeyedNameFree(t.keyed(List.of(1)));
    }

    @Test
    void aDeadlockThroughAKeyRangeNamesTheIxHeldOnIt() {
        Session a = session(1), b = session(2);
        a.grant(keyS(t, 1));
        b.grant(rangeIX(t, 2));
        Future<LockResult> aw = a.start(keyS(t, 2));
        awaitWaiting(a);
        LockResult br = b.acquire(TRANSACTION, 0, rangeIX(t, 1));
        assertEquals(Status.DEADLOCK, br.status(), br::toString);
        assertTrue(br.cycle().stream().anyMatch(e -> e.blockerLock().equals(rangeIX(t, 2))), br::toString);
        b.releaseAll();
        assertEquals(Status.GRANTED, get(aw).status());
        a.releaseAll();
    }

    @Test
    void aKeyRangesIxEscalatesToXOnTheTableWhichCoversIt() {
        assertARangesIxEscalatesToXOnItsParentWhichCoversIt(t);
    }

    /** A key range of {@code parent} (a table's rows or a column's values) in IX. */
    private void assertARangesIxEscalatesToXOnItsParentWhichCoversIt(LockName parent) {
        m.setEscalationThreshold(2);
        Session a = session(1), b = session(2);
        b.grant(keyed(parent, 21, LockMode.IX));
        a.grant(keyed(parent, 11, LockMode.X), keyed(parent, 12, LockMode.X));
        a.grant(keyed(parent, 1, LockMode.IX));  // past the threshold, the parent not free
        assertEquals(0, m.counters().escalations());
        assertEquals(LockMode.IX, a.held(new KeyLock(parent, List.of(1))));
        assertEquals(Status.TIMEOUT, b.tryShort(keyed(parent, 1, LockMode.S)));
        Set<String> rows = m.snapshot().stream().filter(i -> i.ownerId() == a.o.id())
                .map(i -> i.mode() + " " + i.name()).collect(Collectors.toSet());
        assertTrue(rows.contains("IX " + parent + "[1]"), rows::toString);
        b.releaseAll();
        a.releaseAll();
        a.grant(keyed(parent, 11, LockMode.X), keyed(parent, 12, LockMode.X));
        a.grant(keyed(parent, 1, LockMode.IX));  // past the threshold: X on the parent, not IX
        assertEquals(1, m.counters().escalations());
        assertEquals(LockMode.X, a.held(parent));
        assertNull(parent.keyed(List.of(1)));
        assertEquals(Status.TIMEOUT, b.tryShort(keyed(parent, 1, LockMode.S)));
        a.releaseAll();
        a.grant(x(parent));
        a.grant(keyed(parent, 2, LockMode.IX)); // covered by X on the parent: no name made
        assertNull(parent.keyed(List.of(2)));
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    static LockRequest keyed(LockName parent, int k, LockMode mode) {
        return new LockRequest(new KeyLock(parent, List.of(k)), mode);
    }

    @Test
    void anOwnersOwnLocksCoverItsCellsAndRowKeys() {
        Session a = session(1), b = session(2);
        a.grant(s(ta));
        a.grant(cellS(ta, 1));                   // covered by S(T.a): no new name
        assertEquals(0, m.keyCount(ta));
        a.grant(cellX(ta, 1));                   // not covered: a cell, beside S(T.a) (SIX)
        assertEquals(LockMode.X, a.held(new KeyLock(ta, List.of(1))));
        assertEquals(Status.TIMEOUT, b.tryShort(cellS(ta, 1)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(ta)));
        assertEquals(Status.GRANTED, b.tryShort(cellS(ta, 2)), "a's S and IX on T.a let other cells be read");
        b.releaseAll();
        a.releaseAll();
        a.grant(x(t));
        a.grant(cellX(tb, 7), keyX(t, 7));       // covered by X(T)
        assertEquals(0, m.keyCount(tb));
        assertEquals(0, m.keyCount(t));
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void manyCellsOfOneColumnEscalateToTheColumn() {
        m.setEscalationThreshold(3);
        Session a = session(1), b = session(2);
        a.grant(cellX(ta, 1), cellX(ta, 2), cellX(ta, 3));
        assertEquals(0, m.counters().escalations());
        assertEquals(Status.GRANTED, b.tryShort(cellX(ta, 9)));
        b.releaseAll();
        a.grant(cellX(ta, 4));                   // the fourth takes X(T.a) instead
        assertEquals(1, m.counters().escalations());
        assertEquals(LockMode.X, a.held(ta));
        assertNull(a.held(new KeyLock(ta, List.of(4))));
        assertEquals(Status.TIMEOUT, b.tryShort(cellX(ta, 9)));
        a.grant(cellX(ta, 5));                   // covered now: no more escalations
        assertEquals(1, m.counters().escalations());
        assertEquals(Status.GRANTED, b.tryShort(cellX(tb, 9)));
        a.releaseAll();
        b.grant(cellX(ta, 9));
        b.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    /**
     * IX on cells (the engine's increments, or writes of key ranges) escalates too, to X on the
     * column: IX there would let in the readers of the cells it stands for.
     */
    @Test
    void manyIxCellsOfOneColumnEscalateToXOnTheColumn() {
        m.setEscalationThreshold(3);
        Session a = session(1), b = session(2);
        a.grant(cellRangeIX(ta, 1), cellRangeIX(ta, 2), cellRangeIX(ta, 3));
        b.grant(cellRangeIX(ta, 1));             // increments of one cell go together
        a.grant(cellRangeIX(ta, 4));             // past the threshold, but X(T.a) is not free
        assertEquals(0, m.counters().escalations());
        assertEquals(LockMode.IX, a.held(new KeyLock(ta, List.of(4))));
        b.releaseAll();
        for (int k = 5; k < 7; k++) {
            a.grant(cellRangeIX(ta, k));         // tried again at twice the 3 keys it held
        }
        assertEquals(0, m.counters().escalations());
        a.grant(cellRangeIX(ta, 7));
        assertEquals(1, m.counters().escalations());
        assertEquals(LockMode.X, a.held(ta));
        assertNull(a.held(new KeyLock(ta, List.of(7))));
        assertEquals(Status.TIMEOUT, b.tryShort(cellRangeIX(ta, 9)));
        assertEquals(Status.TIMEOUT, b.tryShort(cellS(ta, 1)));
        assertEquals(Status.GRANTED, b.tryShort(cellRangeIX(tb, 9)));
        a.releaseAll();
        b.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void anEscalationThatWouldWaitIsNotMadeAndTwoEscalatingOwnersDoNotDeadlock() {
        m.setEscalationThreshold(2);
        Session a = session(1), b = session(2);
        a.grant(keyX(t, 1), keyX(t, 2));
        b.grant(keyX(t, 11), keyX(t, 12));
        // both are past the threshold; X(T) is not free for either (the other's IX): no escalation
        a.grant(keyX(t, 3));
        b.grant(keyX(t, 13));
        assertEquals(0, m.counters().escalations());
        assertEquals(LockMode.IX, a.held(t));
        b.releaseAll();
        // refused at 2 keys, a tries again at 4: the fourth key is a key, the fifth escalates
        a.grant(keyX(t, 4));
        assertEquals(0, m.counters().escalations());
        assertEquals(LockMode.X, a.held(new KeyLock(t, List.of(4))));
        a.grant(keyX(t, 5));
        assertEquals(1, m.counters().escalations());
        assertEquals(LockMode.X, a.held(t));
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void aRefusedEscalationIsTriedAgainWhenTheOwnersKeysHaveDoubled() {
        m.setEscalationThreshold(4);
        Session a = session(1), b = session(2);
        b.grant(cellX(ta, -1));                  // IX(T.a): S(T.a) is refused while b holds it
        for (int k = 0; k < 4; k++) {
            a.grant(cellS(ta, k));
        }
        a.grant(cellS(ta, 4));                   // tried at 4 keys and refused
        b.releaseAll();
        for (int k = 5; k < 8; k++) {
            a.grant(cellS(ta, k));               // 5, 6, 7 keys: not tried
            assertEquals(0, m.counters().escalations());
            assertNotEquals(LockMode.S, a.held(ta));
        }
        a.grant(cellS(ta, 8));                   // 8 keys: tried, and the column is free now
        assertEquals(1, m.counters().escalations());
        assertEquals(LockMode.S, a.held(ta));
        assertEquals(0, m.counters().waits(), "a refused try never queues");
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void keyedNamesNobodyHoldsAreSweptAndHeldOnesStay() {
        m.setForgetting(false);                  // names stay until a sweep: make sweeps run
        m.setKeyTableSweepSize(16 * 8);          // 8 names per partition of the table
        Session a = session(1), b = session(2), c = session(3);
        // keys of one first value: one partition, which every sweep below visits, held name and all
        RowKey held = RowKey.of(1, -1);
        a.grant(LockRequest.cell(ta, held, LockMode.X));
        int most = 0;
        for (int k = 0; k < 200; k++) {
            b.grant(LockRequest.cell(ta, RowKey.of(1, k), LockMode.X));
            b.releaseAll();
            most = Math.max(most, m.keyCount(ta));
            assertTrue(m.keyCount(ta) <= 9, () -> "the cell table grew to " + m.keyCount(ta));
        }
        assertTrue(most >= 8, "names were kept until a sweep: " + most);
        assertEquals(LockMode.X, a.held(new KeyLock(ta, held)));
        assertEquals(Status.TIMEOUT, c.tryShort(LockRequest.cell(ta, held, LockMode.S)));
        a.releaseAll();
        c.grant(LockRequest.cell(ta, held, LockMode.S));
        c.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void aKeyedNameIsForgottenWhenItsLastHolderLetsItGo() {
        Session a = session(1), b = session(2);
        a.grant(cellS(ta, 1), keyX(t, 1));
        b.grant(cellS(ta, 1));
        assertEquals(1, m.keyCount(ta));
        a.releaseAll();                          // b still holds the cell
        assertEquals(1, m.keyCount(ta));
        assertEquals(0, m.keyCount(t));          // the row key had one holder
        b.releaseAll();
        assertEquals(0, m.keyCount(ta));
        // a waiter keeps the name: it is granted the same name, and forgets it in its turn
        a.grant(cellX(ta, 2));
        Future<LockResult> f = b.start(cellS(ta, 2));
        awaitWaiting(b);
        a.releaseAll();
        assertEquals(Status.GRANTED, get(f).status());
        assertEquals(1, m.keyCount(ta));
        assertEquals(LockMode.S, b.held(new KeyLock(ta, List.of(2))));
        b.releaseAll();
        assertEquals(0, m.keyCount(ta));
        // the statement's end and the early release of reads forget what they release
        a.grant(STATEMENT, cellS(ta, 3));
        a.grant(cellX(tb, 3), cellS(tc, 3));
        assertEquals(1, m.keyCount(ta));
        a.releaseStatementLocks();
        assertEquals(0, m.keyCount(ta));
        a.releaseShared();
        assertEquals(0, m.keyCount(tc));
        assertEquals(1, m.keyCount(tb), "the X cell stays held");
        a.releaseAll();
        assertEquals(0, m.keyCount(tb));
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void aFailedCallWithCellsLeavesNothingBehind() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(cellX(ta, 1));
        assertEquals(Status.TIMEOUT, b.tryShort(cellX(tb, 2), keyX(u, 3), cellX(ta, 1)));
        assertTrue(m.snapshot().stream().noneMatch(i -> i.ownerId() == b.o.id()), m.snapshot()::toString);
        assertEquals(0, m.keyCount(tb), "the names the failed call made are forgotten");
        assertEquals(0, m.keyCount(u));
        assertEquals(1, m.keyCount(ta));
        c.grant(x(tb));                          // b's IX on T.b is gone
        c.grant(s(u));                           // and its IX on U
        a.releaseAll();
        c.releaseAll();
    }

    @Test
    void aStatementsEndReleasesOnlyWhatTheStatementReadAndKeepsTheIntentionsOthersNeed() {
        Session a = session(1), b = session(2);
        // the transaction's rows, one statement each: X row keys and cells, and S for the
        // statement on a parent row key per statement (a foreign key check); fewer rows
        // than escalate to the table
        for (int k = 1; k <= 50; k++) {
            a.grant(keyX(t, k), cellX(ta, k));
            a.grant(STATEMENT, keyS(u, k % 7));
            a.releaseStatementLocks();
            assertEquals(0, m.keyCount(u), "the parent key read for one statement is forgotten");
        }
        // a statement's read of a cell the transaction then writes stays, as X
        a.grant(STATEMENT, cellS(tb, 300));
        a.grant(cellX(tb, 300));
        a.grant(STATEMENT, cellS(tc, 301), cellS(tc, 302));
        a.releaseStatementLocks();
        assertEquals(LockMode.X, a.held(new KeyLock(tb, List.of(300))), () -> m.snapshot().toString());
        assertNull(a.held(new KeyLock(tc, List.of(301))));
        assertEquals(0, m.keyCount(tc));
        assertEquals(50, m.keyCount(t));
        assertEquals(50, m.keyCount(ta));
        assertEquals(Status.GRANTED, b.tryShort(x(tc)), "T.c's intention went with its cells");
        assertEquals(Status.GRANTED, b.tryShort(x(u)), "U's intention went with its keys");
        assertEquals(Status.TIMEOUT, b.tryShort(s(ta)), "T.a keeps its IX under 50 X cells");
        assertEquals(Status.TIMEOUT, b.tryShort(s(tb)));
        assertEquals(Status.TIMEOUT, b.tryShort(cellS(ta, 50)));
        b.releaseAll();
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
        assertEquals(0, m.keyCount(t));
    }

    @Test
    void aStatementReadThatAFailedCallUndidIsNotReleasedAgainAtStatementEnd() {
        Session a = session(1), b = session(2);
        b.grant(x(tc));
        // the S cell is granted (and listed for the statement's end), then the call fails
        // on T.c and undoes it: the hold goes back to a's pool
        assertEquals(Status.TIMEOUT,
                a.acquire(STATEMENT, SHORT_MS, cellS(tb, 1), s(tc)).status());
        assertEquals(0, m.keyCount(tb));
        // the statement ends with the undone hold in the pool (it has no name any more)
        a.releaseStatementLocks();
        assertEquals(List.of(), m.snapshot().stream().filter(i -> i.ownerId() == a.o.id()).toList());
        // the pool's holds serve the transaction's next locks
        a.grant(cellS(ta, 2), keyX(t, 3));
        a.grant(STATEMENT, cellS(tb, 4));
        a.releaseStatementLocks();
        assertEquals(LockMode.S, a.held(new KeyLock(ta, List.of(2))));
        assertEquals(LockMode.X, a.held(new KeyLock(t, List.of(3))));
        assertNull(a.held(new KeyLock(tb, List.of(4))));
        assertEquals(Status.TIMEOUT, b.tryShort(x(ta)));
        b.releaseAll();
        assertEquals(Status.GRANTED, b.tryShort(x(tb)));
        b.releaseAll();
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void aStatementReadThatEarlyReleaseKeepsStillGoesAtTheStatementsEnd() {
        Session a = session(1), b = session(2);
        a.grant(STATEMENT, s(t), s(ta));
        a.grant(x(tb));
        a.releaseSharedKeeping(n -> n == t || n == ta);
        assertEquals(LockMode.S, a.held(ta));
        a.releaseStatementLocks();
        assertNull(a.held(t));
        assertNull(a.held(ta));
        assertEquals(LockMode.X, a.held(tb));
        assertEquals(Status.GRANTED, b.tryShort(x(ta)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(tb)));
        b.releaseAll();
        a.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void aStatementsCellReadGoesAtStatementEndAndTheColumnsIntentionWithIt() {
        Session a = session(1), b = session(2);
        a.grant(STATEMENT, cellS(ta, 1));
        Future<LockResult> writer = b.start(x(ta));
        awaitWaiting(b);
        a.releaseStatementLocks();
        assertEquals(Status.GRANTED, get(writer).status());
        b.releaseAll();
        assertEquals(List.of(), m.snapshot());
    }

    @Test
    void earlyReleaseKeepsWrittenCellsAndTheirColumnsIntention() {
        Session a = session(1), b = session(2);
        a.grant(cellS(ta, 1), cellX(tb, 2), keyX(u, 3));
        a.releaseShared();
        assertEquals(Status.GRANTED, b.tryShort(x(ta)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(tb)));
        assertEquals(Status.TIMEOUT, b.tryShort(s(u)));
        a.releaseAll();
        b.releaseAll();
    }

    @Test
    void aReleasedCellWakesAWaiterForItsColumn() {
        Session a = session(1), b = session(2), c = session(3);
        a.grant(cellX(ta, 1));
        c.grant(keyX(t, 5));
        Future<LockResult> column = b.start(s(ta));
        Future<LockResult> table = session(4).start(s(t));
        awaitWaiting(b);
        a.releaseAll();
        assertEquals(Status.GRANTED, get(column).status());
        c.releaseAll();
        assertEquals(Status.GRANTED, get(table).status());
    }

    @Test
    void cellDeadlocksAreDetectedAndNamed() {
        Session a = session(1), b = session(2);
        a.grant(cellX(ta, 1));
        b.grant(cellX(ta, 2));
        Future<LockResult> fa = a.start(cellX(ta, 2));
        awaitWaiting(a);
        LockResult rb = b.acquire(TRANSACTION, 0, cellX(ta, 1)); // b is younger: the victim
        assertEquals(Status.DEADLOCK, rb.status(), rb::toString);
        assertTrue(rb.message().contains("T.A[1]") && rb.message().contains("T.A[2]"), rb.message());
        b.releaseAll();
        assertEquals(Status.GRANTED, get(fa).status());
        a.releaseAll();
    }

    @Test
    void aDeadlockThroughAColumnsIntentionIsDetected() {
        // a writes a cell of T.a and waits for T.b; b holds T.b and waits to read all of T.a
        Session a = session(1), b = session(2);
        a.grant(cellX(ta, 1));
        b.grant(x(tb));
        Future<LockResult> fa = a.start(s(tb));
        awaitWaiting(a);
        LockResult rb = b.acquire(TRANSACTION, 0, s(ta)); // b is younger: the victim
        assertEquals(Status.DEADLOCK, rb.status(), rb::toString);
        b.releaseAll();
        assertEquals(Status.GRANTED, get(fa).status());
        a.releaseAll();
    }

    @Test
    void snapshotShowsCellsWithTheirKeysAndATablesIx() {
        Session a = session(1);
        a.grant(cellX(ta, 4), keyX(u, 5));
        Set<String> rows = m.snapshot().stream().map(i -> i.mode() + " " + i.name())
                .collect(Collectors.toSet());
        assertEquals(Set.of("X PUBLIC.T.A[4]", "X PUBLIC.U[5]", "IX PUBLIC.U"), rows);
        assertEquals(LockMode.IX, a.held(u));
        a.releaseAll();
    }

    @Test
    void canonicalOrderOfKeyedRequests() {
        LockRequest[] c = LockRequest.canonical(cellX(ta, 1), s(ta), keyX(t, 2), LockRequest.ix(t),
                s(t), cellS(ta, 1));
        assertEquals(List.of(s(t), LockRequest.ix(t), keyX(t, 2), s(ta), cellX(ta, 1)), List.of(c));
        // a row key's S and IX asked together stay two requests
        assertEquals(2, LockRequest.canonical(keyS(t, 1), rangeIX(t, 1), keyS(t, 1)).length);
    }

    static Set<LockDuration> durationsOf(Session s) {
        return s.call(() -> s.o.manager.snapshot().stream().filter(i -> i.ownerId() == s.o.id())
                .map(LockInfo::duration).collect(Collectors.toSet()));
    }
}
