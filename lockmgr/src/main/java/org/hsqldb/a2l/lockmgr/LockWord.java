package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * The per-name lock word of FastLockManager, padded on both sides so that the words of
 * different names never share a cache line (names are allocated next to each other when
 * a table is compiled). Layout of the long:
 *
 *   bit 63      WAITER: the name's wait queue is not empty; every change then goes
 *               through the queue's monitor (fast-path CASes expect the bit clear)
 *   bit 62      X: an owner holds X
 *   bits 31-61  I: tables only, number of owners holding at least one attribute lock
 *               of the table (an intention count, so X(T) can see them)
 *   bits 0-30   S: number of owners holding S (an owner that holds X is not counted)
 */
abstract class LockWordPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

abstract class LockWord extends LockWordPad0 {
    static final long S_ONE = 1L;
    static final long S_MASK = (1L << 31) - 1;
    static final int I_SHIFT = 31;
    static final long I_ONE = 1L << I_SHIFT;
    static final long I_MASK = S_MASK << I_SHIFT;
    static final long X_BIT = 1L << 62;
    static final long WAITER = 1L << 63;

    static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(LockWord.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    volatile long word;

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
