package org.hsqldb.a2l.lockmgr;

/**
 * Lock modes. Two locks conflict when they name the same thing and one of them is
 * {@link #X}; in addition X on a table conflicts with every lock another owner holds on
 * that table's attributes (see {@link LockManager} for the full rule).
 */
public enum LockMode {
    /** Shared: readers. */
    S,
    /** Exclusive: writers. Always held to the end of the transaction. */
    X;

    final int code() {
        return this == S ? LockManager.S : LockManager.X;
    }
}
