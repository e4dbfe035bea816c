package org.hsqldb.a2l.lockmgr;

import java.util.Objects;

/**
 * One element of a statement's lock set: a lock name and a mode. Lock sets are
 * computed once per compiled statement and passed as {@code LockRequest[]} to
 * {@link LockManager#acquire}; the requests are acquired in array order (see
 * {@link #canonical} for a deadlock-friendlier order).
 */
public final class LockRequest {

    private final LockName name;
    private final LockMode mode;

    /**
     * @param name the table or attribute to lock
     * @param mode S, U or X
     */
    public LockRequest(LockName name, LockMode mode) {
        this.name = Objects.requireNonNull(name, "name");
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    /** The table or attribute to lock. */
    public LockName name() {
        return name;
    }

    /** S, U or X. */
    public LockMode mode() {
        return mode;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LockRequest)) {
            return false;
        }
        LockRequest r = (LockRequest) o;
        return name == r.name && mode == r.mode;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(name) * 31 + mode.hashCode();
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

    /**
     * A normalized copy of a lock set: one request per name (the strongest mode wins), ordered by
     * name creation order, each table directly before its own attributes in the order
     * they were created. Taking every statement's locks in one global order removes
     * the deadlocks that differing orders inside statements would cause; it does not
     * remove those between statements of one transaction.
     */
    public static LockRequest[] canonical(LockRequest... set) {
        java.util.LinkedHashMap<LockName, LockRequest> byName = new java.util.LinkedHashMap<>();
        for (LockRequest r : set) {
            byName.merge(r.name(), r, (a, b) -> a.mode().covers(b.mode()) ? a : b);
        }
        LockRequest[] out = byName.values().toArray(new LockRequest[0]);
        java.util.Arrays.sort(out, (a, b) -> {
            LockName na = a.name(), nb = b.name();
            int ta = na.table().id, tb = nb.table().id;
            if (ta != tb) {
                return Integer.compare(ta, tb);
            }
            boolean attrA = na instanceof AttributeLock, attrB = nb instanceof AttributeLock;
            if (attrA != attrB) {
                return attrA ? 1 : -1;
            }
            return Integer.compare(na.id, nb.id);
        });
        return out;
    }

    @Override
    public String toString() {
        return mode + "(" + name + ")";
    }
}
