package org.hsqldb.a2l.lockmgr;

/*
 * One owner's state on one name: its mode (NONE, S, U or X), whether it holds the name for
 * the transaction, its intentions on the name (IS: some hold under it; IX: a U or X hold
 * under it, or for a table an explicit IX), and how many of its non-empty holds are under
 * it (all of them, and the keyed ones, which escalation counts). Owned and written by the
 * owner's thread only; other threads read it under the owner's seqlock. Pooled per owner,
 * so steady-state acquire/release allocates nothing.
 */
final class Hold {
    LockName name;
    /** The owner's hold on the name's parent (null for a table). */
    Hold parent;
    int mode;
    boolean txn;
    /** IS: the owner holds something under the name (for a table, the "intention" I). */
    boolean intent;
    /** IX: for an attribute, a U or X cell under it; for a table, an IX request or a U/X row key. */
    boolean ix;
    int childHolds;
    int keyHolds;
    /**
     * The keyHolds at which the next escalation may be tried: after a refused try, twice the
     * keys held then (a hint, not journaled: undoing a call leaves it as it is).
     */
    int escalateAt;
    int denseIndex;
    /** In the owner's list of the statement's holds (Owner.statementHolds). */
    boolean statementListed;
    /** Gathered by Owner.takeStatementHolds (false outside it). */
    boolean taken;

    // state before the current acquire call, for undo when the call fails
    int stamp;
    boolean pNew;
    int pMode;
    boolean pTxn;
    boolean pIntent;
    boolean pIx;
    int pChildHolds;
    int pKeyHolds;

    Hold nextFree;

    int level() {
        return name.level();
    }

    boolean isEmpty() {
        return mode == LockManager.NONE && !intent && !ix && childHolds == 0;
    }
}
