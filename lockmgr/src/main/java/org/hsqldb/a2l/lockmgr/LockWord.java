package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * The per-name lock word, padded on both sides so that the words of different names
 * never share a cache line (names are allocated next to each other when a table is
 * compiled). FastLockManager uses two bits of it:
 *
 *   bit 63  WAITER: the name's wait queue is not empty; grants then go through the
 *           queue's monitor (fast paths expect the bit clear)
 *   bit 62  X: an owner holds X (or a writer is trying to take it, briefly)
 *   bit 61  U: an owner holds U (an update lock: excludes U and X, lets S in)
 *   bit 60  DEAD: a keyed name killed (taken out of its parent's table); requests look it up again
 *   bits 0-29  the number of owners holding IX (a table's structural mode, or an
 *           attribute's intention above U or X cells): excludes S, U and X
 *
 * The shared counts (S holders, and the owners holding the name's IS intention) are not
 * in the word but in the name's stripes (see FastLockManager).
 */
abstract class LockWordPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

abstract class LockWord extends LockWordPad0 {
    static final long X_BIT = 1L << 62;
    static final long U_BIT = 1L << 61;
    static final long WAITER = 1L << 63;
    static final long DEAD = 1L << 60;
    static final long IX_MASK = (1L << 30) - 1;

    static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(LockWord.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    volatile long word;

    final long orWord(long bits) {
        return (long) WORD.getAndBitwiseOr(this, bits);
    }

    final boolean casWord(long expect, long update) {
        return WORD.compareAndSet(this, expect, update);
    }

    final long addWord(long delta) {
        return (long) WORD.getAndAdd(this, delta);
    }

    final void setWaiterBit() {
        WORD.getAndBitwiseOr(this, WAITER);
    }

    final void clearWaiterBit() {
        WORD.getAndBitwiseAnd(this, ~WAITER);
    }
}

abstract class LockWordPad1 extends LockWord {
    long p10, p11, p12, p13, p14, p15, p16, p17;
}
