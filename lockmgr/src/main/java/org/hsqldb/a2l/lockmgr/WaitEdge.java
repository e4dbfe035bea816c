package org.hsqldb.a2l.lockmgr;

/**
 * One edge of a wait-for cycle reported with {@link LockResult.Status#DEADLOCK}:
 * {@code waiter} waits for {@code request} because {@code blocker} holds
 * {@code blockerLock} (or, when {@code queued} is true, waits for {@code blockerLock} ahead
 * of it in the same queue, which the fairness rule makes it wait behind).
 *
 * @param waiter      the waiting owner
 * @param request     what it waits for
 * @param blocker     the owner it waits for
 * @param blockerLock the lock that owner holds (or waits for, if {@code queued})
 * @param queued      true when the edge is a queue-order one rather than a held lock
 */
public record WaitEdge(Owner waiter, LockRequest request, Owner blocker, LockRequest blockerLock,
        boolean queued) {

    @Override
    public String toString() {
        return waiter + " waits for " + request + (queued ? ", queued behind " : ", held as ")
                + blockerLock + " by " + blocker;
    }
}
