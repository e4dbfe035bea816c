package org.hsqldb.a2l.lockmgr;

import java.util.Objects;

/**
 * One edge of a wait-for cycle reported with {@link LockResult.Status#DEADLOCK}:
 * {@code waiter} waits for {@code request} because {@code blocker} holds
 * {@code blockerLock} (or, when {@code queued} is true, waits for {@code blockerLock} ahead
 * of it in the same queue, which the fairness rule makes it wait behind).
 */
public final class WaitEdge {

    private final Owner waiter;
    private final LockRequest request;
    private final Owner blocker;
    private final LockRequest blockerLock;
    private final boolean queued;

    /**
     * @param waiter      the waiting owner
     * @param request     what it waits for
     * @param blocker     the owner it waits for
     * @param blockerLock the lock that owner holds (or waits for, if {@code queued})
     * @param queued      true when the edge is a queue-order one rather than a held lock
     */
    public WaitEdge(Owner waiter, LockRequest request, Owner blocker, LockRequest blockerLock,
            boolean queued) {
        this.waiter = waiter;
        this.request = request;
        this.blocker = blocker;
        this.blockerLock = blockerLock;
        this.queued = queued;
    }

    public Owner waiter() {
        return waiter;
    }

    public LockRequest request() {
        return request;
    }

    public Owner blocker() {
        return blocker;
    }

    public LockRequest blockerLock() {
        return blockerLock;
    }

    public boolean queued() {
        return queued;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WaitEdge)) {
            return false;
        }
        WaitEdge e = (WaitEdge) o;
        return waiter == e.waiter && Objects.equals(request, e.request) && blocker == e.blocker
                && Objects.equals(blockerLock, e.blockerLock) && queued == e.queued;
    }

    @Override
    public int hashCode() {
        return Objects.hash(waiter, request, blocker, blockerLock, queued);
    }

    @Override
    public String toString() {
        return waiter + " waits for " + request + (queued ? ", queued behind " : ", held as ")
                + blockerLock + " by " + blocker;
    }
}
