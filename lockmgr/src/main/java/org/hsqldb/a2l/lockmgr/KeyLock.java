package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * A keyed lock name: a <em>row key</em> (a table and the values of its primary key) or a
 * <em>cell</em> (an attribute and a row key). The engine does not make these; it asks for
 * them by parent and key ({@link LockRequest#rowKey}, {@link LockRequest#cell}) and the
 * manager resolves the request to the name object at acquire time, making it if needed.
 *
 * <p>Keys are compared with {@code equals} and must be immutable values (a {@link RowKey},
 * a {@code Long}, {@code List.of(1, 3)}; not arrays, whose {@code equals} is identity), with
 * a hash that spreads neighbouring rows (see {@link RowKey}); two keys that the
 * engine considers the same row must be equal objects (the engine normalizes its values
 * first).
 * A name is taken out of its parent's table (killed) when its last holder lets it go, or by
 * a sweep once its partition of that table grows past
 * {@link LockManager#keyTableSweepSize()}; a request
 * that meets a killed name looks it up again.
 */
public final class KeyLock extends LockName {

    static final VarHandle WORD = LockWord.handle(KeyLock.class);
    private static final VarHandle SHARED_S = sharedHandle("sharedS");
    private static final VarHandle SHARED_IS = sharedHandle("sharedIS");

    private final LockName parent;
    private final Object key;
    /**
     * Set once a kill (by the name's last holder or a sweep) is final (DEAD in the word may
     * still be undone before that): only then may a request that finds this name take it out
     * of its key table.
     */
    volatile boolean killed;
    /** The lock word, unpadded (see LockWord). */
    volatile long word;
    /**
     * FastLockManager's shared counts, kept here rather than in stripes: the owners that hold
     * S, and those that hold IS (see FastLockManager.shared). A row or a cell is seldom read
     * by owners on several cores at once, and fields of the name cost no object of their own.
     */
    volatile long sharedS, sharedIS;

    KeyLock(LockName parent, Object key) {
        super(parent.manager, 0, hashOf(parent, key));
        this.parent = parent;
        this.key = key;
    }

    /**
     * The hash of the keyed name {@code key} under {@code parent}: an owner's table finds a
     * held keyed name by it without the name itself (Owner.findKeyed).
     */
    static int hashOf(LockName parent, Object key) {
        return mix(parent.hash * 31 + key.hashCode()) * 0x9E3779B9;
    }

    /** Whether this is the keyed name {@code key} under {@code parent}. */
    boolean is(LockName parent, Object key) {
        return this.parent == parent && this.key.equals(key);
    }

    private static VarHandle sharedHandle(String field) {
        try {
            return MethodHandles.lookup().findVarHandle(KeyLock.class, field, long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Adds {@code d} to the S count ({@code off} 0) or the IS count ({@code off} 1). */
    void addShared(int off, long d) {
        if (off == 0) {
            SHARED_S.getAndAdd(this, d);
        } else {
            SHARED_IS.getAndAdd(this, d);
        }
    }

    /** The S count ({@code off} 0) or the IS count ({@code off} 1). */
    long shared(int off) {
        return off == 0 ? sharedS : sharedIS;
    }

    @Override
    public TableLock table() {
        return parent.table();
    }

    /** The table (a row key) or the attribute (a cell) this name is under. */
    @Override
    public LockName parent() {
        return parent;
    }

    /** The key this name was made for. */
    public Object key() {
        return key;
    }

    /** Whether this is a cell (its parent is an attribute) rather than a row key. */
    public boolean isCell() {
        return parent instanceof AttributeLock;
    }

    @Override
    int level() {
        return isCell() ? 2 : 1;
    }

    @Override
    public String toString() {
        return parent + "[" + keyString(key) + "]";
    }

    /** A key for display: a list's elements without its brackets ({@code T.c[1, 3]}). */
    static String keyString(Object key) {
        String s = String.valueOf(key);
        return key instanceof List && s.startsWith("[") && s.endsWith("]")
                ? s.substring(1, s.length() - 1) : s;
    }
}
