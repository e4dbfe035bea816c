package org.hsqldb.a2l.lockmgr;

/**
 * The lock name of an attribute, a (table, column) pair. Made by
 * {@link TableLock#attribute(int, String)}.
 */
public final class AttributeLock extends CanonicalName {

    private final TableLock table;
    private final int column;
    private final String columnName;

    AttributeLock(TableLock table, int id, int column, String columnName) {
        super(table.manager, id);
        this.table = table;
        this.column = column;
        this.columnName = columnName;
    }

    @Override
    public TableLock table() {
        return table;
    }

    @Override
    public LockName parent() {
        return table;
    }

    @Override
    int level() {
        return 1;
    }

    /** The column index the engine gave. */
    public int column() {
        return column;
    }

    public String columnName() {
        return columnName;
    }

    @Override
    public String toString() {
        return table.displayName() + "." + columnName;
    }
}
