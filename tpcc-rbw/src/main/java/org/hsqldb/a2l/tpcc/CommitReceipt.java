package org.hsqldb.a2l.tpcc;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;

/**
 * What a committed write transaction left in the database that identifies it afterwards: the
 * client's proof of an acknowledged commit, checked against a reopened database after a crash.
 * The time stamps are the attempt's instant; under {@link UniqueClock} no two attempts share one,
 * which is what makes a Payment's HISTORY row and a Delivery's order lines recognisable.
 */
public sealed interface CommitReceipt {

    int warehouseId();

    /** The ORDERS row (w, d, o_id) with its customer, line count and entry date; its lines exist. */
    record NewOrder(int warehouseId, int districtId, int orderId, int customerId, int lineCount, Instant entryDate)
            implements CommitReceipt {}

    /** The HISTORY row with exactly these keys, H_DATE and H_AMOUNT (HISTORY has no key of its own). */
    record Payment(int warehouseId, int districtId, int customerWarehouseId, int customerDistrictId, int customerId,
                   BigDecimal amount, Instant date) implements CommitReceipt {}

    /**
     * The orders delivered, district -> O_ID (districts with nothing to deliver are absent): each
     * carries the carrier, its lines the delivery date, and its NEW_ORDER row is gone.
     */
    record Delivery(int warehouseId, int carrierId, Instant deliveryDate, Map<Integer, Integer> delivered)
            implements CommitReceipt {
        public Delivery {
            delivered = Map.copyOf(delivered);
        }
    }
}
