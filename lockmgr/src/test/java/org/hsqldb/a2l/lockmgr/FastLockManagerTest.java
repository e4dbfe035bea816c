package org.hsqldb.a2l.lockmgr;

/** The contract, against the fast implementation. */
class FastLockManagerTest extends LockManagerContract {
    @Override
    LockManager newManager() {
        return new FastLockManager();
    }

    @Override
    void assertKeyedNameFree(KeyLock k) {
        if (k != null) { // (a sweep may have forgotten it, which also means free)
            org.junit.jupiter.api.Assertions.assertEquals(0, FastLockManager.shared(k), k.toString());
            org.junit.jupiter.api.Assertions.assertEquals(0, k.word, k.toString());
        }
    }
}
