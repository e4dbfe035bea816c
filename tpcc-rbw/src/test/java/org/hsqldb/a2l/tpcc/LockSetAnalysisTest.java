package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.sql.Connection;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write sets the fork reports for TPC-C, and the RbW violations of each order. */
class LockSetAnalysisTest {

    static final Scale SCALE = Scale.tiny(2);

    @BeforeEach
    void needsTheFork() {
        assumeTrue(Files.isRegularFile(EngineJars.locate(null, null).fork()), "the fork jar is not built");
    }

    private static Map<TxnType, LockSetAnalysis.Result> analyze(String config, StatementOrder order) throws Exception {
        return analyze(config, order, ReadsForUpdate.PLAIN);
    }

    private static Map<TxnType, LockSetAnalysis.Result> analyze(String config, StatementOrder order,
                                                                ReadsForUpdate reads) throws Exception {
        try (TestDatabase db = TestDatabase.load(config, SCALE, 7, Clock.systemUTC());
             Connection c = db.connect()) {
            return LockSetAnalysis.analyze(c, SCALE, db.load.constants(), 7, order, 100, reads);
        }
    }

    /**
     * The application's shape on the constrained schema, under cells: New-Order inserts ORDERS
     * first, and its lock set, as EXPLAIN LOCKS gives it, names the UNIQUE constraint's value, not
     * the table ({@code tpcc lock-sets --explain --schema constrained}).
     */
    @Test
    void theConstrainedSchemasOrdersInsertLocksItsUniqueValueUnderCells() throws Exception {
        ClientShape shape = new ClientShape(true, true, true);
        try (TestDatabase db = TestDatabase.load("fork-a2l-cell", SCALE, 7, Clock.systemUTC(), true);
             Connection c = db.connect()) {
            LockSetAnalysis.Result newOrder = LockSetAnalysis.analyze(c, SCALE, db.load.constants(), 7,
                    StatementOrder.ORIGINAL, 20, ReadsForUpdate.FOR_UPDATE_OF, shape).get(TxnType.NEW_ORDER);
            List<String> statements = newOrder.statements();
            int orders = indexOf(statements, "INSERT INTO orders");
            assertTrue(orders >= 0 && orders < indexOf(statements, "INSERT INTO new_order"), statements.toString());
            List<String> explained = LockSetAnalysis.explained(c, statements.get(orders));
            assertTrue(explained.stream().anyMatch(l -> l.startsWith("X PUBLIC.ORDERS[ORDERS_BY_CUSTOMER: ")
                    && l.contains("UNIQUE KEY")), explained.toString());
            assertTrue(explained.contains("IX PUBLIC.ORDERS TABLE"), explained.toString());
        }
    }

    private static int indexOf(List<String> statements, String prefix) {
        for (int i = 0; i < statements.size(); i++) {
            if (statements.get(i).startsWith(prefix)) return i;
        }
        return -1;
    }

    /** The reads that precede an update take X on the columns they name, and only there. */
    @Test
    void underA2lReadsForUpdateTakeXOnTheColumnsTheyWillUpdate() throws Exception {
        Map<TxnType, LockSetAnalysis.Result> r = analyze("fork-a2l", StatementOrder.ORIGINAL, ReadsForUpdate.FOR_UPDATE_OF);
        LockSetAnalysis.Result newOrder = r.get(TxnType.NEW_ORDER);
        String district = newOrder.statements().stream().filter(s -> s.startsWith("SELECT d_next_o_id"))
                .findFirst().orElseThrow();
        assertTrue(district.endsWith("FOR UPDATE OF d_next_o_id"), district);
        List<String> locks = newOrder.locks().get(district).stream().map(Object::toString).toList();
        assertTrue(locks.contains("X(PUBLIC.DISTRICT.D_NEXT_O_ID)"), locks.toString());
        assertTrue(locks.contains("S(PUBLIC.DISTRICT.D_TAX)"), locks.toString());
        String stock = newOrder.statements().stream().filter(s -> s.startsWith("SELECT s_quantity"))
                .findFirst().orElseThrow();
        List<String> stockLocks = newOrder.locks().get(stock).stream().map(Object::toString).toList();
        for (String c : List.of("S_QUANTITY", "S_YTD", "S_ORDER_CNT", "S_REMOTE_CNT")) {
            assertTrue(stockLocks.contains("X(PUBLIC.STOCK." + c + ")"), stockLocks.toString());
        }
        assertTrue(stockLocks.contains("S(PUBLIC.STOCK.S_DATA)"), stockLocks.toString());
        // the write sets are what the writes change, whichever form the reads take
        assertEquals(analyze("fork-a2l", StatementOrder.ORIGINAL).get(TxnType.NEW_ORDER).writeSet(),
                newOrder.writeSet());
    }

    @Test
    void underA2lTheWriteSetsAreTheColumnsWrittenAndTheTablesInsertedInto() throws Exception {
        Map<TxnType, LockSetAnalysis.Result> r = analyze("fork-a2l", StatementOrder.RBW);
        assertEquals("DECLARE WRITE SET \"PUBLIC\".\"CUSTOMER\" (\"C_BALANCE\", \"C_DATA\", \"C_PAYMENT_CNT\","
                + " \"C_YTD_PAYMENT\"), \"PUBLIC\".\"DISTRICT\" (\"D_YTD\"), \"PUBLIC\".\"HISTORY\","
                + " \"PUBLIC\".\"WAREHOUSE\" (\"W_YTD\")", r.get(TxnType.PAYMENT).declaration());
        assertEquals(Set.of("S_ORDER_CNT", "S_QUANTITY", "S_REMOTE_CNT", "S_YTD"),
                r.get(TxnType.NEW_ORDER).writeSet().get("PUBLIC.STOCK"));
        assertEquals(Set.of("D_NEXT_O_ID"), r.get(TxnType.NEW_ORDER).writeSet().get("PUBLIC.DISTRICT"));
        assertEquals(Set.of(), r.get(TxnType.NEW_ORDER).writeSet().get("PUBLIC.ORDERS"), "inserted: the whole table");
        assertEquals(new TreeSet<>(List.of("PUBLIC.CUSTOMER", "PUBLIC.NEW_ORDER", "PUBLIC.ORDERS", "PUBLIC.ORDER_LINE")),
                r.get(TxnType.DELIVERY).writeSet().keySet());
        assertNull(r.get(TxnType.ORDER_STATUS).declaration());
        assertNull(r.get(TxnType.STOCK_LEVEL).declaration());
        for (LockSetAnalysis.Result result : r.values()) {
            assertEquals(List.of(), result.violations(), result.type() + " in RbW order");
        }
        assertTrue(r.get(TxnType.PAYMENT).statements().stream().anyMatch(s -> s.contains("c_last = ?")),
                "the samples took the by-name path");
        assertTrue(r.get(TxnType.PAYMENT).statements().stream().anyMatch(s -> s.contains("c_data = ?")),
                "and the bad-credit one");
    }

    @Test
    void underTableLocksTheWriteSetsAreTables() throws Exception {
        Map<TxnType, LockSetAnalysis.Result> r = analyze("fork-lf", StatementOrder.RBW);
        assertEquals("DECLARE WRITE SET \"PUBLIC\".\"DISTRICT\", \"PUBLIC\".\"NEW_ORDER\", \"PUBLIC\".\"ORDERS\","
                + " \"PUBLIC\".\"ORDER_LINE\", \"PUBLIC\".\"STOCK\"", r.get(TxnType.NEW_ORDER).declaration());
        for (LockSetAnalysis.Result result : r.values()) {
            assertEquals(List.of(), result.violations(), result.type() + " in RbW order");
        }
    }

    @Test
    void theOriginalOrderReadsAfterItsFirstWrite() throws Exception {
        Map<TxnType, LockSetAnalysis.Result> r = analyze("fork-a2l", StatementOrder.ORIGINAL);
        List<String> newOrder = r.get(TxnType.NEW_ORDER).violations();
        assertTrue(newOrder.stream().anyMatch(v -> v.startsWith("S(PUBLIC.ITEM")), newOrder.toString());
        List<String> payment = r.get(TxnType.PAYMENT).violations();
        assertTrue(payment.stream().anyMatch(v -> v.startsWith("S(PUBLIC.WAREHOUSE.W_NAME)")), payment.toString());
        assertFalse(r.get(TxnType.DELIVERY).violations().isEmpty());
        assertEquals(List.of(), r.get(TxnType.ORDER_STATUS).violations(), "read-only: never releases");
    }
}
