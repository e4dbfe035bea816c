package org.hsqldb.a2l.lockmgr;

/**
 * The lock name of an attribute, a (table, column) pair. Made by
 * {@link TableLock#attribute(int, String)}.
 */
public final class AttributeLock extends CanonicalName {

    private final TableLock table;
    private final int column;
    private final String columnName;
    /** Set by the first request for U or X on this attribute or on a cell under it; never cleared. */
    private volatile boolean written;

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

    /**
     * Whether an owner has asked for U or X on this column or on one of its cells, or for IX
     * on a key range of its cells, since the name was made (whether or not it was granted). Until then a reader of a cell gains
     * nothing over a reader of the whole column, which no reader excludes, and the whole
     * column costs one lock per transaction instead of one per row: an engine may lock the
     * column for its point reads while this is false. Any interleaving of that choice with
     * a writer is safe, because S on the column conflicts with everything S on one of its
     * cells does, and more: a reader that saw false and locks the column either holds it
     * before the writer's intention asks (the writer waits) or queues behind the writer.
     */
    public boolean everWritten() {
        return written;
    }

    void noteWrite() {
        if (!written) {
            written = true; // read first: most calls find it set and write no shared line
        }
    }

    @Override
    public String toString() {
        return table.displayName() + "." + columnName;
    }
}
