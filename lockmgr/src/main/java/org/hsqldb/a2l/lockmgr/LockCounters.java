package org.hsqldb.a2l.lockmgr;

import java.util.Arrays;
import java.util.List;

/**
 * A snapshot of a lock manager's counters since it was created or last reset
 * ({@link LockManager#counters()}, {@link LockManager#resetCounters()}). While owners
 * are running the values are a close, not an atomic, picture. The accessors:
 * <ul>
 * <li>{@code requests}: lock requests processed (one per element of a lock set; the elements
 *     after a failing one are not processed); always {@code immediate + waits}</li>
 * <li>{@code immediate}: requests answered without waiting: granted (including those already
 *     held), or refused to a try ({@link LockManager#tryAcquire})</li>
 * <li>{@code waits}: requests that had to wait (whatever the outcome)</li>
 * <li>{@code waitNanos}: total time spent waiting</li>
 * <li>{@code upgrades}: conversions granted on a name the owner already held in a weaker
 *     mode (S to U, S to X, U to X)</li>
 * <li>{@code upgradeWaits}: conversions that had to wait (whatever the outcome); counted in
 *     {@code waits} too</li>
 * <li>{@code deadlocks}: calls refused with {@link LockResult.Status#DEADLOCK}</li>
 * <li>{@code upgradeDeadlocks}: of those, the ones whose refused request was a conversion</li>
 * <li>{@code timeouts}, {@code cancels}, {@code interrupts}: calls ended with TIMEOUT,
 *     CANCELLED, INTERRUPTED</li>
 * <li>{@code escalations}: keyed requests (cells, row keys) that took the lock on their
 *     parent instead, because the owner already held
 *     {@link LockManager#escalationThreshold()} keyed names under it</li>
 * </ul>
 */
public final class LockCounters {

    static final int REQUESTS = 0, IMMEDIATE = 1, WAITS = 2, WAIT_NANOS = 3, UPGRADES = 4,
            UPGRADE_WAITS = 5, DEADLOCKS = 6, UPGRADE_DEADLOCKS = 7, TIMEOUTS = 8, CANCELS = 9,
            INTERRUPTS = 10, ESCALATIONS = 11, COUNT = 12;

    /** The counters' names, in the order of {@link #values()}, for display (e.g. a system table). */
    public static final List<String> NAMES = List.of("REQUESTS", "IMMEDIATE", "WAITS", "WAIT_NANOS",
            "UPGRADES", "UPGRADE_WAITS", "DEADLOCKS", "UPGRADE_DEADLOCKS", "TIMEOUTS", "CANCELS",
            "INTERRUPTS", "ESCALATIONS");

    private final long[] c;

    public LockCounters(long requests, long immediate, long waits, long waitNanos, long upgrades,
            long upgradeWaits, long deadlocks, long upgradeDeadlocks, long timeouts, long cancels,
            long interrupts, long escalations) {
        this(new long[] {requests, immediate, waits, waitNanos, upgrades, upgradeWaits, deadlocks,
            upgradeDeadlocks, timeouts, cancels, interrupts, escalations});
    }

    private LockCounters(long[] c) {
        this.c = c;
    }

    static LockCounters of(long[] c) {
        return new LockCounters(c.clone());
    }

    public long requests() {
        return c[REQUESTS];
    }

    public long immediate() {
        return c[IMMEDIATE];
    }

    public long waits() {
        return c[WAITS];
    }

    public long waitNanos() {
        return c[WAIT_NANOS];
    }

    public long upgrades() {
        return c[UPGRADES];
    }

    public long upgradeWaits() {
        return c[UPGRADE_WAITS];
    }

    public long deadlocks() {
        return c[DEADLOCKS];
    }

    public long upgradeDeadlocks() {
        return c[UPGRADE_DEADLOCKS];
    }

    public long timeouts() {
        return c[TIMEOUTS];
    }

    public long cancels() {
        return c[CANCELS];
    }

    public long interrupts() {
        return c[INTERRUPTS];
    }

    public long escalations() {
        return c[ESCALATIONS];
    }

    /** The values in the order of {@link #NAMES}. */
    public long[] values() {
        return c.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockCounters && Arrays.equals(c, ((LockCounters) o).c);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(c);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("LockCounters[");
        for (int i = 0; i < COUNT; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(NAMES.get(i).toLowerCase(java.util.Locale.ROOT)).append('=').append(c[i]);
        }
        return sb.append(']').toString();
    }
}
