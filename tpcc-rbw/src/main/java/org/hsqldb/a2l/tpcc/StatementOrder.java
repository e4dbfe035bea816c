package org.hsqldb.a2l.tpcc;

/**
 * The order a transaction issues its statements in (tpcc-rbw/README.md, "Statement orders").
 *
 * <p>{@link #ORIGINAL} is the order of the thesis' Table 6.1 (its listings 6.21, 6.23 and 6.25), kept
 * so that results compare with the thesis'. The thesis calls it the TPC-C specification's order; it
 * is close to it, not the same. TPC-C 5.11 describes each transaction twice, in the normative profiles
 * (clauses 2.4.2.2, 2.5.2.2, 2.6.2.2, 2.7.4.2, 2.8.2.2) and in the informative sample programs of
 * Appendix A (A.1-A.5), and clause 2.3.1 leaves the order of a profile's data manipulations to the
 * implementer. Statement by statement (S select, U update, I insert, D delete):
 * <ul>
 * <li>New-Order, the one that differs from Appendix A: S(customer join warehouse) S(district)
 *   <b>I(new_order)</b> U(district) I(orders), then per line S(item) S(stock) U(stock) I(order_line).
 *   A.1 updates DISTRICT's D_NEXT_O_ID first and inserts NEW_ORDER last of the three header writes:
 *   S(customer join warehouse) S(district) U(district) I(orders) I(new_order). Clause 2.4.2.2 reads
 *   the warehouse, then the district, incrementing D_NEXT_O_ID in the same step, then the customer, and
 *   then inserts the NEW-ORDER and ORDER rows without ordering the two; here (as in A.1) the customer is
 *   read, joined with the warehouse, before the district, and DISTRICT is updated only after NEW_ORDER
 *   is inserted. (Inserting NEW_ORDER before ORDERS is why the NEW_ORDER to ORDERS foreign key is left
 *   out; the lines are the same in all three.)
 * <li>Payment: U(warehouse) S(warehouse) U(district) S(district) S(customer; by last name count, then
 *   select) [S(c_data)] U(customer) I(history), exactly A.2. Clause 2.5.2.2 describes the warehouse and
 *   the district each as one step that selects the row, retrieves its name and address and increases
 *   its YTD; A.2 and this order increase the YTD before reading the row.
 * <li>Order-Status: S(customer) S(orders) S(order_line), as clause 2.6.2.2 and A.3.
 * <li>Delivery, per district: S(new_order) D(new_order) S(orders) U(orders) U(order_line)
 *   S(sum ol_amount) U(customer), as clause 2.7.4.2 and A.4. (Not an order but a boundary: all ten
 *   districts are one database transaction, which the clause allows, where A.4 commits each district;
 *   and the transaction runs directly, not queued.)
 * <li>Stock-Level: S(district) S(order_line join stock), as clause 2.8.2.2 and A.5.
 * </ul>
 */
public enum StatementOrder {
    /**
     * The thesis' Table 6.1 order; TPC-C's Appendix A order except New-Order, which inserts NEW_ORDER
     * before it updates DISTRICT and inserts ORDERS (see the class comment).
     */
    ORIGINAL("original"),
    /**
     * Read-before-Write: every read first, then the writes in their original relative order (thesis
     * table 6.2; New-Order's writes as in its listing 6.22, I(new_order) U(district) I(orders), where
     * the table shows I(orders) first).
     */
    RBW("rbw");

    public final String label;

    StatementOrder(String label) {
        this.label = label;
    }

    public static StatementOrder parse(String s) {
        for (StatementOrder o : values()) if (o.label.equalsIgnoreCase(s)) return o;
        throw new IllegalArgumentException("unknown order '" + s + "' (original, rbw)");
    }

    @Override
    public String toString() {
        return label;
    }
}
