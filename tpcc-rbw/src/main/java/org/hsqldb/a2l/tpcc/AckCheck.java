package org.hsqldb.a2l.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that every acknowledged commit of a side file ({@link AckLog}) is in the database: the
 * durability half of crash safety (the consistency conditions are the other half). Commits the
 * client never saw acknowledged may or may not be there; neither is an error.
 */
public final class AckCheck {

    private static final int SHOWN = 20;

    /** Counts of what was checked; {@code problems} lists the first missing or wrong commits. */
    public record Result(long newOrders, long payments, long deliveries, long deliveredOrders, long missing,
                         List<String> problems) {
        public boolean ok() {
            return missing == 0;
        }

        public long acknowledged() {
            return newOrders + payments + deliveries;
        }

        public String oneLine() {
            return acknowledged() + " acknowledged commits checked (" + newOrders + " New-Order, " + payments
                    + " Payment, " + deliveries + " Delivery with " + deliveredOrders + " delivered orders): "
                    + (ok() ? "all present" : missing + " MISSING OR WRONG");
        }
    }

    static final String ORDER = "SELECT o_c_id, o_ol_cnt, o_entry_d, o_carrier_id,"
            + " (SELECT COUNT(*) FROM order_line WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id),"
            + " (SELECT COUNT(*) FROM order_line WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id"
            + " AND ol_delivery_d = ?),"
            + " (SELECT COUNT(*) FROM new_order WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id)"
            + " FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
    static final String HISTORY_SINCE = "SELECT h_w_id, h_d_id, h_c_w_id, h_c_d_id, h_c_id, h_amount, h_date"
            + " FROM history WHERE h_date >= ?";

    private final List<String> problems = new ArrayList<>();
    private long missing;

    private AckCheck() {}

    public static Result check(Connection c, List<CommitReceipt> receipts) throws SQLException {
        return new AckCheck().run(c, receipts);
    }

    private Result run(Connection c, List<CommitReceipt> receipts) throws SQLException {
        long newOrders = 0, payments = 0, deliveries = 0, deliveredOrders = 0;
        List<CommitReceipt.Payment> paid = new ArrayList<>();
        try (PreparedStatement order = c.prepareStatement(ORDER)) {
            for (CommitReceipt r : receipts) {
                if (r instanceof CommitReceipt.NewOrder n) {
                    newOrders++;
                    checkNewOrder(order, n);
                } else if (r instanceof CommitReceipt.Payment p) {
                    payments++;
                    paid.add(p);
                } else {
                    CommitReceipt.Delivery d = (CommitReceipt.Delivery) r;
                    deliveries++;
                    deliveredOrders += d.delivered().size();
                    checkDelivery(order, d);
                }
            }
        }
        checkPayments(c, paid);
        return new Result(newOrders, payments, deliveries, deliveredOrders, missing, List.copyOf(problems));
    }

    private void problem(String what) {
        missing++;
        if (problems.size() < SHOWN) problems.add(what);
    }

    private void checkNewOrder(PreparedStatement ps, CommitReceipt.NewOrder n) throws SQLException {
        String id = "New-Order W" + n.warehouseId() + "/D" + n.districtId() + "/O" + n.orderId();
        try (ResultSet rs = order(ps, n.warehouseId(), n.districtId(), n.orderId(), n.entryDate())) {
            if (!rs.next()) {
                problem(id + ": no ORDERS row");
                return;
            }
            Instant entry = rs.getTimestamp(3) == null ? null : rs.getTimestamp(3).toInstant();
            if (rs.getInt(1) != n.customerId() || rs.getInt(2) != n.lineCount() || !n.entryDate().equals(entry)) {
                problem(id + ": ORDERS row is another order (customer " + rs.getInt(1) + ", " + rs.getInt(2)
                        + " lines, entered " + entry + "; acknowledged: customer " + n.customerId() + ", "
                        + n.lineCount() + " lines, " + n.entryDate() + ")");
            } else if (rs.getInt(5) != n.lineCount()) {
                problem(id + ": " + rs.getInt(5) + " ORDER_LINE rows, acknowledged " + n.lineCount());
            }
        }
    }

    private void checkDelivery(PreparedStatement ps, CommitReceipt.Delivery d) throws SQLException {
        for (Map.Entry<Integer, Integer> e : d.delivered().entrySet()) {
            String id = "Delivery at " + d.deliveryDate() + " of W" + d.warehouseId() + "/D" + e.getKey() + "/O"
                    + e.getValue();
            try (ResultSet rs = order(ps, d.warehouseId(), e.getKey(), e.getValue(), d.deliveryDate())) {
                if (!rs.next()) {
                    problem(id + ": no ORDERS row");
                    continue;
                }
                int carrier = rs.getInt(4);
                boolean noCarrier = rs.wasNull();
                if (noCarrier || carrier != d.carrierId()) {
                    problem(id + ": O_CARRIER_ID " + (noCarrier ? "null" : carrier) + ", acknowledged " + d.carrierId());
                } else if (rs.getInt(6) != rs.getInt(2)) {
                    problem(id + ": " + rs.getInt(6) + " of " + rs.getInt(2) + " lines carry the delivery date");
                } else if (rs.getInt(7) != 0) {
                    problem(id + ": the NEW_ORDER row is still there");
                }
            }
        }
    }

    private static ResultSet order(PreparedStatement ps, int w, int d, int o, Instant date) throws SQLException {
        ps.setTimestamp(1, Timestamp.from(date));
        ps.setInt(2, w);
        ps.setInt(3, d);
        ps.setInt(4, o);
        return ps.executeQuery();
    }

    /** HISTORY has no key: read the rows written since the first acknowledged Payment once, then match. */
    private void checkPayments(Connection c, List<CommitReceipt.Payment> paid) throws SQLException {
        if (paid.isEmpty()) return;
        Instant since = paid.stream().map(CommitReceipt.Payment::date).min(Instant::compareTo).orElseThrow();
        Map<String, Integer> rows = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(HISTORY_SINCE)) {
            ps.setTimestamp(1, Timestamp.from(since));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.merge(key(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5),
                            rs.getBigDecimal(6), rs.getTimestamp(7).toInstant()), 1, Integer::sum);
                }
            }
        }
        for (CommitReceipt.Payment p : paid) {
            int n = rows.getOrDefault(key(p.warehouseId(), p.districtId(), p.customerWarehouseId(),
                    p.customerDistrictId(), p.customerId(), p.amount(), p.date()), 0);
            if (n != 1) {
                problem("Payment at " + p.date() + " of " + p.amount() + " by customer " + p.customerWarehouseId()
                        + "/" + p.customerDistrictId() + "/" + p.customerId() + " to W" + p.warehouseId() + "/D"
                        + p.districtId() + ": " + (n == 0 ? "no HISTORY row" : n + " HISTORY rows"));
            }
        }
    }

    private static String key(int w, int d, int cw, int cd, int c, BigDecimal amount, Instant date) {
        return w + "/" + d + "/" + cw + "/" + cd + "/" + c + "/" + amount.stripTrailingZeros().toPlainString() + "/" + date;
    }
}
