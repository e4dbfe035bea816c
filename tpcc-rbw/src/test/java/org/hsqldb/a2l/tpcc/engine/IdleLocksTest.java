package org.hsqldb.a2l.tpcc.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.Statement;
import org.hsqldb.a2l.tpcc.Consistency;
import org.junit.jupiter.api.Test;

/** The harness sees a lock left behind by a session at quiescence, and nothing once it is gone. */
class IdleLocksTest {

    @Test
    void aTransactionLeftOpenFailsTheCheckAndItsEndPassesIt() throws Exception {
        EngineJars jars = EngineJars.locate(null, null);
        assumeTrue(Files.isRegularFile(jars.fork()), "the fork jar is not built");
        EngineConfig config = EngineRegistry.load().find("fork-a2l").orElseThrow();
        Engine engine = Engine.load(config, jars, "idlelocks");
        try (Connection admin = engine.connect(); Connection open = engine.connect()) {
            try (Statement s = admin.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
                s.execute("INSERT INTO t VALUES (1, 0)");
            }
            assertTrue(IdleLocks.check(admin, config).ok());
            open.setAutoCommit(false);
            try (Statement s = open.createStatement()) {
                s.executeUpdate("UPDATE t SET v = 1 WHERE id = 1");
            }
            Consistency.Condition left = IdleLocks.check(admin, config);
            assertFalse(left.ok(), left.toString());
            assertEquals(IdleLocks.ID, left.id());
            assertTrue(left.violations() >= 2 && left.values().stream().anyMatch(v -> v.contains("X(PUBLIC.T.V)")),
                    left.toString());
            open.commit();
            assertTrue(IdleLocks.check(admin, config).ok());
            engine.shutdown(admin);
        }
    }

    @Test
    void enginesAndModesThatShowNoLocksAreNotChecked() throws Exception {
        EngineConfig upstream = EngineRegistry.load().find("upstream").orElseThrow();
        assertNull(IdleLocks.check(null, upstream));
        EngineJars jars = EngineJars.locate(null, null);
        assumeTrue(Files.isRegularFile(jars.fork()), "the fork jar is not built");
        // upstream's own LOCKS on the fork jar: SYSTEM_LOCKS stays empty whatever is held
        EngineConfig forkLocks = EngineRegistry.load().find("fork-locks").orElseThrow();
        Engine engine = Engine.load(forkLocks, jars, "idlelocks-locks");
        try (Connection admin = engine.connect()) {
            assertNull(IdleLocks.check(admin, forkLocks));
            engine.shutdown(admin);
        }
    }
}
