package org.hsqldb.a2l.lockmgr;

import java.util.Arrays;

/**
 * A row's key of several integral values, as the engine gives it to keyed requests
 * ({@link LockRequest#rowKey}, {@link LockRequest#cell}): an immutable value, equal when
 * the values are, shown as {@code 1, 3}.
 *
 * <p>Why not {@code List.of(1L, 3L)}: a list's hash is {@code 31 * h + e} per element, so
 * the keys of neighbouring rows collide: (d, o) and (d + 1, o - 31) hash alike, and
 * TPC-C's order keys (w, d, o) fill whole buckets of a key table with rows of one warehouse.
 * This key mixes each value into the hash, as a multiplicative hash does.
 */
public final class RowKey {

    private final long[] values;
    private final boolean first;
    private final int hash;

    private RowKey(long[] values, boolean first) {
        this.values = values;
        this.first = first;
        long h = first ? 1 : 0;
        for (long v : values) {
            h = (h + v) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        this.hash = (int) (h ^ (h >>> 32));
    }

    /**
     * The key of these values, in primary key column order (copied). A key of one column is
     * better a {@code Long}; the engine must give one row one kind of key, as a RowKey of one
     * value is not equal to the Long of that value.
     */
    public static RowKey of(long... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("a row key has at least one value");
        }
        return new RowKey(values.clone(), false);
    }

    /**
     * The key of the first {@code length} of {@code values} (copied): a key range's key, or
     * with the whole array the row's.
     */
    public static RowKey ofFirst(long[] values, int length) {
        if (length < 1 || length > values.length) {
            throw new IllegalArgumentException("a row key of " + length + " of " + values.length
                    + " values");
        }
        return new RowKey(Arrays.copyOf(values, length), false);
    }

    /**
     * The name of the *first row* of the key range of the first {@code length} of
     * {@code values} (copied): which row comes first in the range, in key order, or that the
     * range is empty. Equal to no row key and no range key; shown as {@code 1, 3, first}.
     * A read of a range's first row holds S on it instead of S on the range, and only the
     * inserts and deletes that change which row is first take IX on it (the engine's
     * CellLocks, lockmgr's README "First rows").
     */
    public static RowKey firstOf(long[] values, int length) {
        if (length < 1 || length > values.length) {
            throw new IllegalArgumentException("a first row of " + length + " of "
                    + values.length + " values");
        }
        return new RowKey(Arrays.copyOf(values, length), true);
    }

    /** Whether this names the first row of a key range ({@link #firstOf}). */
    public boolean isFirst() {
        return first;
    }

    /** How many values the key has. */
    public int size() {
        return values.length;
    }

    /** The {@code i}th value. */
    public long get(int i) {
        return values[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowKey && ((RowKey) o).hash == hash
                && ((RowKey) o).first == first && Arrays.equals(((RowKey) o).values, values);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(values[i]);
        }
        if (first) {
            b.append(", first");
        }
        return b.toString();
    }
}
