package org.hsqldb.a2l.lockmgr;

import java.util.List;

/**
 * A snapshot of a lock manager's counters since it was created or last reset
 * ({@link LockManager#counters()}, {@link LockManager#resetCounters()}). While owners
 * are running the values are a close, not an atomic, picture.
 *
 * @param requests         lock requests processed (one per element of a lock set; the elements
 *                         after a failing one are not processed); always {@code immediate + waits}
 * @param immediate        requests granted without waiting, including those already held
 * @param waits            requests that had to wait (whatever the outcome)
 * @param waitNanos        total time spent waiting
 * @param upgrades         conversions granted on a name the owner already held in a weaker
 *                         mode (S to U, S to X, U to X)
 * @param upgradeWaits     conversions that had to wait (whatever the outcome); counted in
 *                         {@code waits} too
 * @param deadlocks        calls refused with {@link LockResult.Status#DEADLOCK}
 * @param upgradeDeadlocks of those, the ones whose refused request was a conversion
 * @param timeouts         calls ended with {@link LockResult.Status#TIMEOUT}
 * @param cancels          calls ended with {@link LockResult.Status#CANCELLED}
 * @param interrupts       calls ended with {@link LockResult.Status#INTERRUPTED}
 */
public record LockCounters(long requests, long immediate, long waits, long waitNanos, long upgrades,
        long upgradeWaits, long deadlocks, long upgradeDeadlocks, long timeouts, long cancels,
        long interrupts) {

    static final int REQUESTS = 0, IMMEDIATE = 1, WAITS = 2, WAIT_NANOS = 3, UPGRADES = 4,
            UPGRADE_WAITS = 5, DEADLOCKS = 6, UPGRADE_DEADLOCKS = 7, TIMEOUTS = 8, CANCELS = 9,
            INTERRUPTS = 10, COUNT = 11;

    /** The counters' names, in the order of {@link #values()}, for display (e.g. a system table). */
    public static final List<String> NAMES = List.of("REQUESTS", "IMMEDIATE", "WAITS", "WAIT_NANOS",
            "UPGRADES", "UPGRADE_WAITS", "DEADLOCKS", "UPGRADE_DEADLOCKS", "TIMEOUTS", "CANCELS",
            "INTERRUPTS");

    static LockCounters of(long[] c) {
        return new LockCounters(c[REQUESTS], c[IMMEDIATE], c[WAITS], c[WAIT_NANOS], c[UPGRADES],
                c[UPGRADE_WAITS], c[DEADLOCKS], c[UPGRADE_DEADLOCKS], c[TIMEOUTS], c[CANCELS],
                c[INTERRUPTS]);
    }

    /** The values in the order of {@link #NAMES}. */
    public long[] values() {
        return new long[] {requests, immediate, waits, waitNanos, upgrades, upgradeWaits, deadlocks,
            upgradeDeadlocks, timeouts, cancels, interrupts};
    }
}
