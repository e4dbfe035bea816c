package org.hsqldb.a2l.lockmgr;

import java.util.Objects;

/**
 * One element of a statement's lock set: a lock name and a mode, or for a keyed name (a row
 * key or a cell, {@link KeyLock}) its parent and a key. Lock sets of tables and attributes
 * are computed once per compiled statement; keyed requests are made when the statement runs
 * and its key is known. Sets are passed as {@code LockRequest[]} to
 * {@link LockManager#acquire}; the requests are acquired in array order (see
 * {@link #canonical} for a deadlock-friendlier order).
 */
public final class LockRequest {

    private final LockName name;
    private final LockMode mode;
    private final Object key;

    /**
     * @param name the table or attribute to lock (a {@link KeyLock} stands for its parent and key)
     * @param mode S, U or X; IX on a table or a keyed name only
     */
    public LockRequest(LockName name, LockMode mode) {
        this(name instanceof KeyLock ? ((KeyLock) name).parent() : name, mode,
                name instanceof KeyLock ? ((KeyLock) name).key() : null);
    }

    private LockRequest(LockName name, LockMode mode, Object key) {
        this.name = Objects.requireNonNull(name, "name");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.key = key;
        if (mode == LockMode.IX && !(name instanceof TableLock) && key == null) {
            throw new IllegalArgumentException("IX is a table's or a keyed name's mode, not " + this);
        }
    }

    /** The table or attribute to lock; for a keyed request, the row key's table or the cell's attribute. */
    public LockName name() {
        return name;
    }

    /** S, U, X or IX. */
    public LockMode mode() {
        return mode;
    }

    /** The key of a row-key or cell request, else null. */
    public Object key() {
        return key;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LockRequest)) {
            return false;
        }
        LockRequest r = (LockRequest) o;
        return name == r.name && mode == r.mode && Objects.equals(key, r.key);
    }

    @Override
    public int hashCode() {
        return (System.identityHashCode(name) * 31 + mode.hashCode()) * 31 + Objects.hashCode(key);
    }

    /** {@code S(name)}. */
    public static LockRequest s(LockName name) {
        return new LockRequest(name, LockMode.S);
    }

    /** {@code U(name)}: a read that will be followed by a write of the same name. */
    public static LockRequest u(LockName name) {
        return new LockRequest(name, LockMode.U);
    }

    /** {@code X(name)}. */
    public static LockRequest x(LockName name) {
        return new LockRequest(name, LockMode.X);
    }

    /** {@code IX(table)}: the owner inserts or deletes rows of the table. */
    public static LockRequest ix(TableLock table) {
        return new LockRequest(table, LockMode.IX);
    }

    /**
     * The row key {@code key} of {@code table} in {@code mode} (S, U or X). Taking it also
     * takes the table's intention: IX for U and X (an insert or a delete), a plain attribute
     * intention for S.
     *
     * <p>A key may also name a <em>key range</em>, the rows whose primary key starts with
     * the key's values (the engine's choice: a key shorter than the table's primary key).
     * It is locked in S by a statement that reads the range, and in IX by each insert or
     * delete of a row in it, beside X on the row's own key: inserters of one range do not
     * exclude each other, readers of a range exclude its inserters (no phantom). IX on a
     * row key escalates to X on the table, not IX: IX there would not stand for it.
     */
    public static LockRequest rowKey(TableLock table, Object key, LockMode mode) {
        return new LockRequest(table, mode, Objects.requireNonNull(key, "key"));
    }

    /**
     * The cell of {@code attribute} at row key {@code key}, in {@code mode} (S, U, X or IX).
     * Taking it also takes the attribute's intention (IS for S, IX for U, X and IX), which
     * conflicts with other owners' locks on the whole attribute, and the table's intention.
     * IX on a cell is compatible with IX only: writers of different cells of a key range
     * take it on the range, which keeps the range's readers out and not each other.
     *
     * <p>As a row key, a cell's key may name a key range: the values of the attribute in the
     * rows whose key starts with the key's values. It is locked in S or U by a statement that
     * reads the range, and in IX by each writer of a cell in it, beside the cell's own U or X:
     * writers of one range do not exclude each other, readers of a range exclude its writers.
     * IX on a cell escalates to X on the attribute, not IX: IX there would not stand for it.
     */
    public static LockRequest cell(AttributeLock attribute, Object key, LockMode mode) {
        return new LockRequest(attribute, mode, Objects.requireNonNull(key, "key"));
    }

    /**
     * A normalized copy of a lock set: one request per name (the strongest mode wins; for
     * a table or a row key, S or U and IX asked together stay two requests), ordered by name creation
     * order, each table directly before its row keys and its own attributes, each attribute
     * before its cells (keyed names in the order of their keys' hashes). Taking every
     * statement's locks in one global order removes the deadlocks that differing orders
     * inside statements would cause; it does not remove those between statements of one
     * transaction.
     */
    public static LockRequest[] canonical(LockRequest... set) {
        java.util.LinkedHashMap<Object, LockRequest> byName = new java.util.LinkedHashMap<>();
        for (LockRequest r : set) {
            Object k = r.key == null && r.mode != LockMode.IX ? r.name
                    : r.key == null ? java.util.List.of(r.name, LockMode.IX)
                    : r.mode == LockMode.IX ? java.util.List.of(r.name, r.key, LockMode.IX)
                    : java.util.List.of(r.name, r.key);
            byName.merge(k, r, (a, b) -> a.mode().covers(b.mode()) ? a : b);
        }
        LockRequest[] out = byName.values().toArray(new LockRequest[0]);
        java.util.Arrays.sort(out, (a, b) -> {
            LockName na = a.name(), nb = b.name();
            int c = Integer.compare(na.table().id, nb.table().id);
            if (c == 0) {
                c = Integer.compare(rank(a), rank(b));
            }
            if (c == 0) {
                c = Integer.compare(na.id, nb.id);
            }
            if (c == 0) {
                c = Integer.compare(Objects.hashCode(a.key), Objects.hashCode(b.key));
            }
            return c;
        });
        return out;
    }

    /** Table, its IX, row keys, then attributes with their cells. */
    private static int rank(LockRequest r) {
        if (r.name instanceof TableLock) {
            return r.key != null ? 2 : r.mode == LockMode.IX ? 1 : 0;
        }
        return r.key != null ? 4 : 3;
    }

    @Override
    public String toString() {
        return mode + "(" + name + (key == null ? "" : "[" + KeyLock.keyString(key) + "]") + ")";
    }
}
