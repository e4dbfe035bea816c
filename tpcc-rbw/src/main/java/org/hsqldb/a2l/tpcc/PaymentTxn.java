package org.hsqldb.a2l.tpcc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Payment, clause 2.5.2. Original order (thesis table 6.1, and TPC-C 5.11's sample program A.2):
 * U(warehouse) S(warehouse) U(district) S(district) S(customer [by last name: count + select])
 * [S(c_data)] U(customer) I(history); the clause's prose reads the warehouse and the district before
 * increasing their YTD (see {@link StatementOrder}). RbW: S(warehouse) S(district) S(customer ...) [S(c_data)], then U(warehouse)
 * U(district) U(customer) I(history).
 */
final class PaymentTxn {

    static final String UPDATE_WAREHOUSE = "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?";
    static final String WAREHOUSE =
            "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?";
    static final String UPDATE_DISTRICT = "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?";
    static final String DISTRICT = "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district"
            + " WHERE d_w_id = ? AND d_id = ?";
    static final String CUSTOMER_COLUMNS = "c_id, c_credit, c_first, c_middle, c_last, c_street_1, c_street_2,"
            + " c_city, c_state, c_zip, c_phone, c_credit_lim, c_discount, c_balance, c_since";
    static final String CUSTOMER_DATA = "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    static final String UPDATE_CUSTOMER = "UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    static final String UPDATE_BAD_CREDIT_CUSTOMER = "UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ?"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    static final String INSERT_HISTORY = "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date,"
            + " h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    private final Statements s;
    private final CustomerLookup customers;
    // reads that precede an update of the same rows ask for the write locks of the columns the
    // update changes (see ReadsForUpdate); the original order updates the warehouse and the district
    // before it reads them, so only RbW reads those two for update
    private final String customerData;
    private final String warehouseBeforeUpdate;
    private final String districtBeforeUpdate;

    PaymentTxn(Statements s) {
        this.s = s;
        this.customers = new CustomerLookup(s, CUSTOMER_COLUMNS, "c_balance", "c_ytd_payment", "c_payment_cnt");
        this.customerData = s.forUpdate(CUSTOMER_DATA, "c_data");
        this.warehouseBeforeUpdate = s.forUpdate(WAREHOUSE, "w_ytd");
        this.districtBeforeUpdate = s.forUpdate(DISTRICT, "d_ytd");
    }

    /** Returns the id of the customer who paid (the input may name them by last name). */
    int run(TxnInput.Payment in, StatementOrder order, Timestamp now) throws SQLException {
        String warehouseName;
        String districtName;
        CustomerLookup.Found customer;
        String customerData = null;
        if (order == StatementOrder.ORIGINAL) {
            s.updateOne(UPDATE_WAREHOUSE, in.amount(), in.warehouseId());
            warehouseName = readName(WAREHOUSE, in.warehouseId());
            s.updateOne(UPDATE_DISTRICT, in.amount(), in.warehouseId(), in.districtId());
            districtName = readName(DISTRICT, in.warehouseId(), in.districtId());
            customer = customers.find(in.customerWarehouseId(), in.customerDistrictId(), in.customer());
            if (badCredit(customer)) customerData = readCustomerData(in, customer);
            updateCustomer(in, customer, customerData);
        } else {
            warehouseName = readName(warehouseBeforeUpdate, in.warehouseId());
            districtName = readName(districtBeforeUpdate, in.warehouseId(), in.districtId());
            customer = customers.find(in.customerWarehouseId(), in.customerDistrictId(), in.customer());
            if (badCredit(customer)) customerData = readCustomerData(in, customer);
            s.updateOne(UPDATE_WAREHOUSE, in.amount(), in.warehouseId());
            s.updateOne(UPDATE_DISTRICT, in.amount(), in.warehouseId(), in.districtId());
            updateCustomer(in, customer, customerData);
        }
        s.updateOne(INSERT_HISTORY, customer.id(), in.customerDistrictId(), in.customerWarehouseId(),
                in.districtId(), in.warehouseId(), now, in.amount(), warehouseName + "    " + districtName);
        return customer.id();
    }

    private static boolean badCredit(CustomerLookup.Found c) {
        return "BC".equals(c.credit());
    }

    private String readName(String sql, Object... key) throws SQLException {
        try (ResultSet rs = s.query(sql, key)) {
            if (!rs.next()) throw new SQLException("no row for " + sql, "TPCC2");
            return rs.getString(1);
        }
    }

    private String readCustomerData(TxnInput.Payment in, CustomerLookup.Found c) throws SQLException {
        try (ResultSet rs = s.query(this.customerData, in.customerWarehouseId(), in.customerDistrictId(), c.id())) {
            if (!rs.next()) throw new SQLException("customer " + c.id() + " vanished", "TPCC2");
            return rs.getString(1);
        }
    }

    private void updateCustomer(TxnInput.Payment in, CustomerLookup.Found c, String oldData) throws SQLException {
        if (oldData == null) {
            s.updateOne(UPDATE_CUSTOMER, in.amount(), in.amount(),
                    in.customerWarehouseId(), in.customerDistrictId(), c.id());
            return;
        }
        // clause 2.5.2.2: the payment's ids and amount go in front of C_DATA, which keeps 500 characters
        String data = c.id() + " " + in.customerDistrictId() + " " + in.customerWarehouseId() + " "
                + in.districtId() + " " + in.warehouseId() + " " + in.amount() + " | " + oldData;
        if (data.length() > 500) data = data.substring(0, 500);
        s.updateOne(UPDATE_BAD_CREDIT_CUSTOMER, in.amount(), in.amount(), data,
                in.customerWarehouseId(), in.customerDistrictId(), c.id());
    }
}
