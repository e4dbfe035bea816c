package org.hsqldb.a2l.lockmgr;

/**
 * A snapshot of a lock manager's counters since it was created or last reset
 * ({@link LockManager#counters()}, {@link LockManager#resetCounters()}). While owners
 * are running the values are a close, not an atomic, picture.
 *
 * @param requests    lock requests processed (one per element of a lock set; the elements after
 *                    a failing one are not processed); always {@code immediate + waits}
 * @param immediate   requests granted without waiting, including those already held
 * @param waits       requests that had to wait (whatever the outcome)
 * @param waitNanos   total time spent waiting
 * @param upgrades    S-to-X conversions granted on a name the owner already held in S
 * @param deadlocks   calls refused with {@link LockResult.Status#DEADLOCK}
 * @param timeouts    calls ended with {@link LockResult.Status#TIMEOUT}
 * @param cancels     calls ended with {@link LockResult.Status#CANCELLED}
 * @param interrupts  calls ended with {@link LockResult.Status#INTERRUPTED}
 */
public record LockCounters(long requests, long immediate, long waits, long waitNanos,
        long upgrades, long deadlocks, long timeouts, long cancels, long interrupts) {

    static final int REQUESTS = 0, IMMEDIATE = 1, WAITS = 2, WAIT_NANOS = 3, UPGRADES = 4,
            DEADLOCKS = 5, TIMEOUTS = 6, CANCELS = 7, INTERRUPTS = 8, COUNT = 9;

    static LockCounters of(long[] c) {
        return new LockCounters(c[REQUESTS], c[IMMEDIATE], c[WAITS], c[WAIT_NANOS], c[UPGRADES],
                c[DEADLOCKS], c[TIMEOUTS], c[CANCELS], c[INTERRUPTS]);
    }
}
