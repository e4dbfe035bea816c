package org.hsqldb.a2l.lockmgr;

/*
 * One owner's state on one name: its mode (NONE, S or X), whether it holds the name for
 * the transaction, and for a table whether it holds the table's intention (at least one
 * attribute lock of the table) and how many attribute holds it has under it. Owned and
 * written by the owner's thread only; other threads read it under the owner's seqlock.
 * Pooled per owner, so steady-state acquire/release allocates nothing.
 */
final class Hold {
    LockName name;
    /** For an attribute hold: the owner's hold on the attribute's table. */
    Hold parent;
    int mode;
    boolean txn;
    boolean intent;
    int attrHolds;
    int denseIndex;

    // state before the current acquire call, for undo when the call fails
    int stamp;
    boolean pNew;
    int pMode;
    boolean pTxn;
    boolean pIntent;
    int pAttrHolds;

    Hold nextFree;

    boolean isTable() {
        return name instanceof TableLock;
    }

    boolean isEmpty() {
        return mode == LockManager.NONE && !intent && attrHolds == 0;
    }
}
