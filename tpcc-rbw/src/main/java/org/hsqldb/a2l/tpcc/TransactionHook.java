package org.hsqldb.a2l.tpcc;

import java.sql.SQLException;

/**
 * Extra SQL a transaction issues at its start, before its first statement (and again at the
 * start of every retry). The engine team's RbW-RL write-set declarations go here: the input
 * says which transaction and rows follow, {@link #tablesWritten(TxnType)} which tables it writes.
 */
@FunctionalInterface
public interface TransactionHook {

    TransactionHook NONE = (statements, input, order) -> { };

    void atStart(Statements statements, TxnInput input, StatementOrder order) throws SQLException;

    /** The tables each transaction writes, in the order its (original) statements first write them. */
    static java.util.List<String> tablesWritten(TxnType type) {
        return switch (type) {
            case NEW_ORDER -> java.util.List.of("new_order", "district", "orders", "stock", "order_line");
            case PAYMENT -> java.util.List.of("warehouse", "district", "customer", "history");
            case DELIVERY -> java.util.List.of("new_order", "orders", "order_line", "customer");
            case ORDER_STATUS, STOCK_LEVEL -> java.util.List.of();
        };
    }
}
