package org.hsqldb.a2l.lockmgr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowKeyTest {

    @Test
    void equalValuesAreEqualKeysAndTheArrayIsCopied() {
        long[] v = {1, 42};
        RowKey k = RowKey.of(v);
        v[1] = 43;
        assertEquals(RowKey.of(1, 42), k);
        assertEquals(RowKey.of(1, 42).hashCode(), k.hashCode());
        assertNotEquals(RowKey.of(42, 1), k);
        assertNotEquals(RowKey.of(1, 42, 0), k);
        assertEquals("1, 42", k.toString());
        assertEquals(2, k.size());
        assertEquals(42, k.get(1));
        assertThrows(IllegalArgumentException.class, RowKey::of);
    }

    @Test
    void aKeyOfTheFirstValuesIsTheKeyOfThoseValuesCopied() {
        long[] v = {1, 42, 7};
        RowKey range = RowKey.ofFirst(v, 2);
        v[0] = 9;
        assertEquals(RowKey.of(1, 42), range);
        assertEquals(RowKey.of(9, 42, 7), RowKey.ofFirst(v, 3));
        assertThrows(IllegalArgumentException.class, () -> RowKey.ofFirst(v, 0));
        assertThrows(IllegalArgumentException.class, () -> RowKey.ofFirst(v, 4));
    }

    @Test
    void theFirstRowOfARangeIsNamedApartFromTheRangeAndItsRows() {
        long[] v = {1, 42, 7};
        RowKey first = RowKey.firstOf(v, 2);
        v[0] = 9;
        assertEquals(RowKey.firstOf(new long[] {1, 42}, 2), first);
        assertEquals(RowKey.firstOf(new long[] {1, 42}, 2).hashCode(), first.hashCode());
        assertTrue(first.isFirst());
        assertTrue(!RowKey.of(1, 42).isFirst());
        assertNotEquals(RowKey.of(1, 42), first);
        assertNotEquals(first, RowKey.of(1, 42));
        assertNotEquals(RowKey.of(1, 42).hashCode(), first.hashCode());
        assertNotEquals(RowKey.firstOf(new long[] {1, 42, 7}, 3), RowKey.of(1, 42, 7));
        assertEquals("1, 42, first", first.toString());
        assertEquals(2, first.size());
        assertThrows(IllegalArgumentException.class, () -> RowKey.firstOf(v, 0));
        assertThrows(IllegalArgumentException.class, () -> RowKey.firstOf(v, 4));
    }

    /** TPC-C's order keys (w, d, o): a list's hash gives these a few thousand values, this key one each. */
    @Test
    void neighbouringCompositeKeysDoNotShareHashes() {
        Set<Integer> hashes = new HashSet<>();
        int keys = 0;
        for (long w = 1; w <= 4; w++) {
            for (long d = 1; d <= 10; d++) {
                for (long o = 1; o <= 3000; o++) {
                    hashes.add(RowKey.of(w, d, o).hashCode());
                    keys++;
                }
            }
        }
        assertTrue(hashes.size() > keys * 0.999, hashes.size() + " hashes for " + keys + " keys");
    }

    @Test
    void aKeyedNameShowsItsRowKeyWithoutBrackets() {
        LockManager m = LockManager.create();
        TableLock t = m.table("T", "PUBLIC.T");
        Owner o = m.register(1, "SA");
        assertTrue(m.acquire(o, new LockRequest[] {LockRequest.rowKey(t, RowKey.of(1, 3), LockMode.X)},
                LockDuration.TRANSACTION, 0).isGranted());
        assertTrue(m.snapshot().toString().contains("PUBLIC.T[1, 3]"), m.snapshot().toString());
        m.releaseAll(o);
    }

    @Test
    void keysOfOneFirstValueShareAKeyTablePartitionAndSmallFirstValuesSpread() {
        LockName.Keys keys = new LockName.Keys();
        LockName.KeyPart one = keys.part(RowKey.of(1, 5));
        assertTrue(one == keys.part(RowKey.of(1, 9, 3)));
        assertTrue(one == keys.part(RowKey.firstOf(new long[] {1, 5}, 1)));
        assertTrue(one == keys.part(1L), "a one-column key's first value is the key");
        assertTrue(one == keys.part(List.of(1, 8)), "a list's first value is its first element");
        keys.part(java.util.Arrays.asList(null, 8)); // a null element is a value like another
        // TPC-C's warehouses 1..4 (and 1..16): each its own partition, so terminals of
        // different home warehouses write different maps
        Set<LockName.KeyPart> seen = new HashSet<>();
        for (long w = 1; w <= 16; w++) {
            seen.add(keys.part(RowKey.of(w, 7)));
        }
        assertTrue(seen.size() >= 12, () -> "16 first values in " + seen.size() + " partitions");
        for (long w = 1; w <= 4; w++) {
            for (long v = w + 1; v <= 4; v++) {
                assertTrue(keys.part(RowKey.of(w, 7)) != keys.part(RowKey.of(v, 7)));
            }
        }
    }
}
