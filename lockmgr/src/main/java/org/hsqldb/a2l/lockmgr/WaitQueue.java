package org.hsqldb.a2l.lockmgr;

/*
 * A name's FIFO of waiters, converters (owners that already hold something on the name)
 * first in arrival order, then the others in arrival order. In FastLockManager the
 * object is also the monitor that guards the queue and every change of the name's word
 * while the word's WAITER bit is set; in MutexLockManager the global mutex guards it.
 */
final class WaitQueue {
    Waiter head, tail;
    private Waiter lastConverter;

    boolean isEmpty() {
        return head == null;
    }

    void enqueue(Waiter w) {
        if (w.converter) {
            Waiter after = lastConverter;
            lastConverter = w;
            if (after == null) {
                w.prev = null;
                w.next = head;
                if (head != null) {
                    head.prev = w;
                } else {
                    tail = w;
                }
                head = w;
            } else {
                w.prev = after;
                w.next = after.next;
                if (after.next != null) {
                    after.next.prev = w;
                } else {
                    tail = w;
                }
                after.next = w;
            }
        } else {
            w.next = null;
            w.prev = tail;
            if (tail != null) {
                tail.next = w;
            } else {
                head = w;
            }
            tail = w;
        }
        w.queued = true;
        w.passes = 0;
    }

    void remove(Waiter w) {
        if (!w.queued) {
            return;
        }
        if (w == lastConverter) {
            lastConverter = w.prev != null && w.prev.converter ? w.prev : null;
        }
        if (w.prev != null) {
            w.prev.next = w.next;
        } else {
            head = w.next;
        }
        if (w.next != null) {
            w.next.prev = w.prev;
        } else {
            tail = w.prev;
        }
        w.prev = w.next = null;
        w.queued = false;
    }

    /**
     * Whether a waiter queued ahead of {@code self} (the whole queue when {@code self} is
     * null, i.e. for a new arrival) asks for a kind that conflicts with {@code kind}.
     * Kinds conflict as {@link LockManager#kindsConflict} says.
     */
    boolean conflictAhead(Waiter self, int kind) {
        for (Waiter e = head; e != null && e != self; e = e.next) {
            if (LockManager.kindsConflict(e.kind, kind)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a new arrival asking for {@code kind} must queue behind a waiter: one that
     * asks for a conflicting kind and has been passed {@code limit} times already. Waiters
     * passed fewer times may be passed (bounded barging); 0 makes the queue strictly FIFO.
     * A count, not a time: the same sequence of requests is granted in the same order.
     */
    boolean conflictAheadOfArrival(int kind, int limit) {
        if (limit <= 0) {
            return conflictAhead(null, kind);
        }
        for (Waiter e = head; e != null; e = e.next) {
            if (e.passes >= limit && LockManager.kindsConflict(e.kind, kind)) {
                return true;
            }
        }
        return false;
    }

    /** An arrival asking for {@code kind} was granted past the queue: counts it for each waiter it passed. */
    void notePassed(int kind) {
        for (Waiter e = head; e != null; e = e.next) {
            if (LockManager.kindsConflict(e.kind, kind)) {
                e.passes++;
            }
        }
    }
}
