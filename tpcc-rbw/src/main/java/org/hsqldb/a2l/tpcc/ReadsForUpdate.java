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

    /**
     * {@code select}, a read of a range's first row in key order (ORDER BY the key, FETCH FIRST 1)
     * whose row the transaction then deletes, as this form writes it: {@code FOR UPDATE}, no column
     * list, in HSQLDB's form, where the fork locks that one row for its delete (its patches 0046
     * and 0047: a second reader waits at the read instead of both deadlocking at the delete), and
     * plain in the others. H2, by our reading, locks every row the read's condition selects before
     * FETCH FIRST cuts them (a district's whole NEW_ORDER range: one short run made 574 txn/s
     * against 2023 plain; results/2026-11-29T2210-queue-heads/peers-head-read.txt);
     * under PostgreSQL's SERIALIZABLE the second of two such Deliveries fails with 40001 either way
     * (at its read instead of its delete).
     */
    public String applyToHead(String select) {
        return this == FOR_UPDATE_OF ? select + " FOR UPDATE" : select;
    }

    public static ReadsForUpdate parse(String label) {
        for (ReadsForUpdate r : values()) if (r.label.equals(label.toLowerCase(Locale.ROOT))) return r;
        throw new IllegalArgumentException("reads must be plain, for-update or for-update-of, not '" + label + "'");
    }
}
