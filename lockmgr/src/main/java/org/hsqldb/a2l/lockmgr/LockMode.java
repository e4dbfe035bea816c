package org.hsqldb.a2l.lockmgr;

/**
 * Lock modes, weakest first. Between two owners on the same name: S is compatible with S
 * and U; U (update: a read that will be followed by a write) is compatible with S only;
 * X with nothing. In addition X on a table conflicts with every lock another owner holds on
 * that table's attributes (see {@link LockManager} for the full rule). An owner holding a
 * weaker mode and asking for a stronger one converts (an upgrade): S to U or X, U to X.
 */
public enum LockMode {
    /** Shared: readers. */
    S,
    /**
     * Update: a reader that will write what it read. It excludes other U and X, so two
     * such readers do not both hold the name and then deadlock converting to X, and it lets
     * plain readers in until it converts. Held to the end of the transaction.
     */
    U,
    /** Exclusive: writers. Always held to the end of the transaction. */
    X;

    final int code() {
        switch (this) {
            case S:
                return LockManager.S;
            case U:
                return LockManager.U;
            default:
                return LockManager.X;
        }
    }

    /** Whether a lock held in this mode covers a request for {@code asked} (it is at least as strong). */
    public boolean covers(LockMode asked) {
        return compareTo(asked) >= 0;
    }

    static LockMode of(int code) {
        switch (code) {
            case LockManager.S:
                return S;
            case LockManager.U:
                return U;
            case LockManager.X:
                return X;
            default:
                throw new IllegalArgumentException("mode " + code);
        }
    }
}
