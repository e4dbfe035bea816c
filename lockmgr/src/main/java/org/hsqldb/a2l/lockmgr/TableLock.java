package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The lock name of a table. Made by {@link LockManager#table(Object, String)}, one per
 * key; it hands out the names of its attributes ({@link #attribute(int, String)}).
 */
public final class TableLock extends CanonicalName {

    private final Object key;
    private final String displayName;
    private volatile AttributeLock[] attributes = new AttributeLock[0];
    volatile boolean dropped;
    /** Bit j: key ranges of j values have their first rows read by name; set under S or more. */
    private volatile long firstRowsRead;
    private static final VarHandle FIRST_ROWS_READ;

    static {
        try {
            FIRST_ROWS_READ = MethodHandles.lookup().findVarHandle(TableLock.class, "firstRowsRead",
                    long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    TableLock(LockManager manager, int id, Object key, String displayName) {
        super(manager, id);
        this.key = key;
        this.displayName = displayName;
    }

    /**
     * The canonical name of attribute {@code column} of this table: the same object for
     * the same column. {@code columnName} is used for display only and is taken from the
     * first call for that column.
     */
    public AttributeLock attribute(int column, String columnName) {
        if (column < 0) {
            throw new IllegalArgumentException("column " + column);
        }
        AttributeLock[] a = attributes;
        if (column < a.length && a[column] != null) {
            return a[column];
        }
        synchronized (this) {
            a = attributes;
            if (column < a.length && a[column] != null) {
                return a[column];
            }
            if (column >= a.length) {
                a = java.util.Arrays.copyOf(a, Math.max(column + 1, a.length * 2));
            } else {
                a = a.clone();
            }
            AttributeLock attr = new AttributeLock(this, manager.nextNameId(), column,
                    columnName);
            a[column] = attr;
            attributes = a;
            return attr;
        }
    }

    /** The key this name was made for. */
    public Object key() {
        return key;
    }

    /** The display name, e.g. {@code PUBLIC.ORDERS}. */
    public String displayName() {
        return displayName;
    }

    /**
     * Whether an owner has read the first row of a key range of {@code length} key values
     * of the table by its first-row name ({@link RowKey#firstOf}): from then on, an owner
     * that inserts or deletes a row under IX must take IX on the first-row name of each such
     * range whose first row it changes, and S, to its end, on the row before its own in the
     * longest such range that has one (README, "First rows"). Set by
     * {@link #markFirstRowsRead}, never cleared. Cheap: one volatile read.
     */
    public boolean firstRowsRead(int length) {
        return (firstRowsRead & bit(length)) != 0;
    }

    /** Whether {@link #firstRowsRead(int)} holds for any length. */
    public boolean firstRowsRead() {
        return firstRowsRead != 0;
    }

    /**
     * Sets {@link #firstRowsRead(int)} for {@code length} for owner {@code o}, which holds X
     * on the table, or S or U and not IX: no other owner holds IX on it, so no insert or
     * delete that decided its locks before the mark is still going on, provided that those
     * that come later read the mark after their IX is granted; and {@code o} made none under
     * IX itself (its own would not have locked the first rows they change, and others could
     * then read them before {@code o} ends; under X nobody else reads the table meanwhile).
     * For the owner's own thread, like {@link LockManager#held}.
     *
     * @throws IllegalStateException if {@code o} holds neither X nor S or U without IX
     */
    public void markFirstRowsRead(Owner o, int length) {
        LockMode held = manager.held(o, this);
        if (held != LockMode.X
                && (held != LockMode.S && held != LockMode.U || manager.holdsIx(o, this))) {
            throw new IllegalStateException(o + " holds " + held
                    + (manager.holdsIx(o, this) ? " and IX" : "") + " on " + displayName);
        }
        FIRST_ROWS_READ.getAndBitwiseOr(this, bit(length));
    }

    /** Lengths past 63 share the last bit: their marks are kept together, which is safe. */
    private static long bit(int length) {
        if (length < 1) {
            throw new IllegalArgumentException("a key range of " + length + " values");
        }
        return 1L << Math.min(length, 63);
    }

    /** Whether {@link LockManager#dropTable} was called for this table's key. */
    public boolean isDropped() {
        return dropped;
    }

    @Override
    public TableLock table() {
        return this;
    }

    @Override
    public LockName parent() {
        return null;
    }

    @Override
    int level() {
        return 0;
    }

    @Override
    public String toString() {
        return displayName;
    }
}
