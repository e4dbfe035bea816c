package org.hsqldb.a2l.lockmgr;

/**
 * A lockable name: a table ({@link TableLock}) or an attribute, i.e. a (table, column)
 * pair ({@link AttributeLock}). Names are canonical objects made once by their
 * {@link LockManager} (when the engine compiles a statement) and reused on every
 * execution, so that the hot path never hashes a key: the lock state lives in the
 * name object itself. A name belongs to the manager that made it.
 */
public abstract class LockName extends LockWordPad1 {

    final LockManager manager;
    /** Dense per-manager id, in creation order. */
    final int id;
    /** Precomputed index hash for the owners' hold tables. */
    final int hash;
    /** Wait queue and its monitor (FastLockManager); queue storage for MutexLockManager. */
    final WaitQueue queue = new WaitQueue();
    /** FastLockManager's striped shared counts (null for other managers). */
    final long[] stripes;
    /** MutexLockManager's holder sets, guarded by its mutex. */
    Object mutexState;

    // package-private: the only names are TableLock and AttributeLock
    LockName(LockManager manager, int id) {
        this.manager = manager;
        this.id = id;
        int h = id * 0x9E3779B9;
        this.hash = h ^ (h >>> 16);
        this.stripes = manager.newStripes();
    }

    /** The table this name is, or belongs to. */
    public abstract TableLock table();
}
