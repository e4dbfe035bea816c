package org.hsqldb.a2l.tpcc;

/**
 * How the terminals talk to the database, and the schema they talk to: the harness' own way, or the
 * way most applications (and the field's standard TPC-C client) do.
 *
 * <ul>
 * <li>{@code perCall}: every statement is prepared, executed and closed on every call, as Spring's
 * JdbcTemplate and ORMs without a statement cache do; otherwise each terminal prepares a statement
 * once and keeps it for the run.</li>
 * <li>{@code batches}: New-Order sends its stock updates and its order lines as two JDBC batches
 * ({@code addBatch} / {@code executeBatch}) once it has read every item and stock row; otherwise
 * one statement per row, interleaved with the reads.</li>
 * <li>{@code constrained}: the schema has, besides the keys and foreign keys the harness' schema
 * has, the constraints the TPC-C schema is commonly declared with: {@code UNIQUE (o_w_id, o_d_id,
 * o_c_id, o_id)} on ORDERS (the index of Order-Status's "the customer's last order") and the
 * foreign key NEW_ORDER -> ORDERS, which every relationship of the specification then has. With it
 * New-Order inserts ORDERS before NEW_ORDER in both statement orders (the key needs its parent
 * first), as the specification's sample program does.</li>
 * </ul>
 */
public record ClientShape(boolean perCall, boolean batches, boolean constrained) {

    /** The harness' own: prepared once, a statement per row, the schema of {@link Schema#DDL}. */
    public static final ClientShape HARNESS = new ClientShape(false, false, false);

    /** What applications do: prepared per call, batches, the constrained schema. */
    public static final ClientShape APPLICATION = new ClientShape(true, true, true);

    /** {@code prepared}, or the parts that differ from the harness', e.g. {@code per-call+batches+constrained}. */
    public String label() {
        if (equals(HARNESS)) return "prepared";
        StringBuilder b = new StringBuilder(perCall ? "per-call" : "prepared");
        if (batches) b.append("+batches");
        if (constrained) b.append("+constrained");
        return b.toString();
    }

    /** In words, for reports. */
    public String describe() {
        return (perCall ? "statements prepared, executed and closed on every call" : "statements prepared once")
                + (batches ? ", New-Order's stock updates and order lines as JDBC batches" : "")
                + (constrained ? ", the constrained schema (UNIQUE on ORDERS by customer, NEW_ORDER -> ORDERS)"
                        : ", the harness' schema");
    }

    @Override
    public String toString() {
        return label();
    }
}
