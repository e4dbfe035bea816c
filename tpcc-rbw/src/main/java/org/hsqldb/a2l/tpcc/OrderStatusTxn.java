package org.hsqldb.a2l.tpcc;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Order-Status, clause 2.6.2: S(customer) S(orders) S(order_line), in both orders (the specification's too). */
final class OrderStatusTxn {

    static final String CUSTOMER_COLUMNS = "c_id, c_credit, c_balance, c_first, c_middle, c_last";
    static final String LAST_ORDER = "SELECT o_id, o_carrier_id, o_entry_d FROM orders"
            + " WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC FETCH FIRST 1 ROWS ONLY";
    static final String ORDER_LINES = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
            + " FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";

    private final Statements s;
    private final CustomerLookup customers;

    OrderStatusTxn(Statements s) {
        this.s = s;
        this.customers = new CustomerLookup(s, CUSTOMER_COLUMNS);
    }

    /** Returns the number of lines of the customer's last order. */
    int run(TxnInput.OrderStatus in) throws SQLException {
        CustomerLookup.Found c = customers.find(in.warehouseId(), in.districtId(), in.customer());
        int orderId;
        try (ResultSet rs = s.query(LAST_ORDER, in.warehouseId(), in.districtId(), c.id())) {
            if (!rs.next()) return 0;
            orderId = rs.getInt(1);
        }
        int lines = 0;
        try (ResultSet rs = s.query(ORDER_LINES, in.warehouseId(), in.districtId(), orderId)) {
            while (rs.next()) lines++;
        }
        return lines;
    }
}
