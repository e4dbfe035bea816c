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
 * Each name has a word with an X bit, a U bit and a WAITER bit (a table's or an
 * attribute's padded to its own cache line, a keyed name's not: see LockWord), and a
 * small array of <em>stripes</em>, no two of which share a cache line, that together count its
 * shared holders: S holders, and for a table also the owners holding any of its
 * attributes (its intention, which X(T) must see). An owner always counts in the stripe
 * of its registration order, so owners running on different cores write different
 * lines. A keyed name (a row key or a cell) has no stripes: all its owners count in two
 * fields of the name itself (see {@link #newStripes}).
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
 * IS (an intention) counts like S in a second long of the owner's stripe, and IX (a table's
 * structural mode, a column's intention above written cells) is a count in the word,
 * added to before the S counts are summed; keyed names carry a DEAD bit once killed (see
 * {@link #tryKill}).
 *
 * <h2>Slow path</h2>
 * A request that conflicts, or finds WAITER set, enters the name's queue monitor, sets
 * WAITER (from then on every grant on that name is made under the monitor; releases
 * still go straight to the stripes and word and, seeing WAITER, wake the waiters that
 * can now proceed; a commit's or rollback's release does all its names first and wakes
 * afterwards), and queues (see {@link LockManager} for the fairness rule). The waiter
 * parks and grants itself under the monitor when its request fits.
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
    /**
     * longs per stripe, of which the first two are used; the first STRIDE longs (next to the
     * array header) unused. 128 bytes, not 64: the array starts at any 8-byte boundary (and
     * the GC moves it), so with 64 one stripe's IS count and the next stripe's S count, 56
     * bytes apart, shared a cache line in one array of eight, as did the last IS count and
     * the object after the array, and two owners' S and IS requests on the name wrote one
     * line. 120 bytes apart, two stripes' counts share none (LockWordLayoutTest). 9 longs
     * would do; 16 keeps the stride a power of two, for 56 bytes more per stripe.
     */
    private static final int STRIDE = 16;

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
    long[] newStripes(boolean keyed) {
        // a keyed name counts in two fields of its own (KeyLock.sharedS, sharedIS): a row or
        // a cell is seldom read by owners on several cores at once, and a run makes hundreds
        // of thousands of them, so striping would cost far more (allocation, zeroing,
        // summing) than it saves
        return keyed ? null : new long[(STRIPES + 1) * STRIDE];
    }

    /**
     * The owner's S count in a name's stripes; its IS count is the next long. A keyed name
     * has no stripes: slot 0 is its S count and 1 its IS count (KeyLock.addShared); a striped
     * one has (STRIPES + 1) x STRIDE >= 80 longs.
     */
    private static int slot(LockName n, Owner o) {
        return n.stripes == null ? 0 : stripeSlot(o.seq);
    }

    /** The slot of the S count of the owner of registration order {@code seq} in stripes. */
    static int stripeSlot(int seq) {
        return ((seq & (STRIPES - 1)) + 1) * STRIDE;
    }

    private static void addShared(LockName n, int slot, long d) {
        long[] st = n.stripes;
        if (st == null) {
            ((KeyLock) n).addShared(slot, d);
        } else {
            LONGS.getAndAdd(st, slot, d);
        }
    }

    /** Sum of a name's S counts ({@code off} 0) or IS counts ({@code off} 1). */
    static long shared(LockName n, int off) {
        long[] st = n.stripes;
        if (st == null) {
            return ((KeyLock) n).shared(off);
        }
        long sum = 0;
        for (int i = STRIDE + off; i < st.length; i += STRIDE) {
            sum += (long) LONGS.getVolatile(st, i);
        }
        return sum;
    }

    /** All of a name's stripe counts, S and IS (0 once nobody holds it: the tests' check). */
    static long shared(LockName n) {
        return shared(n, 0) + shared(n, 1);
    }

    private static long ixCount(long w) {
        return w & LockWord.IX_MASK;
    }

    @Override
    int lockNode(Owner o, Hold h, int kind, LockRequest r, boolean txn, long timeout) {
        return lock(o, h.name, kind, h.mode == S ? 1 : 0, h.mode == X ? 1 : 0, h.intent ? 1 : 0,
                h.mode == U ? 1 : 0, h.ix ? 1 : 0, h.mode != NONE || h.intent || h.ix, r, txn,
                timeout);
    }

    /*
     * What an owner's hold contributes to a name: S counts 1 in the owner's stripe, IS 1 in
     * the next long of it; U is the word's U bit (a U hold replaces the S it converted); X is
     * the word's X bit (it replaces S and U); IX counts 1 in the word's low bits. The
     * intentions stay beside the mode. selfS/selfX/selfI/selfU/selfIX describe the
     * requesting owner's contribution before the request.
     */
    private int lock(Owner o, LockName n, int kind, int selfS, int selfX, int selfI, int selfU,
            int selfIX, boolean converter, LockRequest r, boolean txn, long timeout) {
        int slot = slot(n, o);
        if (kind == S || kind == IS) {
            int at = kind == S ? slot : slot + 1;
            long w = n.word();
            if (sharedFits(w, kind, selfX, selfIX)) {
                addShared(n, at, 1);
                w = n.word();
                if (sharedFits(w, kind, selfX, selfIX)) {
                    return GRANTED_NOW;
                }
                // a writer or a waiter came: back off. Like any decrement, read the word
                // afterwards: a waiter whose check saw our transient 1 has set WAITER by then
                addShared(n, at, -1);
                if (n.word() < 0) {
                    wakeAll(n);
                }
            }
        } else if (kind == U) {
            // other readers do not matter; another U or X, an IX, or a queue does
            if (n.word() == selfIX && n.casWord(selfIX, selfIX | U_BIT)) {
                if (selfS != 0) {
                    addShared(n, slot, -selfS);
                }
                return GRANTED_NOW;
            }
        } else if (kind == X) {
            long mine = (selfU != 0 ? U_BIT : 0) | selfIX;
            if (n.word() == mine && shared(n, 0) == selfS && shared(n, 1) == selfI
                    && n.casWord(mine, X_BIT | selfIX)) {
                if (shared(n, 0) == selfS && shared(n, 1) == selfI) {
                    if (selfS != 0) {
                        addShared(n, slot, -selfS);
                    }
                    return GRANTED_NOW;
                }
                release(n, mine - (X_BIT | selfIX)); // a reader came in between: back off
            }
        } else { // IX: no other S, U or X; other IX and IS do not matter
            long w = n.word();
            if (ixFits(w, selfX, selfU)) {
                long before = n.addWord(1);
                if (ixFits(before, selfX, selfU) && shared(n, 0) == selfS) {
                    return GRANTED_NOW;
                }
                release(n, -1); // a reader, a writer or a waiter came: back off
            }
        }
        if (timeout == NO_WAIT && heldAgainst(n, kind, selfS, selfX, selfI, selfU, selfIX)) {
            // a try (an escalation's, or tryAcquire's) that others' holds refuse: refused here,
            // as the queue's monitor would, without setting WAITER, which sends their fast
            // paths through it
            return R_TIMEOUT;
        }
        return lockSlow(o, n, slot, kind, selfS, selfX, selfI, selfU, selfIX, converter, r, txn,
                timeout);
    }

    /**
     * Whether other owners hold what keeps {@code kind} out of {@code n} now (read without the
     * monitor: tryGrant's test of the holders, less the queue's). Such a request would wait
     * whether it converts or arrives, so a try may be refused on it alone.
     */
    private static boolean heldAgainst(LockName n, int kind, int selfS, int selfX, int selfI,
            int selfU, int selfIX) {
        long w = n.word();
        boolean otherX = (w & X_BIT) != 0 && selfX == 0;
        if (kind == IS) {
            return otherX;
        }
        boolean otherU = (w & U_BIT) != 0 && selfU == 0;
        if (kind == IX) {
            return otherX || otherU || shared(n, 0) != selfS;
        }
        boolean otherIX = ixCount(w) != selfIX;
        if (kind == S) {
            return otherX || otherIX;
        }
        return otherX || otherU || otherIX
                || (kind == X && (shared(n, 0) != selfS || shared(n, 1) != selfI));
    }

    /** Whether S or IS may be taken on the fast path with this word. */
    private static boolean sharedFits(long w, int kind, int selfX, int selfIX) {
        return (w & (WAITER | LockWord.DEAD)) == 0 && ((w & X_BIT) == 0 || selfX != 0)
                && (kind == IS || ixCount(w) == selfIX);
    }

    /** Whether IX may be taken on the fast path with this word (the S holders are checked after). */
    private static boolean ixFits(long w, int selfX, int selfU) {
        return (w & (WAITER | LockWord.DEAD)) == 0 && ((w & X_BIT) == 0 || selfX != 0)
                && ((w & U_BIT) == 0 || selfU != 0);
    }

    /**
     * Under the queue monitor, with WAITER set: grants the request if it fits the holders
     * and (unless it is a conversion) the waiters queued ahead of {@code self}; for a new
     * arrival ({@code self} null), those of them that have been passed {@code limit} times
     * (LockManager's fairness rule; {@code limit} is not used for a queued waiter), and
     * counts the pass for each conflicting waiter it goes past.
     */
    private static boolean tryGrant(WaitQueue q, Waiter self, LockName n, int slot, int kind,
            int selfS, int selfX, int selfI, int selfU, int selfIX, boolean converter, int limit) {
        if (!converter && (self == null ? q.conflictAheadOfArrival(kind, limit)
                                        : q.conflictAhead(self, kind))) {
            return false;
        }
        if (!grantIfFits(n, slot, kind, selfS, selfX, selfI, selfU, selfIX)) {
            return false;
        }
        if (self == null && !converter && limit > 0) {
            q.notePassed(kind);
        }
        return true;
    }

    /** tryGrant's grant: takes the request if it fits the holders. */
    private static boolean grantIfFits(LockName n, int slot, int kind, int selfS, int selfX,
            int selfI, int selfU, int selfIX) {
        long w = n.word();
        boolean otherX = (w & X_BIT) != 0 && selfX == 0;
        boolean otherU = (w & U_BIT) != 0 && selfU == 0;
        boolean otherIX = ixCount(w) != selfIX;
        if (kind == S || kind == IS) {
            if (otherX || (kind == S && otherIX)) {
                return false;
            }
            addShared(n, kind == S ? slot : slot + 1, 1);
            return true;
        }
        if (kind == IX) {
            if (otherX || otherU || shared(n, 0) != selfS) {
                return false;
            }
            n.addWord(1);
            if (shared(n, 0) != selfS) {
                // a fast-path reader is backing off (it sees WAITER and will wake us)
                n.addWord(-1);
                return false;
            }
            return true;
        }
        if ((w & X_BIT) != 0 || otherU || otherIX) {
            return false;
        }
        if (kind == U) {
            n.orWord(U_BIT);
            if (selfS != 0) {
                addShared(n, slot, -selfS);
            }
            return true;
        }
        if (shared(n, 0) != selfS || shared(n, 1) != selfI) {
            return false;
        }
        n.orWord(X_BIT);
        if (shared(n, 0) != selfS || shared(n, 1) != selfI) {
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
            int selfU, int selfIX, boolean converter, LockRequest r, boolean txn, long timeout) {
        WaitQueue q = n.queue();
        Waiter w = o.waiter;
        synchronized (q) {
            n.setWaiterBit();
            // read DEAD once: a killer may take a DEAD of its own back meanwhile, and a
            // grant must not be reported that tryGrant was never asked for
            boolean dead = (n.word() & LockWord.DEAD) != 0;
            if (dead
                    || tryGrant(q, null, n, slot, kind, selfS, selfX, selfI, selfU, selfIX, converter,
                            bargeLimit)) {
                if (q.isEmpty()) {
                    n.clearWaiterBit();
                }
                return dead ? R_RETRY : GRANTED_NOW;
            }
            if (timeout == NO_WAIT) {
                if (q.isEmpty()) {
                    n.clearWaiterBit();
                }
                return R_TIMEOUT;
            }
            w.set(n, kind, converter, selfS, selfX, selfI, selfU, selfIX, r, txn);
            q.enqueue(w);
            o.waitingOn = w;
            o.endWrite(); // publish holds + wait for the detector and snapshots
            w.version = o.version();
        }
        final long start = System.nanoTime();
        o.waitThread = Thread.currentThread();
        int result;
        boolean ended = false;
        try {
            waitPublished();
            if (detect(o, w)) {
                result = R_DEADLOCK;
            } else {
                result = waitLoop(o, n, w, slot, start, timeout);
            }
            ended = true;
        } finally {
            o.waitThread = null;
            // a wait reports its own failures as results; what else is thrown while waiting
            // (an Error: the deadlock search allocates) must not leave the waiter queued, where
            // it would keep out every later request, nor the owner's seqlock at the parity
            // acquire's end does not expect (leave() opens a write, as a grant does)
            if (!ended && w.queued) {
                leave(o, n, w);
            }
        }
        o.count(LockCounters.WAIT_NANOS, System.nanoTime() - start);
        if (result == R_INTERRUPTED) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    private int waitLoop(Owner o, LockName n, Waiter w, int slot, long start, long timeout) {
        WaitQueue q = n.queue();
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
                if (tryGrant(q, w, n, slot, w.kind, w.selfS, w.selfX, w.selfI, w.selfU, w.selfIX,
                        w.converter, 0 /* a queued waiter: queue order */)) {
                    o.beginWrite();
                    o.waitingOn = null;
                    q.remove(w);
                    if (q.isEmpty()) {
                        n.clearWaiterBit();
                    }
                    return GRANTED_WAITED;
                }
                // wakeGrantable may have woken this waiter counting it as granted, and so
                // left asleep waiters behind it that only its grant would keep out; an owner
                // that bypassed the queue (a converter) may since have taken what keeps this
                // one out and not them: pass the wake-up on
                if (w.next != null) {
                    wakeGrantable(q, n);
                }
            }
        }
        leave(o, n, w);
        return result;
    }

    /** Takes the owner's waiter out of the queue (failure) and wakes whom that unblocks. */
    private void leave(Owner o, LockName n, Waiter w) {
        WaitQueue q = n.queue();
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
        long word = n.word();
        boolean x = (word & X_BIT) != 0;
        boolean u = (word & U_BIT) != 0;
        long ix = ixCount(word);
        long sharedS = shared(n, 0), sharedI = shared(n, 1);
        for (Waiter e = q.head; e != null; e = e.next) {
            if (!e.converter && q.conflictAhead(e, e.kind)) {
                continue;
            }
            boolean xOk = !x || e.selfX != 0, uOk = !u || e.selfU != 0, ixOk = ix == e.selfIX;
            switch (e.kind) {
                case S:
                    if (xOk && ixOk) {
                        sharedS++;
                        LockSupport.unpark(e.thread);
                    }
                    break;
                case IS:
                    if (xOk) {
                        sharedI++;
                        LockSupport.unpark(e.thread);
                    }
                    break;
                case IX:
                    if (xOk && uOk && sharedS == e.selfS) {
                        ix++;
                        LockSupport.unpark(e.thread);
                    }
                    break;
                case U:
                    if (!x && uOk && ixOk) {
                        u = true;
                        sharedS -= e.selfS;
                        LockSupport.unpark(e.thread);
                    }
                    break;
                default: // X
                    if (!x && uOk && ixOk && sharedS == e.selfS && sharedI == e.selfI) {
                        x = true;
                        u = false;
                        sharedS -= e.selfS;
                        LockSupport.unpark(e.thread);
                    }
            }
        }
    }

    private static void wakeAll(LockName n) {
        WaitQueue q = n.queue();
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

    /** A release that finds WAITER set wakes the waiters (see {@link #moveHold}). */
    @Override
    void unlockNode(Owner o, LockName n, int fromMode, boolean fromIntent, boolean fromIx,
            int toMode, boolean toIntent, boolean toIx) {
        if (moveHold(o, n, fromMode, fromIntent, fromIx, toMode, toIntent, toIx)) {
            wakeAll(n);
        }
    }

    @Override
    boolean releaseNode(Owner o, LockName n, int fromMode, boolean fromIntent, boolean fromIx) {
        return moveHold(o, n, fromMode, fromIntent, fromIx, NONE, false, false);
    }

    @Override
    void wakeWaiters(LockName n) {
        wakeAll(n);
    }

    /*
     * Moves the owner's contribution to a name from one state to another: S count, IS count,
     * IX count, X bit, U bit. What the new state adds is added before what the old one held
     * is taken away (a downgrade X -> U or X -> S never leaves the name free in between).
     * True if a release found WAITER set: the caller wakes the waiters, at once or (a
     * commit's release) once all its names are done.
     */
    private boolean moveHold(Owner o, LockName n, int fromMode, boolean fromIntent,
            boolean fromIx, int toMode, boolean toIntent, boolean toIx) {
        int slot = slot(n, o);
        boolean wake = false;
        int dS = (toMode == S ? 1 : 0) - (fromMode == S ? 1 : 0);
        int dI = (toIntent ? 1 : 0) - (fromIntent ? 1 : 0);
        int dIX = (toIx ? 1 : 0) - (fromIx ? 1 : 0);
        if (dS > 0) {
            addShared(n, slot, dS);
        }
        if (dI > 0) {
            addShared(n, slot + 1, dI);
        }
        if (dIX > 0) {
            n.addWord(dIX);
        }
        if (toMode == U && fromMode != U) {
            n.addWord(U_BIT);
        }
        if (fromMode == X && toMode != X) {
            wake |= n.addWord(-X_BIT) < 0;
        }
        if (fromMode == U && toMode != U) {
            wake |= n.addWord(-U_BIT) < 0;
        }
        if (dIX < 0) {
            wake |= n.addWord(dIX) < 0;
        }
        if (dS < 0 || dI < 0) {
            if (dS < 0) {
                addShared(n, slot, dS);
            }
            if (dI < 0) {
                addShared(n, slot + 1, dI);
            }
            wake |= n.word() < 0;
        }
        return wake;
    }

    /*
     * The killer's side (the name's last holder, or a sweeper) of a Dekker pair, like X's:
     * it sets DEAD in a word of 0, then reads the name's two counts; a fast-path S adds to
     * its count, then reads the word. One of them sees the other: the S backs off and looks
     * the name up again, or the killer puts the word back. U and X requests CAS the word from
     * an exact value, which DEAD never is, and the slow path checks DEAD under the monitor,
     * which the killer's word of 0 (no WAITER) shows nobody else holds. Two killers race on
     * the CAS.
     */
    @Override
    boolean tryKill(KeyLock k) {
        if (k.word() != 0 || shared(k, 0) != 0 || shared(k, 1) != 0 || !k.casWord(0, LockWord.DEAD)) {
            return false;
        }
        if (shared(k, 0) != 0 || shared(k, 1) != 0) {
            release(k, -LockWord.DEAD);
            return false;
        }
        return true;
    }

    @Override
    void wake(Owner o) {
        Thread t = o.waitThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
