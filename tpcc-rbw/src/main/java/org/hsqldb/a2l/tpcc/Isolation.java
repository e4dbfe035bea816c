package org.hsqldb.a2l.tpcc;

import java.sql.Connection;

/** JDBC isolation levels by the names the command line takes. */
public enum Isolation {
    SERIALIZABLE("serializable", Connection.TRANSACTION_SERIALIZABLE),
    REPEATABLE_READ("repeatable-read", Connection.TRANSACTION_REPEATABLE_READ),
    READ_COMMITTED("read-committed", Connection.TRANSACTION_READ_COMMITTED),
    READ_UNCOMMITTED("read-uncommitted", Connection.TRANSACTION_READ_UNCOMMITTED);

    public final String label;
    public final int jdbcLevel;

    Isolation(String label, int jdbcLevel) {
        this.label = label;
        this.jdbcLevel = jdbcLevel;
    }

    public static Isolation parse(String s) {
        for (Isolation i : values()) if (i.label.equalsIgnoreCase(s)) return i;
        throw new IllegalArgumentException("unknown isolation '" + s
                + "' (serializable, repeatable-read, read-committed, read-uncommitted)");
    }

    @Override
    public String toString() {
        return label;
    }
}
