package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * Many threads, many rounds of random DML at every isolation level on MEMORY
 * tables without latches; afterwards every index must pass the check and the
 * workload's invariants must hold.
 */
@RequiresPatch("Run-MEMORY-tables-without-storage-latches")
class LatchFreeStressTest {

    @Test
    void storesRunWithoutLatchesInLatchFreeMode() throws Exception {
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:lfprobe;hsqldb.latch_free=true");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
            org.hsqldb.Session session = (org.hsqldb.Session) ((org.hsqldb.jdbc.JDBCConnection) c).getSession();
            org.hsqldb.Table t = session.getDatabase().schemaManager.getUserTable("T", "PUBLIC");
            assertTrue(isLatchFree(t.getRowStore(session)));
            s.execute("SET DATABASE LATCH FREE FALSE");
            assertTrue(!isLatchFree(t.getRowStore(session)));
        }
    }

    /** by reflection: tests compile against every prefix of the series, and this method is the patch's */
    private static boolean isLatchFree(Object store) throws ReflectiveOperationException {
        return (Boolean) store.getClass().getMethod("isLatchFree").invoke(store);
    }

    @RepeatedTest(3)
    void randomWorkloadKeepsIndexesAndInvariants(RepetitionInfo repetition) {
        stress(EngineMode.LF, repetition.getCurrentRepetition());
    }

    @RepeatedTest(3)
    @RequiresPatch("Update-non-indexed-columns-in-place")
    void theWorkloadUnderAttributeLocksToo(RepetitionInfo repetition) {
        stress(EngineMode.A2L, repetition.getCurrentRepetition());
    }

    @RepeatedTest(2)
    @RequiresPatch("Update-non-indexed-columns-in-place")
    void theWorkloadUnderLatchedAttributeLocks(RepetitionInfo repetition) {
        stress(EngineMode.A2L_LATCHED, repetition.getCurrentRepetition());
    }

    private void stress(EngineMode mode, int round) {
        String url = mode.url("jdbc:hsqldb:mem:stress-" + mode.id() + round);
        ConcurrencyWorkload workload = new ConcurrencyWorkload(url);
        List<String> problems = assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
            workload.createSchema();
            workload.run(8, 400, round);
            return workload.verify();
        }, "the workload did not finish: a lost wakeup or undetected deadlock");
        assertEquals(List.of(), problems, workload.summary());
        assertTrue(workload.commits.get() > 1000, "the workload must actually commit work: " + workload.summary());
    }

    @RepeatedTest(3)
    @RequiresPatch("Lock-cells-row-keys-and-key-ranges")
    void theWorkloadUnderCellLocks(RepetitionInfo repetition) {
        stress(EngineMode.A2L_CELL, repetition.getCurrentRepetition());
    }

    @Test
    void theWorkloadChecksAreAbleToFail() throws Exception {
        ConcurrencyWorkload workload = new ConcurrencyWorkload("jdbc:hsqldb:mem:lfbroken;hsqldb.latch_free=true");
        workload.createSchema();
        try (Connection c = workload.connect(); Statement s = c.createStatement()) {
            s.execute("UPDATE account SET balance = balance + 1 WHERE id = 3");
            s.execute("DELETE FROM parent WHERE id = 5");
            s.execute("UPDATE counter SET a = a + 1 WHERE id = 1");
        }
        List<String> problems = workload.verify();
        assertTrue(problems.stream().anyMatch(p -> p.contains("counters hold")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("account sum")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("parents")), problems.toString());
    }
}
