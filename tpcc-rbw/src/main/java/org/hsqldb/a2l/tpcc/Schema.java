package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.hsqldb.a2l.tpcc.engine.Dialect;

/**
 * The nine TPC-C tables (clause 1.3) in SQL that HSQLDB, H2, Derby and PostgreSQL all accept; what
 * an engine needs changed (HSQLDB's MEMORY tables, the kind the fork's latch-free path is for, and how
 * each drops a table) is in {@link Dialect}.
 *
 * <p>One foreign key of the specification is left out: NEW_ORDER -> ORDERS. The thesis' New-Order
 * inserts the NEW_ORDER row before the ORDERS row, and HSQLDB, H2 and Derby have no deferrable
 * constraints; consistency condition 3.3.2.5 checks the relationship. The constrained schema
 * ({@link ClientShape#constrained}) has it, and a UNIQUE constraint on ORDERS by customer
 * ({@link #CONSTRAINTS}); its New-Order inserts ORDERS first.
 */
public final class Schema {

    /** Tables in load/creation order (parents first); drops go the other way. */
    public static final List<String> TABLES = List.of(
            "item", "warehouse", "stock", "district", "customer", "history", "orders", "new_order", "order_line");

    /** Each table's primary key (history has none: all columns) for ordered, row-by-row dumps. */
    public static String orderByForDump(String table) {
        return switch (table) {
            case "warehouse" -> "w_id";
            case "district" -> "d_w_id, d_id";
            case "customer" -> "c_w_id, c_d_id, c_id";
            case "history" -> "h_c_w_id, h_c_d_id, h_c_id, h_w_id, h_d_id, h_date, h_amount, h_data";
            case "orders" -> "o_w_id, o_d_id, o_id";
            case "new_order" -> "no_w_id, no_d_id, no_o_id";
            case "order_line" -> "ol_w_id, ol_d_id, ol_o_id, ol_number";
            case "item" -> "i_id";
            case "stock" -> "s_w_id, s_i_id";
            default -> throw new IllegalArgumentException(table);
        };
    }

    static final List<String> DDL = List.of(
            """
            CREATE TABLE item (
              i_id INTEGER NOT NULL, i_im_id INTEGER, i_name VARCHAR(24), i_price DECIMAL(5,2), i_data VARCHAR(50),
              PRIMARY KEY (i_id))""",
            """
            CREATE TABLE warehouse (
              w_id INTEGER NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20), w_street_2 VARCHAR(20),
              w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4), w_ytd DECIMAL(12,2),
              PRIMARY KEY (w_id))""",
            """
            CREATE TABLE stock (
              s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL, s_quantity INTEGER,
              s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), s_dist_05 CHAR(24),
              s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), s_dist_09 CHAR(24), s_dist_10 CHAR(24),
              s_ytd INTEGER, s_order_cnt INTEGER, s_remote_cnt INTEGER, s_data VARCHAR(50),
              PRIMARY KEY (s_w_id, s_i_id),
              FOREIGN KEY (s_w_id) REFERENCES warehouse (w_id),
              FOREIGN KEY (s_i_id) REFERENCES item (i_id))""",
            """
            CREATE TABLE district (
              d_id INTEGER NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10), d_street_1 VARCHAR(20),
              d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9), d_tax DECIMAL(4,4),
              d_ytd DECIMAL(12,2), d_next_o_id INTEGER,
              PRIMARY KEY (d_w_id, d_id),
              FOREIGN KEY (d_w_id) REFERENCES warehouse (w_id))""",
            """
            CREATE TABLE customer (
              c_id INTEGER NOT NULL, c_d_id INTEGER NOT NULL, c_w_id INTEGER NOT NULL, c_first VARCHAR(16),
              c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20), c_street_2 VARCHAR(20),
              c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9), c_phone CHAR(16), c_since TIMESTAMP,
              c_credit CHAR(2), c_credit_lim DECIMAL(12,2), c_discount DECIMAL(4,4), c_balance DECIMAL(12,2),
              c_ytd_payment DECIMAL(12,2), c_payment_cnt INTEGER, c_delivery_cnt INTEGER, c_data VARCHAR(500),
              PRIMARY KEY (c_w_id, c_d_id, c_id),
              FOREIGN KEY (c_w_id, c_d_id) REFERENCES district (d_w_id, d_id))""",
            "CREATE INDEX customer_by_last_name ON customer (c_w_id, c_d_id, c_last, c_first)",
            """
            CREATE TABLE history (
              h_c_id INTEGER, h_c_d_id INTEGER, h_c_w_id INTEGER, h_d_id INTEGER, h_w_id INTEGER,
              h_date TIMESTAMP, h_amount DECIMAL(6,2), h_data VARCHAR(24),
              FOREIGN KEY (h_c_w_id, h_c_d_id, h_c_id) REFERENCES customer (c_w_id, c_d_id, c_id),
              FOREIGN KEY (h_w_id, h_d_id) REFERENCES district (d_w_id, d_id))""",
            """
            CREATE TABLE orders (
              o_id INTEGER NOT NULL, o_d_id INTEGER NOT NULL, o_w_id INTEGER NOT NULL, o_c_id INTEGER,
              o_entry_d TIMESTAMP, o_carrier_id INTEGER, o_ol_cnt INTEGER, o_all_local INTEGER,
              PRIMARY KEY (o_w_id, o_d_id, o_id),
              FOREIGN KEY (o_w_id, o_d_id, o_c_id) REFERENCES customer (c_w_id, c_d_id, c_id))""",
            """
            CREATE TABLE new_order (
              no_o_id INTEGER NOT NULL, no_d_id INTEGER NOT NULL, no_w_id INTEGER NOT NULL,
              PRIMARY KEY (no_w_id, no_d_id, no_o_id))""",
            """
            CREATE TABLE order_line (
              ol_o_id INTEGER NOT NULL, ol_d_id INTEGER NOT NULL, ol_w_id INTEGER NOT NULL,
              ol_number INTEGER NOT NULL, ol_i_id INTEGER, ol_supply_w_id INTEGER, ol_delivery_d TIMESTAMP,
              ol_quantity INTEGER, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24),
              PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number),
              FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id) REFERENCES orders (o_w_id, o_d_id, o_id),
              FOREIGN KEY (ol_supply_w_id, ol_i_id) REFERENCES stock (s_w_id, s_i_id))""");

    /**
     * What the constrained schema adds: the TPC-C schema as it is commonly declared, with a secondary
     * UNIQUE constraint (which is also the index of the customer's orders) and every foreign key the
     * specification's relationships imply.
     */
    static final List<String> CONSTRAINTS = List.of(
            "ALTER TABLE orders ADD CONSTRAINT orders_by_customer UNIQUE (o_w_id, o_d_id, o_c_id, o_id)",
            "ALTER TABLE new_order ADD CONSTRAINT new_order_of_order FOREIGN KEY (no_w_id, no_d_id, no_o_id)"
                    + " REFERENCES orders (o_w_id, o_d_id, o_id)");

    private Schema() {}

    /** The harness' schema ({@link #create(Connection, boolean)} with {@code constrained} false). */
    public static void create(Connection c) throws SQLException {
        create(c, false);
    }

    /**
     * Drops whatever TPC-C tables exist (an external database may hold an old run), then creates them,
     * each statement in the form the engine behind {@code c} takes ({@link Dialect}), with the
     * {@link #CONSTRAINTS} when {@code constrained}.
     */
    public static void create(Connection c, boolean constrained) throws SQLException {
        Dialect dialect = Dialect.of(c);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            for (int i = TABLES.size() - 1; i >= 0; i--) {
                try {
                    s.execute(dialect.dropTable(TABLES.get(i)));
                } catch (SQLException e) {
                    // no such table is what a fresh database says; an engine we know must say only that
                    if (dialect != Dialect.GENERIC && !dialect.isMissingTable(e)) throw e;
                }
            }
            for (String ddl : DDL) s.execute(dialect.ddl(ddl));
            if (constrained) {
                for (String ddl : CONSTRAINTS) s.execute(ddl);
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }
}
