package org.hsqldb.a2l.tpcc;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Finds a customer by id or by last name (clause 2.5.2.2: count the matches, read them in
 * C_FIRST order, take the one at position ceil(n / 2)). Each transaction reads its own columns.
 */
final class CustomerLookup {

    /** The customer's id and C_CREDIT (the only values later statements need). */
    record Found(int id, String credit) {}

    private final Statements s;
    private final String byId;
    private final String countByName;
    private final String byName;

    /**
     * {@code columns} must start with c_id and c_credit, the rest are what the transaction displays;
     * {@code updates}, if any, are the columns the transaction will update in the customer found,
     * and the reads ask for their write locks (see {@link ReadsForUpdate}). The count takes none: it
     * does not say which customer will be updated.
     */
    CustomerLookup(Statements s, String columns, String... updates) {
        this.s = s;
        String byId = "SELECT " + columns + " FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
        String byName = "SELECT " + columns + " FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?"
                + " ORDER BY c_first";
        this.byId = updates.length == 0 ? byId : s.forUpdate(byId, updates);
        this.countByName = "SELECT COUNT(c_id) FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?";
        this.byName = updates.length == 0 ? byName : s.forUpdate(byName, updates);
    }

    Found find(int w, int d, TxnInput.CustomerRef ref) throws SQLException {
        if (!ref.byLastName()) {
            try (ResultSet rs = s.query(byId, w, d, ref.id())) {
                if (!rs.next()) throw new SQLException("customer " + ref + " not found", "TPCC2");
                return new Found(rs.getInt(1), rs.getString(2));
            }
        }
        int count;
        try (ResultSet rs = s.query(countByName, w, d, ref.lastName())) {
            rs.next();
            count = rs.getInt(1);
        }
        if (count == 0) throw new SQLException("no customer with " + ref + " in " + w + "/" + d, "TPCC2");
        int position = (count + 1) / 2;
        try (ResultSet rs = s.query(byName, w, d, ref.lastName())) {
            Found found = null;
            for (int i = 1; i <= position && rs.next(); i++) found = new Found(rs.getInt(1), rs.getString(2));
            if (found == null) throw new SQLException("customer " + ref + " vanished", "TPCC2");
            return found;
        }
    }
}
