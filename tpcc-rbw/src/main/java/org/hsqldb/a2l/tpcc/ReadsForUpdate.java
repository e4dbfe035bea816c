package org.hsqldb.a2l.tpcc;

import java.util.Locale;

/**
 * How a read that precedes an update of the same rows is written. TPC-C's New-Order reads
 * D_NEXT_O_ID and the stock quantities it then updates; read under a shared lock, two New-Orders
 * that overlap both hold S and both want X, and one becomes a deadlock victim. Asking for the
 * write lock at the read ({@code SELECT ... FOR UPDATE}) makes the second one wait instead.
 * {@code FOR UPDATE OF columns} says which columns will be updated: the fork's A2L mode locks just
 * those, so readers of the other columns of the same rows go on.
 */
public enum ReadsForUpdate {
    /** Plain SELECT, as in the thesis: the lock is upgraded by the write. */
    PLAIN("plain"),
    /** {@code SELECT ... FOR UPDATE}, for engines that reject a column list. */
    FOR_UPDATE("for-update"),
    /** {@code SELECT ... FOR UPDATE OF c1, c2}, naming the columns the transaction will update. */
    FOR_UPDATE_OF("for-update-of");

    public final String label;

    ReadsForUpdate(String label) {
        this.label = label;
    }

    /** {@code select} with the clause this form adds; {@code columns} are those the transaction updates. */
    public String apply(String select, String... columns) {
        return switch (this) {
            case PLAIN -> select;
            case FOR_UPDATE -> select + " FOR UPDATE";
            case FOR_UPDATE_OF -> select + " FOR UPDATE OF " + String.join(", ", columns);
        };
    }

    public static ReadsForUpdate parse(String label) {
        for (ReadsForUpdate r : values()) if (r.label.equals(label.toLowerCase(Locale.ROOT))) return r;
        throw new IllegalArgumentException("reads must be plain, for-update or for-update-of, not '" + label + "'");
    }
}
