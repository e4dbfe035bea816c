package org.hsqldb.a2l.tpcc;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Stock-Level, clause 2.8.2: S(district) S(order_line join stock), in both orders (the specification's too). */
final class StockLevelTxn {

    static final String NEXT_ORDER_ID = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
    static final String LOW_STOCK = "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock"
            + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ?"
            + " AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?";

    private final Statements s;

    StockLevelTxn(Statements s) {
        this.s = s;
    }

    /** Returns the number of distinct items of the last 20 orders below the threshold. */
    int run(TxnInput.StockLevel in) throws SQLException {
        int next;
        try (ResultSet rs = s.query(NEXT_ORDER_ID, in.warehouseId(), in.districtId())) {
            if (!rs.next()) throw new SQLException("district " + in.districtId() + " not found", "TPCC2");
            next = rs.getInt(1);
        }
        try (ResultSet rs = s.query(LOW_STOCK, in.warehouseId(), in.districtId(), next, next - 20,
                in.warehouseId(), in.threshold())) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
