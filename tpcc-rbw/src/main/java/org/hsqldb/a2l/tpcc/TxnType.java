package org.hsqldb.a2l.tpcc;

/** The five TPC-C transactions, in the order the mixes list them. */
public enum TxnType {
    NEW_ORDER("NewOrder"),
    PAYMENT("Payment"),
    DELIVERY("Delivery"),
    ORDER_STATUS("OrderStatus"),
    STOCK_LEVEL("StockLevel");

    public final String label;

    TxnType(String label) {
        this.label = label;
    }
}
