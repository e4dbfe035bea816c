package org.hsqldb.a2l.tpcc;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates one terminal's transaction inputs as TPC-C 5.11 clauses 2.4.1, 2.5.1, 2.6.1,
 * 2.7.1 and 2.8.1 define them. A terminal has a home warehouse and, for Stock-Level, a
 * fixed district (clause 2.8.1.1).
 */
public final class InputGenerator {

    private final Scale scale;
    private final NURandConstants c;
    private final TpccRandom random;
    private final int homeWarehouse;
    private final int terminalDistrict;

    public InputGenerator(Scale scale, NURandConstants runConstants, TpccRandom random,
                          int homeWarehouse, int terminalDistrict) {
        this.scale = scale;
        this.c = runConstants;
        this.random = random;
        this.homeWarehouse = homeWarehouse;
        this.terminalDistrict = terminalDistrict;
    }

    /** Terminal t (0-based) of n: warehouses round-robin, then districts (a unique pair while t < 10 W). */
    public static int homeWarehouseOf(int terminal, Scale scale) {
        return terminal % scale.warehouses() + 1;
    }

    public static int districtOf(int terminal, Scale scale) {
        return (terminal / scale.warehouses()) % scale.districtsPerWarehouse() + 1;
    }

    public TxnInput next(Mix mix) {
        return next(mix.pick(random.uniform(1, 100)));
    }

    public TxnInput next(TxnType type) {
        return switch (type) {
            case NEW_ORDER -> newOrder();
            case PAYMENT -> payment();
            case DELIVERY -> delivery();
            case ORDER_STATUS -> orderStatus();
            case STOCK_LEVEL -> stockLevel();
        };
    }

    public TxnInput.NewOrder newOrder() {
        int d = district();
        int cId = customerId();
        int lineCount = random.uniform(5, 15);
        boolean rollback = random.uniform(1, 100) == 1;
        List<TxnInput.OrderLine> lines = new ArrayList<>(lineCount);
        for (int i = 1; i <= lineCount; i++) {
            int item = (rollback && i == lineCount) ? scale.items() + 1 : itemId();
            int supply = homeWarehouse;
            if (scale.warehouses() > 1 && random.uniform(1, 100) == 1) supply = otherWarehouse();
            lines.add(new TxnInput.OrderLine(item, supply, random.uniform(1, 10)));
        }
        return new TxnInput.NewOrder(homeWarehouse, d, cId, List.copyOf(lines), rollback);
    }

    public TxnInput.Payment payment() {
        int d = district();
        int cW = homeWarehouse;
        int cD = d;
        if (scale.warehouses() > 1 && random.uniform(1, 100) > 85) {
            cW = otherWarehouse();
            cD = district();
        }
        TxnInput.CustomerRef customer = customer();
        return new TxnInput.Payment(homeWarehouse, d, cW, cD, customer, random.decimal(100, 500_000, 2));
    }

    public TxnInput.OrderStatus orderStatus() {
        int d = district();
        return new TxnInput.OrderStatus(homeWarehouse, d, customer());
    }

    public TxnInput.Delivery delivery() {
        return new TxnInput.Delivery(homeWarehouse, random.uniform(1, 10));
    }

    public TxnInput.StockLevel stockLevel() {
        return new TxnInput.StockLevel(homeWarehouse, terminalDistrict, random.uniform(10, 20));
    }

    /** 60% by last name (NURand(255, 0, 999) syllables), else by id (NURand(1023, 1, 3000)). */
    private TxnInput.CustomerRef customer() {
        if (random.uniform(1, 100) <= 60) {
            int n = random.nurand(255, 0, scale.maxLastNameNumber(), c.cLast());
            return new TxnInput.CustomerRef(0, TpccRandom.lastName(n));
        }
        return new TxnInput.CustomerRef(customerId(), null);
    }

    private int district() {
        return random.uniform(1, scale.districtsPerWarehouse());
    }

    private int customerId() {
        return random.nurand(1023, 1, scale.customersPerDistrict(), c.cId());
    }

    private int itemId() {
        return random.nurand(8191, 1, scale.items(), c.olIId());
    }

    private int otherWarehouse() {
        int w = random.uniform(1, scale.warehouses() - 1);
        return w >= homeWarehouse ? w + 1 : w;
    }
}
