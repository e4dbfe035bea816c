package org.hsqldb.a2l.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * TPC-C consistency conditions (clause 3.3.2.1 to 3.3.2.12), checked after a run while no
 * terminal is active. Each condition reports the values it compared (per warehouse or district
 * where there are few, else totals and the first violations).
 *
 * <p>The per-district and per-warehouse conditions (3.3.2.1-5, 8, 9, 11) are cheap. The ones that
 * visit every order, order line or customer (3.3.2.6, 7, 10, 12) take about two seconds per
 * warehouse on upstream HSQLDB, so a measurement run of several points runs them after its last
 * point only.
 */
public final class Consistency {

    /** One condition's verdict. {@code values}: what was compared, human-readable. */
    public record Condition(String id, String rule, boolean ok, long checked, long violations, List<String> values) {}

    private static final int SHOWN_VIOLATIONS = 5;

    private final Connection c;
    private final Scale scale;

    public Consistency(Connection c, Scale scale) {
        this.c = c;
        this.scale = scale;
    }

    public static boolean allOk(List<Condition> conditions) {
        return conditions.stream().allMatch(Condition::ok);
    }

    /** All twelve conditions. */
    public List<Condition> check() throws SQLException {
        return check(true);
    }

    /** {@code full}: also the conditions that visit every order, order line and customer. */
    public List<Condition> check(boolean full) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try {
            List<Condition> out = new ArrayList<>();
            out.add(warehouseYtdIsSumOfDistricts());
            out.add(nextOrderIdIsMaxOrderId());
            out.add(newOrdersAreContiguous());
            out.add(orderLineCountsPerDistrict());
            out.add(newOrderIffUndelivered());
            if (full) {
                out.add(orderLineCountPerOrder());
                out.add(deliveryDateIffCarrier());
            }
            out.add(ytdIsSumOfHistory("3.3.2.8", "W_YTD = sum(H_AMOUNT) per warehouse",
                    "SELECT w_id, w_ytd, (SELECT SUM(h_amount) FROM history WHERE h_w_id = w_id) FROM warehouse"
                            + " ORDER BY w_id", 1));
            out.add(ytdIsSumOfHistory("3.3.2.9", "D_YTD = sum(H_AMOUNT) per district",
                    "SELECT d_w_id, d_id, d_ytd, (SELECT SUM(h_amount) FROM history WHERE h_w_id = d_w_id"
                            + " AND h_d_id = d_id) FROM district ORDER BY d_w_id, d_id", 2));
            if (full) out.addAll(customerBalances());
            out.add(deliveredOrdersMatchDeliveryCounts());
            out.sort(java.util.Comparator.comparingInt(x -> Integer.parseInt(x.id().substring("3.3.2.".length()))));
            return out;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private final class Verdict {
        final String id;
        final String rule;
        long checked;
        long violations;
        final List<String> values = new ArrayList<>();

        Verdict(String id, String rule) {
            this.id = id;
            this.rule = rule;
        }

        /** Records one unit; all units are listed when there are few, else only violations. */
        void unit(boolean ok, String value, boolean listAll) {
            checked++;
            if (!ok) violations++;
            if ((listAll && values.size() < 100) || (!ok && violations <= SHOWN_VIOLATIONS)) {
                values.add(ok ? value : "VIOLATION " + value);
            }
        }

        Condition done() {
            return new Condition(id, rule, violations == 0, checked, violations, List.copyOf(values));
        }
    }

    private ResultSet query(Statement s, String sql) throws SQLException {
        return s.executeQuery(sql);
    }

    private static boolean same(BigDecimal a, BigDecimal b) {
        if (a == null || b == null) return a == b;
        return a.compareTo(b) == 0;
    }

    private boolean fewDistricts() {
        return scale.warehouses() * scale.districtsPerWarehouse() <= 40;
    }

    private Condition warehouseYtdIsSumOfDistricts() throws SQLException {
        Verdict v = new Verdict("3.3.2.1", "W_YTD = sum(D_YTD) per warehouse");
        try (Statement s = c.createStatement(); ResultSet rs = query(s,
                "SELECT w_id, w_ytd, (SELECT SUM(d_ytd) FROM district WHERE d_w_id = w_id) FROM warehouse ORDER BY w_id")) {
            while (rs.next()) {
                BigDecimal w = rs.getBigDecimal(2), d = rs.getBigDecimal(3);
                v.unit(same(w, d), "W" + rs.getInt(1) + ": W_YTD=" + w + " sum(D_YTD)=" + d, true);
            }
        }
        return v.done();
    }

    private Condition nextOrderIdIsMaxOrderId() throws SQLException {
        Verdict v = new Verdict("3.3.2.2", "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district");
        try (Statement s = c.createStatement(); ResultSet rs = query(s,
                "SELECT d_w_id, d_id, d_next_o_id,"
                        + " (SELECT MAX(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id),"
                        + " (SELECT MAX(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id)"
                        + " FROM district ORDER BY d_w_id, d_id")) {
            while (rs.next()) {
                int next = rs.getInt(3);
                Integer maxO = (Integer) intOrNull(rs, 4), maxNo = (Integer) intOrNull(rs, 5);
                // a district whose new-orders were all delivered has no max(NO_O_ID) to compare
                boolean ok = Objects.equals(maxO, next - 1) && (maxNo == null || maxNo == next - 1);
                v.unit(ok, district(rs) + ": D_NEXT_O_ID-1=" + (next - 1) + " max(O_ID)=" + maxO
                        + " max(NO_O_ID)=" + maxNo, fewDistricts());
            }
        }
        return v.done();
    }

    private static Object intOrNull(ResultSet rs, int col) throws SQLException {
        int x = rs.getInt(col);
        return rs.wasNull() ? null : x;
    }

    private static String district(ResultSet rs) throws SQLException {
        return "W" + rs.getInt(1) + "/D" + rs.getInt(2);
    }

    private Map<String, Long> countsByDistrict(String sql) throws SQLException {
        Map<String, Long> m = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = query(s, sql)) {
            while (rs.next()) m.put(district(rs), rs.getLong(3));
        }
        return m;
    }

    private List<String> districts() {
        List<String> out = new ArrayList<>();
        for (int w = 1; w <= scale.warehouses(); w++) {
            for (int d = 1; d <= scale.districtsPerWarehouse(); d++) out.add("W" + w + "/D" + d);
        }
        return out;
    }

    private Condition newOrdersAreContiguous() throws SQLException {
        Verdict v = new Verdict("3.3.2.3", "max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW_ORDER) per district");
        try (Statement s = c.createStatement(); ResultSet rs = query(s,
                "SELECT no_w_id, no_d_id, MAX(no_o_id), MIN(no_o_id), COUNT(*) FROM new_order"
                        + " GROUP BY no_w_id, no_d_id ORDER BY no_w_id, no_d_id")) {
            while (rs.next()) {
                long span = rs.getLong(3) - rs.getLong(4) + 1, count = rs.getLong(5);
                v.unit(span == count, district(rs) + ": max-min+1=" + span + " count=" + count, fewDistricts());
            }
        }
        return v.done();
    }

    private Condition orderLineCountsPerDistrict() throws SQLException {
        Verdict v = new Verdict("3.3.2.4", "sum(O_OL_CNT) = count(ORDER_LINE) per district");
        Map<String, Long> olCnt = countsByDistrict(
                "SELECT o_w_id, o_d_id, SUM(o_ol_cnt) FROM orders GROUP BY o_w_id, o_d_id");
        Map<String, Long> lines = countsByDistrict(
                "SELECT ol_w_id, ol_d_id, COUNT(*) FROM order_line GROUP BY ol_w_id, ol_d_id");
        for (String d : districts()) {
            Long a = olCnt.get(d), b = lines.get(d);
            v.unit(Objects.equals(a, b), d + ": sum(O_OL_CNT)=" + a + " count(ORDER_LINE)=" + b, fewDistricts());
        }
        return v.done();
    }

    private Condition newOrderIffUndelivered() throws SQLException {
        Verdict v = new Verdict("3.3.2.5", "O_CARRIER_ID is null iff a NEW_ORDER row exists (checked per district:"
                + " every NEW_ORDER row has an undelivered ORDER, and the counts agree)");
        Map<String, Long> undelivered = countsByDistrict(
                "SELECT o_w_id, o_d_id, COUNT(*) FROM orders WHERE o_carrier_id IS NULL GROUP BY o_w_id, o_d_id");
        Map<String, Long> newOrders = countsByDistrict(
                "SELECT no_w_id, no_d_id, COUNT(*) FROM new_order GROUP BY no_w_id, no_d_id");
        Map<String, Long> orphans = countsByDistrict(
                "SELECT no_w_id, no_d_id, COUNT(*) FROM new_order WHERE NOT EXISTS (SELECT o_id FROM orders"
                        + " WHERE o_w_id = no_w_id AND o_d_id = no_d_id AND o_id = no_o_id AND o_carrier_id IS NULL)"
                        + " GROUP BY no_w_id, no_d_id");
        for (String d : districts()) {
            long u = undelivered.getOrDefault(d, 0L), n = newOrders.getOrDefault(d, 0L), o = orphans.getOrDefault(d, 0L);
            v.unit(u == n && o == 0, d + ": undelivered ORDERs=" + u + " NEW_ORDERs=" + n
                    + " NEW_ORDERs without an undelivered ORDER=" + o, fewDistricts());
        }
        return v.done();
    }

    private Condition orderLineCountPerOrder() throws SQLException {
        Verdict v = new Verdict("3.3.2.6", "O_OL_CNT = count(ORDER_LINE) of the order, for every order");
        long orders, wrong;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = query(s, "SELECT COUNT(*) FROM orders")) {
                rs.next();
                orders = rs.getLong(1);
            }
            try (ResultSet rs = query(s, "SELECT COUNT(*) FROM orders WHERE o_ol_cnt <> (SELECT COUNT(*)"
                    + " FROM order_line WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id)")) {
                rs.next();
                wrong = rs.getLong(1);
            }
        }
        return total(v, orders, wrong, "orders");
    }

    private Condition deliveryDateIffCarrier() throws SQLException {
        Verdict v = new Verdict("3.3.2.7", "OL_DELIVERY_D is null iff O_CARRIER_ID is null, for every order line");
        long lines, wrong;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = query(s, "SELECT COUNT(*) FROM order_line")) {
                rs.next();
                lines = rs.getLong(1);
            }
            try (ResultSet rs = query(s, "SELECT COUNT(*) FROM order_line, orders WHERE o_w_id = ol_w_id"
                    + " AND o_d_id = ol_d_id AND o_id = ol_o_id AND ((ol_delivery_d IS NULL AND o_carrier_id IS NOT NULL)"
                    + " OR (ol_delivery_d IS NOT NULL AND o_carrier_id IS NULL))")) {
                rs.next();
                wrong = rs.getLong(1);
            }
        }
        return total(v, lines, wrong, "order lines");
    }

    private static Condition total(Verdict v, long checked, long wrong, String what) {
        List<String> values = List.of(checked + " " + what + " checked, " + wrong + " violate it");
        return new Condition(v.id, v.rule, wrong == 0, checked, wrong, values);
    }

    private Condition ytdIsSumOfHistory(String id, String rule, String sql, int keyColumns) throws SQLException {
        Verdict v = new Verdict(id, rule);
        try (Statement s = c.createStatement(); ResultSet rs = query(s, sql)) {
            while (rs.next()) {
                String key = keyColumns == 1 ? "W" + rs.getInt(1) : district(rs);
                BigDecimal ytd = rs.getBigDecimal(keyColumns + 1), history = rs.getBigDecimal(keyColumns + 2);
                v.unit(same(ytd, history), key + ": YTD=" + ytd + " sum(H_AMOUNT)=" + history,
                        keyColumns == 1 || fewDistricts());
            }
        }
        return v.done();
    }

    private record Money(BigDecimal balance, BigDecimal ytdPayment) {}

    private static String customer(ResultSet rs) throws SQLException {
        return rs.getInt(1) + "/" + rs.getInt(2) + "/" + rs.getInt(3);
    }

    private Map<String, BigDecimal> sumsByCustomer(String sql) throws SQLException {
        Map<String, BigDecimal> m = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = query(s, sql)) {
            while (rs.next()) m.put(customer(rs), rs.getBigDecimal(4));
        }
        return m;
    }

    /** 3.3.2.10 and 3.3.2.12 share their three aggregates, read once. */
    private List<Condition> customerBalances() throws SQLException {
        Map<String, Money> customers = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = query(s,
                "SELECT c_w_id, c_d_id, c_id, c_balance, c_ytd_payment FROM customer")) {
            while (rs.next()) customers.put(customer(rs), new Money(rs.getBigDecimal(4), rs.getBigDecimal(5)));
        }
        Map<String, BigDecimal> delivered = sumsByCustomer("SELECT o_w_id, o_d_id, o_c_id, SUM(ol_amount)"
                + " FROM orders, order_line WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id"
                + " AND ol_delivery_d IS NOT NULL GROUP BY o_w_id, o_d_id, o_c_id");
        Map<String, BigDecimal> paid = sumsByCustomer("SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount)"
                + " FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id");
        Verdict balance = new Verdict("3.3.2.10",
                "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT), for every customer");
        Verdict ytd = new Verdict("3.3.2.12",
                "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT), for every customer");
        customers.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            BigDecimal ol = delivered.getOrDefault(e.getKey(), BigDecimal.ZERO);
            BigDecimal h = paid.getOrDefault(e.getKey(), BigDecimal.ZERO);
            Money m = e.getValue();
            balance.unit(same(m.balance(), ol.subtract(h)), "C " + e.getKey() + ": C_BALANCE=" + m.balance()
                    + " sum(OL_AMOUNT)-sum(H_AMOUNT)=" + ol.subtract(h), false);
            ytd.unit(same(m.balance().add(m.ytdPayment()), ol), "C " + e.getKey() + ": C_BALANCE+C_YTD_PAYMENT="
                    + m.balance().add(m.ytdPayment()) + " sum(OL_AMOUNT)=" + ol, false);
        });
        return List.of(summarised(balance, "customers"), summarised(ytd, "customers"));
    }

    private static Condition summarised(Verdict v, String what) {
        List<String> values = new ArrayList<>();
        values.add(v.checked + " " + what + " checked, " + v.violations + " violate it");
        values.addAll(v.values);
        return new Condition(v.id, v.rule, v.violations == 0, v.checked, v.violations, List.copyOf(values));
    }

    private Condition deliveredOrdersMatchDeliveryCounts() throws SQLException {
        int initial = scale.ordersPerDistrict() - scale.newOrdersPerDistrict();
        Verdict v = new Verdict("3.3.2.11", "count(ORDER) - count(NEW_ORDER) = " + initial
                + " + sum(C_DELIVERY_CNT) per district (as written, '= " + initial
                + "', it holds only until the first Delivery; this is its form for a running database)");
        Map<String, Long> orders = countsByDistrict("SELECT o_w_id, o_d_id, COUNT(*) FROM orders GROUP BY o_w_id, o_d_id");
        Map<String, Long> newOrders = countsByDistrict(
                "SELECT no_w_id, no_d_id, COUNT(*) FROM new_order GROUP BY no_w_id, no_d_id");
        Map<String, Long> deliveries = countsByDistrict(
                "SELECT c_w_id, c_d_id, SUM(c_delivery_cnt) FROM customer GROUP BY c_w_id, c_d_id");
        for (String d : districts()) {
            long diff = orders.getOrDefault(d, 0L) - newOrders.getOrDefault(d, 0L);
            long expected = initial + deliveries.getOrDefault(d, 0L);
            v.unit(diff == expected, d + ": count(ORDER)-count(NEW_ORDER)=" + diff + " expected=" + expected,
                    fewDistricts());
        }
        return v.done();
    }
}
