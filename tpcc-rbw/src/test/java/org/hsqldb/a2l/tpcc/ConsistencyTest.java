package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsistencyTest {

    static TestDatabase db;

    @BeforeAll
    static void load() throws Exception {
        db = TestDatabase.load("upstream", Scale.tiny(1), 7, Clock.systemUTC());
    }

    @AfterAll
    static void close() throws Exception {
        db.close();
    }

    static Map<String, Consistency.Condition> check() throws Exception {
        List<Consistency.Condition> all = new Consistency(db.connection, db.scale).check();
        return all.stream().collect(Collectors.toMap(Consistency.Condition::id, Function.identity()));
    }

    @Test
    @Order(1)
    void aFreshLoadIsConsistent() throws Exception {
        Map<String, Consistency.Condition> conditions = check();
        assertEquals(12, conditions.size(), conditions.keySet().toString());
        for (Consistency.Condition c : conditions.values()) assertTrue(c.ok(), c.toString());
        assertEquals(List.of("W1: W_YTD=6000.00 sum(D_YTD)=6000.00"), conditions.get("3.3.2.1").values());
    }

    @Test
    @Order(2)
    void aCorruptDistrictYtdIsReported() throws Exception {
        try (Statement s = db.connection.createStatement()) {
            s.executeUpdate("UPDATE district SET d_ytd = d_ytd + 1.50 WHERE d_w_id = 1 AND d_id = 3");
        }
        Map<String, Consistency.Condition> conditions = check();
        Consistency.Condition c1 = conditions.get("3.3.2.1");
        assertFalse(c1.ok());
        assertEquals(1, c1.violations());
        assertEquals(List.of("VIOLATION W1: W_YTD=6000.00 sum(D_YTD)=6001.50"), c1.values());
        Consistency.Condition c9 = conditions.get("3.3.2.9");
        assertFalse(c9.ok());
        assertTrue(c9.values().contains("VIOLATION W1/D3: YTD=601.50 sum(H_AMOUNT)=600.00"), c9.values().toString());
        assertTrue(conditions.get("3.3.2.2").ok());
        assertFalse(Consistency.allOk(List.copyOf(conditions.values())));
    }
}
