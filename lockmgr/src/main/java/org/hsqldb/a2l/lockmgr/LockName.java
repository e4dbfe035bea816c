package org.hsqldb.a2l.lockmgr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lockable name: a table ({@link TableLock}), an attribute, i.e. a (table, column) pair
 * ({@link AttributeLock}), or a keyed name ({@link KeyLock}): a row key (table, key) or a
 * cell (table, column, key). Tables and attributes are canonical objects made once by their
 * {@link LockManager} (when the engine compiles a statement) and reused on every execution,
 * so that the hot path never hashes a key: the lock state lives in the name object itself.
 * Keyed names are looked up at run time in their parent's table of keys, and forgotten
 * again when nobody holds or awaits them (see {@link KeyLock}). A name belongs to
 * the manager that made it.
 */
public abstract class LockName {

    private static final VarHandle QUEUE = queueHandle();

    final LockManager manager;
    /** Dense per-manager id, in creation order (0 for keyed names). */
    final int id;
    /** Precomputed index hash for the owners' hold tables. */
    final int hash;
    /**
     * Wait queue and its monitor (FastLockManager); queue storage for MutexLockManager. A
     * table's or an attribute's is made with it; a keyed name's when first needed
     * ({@link #queue()}): most keyed names are never waited for, and a run makes hundreds of
     * thousands of them.
     */
    private volatile WaitQueue queue;
    /** FastLockManager's striped shared counts (null for keyed names and for other managers). */
    final long[] stripes;
    /** MutexLockManager's holder sets, guarded by its mutex. */
    Object mutexState;
    /** The keyed names under this one (row keys of a table, cells of an attribute), made on demand. */
    private volatile Keys keys;

    // package-private: the only names are TableLock, AttributeLock and KeyLock
    LockName(LockManager manager, int id) {
        this(manager, id, mix(id * 0x9E3779B9));
    }

    LockName(LockManager manager, int id, int hash) {
        this.manager = manager;
        this.id = id;
        this.hash = hash;
        this.stripes = manager.newStripes(this instanceof KeyLock);
        if (!(this instanceof KeyLock)) {
            this.queue = new WaitQueue(); // a keyed name's: queue()
        }
    }

    private static VarHandle queueHandle() {
        try {
            return MethodHandles.lookup().findVarHandle(LockName.class, "queue", WaitQueue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The name's wait queue, made now if it has none yet (one per name: a race installs one). */
    final WaitQueue queue() {
        WaitQueue q = queue;
        if (q == null) {
            WaitQueue made = new WaitQueue();
            q = (WaitQueue) QUEUE.compareAndExchange(this, null, made);
            if (q == null) {
                q = made;
            }
        }
        return q;
    }

    /** Whether the name has made its wait queue (for tests). */
    final boolean hasQueue() {
        return queue != null;
    }

    /** Whether nobody waits on the name (no queue, or an empty one); read under the queue's guard. */
    final boolean queueEmpty() {
        WaitQueue q = queue;
        return q == null || q.isEmpty();
    }

    // ---- the lock word: a canonical name's padded one or a keyed name's own (see LockWord)

    final long word() {
        return this instanceof KeyLock ? ((KeyLock) this).word : ((CanonicalWord) this).word;
    }

    final long orWord(long bits) {
        return this instanceof KeyLock
                ? (long) KeyLock.WORD.getAndBitwiseOr((KeyLock) this, bits)
                : (long) CanonicalWord.WORD.getAndBitwiseOr((CanonicalWord) this, bits);
    }

    final boolean casWord(long expect, long update) {
        return this instanceof KeyLock
                ? KeyLock.WORD.compareAndSet((KeyLock) this, expect, update)
                : CanonicalWord.WORD.compareAndSet((CanonicalWord) this, expect, update);
    }

    final long addWord(long delta) {
        return this instanceof KeyLock
                ? (long) KeyLock.WORD.getAndAdd((KeyLock) this, delta)
                : (long) CanonicalWord.WORD.getAndAdd((CanonicalWord) this, delta);
    }

    final void setWaiterBit() {
        orWord(LockWord.WAITER);
    }

    final void clearWaiterBit() {
        if (this instanceof KeyLock) {
            KeyLock.WORD.getAndBitwiseAnd((KeyLock) this, ~LockWord.WAITER);
        } else {
            CanonicalWord.WORD.getAndBitwiseAnd((CanonicalWord) this, ~LockWord.WAITER);
        }
    }

    static int mix(int h) {
        return h ^ (h >>> 16);
    }

    /** The manager that made this name. */
    public final LockManager manager() {
        return manager;
    }

    /** The table this name is, or belongs to. */
    public abstract TableLock table();

    /** The name this one is under: null for a table; the table or the attribute of a keyed name. */
    public abstract LockName parent();

    /** 0 for a table, 1 for an attribute or a row key, 2 for a cell: releases go deepest first. */
    abstract int level();

    final Keys keys() {
        Keys k = keys;
        if (k == null) {
            synchronized (queue()) {
                k = keys;
                if (k == null) {
                    k = new Keys();
                    keys = k;
                }
            }
        }
        return k;
    }

    /** The keyed name {@code key} under this one if the manager has it now, else null; makes nothing. */
    final KeyLock keyed(Object key) {
        Keys k = keys;
        return k == null ? null : k.part(key).map.get(key);
    }

    /** The keyed names made under this one so far and not yet forgotten (for tests and display). */
    final int keyCount() {
        Keys k = keys;
        if (k == null) {
            return 0;
        }
        int n = 0;
        for (KeyPart p : k.parts) {
            n += p.map.size();
        }
        return n;
    }

    /**
     * A parent's table of keyed names, in partitions by the key's first value (a row key's
     * first primary key column; a one-column key's value; see firstValue): keys that share it
     * share a partition. Sessions that work on different first values (TPC-C's terminals,
     * each with its home warehouse; tenants; accounts of different branches) then put and
     * remove names in different maps, whose bins and element counts stay in one core's cache,
     * where in one map for the whole parent every name made or forgotten wrote lines the other
     * core had just written.
     */
    static final class Keys {
        static final int PART_BITS = 4;
        static final int PARTS = 1 << PART_BITS;
        final KeyPart[] parts = new KeyPart[PARTS];

        Keys() {
            for (int i = 0; i < parts.length; i++) {
                parts[i] = new KeyPart();
            }
        }

        /** The partition of {@code key}: Fibonacci hashing of its first value (1, 2, 3 spread). */
        KeyPart part(Object key) {
            return parts[(int) ((firstValue(key) * 0x9E3779B97F4A7C15L) >>> (64 - PART_BITS))];
        }

        /**
         * A RowKey's first value, a list's first element, a Long's or an Integer's value; the
         * hash of any other key (or element; 0 for a null element). Equal keys have equal first
         * values, so a key always meets the same partition.
         */
        static long firstValue(Object key) {
            if (key instanceof RowKey) {
                return ((RowKey) key).get(0);
            }
            if (key instanceof List && !((List<?>) key).isEmpty()) {
                key = ((List<?>) key).get(0);
            }
            return key instanceof Long || key instanceof Integer ? ((Number) key).longValue()
                    : key == null ? 0 : key.hashCode();
        }
    }

    /** One partition of a parent's key table; one sweep of it at a time. */
    static final class KeyPart {
        final ConcurrentHashMap<Object, KeyLock> map = new ConcurrentHashMap<>(64);
        final AtomicBoolean sweeping = new AtomicBoolean();
        /** How many names the last sweep left (a hint: read without synchronization). */
        volatile int leftBySweep;
    }
}
