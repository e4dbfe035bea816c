package org.hsqldb.a2l.tpcc;

/**
 * Database cardinalities. {@link #standard(int)} is TPC-C 5.11 (clause 4.3.3.1) and the
 * only scale the command line uses; {@link #tiny(int)} is a non-standard, much smaller
 * population that exists only so the tests can load and compare whole databases quickly.
 */
public record Scale(String name, int warehouses, int districtsPerWarehouse, int customersPerDistrict,
                    int items, int ordersPerDistrict, int newOrdersPerDistrict) {

    public static final int DISTRICTS = 10;

    public Scale {
        if (warehouses < 1) throw new IllegalArgumentException("warehouses must be >= 1");
        if (newOrdersPerDistrict > ordersPerDistrict || ordersPerDistrict != customersPerDistrict) {
            throw new IllegalArgumentException("orders per district must equal customers (one order each)");
        }
    }

    public static Scale standard(int warehouses) {
        return new Scale("standard", warehouses, DISTRICTS, 3000, 100_000, 3000, 900);
    }

    /** NOT TPC-C: for tests only (60 customers and orders per district, 2000 items). */
    public static Scale tiny(int warehouses) {
        return new Scale("tiny (tests only, not TPC-C)", warehouses, DISTRICTS, 60, 2000, 60, 18);
    }

    /** Orders below this id are delivered at load time (2101 at standard scale). */
    public int firstUndeliveredOrderId() {
        return ordersPerDistrict - newOrdersPerDistrict + 1;
    }

    /**
     * Last-name numbers are 0..999 at standard scale; at tiny scale only the first
     * customersPerDistrict names exist in every district, so by-name look-ups stay within them.
     */
    public int maxLastNameNumber() {
        return Math.min(999, customersPerDistrict - 1);
    }

    public boolean isStandard() {
        return customersPerDistrict == 3000 && items == 100_000 && ordersPerDistrict == 3000
                && newOrdersPerDistrict == 900 && districtsPerWarehouse == DISTRICTS;
    }

    public long rowsToLoad() {
        long d = (long) warehouses * districtsPerWarehouse;
        long orderLines = d * ordersPerDistrict * 10; // O_OL_CNT averages 10
        return items + warehouses + d + (long) warehouses * items // item, warehouse, district, stock
                + d * customersPerDistrict * 2                    // customer, history
                + d * ordersPerDistrict + orderLines + d * newOrdersPerDistrict;
    }
}
