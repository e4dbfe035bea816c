package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every point starts from the loaded tables: a restore undoes whatever the point did. */
class LoadedCopyTest {

    static final List<String> FINGERPRINT = List.of(
            "SELECT COUNT(*), SUM(o_ol_cnt), SUM(COALESCE(o_carrier_id, 0)) FROM orders",
            "SELECT COUNT(*), SUM(ol_amount) FROM order_line",
            "SELECT COUNT(*), MAX(no_o_id) FROM new_order",
            "SELECT COUNT(*), SUM(h_amount) FROM history",
            "SELECT SUM(s_quantity), SUM(s_ytd), SUM(s_order_cnt) FROM stock",
            "SELECT SUM(d_next_o_id), SUM(d_ytd) FROM district",
            "SELECT SUM(c_balance), SUM(c_payment_cnt), SUM(c_delivery_cnt) FROM customer",
            "SELECT SUM(w_ytd) FROM warehouse",
            "SELECT COUNT(*) FROM item");

    static List<String> fingerprint(Connection c) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String q : FINGERPRINT) {
                try (ResultSet rs = s.executeQuery(q)) {
                    rs.next();
                    StringBuilder b = new StringBuilder();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) b.append(rs.getString(i)).append(' ');
                    out.add(q + " -> " + b);
                }
            }
        }
        return out;
    }

    static String postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = TestPostgres.start();
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres == null) TestPostgres.stop();
    }

    /** HSQLDB switches foreign key checks off and fills on threads, so does H2; Derby and PostgreSQL fill parents first. */
    @ParameterizedTest
    @ValueSource(strings = {"upstream", "fork-a2l", "h2", "derby", "postgresql"})
    void aRestoreUndoesWhatThePointDid(String config) throws Exception {
        if (config.startsWith("fork")) {
            assumeTrue(Files.isRegularFile(EngineJars.locate(null, null).fork()), "the fork jar is not built");
        }
        if (config.equals("postgresql")) assumeTrue(postgres == null, "PostgreSQL cannot be started here: " + postgres);
        try (TestDatabase db = TestDatabase.load(config, Scale.tiny(2), 11, Clock.systemUTC())) {
            List<String> loaded = fingerprint(db.connection);
            LoadedCopy.save(db.connection);
            for (int round = 0; round < 2; round++) {
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    c.setAutoCommit(true);
                    s.execute("DELETE FROM new_order WHERE no_w_id = 1");
                    s.execute("UPDATE stock SET s_quantity = s_quantity + 7, s_order_cnt = s_order_cnt + 1");
                    s.execute("UPDATE district SET d_next_o_id = d_next_o_id + 1, d_ytd = d_ytd + 10");
                    s.execute("INSERT INTO history SELECT c_id, c_d_id, c_w_id, c_d_id, c_w_id, CURRENT_TIMESTAMP, 1.00,"
                            + " 'x' FROM customer WHERE c_id < 4");
                }
                assertNotEquals(loaded, fingerprint(db.connection));
                LoadedCopy.restore(db::connect, 2);
                assertEquals(loaded, fingerprint(db.connection), "round " + round);
                List<Consistency.Condition> conditions = new Consistency(db.connection, db.scale).check(true);
                assertTrue(Consistency.allOk(conditions), conditions.toString());
            }
        }
    }
}
