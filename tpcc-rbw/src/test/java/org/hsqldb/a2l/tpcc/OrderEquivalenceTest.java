package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The two statement orders are the same business transactions: given the same inputs, one
 * client, and the same clock, Original and RbW leave every table identical.
 */
class OrderEquivalenceTest {

    static final Scale SCALE = Scale.tiny(2);
    static final long SEED = 20151;
    /** Both runs see one instant, so O_ENTRY_D, H_DATE and OL_DELIVERY_D cannot differ spuriously. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);

    static List<TxnInput> inputs;

    /** Enough inputs of every kind: by-name and remote Payments, remote lines, repeated items, rollbacks. */
    @BeforeAll
    static void generateInputs() {
        NURandConstants run = Loader.loadConstants(SEED).forRun(TpccRandom.derived(SEED, "nurand-run", 0));
        InputGenerator[] terminals = {
            new InputGenerator(SCALE, run, TpccRandom.derived(SEED, "terminal", 0), 1, 1),
            new InputGenerator(SCALE, run, TpccRandom.derived(SEED, "terminal", 1), 2, 1)};
        Map<String, Integer> seen = new java.util.TreeMap<>();
        Map<TxnType, Integer> types = new EnumMap<>(TxnType.class);
        inputs = new ArrayList<>();
        while (inputs.size() < 400 || seen.size() < 6) {
            TxnInput in = terminals[inputs.size() % 2].next(Mix.M8_92);
            inputs.add(in);
            types.merge(in.type(), 1, Integer::sum);
            if (in instanceof TxnInput.NewOrder no) {
                if (no.rollback()) seen.merge("rollback", 1, Integer::sum);
                if (!no.allLocal()) seen.merge("remote line", 1, Integer::sum);
                Set<Long> stock = new HashSet<>();
                for (TxnInput.OrderLine l : no.lines()) {
                    if (!stock.add((long) l.supplyWarehouseId() << 32 | l.itemId())) seen.merge("repeated item", 1, Integer::sum);
                }
            } else if (in instanceof TxnInput.Payment p) {
                if (p.customer().byLastName()) seen.merge("payment by name", 1, Integer::sum);
                if (p.customerWarehouseId() != p.warehouseId()) seen.merge("remote payment", 1, Integer::sum);
            } else if (in instanceof TxnInput.OrderStatus os && os.customer().byLastName()) {
                seen.merge("order status by name", 1, Integer::sum);
            }
            assertTrue(inputs.size() < 20_000, "inputs never covered every case: " + seen);
        }
        assertEquals(5, types.size(), "every transaction type: " + types);
        System.out.println("equivalence inputs: " + inputs.size() + " " + types + " " + seen);
    }

    /** Runs the inputs one after the other on one connection; returns each one's outcome. */
    static List<TransactionRunner.Outcome> execute(TestDatabase db, StatementOrder order, TransactionHook hook)
            throws SQLException {
        return execute(db, order, hook, ReadsForUpdate.PLAIN);
    }

    static List<TransactionRunner.Outcome> execute(TestDatabase db, StatementOrder order, TransactionHook hook,
                                                   ReadsForUpdate reads) throws SQLException {
        return execute(db, order, hook, reads, ClientShape.HARNESS);
    }

    static List<TransactionRunner.Outcome> execute(TestDatabase db, StatementOrder order, TransactionHook hook,
                                                   ReadsForUpdate reads, ClientShape shape) throws SQLException {
        List<TransactionRunner.Outcome> outcomes = new ArrayList<>();
        try (Connection c = db.connect();
             TransactionRunner runner = new TransactionRunner(c, SCALE, CLOCK, hook, reads, shape)) {
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            for (TxnInput in : inputs) outcomes.add(runner.execute(in, order));
        }
        return outcomes;
    }

    /** Plain reads as in the thesis, and the reads for update each engine configuration asks for. */
    @ParameterizedTest
    @EnumSource(ReadsForUpdate.class)
    void originalAndRbwLeaveIdenticalDatabases(ReadsForUpdate reads) throws Exception {
        try (TestDatabase original = TestDatabase.load("upstream", SCALE, SEED, CLOCK);
             TestDatabase rbw = TestDatabase.load("upstream", SCALE, SEED, CLOCK)) {
            assertEquals(List.of(), TableDiff.diff(original.connection, rbw.connection, 10), "loads differ");
            List<TransactionRunner.Outcome> a = execute(original, StatementOrder.ORIGINAL, TransactionHook.NONE, reads);
            List<TransactionRunner.Outcome> b = execute(rbw, StatementOrder.RBW, TransactionHook.NONE, reads);
            assertEquals(a, b, "outcomes per transaction");
            assertTrue(a.contains(TransactionRunner.Outcome.SPEC_ROLLBACK));
            assertEquals(List.of(), TableDiff.diff(original.connection, rbw.connection, 10));
            assertTrue(Consistency.allOk(new Consistency(rbw.connection, SCALE).check()));
        }
    }

    /**
     * Applications' ways are the same business transactions too: statements prepared on every
     * call, New-Order's lines as JDBC batches, the constrained schema (ORDERS inserted before
     * NEW_ORDER) leave the tables the harness' way leaves, in both orders.
     */
    @ParameterizedTest
    @EnumSource(StatementOrder.class)
    void theApplicationsShapeLeavesTheSameDatabase(StatementOrder order) throws Exception {
        try (TestDatabase harness = TestDatabase.load("upstream", SCALE, SEED, CLOCK);
             TestDatabase application = TestDatabase.load("upstream", SCALE, SEED, CLOCK, true)) {
            List<TransactionRunner.Outcome> a = execute(harness, order, TransactionHook.NONE, ReadsForUpdate.PLAIN);
            List<TransactionRunner.Outcome> b = execute(application, order, TransactionHook.NONE,
                    ReadsForUpdate.PLAIN, ClientShape.APPLICATION);
            assertEquals(a, b, "outcomes per transaction");
            assertEquals(List.of(), TableDiff.diff(harness.connection, application.connection, 10));
            assertTrue(Consistency.allOk(new Consistency(application.connection, SCALE).check()));
        }
    }

    /**
     * The comparison can fail: a Payment whose warehouse update is undone (as if it had skipped
     * that write) must show up as a difference, here through the start-of-transaction hook.
     */
    @Test
    void aSkippedWriteIsCaught() throws Exception {
        TxnInput.Payment victim = (TxnInput.Payment) inputs.stream()
                .filter(i -> i instanceof TxnInput.Payment).reduce((x, y) -> y).orElseThrow();
        TransactionHook skipWarehouseUpdate = (statements, input, order) -> {
            if (input == victim) {
                statements.updateOne("UPDATE warehouse SET w_ytd = w_ytd - ? WHERE w_id = ?",
                        victim.amount(), victim.warehouseId());
            }
        };
        try (TestDatabase original = TestDatabase.load("upstream", SCALE, SEED, CLOCK);
             TestDatabase rbw = TestDatabase.load("upstream", SCALE, SEED, CLOCK)) {
            execute(original, StatementOrder.ORIGINAL, TransactionHook.NONE);
            execute(rbw, StatementOrder.RBW, skipWarehouseUpdate);
            List<String> diff = TableDiff.diff(original.connection, rbw.connection, 10);
            assertEquals(1, diff.size(), diff.toString());
            assertTrue(diff.get(0).startsWith("warehouse row " + victim.warehouseId() + " W_YTD"), diff.get(0));
            assertFalse(Consistency.allOk(new Consistency(rbw.connection, SCALE).check()));
        }
    }
}
