package org.hsqldb.a2l.lockmgr;

/** The contract, against the fast implementation. */
class FastLockManagerTest extends LockManagerContract {
    @Override
    LockManager newManager() {
        return new FastLockManager();
    }
}
