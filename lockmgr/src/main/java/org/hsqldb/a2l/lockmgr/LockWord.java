package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * The per-name lock word. FastLockManager uses these bits of it:
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
 * in the word but in the name's stripes, or a keyed name's two count fields (see
 * FastLockManager).
 *
 * Where the word lives. A table's or an attribute's word is written by owners on every
 * core, so it has its cache line to itself: CanonicalWord, with 64 bytes of padding on
 * each side. An object's superclass fields come first in it, so the padding before the
 * word is a superclass's (CanonicalPad0) and the padding after it a subclass's
 * (CanonicalName); these names are made next to each other when a table is compiled, and
 * the padding keeps their words apart wherever the collector moves them. A keyed name
 * (KeyLock) holds its own word, unpadded: it is made and forgotten by the dozen per
 * transaction and seldom locked from two cores at once, and the padding would make it
 * three times its size (192 bytes against 64, as the name was then; without it a TPC-C
 * transaction under cells allocated 11-17% less, results/README.md, "Keyed names without
 * padding").
 * LockName's accessors pick the word by the name's class: a compare of the object's class
 * pointer, which the compiler can drop where it knows the class (not measured apart: the
 * JMH of "Keyed names without padding" measures the accessors with the rest).
 */
final class LockWord {
    static final long X_BIT = 1L << 62;
    static final long U_BIT = 1L << 61;
    static final long WAITER = 1L << 63;
    static final long DEAD = 1L << 60;
    static final long IX_MASK = (1L << 30) - 1;

    private LockWord() {
    }

    /** The VarHandle of {@code owner}'s {@code volatile long word} (a class of this package). */
    static VarHandle handle(Class<?> owner) {
        try {
            return MethodHandles.lookup().findVarHandle(owner, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}

/** Padding before a canonical name's word (see LockWord). */
abstract class CanonicalPad0 extends LockName {
    long p00, p01, p02, p03, p04, p05, p06, p07;

    CanonicalPad0(LockManager manager, int id) {
        super(manager, id);
    }
}

/** A table's or an attribute's lock word (see LockWord). */
abstract class CanonicalWord extends CanonicalPad0 {
    static final VarHandle WORD = LockWord.handle(CanonicalWord.class);

    volatile long word;

    CanonicalWord(LockManager manager, int id) {
        super(manager, id);
    }
}

/** Padding after a canonical name's word: tables and attributes extend this (see LockWord). */
abstract class CanonicalName extends CanonicalWord {
    long p10, p11, p12, p13, p14, p15, p16, p17;

    CanonicalName(LockManager manager, int id) {
        super(manager, id);
    }
}
