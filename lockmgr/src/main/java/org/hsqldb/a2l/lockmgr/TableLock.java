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
    /** When an owner last queued on the table or under it (System.nanoTime), or NOT_CONTENDED. */
    private volatile long lastWait = NOT_CONTENDED;
    /** Set under X on the table while it is flagged; cleared with the flag. */
    private volatile boolean structureShared;
    /** Bit j: key ranges of j values have their first rows read by name; set under S or more. */
    private volatile long firstRowsRead;
    private static final long NOT_CONTENDED = Long.MIN_VALUE;
    private static final VarHandle LAST_WAIT;
    private static final VarHandle FIRST_ROWS_READ;

    static {
        try {
            LAST_WAIT = MethodHandles.lookup().findVarHandle(TableLock.class, "lastWait", long.class);
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
     * Whether owners meet on this table: an owner has queued behind another on the table or
     * on a name under it (an attribute, a row key, a cell), and the table has not been quiet
     * since. It is quiet, and this turns false again, once no owner has queued there for
     * {@link LockManager#setContentionMemory the contention memory} and no owner holds
     * anything on the table (every lock under it takes an intention on it, so its own lock
     * state says so); the call that finds both clears the flag, at an instant when nobody
     * holds or can take anything on the table (it holds the table's lock word for that
     * instant, as a request for X would). While the flag is false the owners that use the
     * table do not meet on it, and an engine may lock its columns and the table whole, which
     * costs one lock where keys cost one per row: any choice of granularity is safe, the
     * hierarchy's intentions make coarse and fine locks conflict wherever they overlap; only
     * concurrency differs, and a wait says there is some. As the flag is cleared only while
     * nobody holds anything on the table, a table goes from keys back to whole locks as it
     * went from whole locks to keys, with nobody holding the other kind: bulk loaders that
     * met on a table no longer key it for the rest of the run, and a transaction that holds
     * keys on a table is not made to wait by its own later whole-table request. An owner
     * that decided on keys before a clear and locks them after it sets the flag again
     * ({@link #markContended}).
     */
    public boolean contended() {
        long last = lastWait;
        if (last == NOT_CONTENDED) {
            return false;
        }
        if (System.nanoTime() - last < manager.contentionMemoryNanos() || !manager.tryFreeze(this)) {
            return true;
        }
        try {
            // a wait since we read lastWait wrote a new time: the flag stays
            if (!LAST_WAIT.compareAndSet(this, last, NOT_CONTENDED)) {
                return true;
            }
            structureShared = false;
            return false;
        } finally {
            manager.unfreeze(this);
        }
    }

    /**
     * The flag as it is now, without trying to clear it: true from a wait on the table (or
     * {@link #markContended}) until a {@link #contended()} call finds the table quiet and
     * free. An owner holding anything on the table therefore sees it stay set once set.
     * Cheap: one volatile read.
     */
    public boolean flagged() {
        return lastWait != NOT_CONTENDED;
    }

    /**
     * Sets the flag as a wait would. For an owner that holds keyed locks on the table
     * (decided on while the flag was set) and finds it cleared meanwhile: the table then
     * reads as contended while those locks are held (holding them, the owner keeps it set
     * until they are released), and {@link #markStructureShared} may be called.
     */
    public void markContended() {
        noteContended();
    }

    /**
     * Whether the table's rows are inserted and deleted by owners that hold IX on it beside
     * owners that walk it by key: set by {@link #markStructureShared}, cleared with the
     * contention flag (so only at an instant when nobody holds anything on the table). An
     * engine whose indexes are not safe for a change beside a walk takes a latch for both
     * while this is set (the fork's store latch); while it is not, a change needs X on the
     * table, which no owner that walks it shares. Cheap: one volatile read.
     */
    public boolean structureShared() {
        return structureShared;
    }

    /**
     * Sets {@link #structureShared} for owner {@code o}, which holds X on the table while
     * the table is flagged: nobody else holds anything on it, so no owner's walk that began
     * without the latch is still going on, and the flag, which the X keeps set, cannot be
     * cleared before {@code o} lets others in. For the owner's own thread, like
     * {@link LockManager#held}.
     *
     * @throws IllegalStateException if {@code o} does not hold X on the table, or the table
     *         is not flagged
     */
    public void markStructureShared(Owner o) {
        if (manager.held(o, this) != LockMode.X) {
            throw new IllegalStateException(o + " does not hold X on " + displayName);
        }
        if (!flagged()) {
            throw new IllegalStateException(displayName + " is not contended");
        }
        structureShared = true;
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

    /** An owner queues on the table or under it. */
    void noteContended() {
        long now = System.nanoTime();
        lastWait = now == NOT_CONTENDED ? now + 1 : now;
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
