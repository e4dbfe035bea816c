package org.hsqldb.a2l.lockmgr;

import java.util.List;

/**
 * The outcome of {@link LockManager#acquire}. A granted call returns the shared
 * {@link #GRANTED} instance (no allocation); any other outcome means the owner holds
 * exactly what it held before the call.
 */
public final class LockResult {

    /** How an {@code acquire} call ended. */
    public enum Status {
        /** Every lock of the set is held. */
        GRANTED,
        /**
         * The owner's wait was part of a cycle in the wait-for graph and its transaction
         * was the youngest of the cycle; {@link #cycle()} names it.
         */
        DEADLOCK,
        /** The timeout elapsed while waiting. */
        TIMEOUT,
        /** {@link LockManager#cancel} was called for the owner. */
        CANCELLED,
        /** The waiting thread was interrupted; its interrupt flag is set again on return. */
        INTERRUPTED
    }

    /** The result of every successful call. */
    public static final LockResult GRANTED = new LockResult(Status.GRANTED, null, List.of());

    private final Status status;
    private final LockRequest awaited;
    private final List<WaitEdge> cycle;

    LockResult(Status status, LockRequest awaited, List<WaitEdge> cycle) {
        this.status = status;
        this.awaited = awaited;
        this.cycle = cycle;
    }

    public Status status() {
        return status;
    }

    public boolean isGranted() {
        return status == Status.GRANTED;
    }

    /** The request the owner was waiting for when the call failed; null if granted. */
    public LockRequest awaited() {
        return awaited;
    }

    /**
     * For {@link Status#DEADLOCK}: the cycle, starting with the refused owner's edge and
     * ending with an edge back to it. Empty otherwise.
     */
    public List<WaitEdge> cycle() {
        return cycle;
    }

    /** A one-line description, for error messages. */
    public String message() {
        switch (status) {
            case GRANTED:
                return "granted";
            case DEADLOCK: {
                StringBuilder sb = new StringBuilder("deadlock: ");
                for (int i = 0; i < cycle.size(); i++) {
                    if (i > 0) {
                        sb.append("; ");
                    }
                    sb.append(cycle.get(i));
                }
                return sb.toString();
            }
            case TIMEOUT:
                return "lock timeout waiting for " + awaited;
            case CANCELLED:
                return "cancelled while waiting for " + awaited;
            default:
                return "interrupted while waiting for " + awaited;
        }
    }

    @Override
    public String toString() {
        return message();
    }
}
