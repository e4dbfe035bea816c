package org.hsqldb.a2l.tpcc;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * New-Order, clause 2.4.2. Original order (thesis table 6.1): S(customer join warehouse)
 * S(district) I(new_order) U(district) I(orders) loop{S(item) S(stock) U(stock) I(order_line)}.
 * That is not the specification's: its sample program (TPC-C 5.11, A.1) updates the district and
 * inserts ORDERS before NEW_ORDER, S(customer join warehouse) S(district) U(district) I(orders)
 * I(new_order) loop{...}; see {@link StatementOrder}. RbW: the same reads, the item and stock reads
 * of every line first, then the writes in their original relative order.
 */
final class NewOrderTxn {

    static final String CUSTOMER_WAREHOUSE = "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse"
            + " WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?";
    static final String DISTRICT = "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ?";
    static final String INSERT_NEW_ORDER = "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)";
    static final String UPDATE_DISTRICT =
            "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?";
    static final String INSERT_ORDER = "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id,"
            + " o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)";
    static final String ITEM = "SELECT i_price, i_name, i_data FROM item WHERE i_id = ?";
    static final String[] STOCK = new String[11];
    static final String UPDATE_STOCK = "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?,"
            + " s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?";
    static final String INSERT_ORDER_LINE = "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number,"
            + " ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)"
            + " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)";

    static {
        for (int d = 1; d <= 10; d++) {
            STOCK[d] = String.format("SELECT s_quantity, s_data, s_dist_%02d FROM stock WHERE s_w_id = ? AND s_i_id = ?", d);
        }
    }

    private record CustomerWarehouse(BigDecimal discount, BigDecimal warehouseTax) {}

    private record District(int nextOrderId, BigDecimal tax) {}

    private record Item(BigDecimal price, String data) {}

    private record Stock(int quantity, String data, String distInfo) {}

    /** The order placed: its O_ID and total amount (clause 2.4.2.2, displayed by a real terminal). */
    record Placed(int orderId, BigDecimal total) {}

    private final Statements s;
    // the reads of the district and the stock row precede their updates: they ask for the write
    // locks of the columns the transaction will update (see ReadsForUpdate)
    private final String district;
    private final String[] stock = new String[11];
    private final ClientShape shape;

    NewOrderTxn(Statements s) {
        this(s, ClientShape.HARNESS);
    }

    /**
     * With {@code shape.batches()} the lines are written as two JDBC batches once every item and
     * stock row is read; with {@code shape.constrained()} ORDERS is inserted before NEW_ORDER.
     */
    NewOrderTxn(Statements s, ClientShape shape) {
        this.s = s;
        this.shape = shape;
        this.district = s.forUpdate(DISTRICT, "d_next_o_id");
        for (int d = 1; d <= 10; d++) {
            stock[d] = s.forUpdate(STOCK[d], "s_quantity", "s_ytd", "s_order_cnt", "s_remote_cnt");
        }
    }

    Placed run(TxnInput.NewOrder in, StatementOrder order, Timestamp now) throws SQLException, SpecRollback {
        CustomerWarehouse cw = readCustomerWarehouse(in);
        District district = readDistrict(in);
        int orderId = district.nextOrderId();
        List<TxnInput.OrderLine> lines = in.lines();
        BigDecimal total = BigDecimal.ZERO;
        if (shape.batches()) {
            total = writeLinesInBatches(in, order, orderId, now);
        } else if (order == StatementOrder.ORIGINAL) {
            writeOrderHeader(in, orderId, now);
            for (int n = 1; n <= lines.size(); n++) {
                TxnInput.OrderLine line = lines.get(n - 1);
                Item item = readItem(line.itemId());
                Stock stock = readStock(in, line);
                total = total.add(writeLine(in, orderId, n, line, item, stock, stock.quantity()));
            }
        } else {
            Item[] items = new Item[lines.size()];
            Stock[] stocks = new Stock[lines.size()];
            for (int i = 0; i < lines.size(); i++) {
                items[i] = readItem(lines.get(i).itemId());
                stocks[i] = readStock(in, lines.get(i));
            }
            writeOrderHeader(in, orderId, now);
            // An order may name the same stock row twice; the original order's second read sees
            // the first line's update, so carry that quantity forward to write the same value.
            Map<Long, Integer> quantityAfterEarlierLines = new HashMap<>();
            for (int n = 1; n <= lines.size(); n++) {
                TxnInput.OrderLine line = lines.get(n - 1);
                long key = (long) line.supplyWarehouseId() << 32 | line.itemId();
                int before = quantityAfterEarlierLines.getOrDefault(key, stocks[n - 1].quantity());
                total = total.add(writeLine(in, orderId, n, line, items[n - 1], stocks[n - 1], before));
                quantityAfterEarlierLines.put(key, newQuantity(before, line.quantity()));
            }
        }
        return new Placed(orderId, total.multiply(BigDecimal.ONE.subtract(cw.discount()))
                .multiply(BigDecimal.ONE.add(cw.warehouseTax()).add(district.tax())));
    }

    private CustomerWarehouse readCustomerWarehouse(TxnInput.NewOrder in) throws SQLException {
        try (ResultSet rs = s.query(CUSTOMER_WAREHOUSE, in.warehouseId(), in.districtId(), in.customerId())) {
            if (!rs.next()) throw new SQLException("customer " + in.customerId() + " not found", "TPCC2");
            return new CustomerWarehouse(rs.getBigDecimal(1), rs.getBigDecimal(4));
        }
    }

    private District readDistrict(TxnInput.NewOrder in) throws SQLException {
        try (ResultSet rs = s.query(district, in.warehouseId(), in.districtId())) {
            if (!rs.next()) throw new SQLException("district " + in.districtId() + " not found", "TPCC2");
            return new District(rs.getInt(1), rs.getBigDecimal(2));
        }
    }

    private Item readItem(int itemId) throws SQLException, SpecRollback {
        try (ResultSet rs = s.query(ITEM, itemId)) {
            if (!rs.next()) throw new SpecRollback(itemId);
            return new Item(rs.getBigDecimal(1), rs.getString(3));
        }
    }

    private Stock readStock(TxnInput.NewOrder in, TxnInput.OrderLine line) throws SQLException {
        try (ResultSet rs = s.query(stock[in.districtId()], line.supplyWarehouseId(), line.itemId())) {
            if (!rs.next()) throw new SQLException("stock " + line.itemId() + " not found", "TPCC2");
            return new Stock(rs.getInt(1), rs.getString(2), rs.getString(3));
        }
    }

    private void writeOrderHeader(TxnInput.NewOrder in, int orderId, Timestamp now) throws SQLException {
        if (shape.constrained()) {
            // NEW_ORDER's foreign key needs its ORDERS row first: the order of TPC-C's sample program
            s.updateOne(UPDATE_DISTRICT, in.warehouseId(), in.districtId());
            insertOrder(in, orderId, now);
            s.updateOne(INSERT_NEW_ORDER, orderId, in.districtId(), in.warehouseId());
            return;
        }
        s.updateOne(INSERT_NEW_ORDER, orderId, in.districtId(), in.warehouseId());
        s.updateOne(UPDATE_DISTRICT, in.warehouseId(), in.districtId());
        insertOrder(in, orderId, now);
    }

    private void insertOrder(TxnInput.NewOrder in, int orderId, Timestamp now) throws SQLException {
        s.updateOne(INSERT_ORDER, orderId, in.districtId(), in.warehouseId(), in.customerId(), now,
                in.lines().size(), in.allLocal() ? 1 : 0);
    }

    /**
     * The lines as an application that batches writes them: every item and stock row read (after
     * the order's header in the original order, before it in RbW), then the stock updates as one
     * batch and the order lines as another. Returns the sum of OL_AMOUNT.
     */
    private BigDecimal writeLinesInBatches(TxnInput.NewOrder in, StatementOrder order, int orderId, Timestamp now)
            throws SQLException, SpecRollback {
        if (order == StatementOrder.ORIGINAL) writeOrderHeader(in, orderId, now);
        List<TxnInput.OrderLine> lines = in.lines();
        Item[] items = new Item[lines.size()];
        Stock[] stocks = new Stock[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            items[i] = readItem(lines.get(i).itemId());
            stocks[i] = readStock(in, lines.get(i));
        }
        if (order != StatementOrder.ORIGINAL) writeOrderHeader(in, orderId, now);
        List<Object[]> stockUpdates = new ArrayList<>(lines.size());
        List<Object[]> orderLines = new ArrayList<>(lines.size());
        BigDecimal total = BigDecimal.ZERO;
        // an order may name a stock row twice: the batch's second update must carry the first's quantity
        Map<Long, Integer> quantityAfterEarlierLines = new HashMap<>();
        for (int n = 1; n <= lines.size(); n++) {
            TxnInput.OrderLine line = lines.get(n - 1);
            long key = (long) line.supplyWarehouseId() << 32 | line.itemId();
            int before = quantityAfterEarlierLines.getOrDefault(key, stocks[n - 1].quantity());
            int after = newQuantity(before, line.quantity());
            quantityAfterEarlierLines.put(key, after);
            stockUpdates.add(new Object[] {after, line.quantity(), line.supplyWarehouseId() != in.warehouseId() ? 1 : 0,
                line.supplyWarehouseId(), line.itemId()});
            BigDecimal amount = items[n - 1].price().multiply(BigDecimal.valueOf(line.quantity()));
            orderLines.add(new Object[] {orderId, in.districtId(), in.warehouseId(), n, line.itemId(),
                line.supplyWarehouseId(), line.quantity(), amount, stocks[n - 1].distInfo()});
            total = total.add(amount);
        }
        s.batchOfOne(UPDATE_STOCK, stockUpdates);
        s.batchOfOne(INSERT_ORDER_LINE, orderLines);
        return total;
    }

    /** Updates the stock row and inserts the line; returns OL_AMOUNT. */
    private BigDecimal writeLine(TxnInput.NewOrder in, int orderId, int number, TxnInput.OrderLine line,
                                 Item item, Stock stock, int quantityBefore) throws SQLException {
        boolean remote = line.supplyWarehouseId() != in.warehouseId();
        s.updateOne(UPDATE_STOCK, newQuantity(quantityBefore, line.quantity()), line.quantity(), remote ? 1 : 0,
                line.supplyWarehouseId(), line.itemId());
        BigDecimal amount = item.price().multiply(BigDecimal.valueOf(line.quantity()));
        s.updateOne(INSERT_ORDER_LINE, orderId, in.districtId(), in.warehouseId(), number, line.itemId(),
                line.supplyWarehouseId(), line.quantity(), amount, stock.distInfo());
        return amount;
    }

    /** Clause 2.4.2.2: take the quantity, restocking by 91 when fewer than 10 would remain. */
    static int newQuantity(int quantity, int ordered) {
        return quantity >= ordered + 10 ? quantity - ordered : quantity - ordered + 91;
    }
}
