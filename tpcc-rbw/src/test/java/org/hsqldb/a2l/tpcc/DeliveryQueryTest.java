package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** Delivery's oldest-undelivered-order query: right answer, and read from the primary key, not sorted. */
class DeliveryQueryTest {

    @Test
    void theOldestNewOrderIsReadInPrimaryKeyOrder() throws Exception {
        try (TestDatabase db = TestDatabase.load("upstream", Scale.tiny(1), 7, Clock.systemUTC());
             Statement s = db.connection.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + DeliveryTxn.OLDEST_NEW_ORDER)) {
            StringBuilder plan = new StringBuilder();
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
            assertTrue(plan.indexOf("uses index") >= 0, "the ORDER BY is not served by an index:\n" + plan);
        }
    }

    @Test
    void theOldestNewOrderIsTheLowestUndeliveredOrderOfTheDistrict() throws Exception {
        Scale scale = Scale.tiny(2);
        int first = scale.firstUndeliveredOrderId();
        try (TestDatabase db = TestDatabase.load("upstream", scale, 7, Clock.systemUTC());
             PreparedStatement deliver = db.connection.prepareStatement(
                     "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id < ?");
             PreparedStatement oldest = db.connection.prepareStatement(DeliveryTxn.OLDEST_NEW_ORDER)) {
            // as if district d had delivered d orders: each district has a different answer
            for (int w = 1; w <= scale.warehouses(); w++) {
                for (int d = 1; d <= scale.districtsPerWarehouse(); d++) {
                    deliver.setInt(1, w);
                    deliver.setInt(2, d);
                    deliver.setInt(3, first + d);
                    assertEquals(d, deliver.executeUpdate());
                }
            }
            for (int w = 1; w <= scale.warehouses(); w++) {
                for (int d = 1; d <= scale.districtsPerWarehouse(); d++) {
                    assertEquals(first + d, first(oldest, w, d), "W" + w + "/D" + d);
                }
            }
        }
    }

    private static int first(PreparedStatement p, int w, int d) throws Exception {
        p.setInt(1, w);
        p.setInt(2, d);
        try (ResultSet rs = p.executeQuery()) {
            assertTrue(rs.next(), "no row for W" + w + "/D" + d);
            return rs.getInt(1);
        }
    }
}
