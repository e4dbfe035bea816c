package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Executes transactions on one connection (autocommit off) in the chosen statement order and
 * commits them. An engine error propagates with the transaction still open: the caller rolls
 * back, classifies and decides whether to retry the same input.
 */
public final class TransactionRunner implements AutoCloseable {

    public enum Outcome { COMMITTED, SPEC_ROLLBACK }

    private final Statements statements;
    private final Clock clock;
    private final TransactionHook hook;
    private final NewOrderTxn newOrder;
    private final PaymentTxn payment;
    private final DeliveryTxn delivery;
    private final OrderStatusTxn orderStatus;
    private final StockLevelTxn stockLevel;
    private int lastDeliverySkipped;
    private CommitReceipt lastReceipt;

    public TransactionRunner(Connection connection, Scale scale, Clock clock, TransactionHook hook)
            throws SQLException {
        this(connection, scale, clock, hook, ReadsForUpdate.PLAIN);
    }

    public TransactionRunner(Connection connection, Scale scale, Clock clock, TransactionHook hook,
                             ReadsForUpdate readsForUpdate) throws SQLException {
        this(connection, scale, clock, hook, readsForUpdate, ClientShape.HARNESS);
    }

    /** Statements prepared and batched as {@code shape} says, for its schema. */
    public TransactionRunner(Connection connection, Scale scale, Clock clock, TransactionHook hook,
                             ReadsForUpdate readsForUpdate, ClientShape shape) throws SQLException {
        connection.setAutoCommit(false);
        this.statements = new Statements(connection, readsForUpdate, shape.perCall());
        this.clock = clock;
        this.hook = hook;
        this.newOrder = new NewOrderTxn(statements, shape);
        this.payment = new PaymentTxn(statements);
        this.delivery = new DeliveryTxn(statements, scale.districtsPerWarehouse());
        this.orderStatus = new OrderStatusTxn(statements);
        this.stockLevel = new StockLevelTxn(statements);
    }

    public Connection connection() {
        return statements.connection();
    }

    /** See {@link Statements#checkpoint}: called before every statement and before the commit. */
    public void checkpoint(Statements.Checkpoint checkpoint) {
        statements.checkpoint(checkpoint);
    }

    /** The JDBC query timeout of this connection's statements from now on, 0 for none. */
    public void queryTimeout(int seconds) throws SQLException {
        statements.queryTimeout(seconds);
    }

    public Outcome execute(TxnInput input, StatementOrder order) throws SQLException {
        lastReceipt = null;
        statements.beginAttempt();
        hook.atStart(statements, input, order);
        // one instant per attempt: O_ENTRY_D, H_DATE and OL_DELIVERY_D come from the (injectable) clock
        Timestamp now = Timestamp.from(clock.instant());
        CommitReceipt receipt = null;
        try {
            switch (input.type()) {
                case NEW_ORDER -> {
                    TxnInput.NewOrder in = (TxnInput.NewOrder) input;
                    NewOrderTxn.Placed placed = newOrder.run(in, order, now);
                    receipt = new CommitReceipt.NewOrder(in.warehouseId(), in.districtId(), placed.orderId(),
                            in.customerId(), in.lines().size(), now.toInstant());
                }
                case PAYMENT -> {
                    TxnInput.Payment in = (TxnInput.Payment) input;
                    int customerId = payment.run(in, order, now);
                    receipt = new CommitReceipt.Payment(in.warehouseId(), in.districtId(), in.customerWarehouseId(),
                            in.customerDistrictId(), customerId, in.amount(), now.toInstant());
                }
                case DELIVERY -> {
                    TxnInput.Delivery in = (TxnInput.Delivery) input;
                    int[] orderIds = delivery.run(in, order, now);
                    Map<Integer, Integer> delivered = new LinkedHashMap<>();
                    for (int d = 1; d < orderIds.length; d++) if (orderIds[d] != 0) delivered.put(d, orderIds[d]);
                    lastDeliverySkipped = orderIds.length - 1 - delivered.size();
                    receipt = new CommitReceipt.Delivery(in.warehouseId(), in.carrierId(), now.toInstant(), delivered);
                }
                case ORDER_STATUS -> orderStatus.run((TxnInput.OrderStatus) input);
                case STOCK_LEVEL -> stockLevel.run((TxnInput.StockLevel) input);
            }
        } catch (SpecRollback expected) {
            connection().rollback();
            return Outcome.SPEC_ROLLBACK;
        }
        statements.beforeCommit();
        connection().commit();
        lastReceipt = receipt;
        return Outcome.COMMITTED;
    }

    /** What the last committed transaction wrote (null for the read-only ones and after an abort). */
    public CommitReceipt lastReceipt() {
        return lastReceipt;
    }

    /** Districts the last committed Delivery found nothing to deliver in (clause 2.7.4.2 asks to count them). */
    public int lastDeliverySkipped() {
        return lastDeliverySkipped;
    }

    /** Rolls back whatever is open, ignoring a connection that is already unusable. */
    public void rollbackQuietly() {
        try {
            connection().rollback();
        } catch (SQLException ignored) {
            // the engine may have rolled back already (deadlock victim)
        }
    }

    @Override
    public void close() {
        statements.close();
    }
}
