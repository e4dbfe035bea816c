package org.hsqldb.a2l.tpcc;

import java.math.BigDecimal;
import java.util.List;

/**
 * The inputs of one transaction, generated before it runs (from a seeded generator) so
 * that both statement orders, and every retry, execute exactly the same business transaction.
 */
public sealed interface TxnInput {

    TxnType type();

    int warehouseId();

    /** A customer chosen by id, or by last name (then id is 0). */
    record CustomerRef(int id, String lastName) {
        public boolean byLastName() {
            return lastName != null;
        }

        @Override
        public String toString() {
            return byLastName() ? "c_last=" + lastName : "c_id=" + id;
        }
    }

    record OrderLine(int itemId, int supplyWarehouseId, int quantity) {}

    /** Clause 2.4.1; {@code rollback} means the last line's item id is unused (the 1% rollback). */
    record NewOrder(int warehouseId, int districtId, int customerId, List<OrderLine> lines, boolean rollback)
            implements TxnInput {
        public TxnType type() { return TxnType.NEW_ORDER; }

        public boolean allLocal() {
            return lines.stream().allMatch(l -> l.supplyWarehouseId() == warehouseId);
        }
    }

    /** Clause 2.5.1: customer of (customerWarehouseId, customerDistrictId) pays at (warehouseId, districtId). */
    record Payment(int warehouseId, int districtId, int customerWarehouseId, int customerDistrictId,
                   CustomerRef customer, BigDecimal amount) implements TxnInput {
        public TxnType type() { return TxnType.PAYMENT; }
    }

    /** Clause 2.6.1. */
    record OrderStatus(int warehouseId, int districtId, CustomerRef customer) implements TxnInput {
        public TxnType type() { return TxnType.ORDER_STATUS; }
    }

    /** Clause 2.7.1. */
    record Delivery(int warehouseId, int carrierId) implements TxnInput {
        public TxnType type() { return TxnType.DELIVERY; }
    }

    /** Clause 2.8.1: the district is the terminal's own. */
    record StockLevel(int warehouseId, int districtId, int threshold) implements TxnInput {
        public TxnType type() { return TxnType.STOCK_LEVEL; }
    }
}
