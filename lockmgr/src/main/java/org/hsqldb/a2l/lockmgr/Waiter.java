package org.hsqldb.a2l.lockmgr;

/*
 * An owner's entry in a name's wait queue; one per owner, reused (an owner waits for at
 * most one name at a time). Fields are fixed while the entry is queued, but for passes,
 * which arrivals count under the name's monitor.
 */
final class Waiter {
    final Owner owner;
    LockName name;
    /** S, U, X, IS or IX (the last two: intentions, or a table's IX). */
    int kind;
    /** The owner already holds something on the name: it bypasses waiters that do not. */
    boolean converter;
    /** The owner's own contribution to the name: S count, X bit, IS count, U bit, IX count. */
    int selfS, selfX, selfI, selfU, selfIX;
    /** The caller's request (for an intention wait, the attribute request behind it). */
    LockRequest request;
    /** The duration asked for, for snapshots. */
    boolean txn;
    Thread thread;
    /** The owner's seqlock version once the wait is published (see Owner.victimVersion). */
    int version;
    Waiter prev, next;
    boolean queued;
    /**
     * How many arrivals that conflict with it have been granted past it since it was queued
     * (see WaitQueue.conflictAheadOfArrival).
     */
    int passes;

    Waiter(Owner owner) {
        this.owner = owner;
    }

    void set(LockName name, int kind, boolean converter, int selfS, int selfX, int selfI, int selfU,
            int selfIX, LockRequest request, boolean txn) {
        this.name = name;
        this.kind = kind;
        this.converter = converter;
        this.selfS = selfS;
        this.selfX = selfX;
        this.selfI = selfI;
        this.selfU = selfU;
        this.selfIX = selfIX;
        this.request = request;
        this.txn = txn;
        this.thread = Thread.currentThread();
    }
}
