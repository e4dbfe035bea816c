package org.hsqldb.a2l.tpcc;

/** The order a transaction issues its statements in (DESIGN.md, table "Original vs RbW"). */
public enum StatementOrder {
    /** The specification's order (thesis table 6.1). */
    ORIGINAL("original"),
    /** Read-before-Write: every read first, then the writes in their original relative order (table 6.2). */
    RBW("rbw");

    public final String label;

    StatementOrder(String label) {
        this.label = label;
    }

    public static StatementOrder parse(String s) {
        for (StatementOrder o : values()) if (o.label.equalsIgnoreCase(s)) return o;
        throw new IllegalArgumentException("unknown order '" + s + "' (original, rbw)");
    }

    @Override
    public String toString() {
        return label;
    }
}
