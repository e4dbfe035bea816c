package org.hsqldb.a2l.tpcc;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Delivery, clause 2.7.4, executed directly (not queued), every district of the warehouse in one
 * database transaction. Original order (thesis table 6.1, the same as the clause and its sample program A.4),
 * per district: S(new_order) D(new_order) S(orders) U(orders) U(order_line) S(sum ol_amount)
 * U(customer). RbW: per district S(new_order) S(orders) S(sum ol_amount); then per district
 * D(new_order) U(orders) U(order_line) U(customer).
 */
final class DeliveryTxn {

    /**
     * ORDER BY names the whole primary key, not just no_o_id: HSQLDB only reads an index in order
     * (and stops after the first row) when the ORDER BY columns are exactly an index's columns.
     * With ORDER BY no_o_id it read and sorted every undelivered order of the district, 20-33% of
     * all CPU at 8-92 in a profile, growing as NEW_ORDER grows during a run.
     */
    static final String OLDEST_NEW_ORDER = "SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ?"
            + " ORDER BY no_w_id, no_d_id, no_o_id FETCH FIRST 1 ROWS ONLY";
    static final String DELETE_NEW_ORDER = "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?";
    static final String ORDER_CUSTOMER = "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
    static final String UPDATE_ORDER = "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
    static final String UPDATE_ORDER_LINES = "UPDATE order_line SET ol_delivery_d = ?"
            + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";
    static final String ORDER_AMOUNT = "SELECT SUM(ol_amount) FROM order_line"
            + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";
    static final String UPDATE_CUSTOMER = "UPDATE customer SET c_balance = c_balance + ?,"
            + " c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";

    /** What the read phase learnt about one district; orderId 0 means nothing to deliver. */
    private record Pending(int orderId, int customerId, BigDecimal amount) {}

    private final Statements s;
    private final int districts;
    // the oldest new order is read before it is deleted, and the order's customer before the
    // order's carrier is set (see ReadsForUpdate): two Deliveries of one warehouse then queue at
    // the read; reading plainly, both could hold the district's oldest new order and each wait to
    // delete it for the other
    private final String oldestNewOrder;
    private final String orderCustomer;

    DeliveryTxn(Statements s, int districts) {
        this.s = s;
        this.districts = districts;
        this.oldestNewOrder = s.forUpdateHead(OLDEST_NEW_ORDER);
        this.orderCustomer = s.forUpdate(ORDER_CUSTOMER, "o_carrier_id");
    }

    /**
     * Returns the O_ID delivered in each district (index = D_ID; index 0 unused), 0 for a district
     * skipped because it had no undelivered order.
     */
    int[] run(TxnInput.Delivery in, StatementOrder order, Timestamp now) throws SQLException {
        int w = in.warehouseId();
        int[] delivered = new int[districts + 1];
        if (order == StatementOrder.ORIGINAL) {
            for (int d = 1; d <= districts; d++) {
                int orderId = oldestNewOrder(w, d);
                if (orderId == 0) continue;
                delivered[d] = orderId;
                s.updateOne(DELETE_NEW_ORDER, w, d, orderId);
                int customerId = orderCustomer(w, d, orderId);
                s.updateOne(UPDATE_ORDER, in.carrierId(), w, d, orderId);
                s.update(UPDATE_ORDER_LINES, now, w, d, orderId);
                BigDecimal amount = orderAmount(w, d, orderId);
                s.updateOne(UPDATE_CUSTOMER, amount, w, d, customerId);
            }
            return delivered;
        }
        Pending[] pending = new Pending[districts + 1];
        for (int d = 1; d <= districts; d++) {
            int orderId = oldestNewOrder(w, d);
            pending[d] = orderId == 0 ? new Pending(0, 0, null)
                    : new Pending(orderId, orderCustomer(w, d, orderId), orderAmount(w, d, orderId));
        }
        for (int d = 1; d <= districts; d++) {
            Pending p = pending[d];
            if (p.orderId() == 0) continue;
            delivered[d] = p.orderId();
            s.updateOne(DELETE_NEW_ORDER, w, d, p.orderId());
            s.updateOne(UPDATE_ORDER, in.carrierId(), w, d, p.orderId());
            s.update(UPDATE_ORDER_LINES, now, w, d, p.orderId());
            s.updateOne(UPDATE_CUSTOMER, p.amount(), w, d, p.customerId());
        }
        return delivered;
    }

    private int oldestNewOrder(int w, int d) throws SQLException {
        try (ResultSet rs = s.query(oldestNewOrder, w, d)) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    private int orderCustomer(int w, int d, int orderId) throws SQLException {
        try (ResultSet rs = s.query(orderCustomer, w, d, orderId)) {
            if (!rs.next()) throw new SQLException("order " + orderId + " not found", "TPCC2");
            return rs.getInt(1);
        }
    }

    private BigDecimal orderAmount(int w, int d, int orderId) throws SQLException {
        try (ResultSet rs = s.query(ORDER_AMOUNT, w, d, orderId)) {
            rs.next();
            BigDecimal sum = rs.getBigDecimal(1);
            return sum == null ? BigDecimal.ZERO : sum;
        }
    }
}
