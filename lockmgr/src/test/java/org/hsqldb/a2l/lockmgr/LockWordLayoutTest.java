package org.hsqldb.a2l.lockmgr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import sun.misc.Unsafe;

/**
 * Where the lock word lives (LockWord.java): a table's and an attribute's word padded by 64
 * bytes on each side, a keyed name's unpadded, and the accessors reaching both; and that no
 * two stripes' counts (FastLockManager) share a cache line.
 */
class LockWordLayoutTest {

    private static final Unsafe UNSAFE = unsafe();

    private static Unsafe unsafe() {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** The instance fields declared by {@code c} and its superclasses. */
    private static List<Field> instanceFields(Class<?> c) {
        List<Field> fields = new ArrayList<>();
        for (; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    fields.add(f);
                }
            }
        }
        return fields;
    }

    private static long offset(Class<?> c, String field) throws NoSuchFieldException {
        return UNSAFE.objectFieldOffset(c.getDeclaredField(field));
    }

    private static int size(Class<?> type) {
        return type == long.class || type == double.class ? 8
                : type == int.class || type == float.class ? 4
                : type == short.class || type == char.class ? 2
                : type == byte.class || type == boolean.class ? 1
                : UNSAFE.arrayIndexScale(Object[].class); // a reference, compressed or not
    }

    @Test
    void canonicalWordsArePaddedOnBothSides() throws NoSuchFieldException {
        for (Class<?> c : List.of(TableLock.class, AttributeLock.class)) {
            assertEquals(CanonicalName.class, c.getSuperclass(), c.getName());
        }
        // in the object as HotSpot lays it out: 64 bytes of padding before the word, none of
        // the name's other fields among them, and 64 after it
        long word = offset(CanonicalWord.class, "word");
        long before = Long.MAX_VALUE, after = 0;
        for (int i = 0; i < 8; i++) {
            before = Math.min(before, offset(CanonicalPad0.class, "p0" + i));
            after = Math.max(after, offset(CanonicalName.class, "p1" + i) + Long.BYTES);
        }
        assertTrue(word - before >= 64, "padding before the word: " + (word - before) + " bytes");
        assertTrue(after - (word + Long.BYTES) >= 64, "padding after: " + (after - word - Long.BYTES));
        for (Class<?> c : List.of(TableLock.class, AttributeLock.class)) {
            for (Field f : instanceFields(c)) {
                long at = UNSAFE.objectFieldOffset(f);
                assertTrue(at == word || at < before || at >= after
                        || f.getName().matches("p[01][0-7]"), c.getSimpleName() + "." + f.getName());
            }
        }
    }

    @Test
    void noTwoStripesShareACacheLine() {
        // longs are 8-byte aligned and the array may start at any 8-byte boundary, so two
        // counts fall in one 64-byte line for some start unless they are 64 bytes apart or
        // more; so must the counts be from the array's header (an object allocated before
        // it) and from its end (one allocated after it)
        long[] stripes = new FastLockManager().newStripes(false);
        long base = UNSAFE.arrayBaseOffset(long[].class);
        long scale = UNSAFE.arrayIndexScale(long[].class);
        long end = base + stripes.length * scale;
        List<long[]> counts = new ArrayList<>(); // {stripe, byte offset}
        for (int seq = 0; seq < FastLockManager.STRIPES; seq++) {
            int slot = FastLockManager.stripeSlot(seq);
            for (int i = slot; i < slot + 2; i++) {
                counts.add(new long[] {seq, base + i * scale});
            }
        }
        for (long[] a : counts) {
            assertTrue(a[1] >= 64, "stripe " + a[0] + "'s count at byte " + a[1]);
            assertTrue(end - (a[1] + scale) >= 64, "stripe " + a[0] + "'s count at byte "
                    + a[1] + " of " + end);
            for (long[] b : counts) {
                assertTrue(a[0] == b[0] || Math.abs(a[1] - b[1]) >= 64,
                        "stripes " + a[0] + " and " + b[0] + ": bytes " + a[1] + " and " + b[1]);
            }
        }
    }

    @Test
    void keyedNamesCarryNoPadding() {
        // a KeyLock's fields (its parent, key, word, two shared counts and kill flag, and
        // LockName's) end within 80 bytes of the object's start with compressed references
        // (12 of them the header), 112 without: no room for padding
        long end = 0;
        for (Field f : instanceFields(KeyLock.class)) {
            end = Math.max(end, UNSAFE.objectFieldOffset(f) + size(f.getType()));
        }
        long bound = UNSAFE.arrayIndexScale(Object[].class) == 4 ? 80 : 112;
        assertTrue(end <= bound, "a KeyLock's fields end at byte " + end);
    }

    @Test
    void theAccessorsReachEachKindOfWord() {
        LockManager m = LockManager.create();
        TableLock t = m.table("T", "T");
        AttributeLock a = t.attribute(0, "C");
        KeyLock k = m.child(a, RowKey.of(1, 2));
        for (LockName n : List.of(t, a, k)) {
            assertEquals(0L, n.word(), n.toString());
            assertTrue(n.casWord(0, LockWord.U_BIT), n.toString());
            assertEquals(LockWord.U_BIT, n.addWord(3));
            assertEquals(LockWord.U_BIT + 3, n.orWord(LockWord.X_BIT));
            n.setWaiterBit();
            assertEquals(LockWord.WAITER | LockWord.X_BIT | LockWord.U_BIT | 3, n.word());
            n.clearWaiterBit();
            assertEquals(LockWord.X_BIT | LockWord.U_BIT | 3, n.word(), n.toString());
            assertEquals(LockWord.X_BIT | LockWord.U_BIT | 3,
                    n.addWord(-(LockWord.X_BIT | LockWord.U_BIT | 3)));
            assertEquals(0L, n.word(), n.toString());
        }
        // each name has a word of its own
        assertTrue(t.casWord(0, LockWord.X_BIT));
        assertEquals(0L, a.word());
        assertEquals(0L, k.word());
        assertTrue(t.casWord(LockWord.X_BIT, 0));
    }
}
