package org.hsqldb.a2l.lockmgr;

/**
 * The lock name of a table. Made by {@link LockManager#table(Object, String)}, one per
 * key; it hands out the names of its attributes ({@link #attribute(int, String)}).
 */
public final class TableLock extends LockName {

    private final Object key;
    private final String displayName;
    private volatile AttributeLock[] attributes = new AttributeLock[0];
    volatile boolean dropped;
    private volatile boolean contended;

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
     * Whether an owner has waited for another on this table or on a name under it (an
     * attribute, a row key, a cell) since the name was made; never cleared. Until then the
     * owners that used the table never met on it, and an engine may lock its columns and
     * the table whole, which costs one lock where keys cost one per row: any choice of
     * granularity is safe, the hierarchy's intentions make coarse and fine locks conflict
     * wherever they overlap; only concurrency differs, and the first wait says there is some.
     */
    public boolean everContended() {
        return contended;
    }

    void noteContended() {
        if (!contended) {
            contended = true; // read first: most calls find it set and write no shared line
        }
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
