package org.hsqldb.a2l.lockmgr;

import java.util.Objects;

/**
 * One row of {@link LockManager#snapshot()}: a lock an owner holds or waits for. (A value
 * class with record-style accessors; the library compiles for Java 11, like the jar.)
 */
public final class LockInfo {

    /** Whether the lock is held or waited for. */
    public enum State { HELD, WAITING }

    private final long ownerId;
    private final String ownerLabel;
    private final LockName name;
    private final LockMode mode;
    private final State state;
    private final LockDuration duration;

    /**
     * @param ownerId    the owner's id (the engine's session id)
     * @param ownerLabel the owner's label
     * @param name       the lock name
     * @param mode       the mode held, or the mode waited for
     * @param state      held or waiting
     * @param duration   the duration held, or the duration asked for
     */
    public LockInfo(long ownerId, String ownerLabel, LockName name, LockMode mode, State state,
            LockDuration duration) {
        this.ownerId = ownerId;
        this.ownerLabel = ownerLabel;
        this.name = name;
        this.mode = mode;
        this.state = state;
        this.duration = duration;
    }

    public long ownerId() {
        return ownerId;
    }

    public String ownerLabel() {
        return ownerLabel;
    }

    public LockName name() {
        return name;
    }

    public LockMode mode() {
        return mode;
    }

    public State state() {
        return state;
    }

    public LockDuration duration() {
        return duration;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LockInfo)) {
            return false;
        }
        LockInfo i = (LockInfo) o;
        return ownerId == i.ownerId && Objects.equals(ownerLabel, i.ownerLabel) && name == i.name
                && mode == i.mode && state == i.state && duration == i.duration;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ownerId, ownerLabel, name, mode, state, duration);
    }

    @Override
    public String toString() {
        return "#" + ownerId + "(" + ownerLabel + ") " + state + " " + mode + "(" + name + ") "
                + duration;
    }
}
