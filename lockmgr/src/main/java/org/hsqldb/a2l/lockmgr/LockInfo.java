package org.hsqldb.a2l.lockmgr;

/**
 * One row of {@link LockManager#snapshot()}: a lock an owner holds or waits for.
 *
 * @param ownerId    the owner's id (the engine's session id)
 * @param ownerLabel the owner's label
 * @param name       the lock name
 * @param mode       the mode held, or the mode waited for
 * @param state      held or waiting
 * @param duration   the duration held, or the duration asked for
 */
public record LockInfo(long ownerId, String ownerLabel, LockName name, LockMode mode,
        State state, LockDuration duration) {

    /** Whether the lock is held or waited for. */
    public enum State { HELD, WAITING }

    @Override
    public String toString() {
        return "#" + ownerId + "(" + ownerLabel + ") " + state + " " + mode + "(" + name + ") "
                + duration;
    }
}
