package org.hsqldb.a2l.lockmgr;

/** The contract, against the single-mutex baseline. */
class MutexLockManagerTest extends LockManagerContract {
    @Override
    LockManager newManager() {
        return new MutexLockManager();
    }
}
