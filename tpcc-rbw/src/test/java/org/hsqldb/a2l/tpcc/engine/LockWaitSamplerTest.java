package org.hsqldb.a2l.tpcc.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The sampler names the lock a session waits for, by column and without the key, and counts nothing else. */
class LockWaitSamplerTest {

    @Test
    void aNameKeepsItsKeysShapeAndLosesItsValues() {
        assertEquals("PUBLIC.T1.C[n, n]", LockWaitSampler.withoutValues("PUBLIC.T1.C[1, -42]"));
        assertEquals("PUBLIC.NEW_ORDER[n, n, first]", LockWaitSampler.withoutValues("PUBLIC.NEW_ORDER[3, 10, first]"));
        assertEquals("PUBLIC.T2", LockWaitSampler.withoutValues("PUBLIC.T2"));
    }

    @Test
    void aWaitingUpdateIsCountedUnderItsColumnWithoutTheKey() throws Exception {
        EngineJars jars = EngineJars.locate(null, null);
        assumeTrue(Files.isRegularFile(jars.fork()), "the fork jar is not built");
        EngineConfig config = EngineRegistry.load().find("fork-a2l-cell").orElseThrow();
        Engine engine = Engine.load(config, jars, "lockwaits");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Connection admin = engine.connect(); Connection holder = engine.connect();
             Connection waiter = engine.connect()) {
            try (Statement s = admin.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
                s.execute("INSERT INTO t VALUES (1, 0), (2, 0)");
            }
            LockWaitSampler sampler = new LockWaitSampler(admin);
            sampler.sample();
            assertEquals(Map.of(), sampler.top(10), "nobody waits");
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.executeUpdate("UPDATE t SET v = 1 WHERE id = 1");
            }
            waiter.setAutoCommit(false);
            Future<Integer> waiting = other.submit(() -> {
                try (Statement s = waiter.createStatement()) {
                    return s.executeUpdate("UPDATE t SET v = 2 WHERE id = 1");
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sampler.meanWaiting() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
                sampler.sample();
            }
            Map<String, Double> top = sampler.top(10);
            assertEquals(1, top.size(), top::toString);
            String name = top.keySet().iterator().next();
            assertEquals(1.0, top.get(name));
            // the column's cell of any row, whatever the granularity the table has come to
            assertTrue(name.startsWith("PUBLIC.T.V") && name.endsWith(" X"), name);
            holder.commit();
            assertEquals(1, waiting.get(30, TimeUnit.SECONDS));
            waiter.commit();
            engine.shutdown(admin);
        } finally {
            other.shutdownNow();
        }
    }
}
