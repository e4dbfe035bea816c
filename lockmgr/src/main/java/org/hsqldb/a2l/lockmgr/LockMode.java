package org.hsqldb.a2l.lockmgr;

/**
 * Lock modes. S, U and X are ordered, weakest first. Between two owners on the same name:
 * S is compatible with S and U; U (update: a read that will be followed by a write) is
 * compatible with S only; X with nothing. In addition X on a table conflicts with every lock
 * another owner holds on that table's attributes and row keys (see {@link LockManager} for
 * the full rule). An owner holding a weaker mode and asking for a stronger one converts (an
 * upgrade): S to U or X, U to X.
 *
 * <p>IX is a table's structural mode: the owner inserts or deletes rows (X on their row
 * keys, {@link LockRequest#rowKey}, takes it by itself). It is compatible with other IX and
 * with attribute locks, and conflicts with S, U and X on the table, which every statement
 * that walks the table's rows or indexes holds. Only X covers it.
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
    X,
    /**
     * Intention exclusive, on a table only: the owner changes the table's set of rows (X on
     * row keys). Always held to the end of the transaction.
     */
    IX;

    final int code() {
        switch (this) {
            case S:
                return LockManager.S;
            case U:
                return LockManager.U;
            case X:
                return LockManager.X;
            default:
                return LockManager.IX;
        }
    }

    /**
     * Whether a lock held in this mode covers a request for {@code asked}: S, U and X cover
     * themselves and the weaker of them; IX covers only IX; X covers every mode.
     */
    public boolean covers(LockMode asked) {
        if (this == IX || asked == IX) {
            return this == X || this == asked;
        }
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
            case LockManager.IX:
                return IX;
            default:
                throw new IllegalArgumentException("mode " + code);
        }
    }
}
