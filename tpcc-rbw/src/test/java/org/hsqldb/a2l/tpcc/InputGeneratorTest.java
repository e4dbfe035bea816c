package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InputGeneratorTest {

    static final Scale STANDARD = Scale.standard(4);

    static InputGenerator generator(Scale scale, long seed) {
        NURandConstants run = Loader.loadConstants(seed).forRun(TpccRandom.derived(seed, "nurand-run", 0));
        return new InputGenerator(scale, run, new TpccRandom(seed), 2, 3);
    }

    static void assertRate(double expected, long hits, long n, double tolerance, String what) {
        double rate = (double) hits / n;
        assertTrue(Math.abs(rate - expected) <= tolerance, what + ": " + rate + " not within " + tolerance + " of " + expected);
    }

    @Test
    void nurandStaysInRangeAndIsNonUniform() {
        TpccRandom r = new TpccRandom(1);
        int[] hits = new int[3001];
        for (int i = 0; i < 300_000; i++) {
            int v = r.nurand(1023, 1, 3000, 259);
            assertTrue(v >= 1 && v <= 3000, "out of range: " + v);
            hits[v]++;
        }
        int max = 0, min = Integer.MAX_VALUE;
        for (int v = 1; v <= 3000; v++) {
            max = Math.max(max, hits[v]);
            min = Math.min(min, hits[v]);
        }
        assertTrue(max > 3 * Math.max(1, min), "NURand looks uniform: min " + min + " max " + max);
        for (int i = 0; i < 100_000; i++) {
            int v = r.nurand(255, 0, 999, 123);
            assertTrue(v >= 0 && v <= 999);
            int item = r.nurand(8191, 1, 100_000, 7911);
            assertTrue(item >= 1 && item <= 100_000);
        }
    }

    @Test
    void lastNamesAreThreeSyllables() {
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
        assertEquals("OUGHTABLEPRI", TpccRandom.lastName(123));
    }

    @Test
    void runConstantsKeepTheirDistanceFromTheLoad() {
        for (long seed = 0; seed < 2000; seed++) {
            NURandConstants load = Loader.loadConstants(seed);
            NURandConstants run = load.forRun(new TpccRandom(seed));
            int delta = Math.abs(run.cLast() - load.cLast());
            assertTrue(NURandConstants.validRunDelta(delta), "delta " + delta);
            assertTrue(run.cId() >= 0 && run.cId() <= 1023 && run.olIId() >= 0 && run.olIId() <= 8191);
        }
        assertTrue(!NURandConstants.validRunDelta(96) && !NURandConstants.validRunDelta(112)
                && !NURandConstants.validRunDelta(64) && NURandConstants.validRunDelta(65));
    }

    @Test
    void aboutTenPercentOfDataIsOriginal() {
        TpccRandom r = new TpccRandom(3);
        int n = 50_000, original = 0;
        for (int i = 0; i < n; i++) {
            String s = r.dataWithOriginal();
            assertTrue(s.length() >= 26 && s.length() <= 50, s);
            if (s.contains("ORIGINAL")) original++;
        }
        assertRate(0.10, original, n, 0.01, "ORIGINAL");
    }

    @Test
    void newOrderInputsFollowClause241() {
        InputGenerator g = generator(STANDARD, 11);
        int n = 40_000, rollbacks = 0;
        long lines = 0, remote = 0;
        for (int i = 0; i < n; i++) {
            TxnInput.NewOrder in = g.newOrder();
            assertEquals(2, in.warehouseId());
            assertTrue(in.districtId() >= 1 && in.districtId() <= 10);
            assertTrue(in.customerId() >= 1 && in.customerId() <= 3000);
            assertTrue(in.lines().size() >= 5 && in.lines().size() <= 15);
            for (int l = 0; l < in.lines().size(); l++) {
                TxnInput.OrderLine line = in.lines().get(l);
                boolean unused = in.rollback() && l == in.lines().size() - 1;
                assertEquals(unused, line.itemId() == 100_001, "only the rollback's last line names the unused item");
                if (!unused) assertTrue(line.itemId() >= 1 && line.itemId() <= 100_000);
                assertTrue(line.quantity() >= 1 && line.quantity() <= 10);
                assertTrue(line.supplyWarehouseId() >= 1 && line.supplyWarehouseId() <= 4);
                lines++;
                if (line.supplyWarehouseId() != 2) remote++;
            }
            if (in.rollback()) rollbacks++;
        }
        assertRate(0.01, rollbacks, n, 0.003, "rollbacks");
        assertRate(0.01, remote, lines, 0.002, "remote order lines");
        InputGenerator single = generator(Scale.standard(1), 12);
        for (int i = 0; i < 1000; i++) assertTrue(single.newOrder().allLocal(), "one warehouse: every line is local");
    }

    @Test
    void paymentInputsFollowClause251() {
        InputGenerator g = generator(STANDARD, 13);
        int n = 40_000, byName = 0, remote = 0;
        for (int i = 0; i < n; i++) {
            TxnInput.Payment p = g.payment();
            if (p.customer().byLastName()) {
                byName++;
                assertTrue(p.customer().lastName().matches("[A-Z]{9,15}"), p.customer().lastName());
            } else {
                assertTrue(p.customer().id() >= 1 && p.customer().id() <= 3000);
            }
            if (p.customerWarehouseId() != p.warehouseId()) {
                remote++;
            } else {
                assertEquals(p.districtId(), p.customerDistrictId(), "a home customer is in the paying district");
            }
            assertTrue(p.amount().compareTo(new BigDecimal("1.00")) >= 0 && p.amount().compareTo(new BigDecimal("5000.00")) <= 0);
            assertEquals(2, p.amount().scale());
        }
        assertRate(0.60, byName, n, 0.01, "by last name");
        assertRate(0.15, remote, n, 0.01, "remote customer warehouse");
    }

    @Test
    void otherInputs() {
        InputGenerator g = generator(STANDARD, 17);
        for (int i = 0; i < 5000; i++) {
            TxnInput.StockLevel sl = g.stockLevel();
            assertEquals(3, sl.districtId(), "Stock-Level uses the terminal's district");
            assertTrue(sl.threshold() >= 10 && sl.threshold() <= 20);
            TxnInput.Delivery d = g.delivery();
            assertTrue(d.carrierId() >= 1 && d.carrierId() <= 10);
        }
        assertNotEquals(InputGenerator.districtOf(0, STANDARD), InputGenerator.districtOf(4, STANDARD));
        assertEquals(InputGenerator.homeWarehouseOf(0, STANDARD), InputGenerator.homeWarehouseOf(4, STANDARD));
    }

    @Test
    void mixesHaveTheirPercentages() {
        for (Mix mix : Mix.values()) {
            InputGenerator g = generator(STANDARD, mix.ordinal());
            Map<TxnType, Integer> counts = new EnumMap<>(TxnType.class);
            int n = 100_000;
            for (int i = 0; i < n; i++) counts.merge(g.next(mix).type(), 1, Integer::sum);
            for (TxnType t : TxnType.values()) {
                assertRate(mix.percent(t) / 100.0, counts.getOrDefault(t, 0), n, 0.006, mix + " " + t);
            }
        }
    }
}
