package org.hsqldb.a2l.tpcc.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hsqldb.a2l.tpcc.ReadsForUpdate;
import org.junit.jupiter.api.Test;

class EngineRegistryTest {

    @Test
    void theStartingConfigurationsAreThere() {
        EngineRegistry r = EngineRegistry.load();
        assertEquals(List.of("upstream", "upstream-mvcc", "upstream-mvlocks", "fork-locks", "fork-lf", "fork-a2l",
                "fork-a2l-latched", "fork-a2l-cell", "fork-lf-rl", "fork-a2l-rl", "fork-mvlocks", "fork-mvcc",
                "fork-a2l-plain", "h2", "derby", "postgresql"), r.names());
        assertEquals("declared-write-sets", r.find("fork-a2l-rl").orElseThrow().hook());
        EngineConfig up = r.find("upstream").orElseThrow();
        assertEquals(EngineConfig.JarKind.UPSTREAM, up.jar());
        assertEquals("jdbc:hsqldb:mem:tpcc;hsqldb.tx=locks", up.url("tpcc"));
        assertEquals(EngineConfig.JarKind.FORK, r.find("fork-locks").orElseThrow().jar());
        assertTrue(r.find("fork-mvcc").orElseThrow().isMultiVersion());
        assertTrue(!r.find("fork-a2l").orElseThrow().isMultiVersion());
        assertEquals("jdbc:h2:mem:tpcc;DB_CLOSE_DELAY=-1", r.find("h2").orElseThrow().url("tpcc"));
        assertEquals("jdbc:derby:memory:tpcc;create=true", r.find("derby").orElseThrow().url("tpcc"));
        assertEquals(Dialect.POSTGRESQL, r.find("postgresql").orElseThrow().dialect());
        // each peer reads for update in the form it accepts on every such read of TPC-C's
        assertEquals(org.hsqldb.a2l.tpcc.ReadsForUpdate.FOR_UPDATE, r.find("h2").orElseThrow().reads());
        assertEquals(org.hsqldb.a2l.tpcc.ReadsForUpdate.PLAIN, r.find("derby").orElseThrow().reads());
        assertEquals(org.hsqldb.a2l.tpcc.ReadsForUpdate.FOR_UPDATE, r.find("postgresql").orElseThrow().reads());
        for (String peer : List.of("h2", "derby", "postgresql")) assertTrue(!r.find(peer).orElseThrow().isVariant(), peer);
    }

    @Test
    void aCellConfigurationSaysItsGranularityAndItsGuaranteeNamesCells() {
        EngineRegistry r = EngineRegistry.load();
        EngineConfig cell = r.find("fork-a2l-cell").orElseThrow(), column = r.find("fork-a2l").orElseThrow();
        assertEquals("cell", cell.hsqldbLockGranularity());
        assertEquals("column", column.hsqldbLockGranularity());
        assertEquals("", r.find("h2").orElseThrow().hsqldbLockGranularity());
        org.hsqldb.a2l.tpcc.Isolation s = org.hsqldb.a2l.tpcc.Isolation.SERIALIZABLE;
        assertTrue(cell.dialect().guarantee(cell, s).contains("cells"));
        assertFalse(column.dialect().guarantee(column, s).contains("cells"));
    }

    @Test
    void aForkConfigurationRunsOnTheBaselineJarByItsBaselineName() throws Exception {
        EngineRegistry r = EngineRegistry.load();
        EngineConfig baseline = r.find("fork-a2l-cell@baseline").orElseThrow();
        assertTrue(baseline.isBaseline(), baseline.name());
        assertEquals(r.find("fork-a2l-cell").orElseThrow().urlProperties(), baseline.urlProperties());
        assertTrue(r.find("upstream@baseline").isEmpty(), "only fork configurations have a baseline");
        assertTrue(r.find("h2@baseline").isEmpty());
        java.nio.file.Path old = java.nio.file.Files.createTempFile("baseline", ".jar");
        try {
            EngineJars jars = EngineJars.locate(null, null);
            assertThrows(EngineException.class, () -> jars.jarsFor(baseline), "no baseline jar given");
            assertEquals(List.of(old.toAbsolutePath()), jars.withBaseline(old).jarsFor(baseline));
            assertEquals(List.of(jars.fork()), jars.withBaseline(old).jarsFor(r.find("fork-a2l-cell").orElseThrow()));
        } finally {
            java.nio.file.Files.delete(old);
        }
    }

    @Test
    void aDurableConfigurationIsItsEngineOnFilesAndSaysWhatItsCommitsSync() {
        EngineRegistry r = EngineRegistry.load();
        for (String name : List.of("upstream@durable", "fork-a2l@durable", "fork-a2l@baseline@durable", "h2@durable",
                "derby@durable")) {
            EngineConfig c = r.find(name).orElseThrow(() -> new AssertionError(name));
            assertTrue(c.isDurable(), name);
            assertFalse(c.dialect().commitDurability().isBlank(), name);
        }
        assertTrue(r.find("fork-a2l@baseline@durable").orElseThrow().isBaseline());
        assertFalse(r.find("fork-a2l@durable").orElseThrow().isBaseline());
        assertTrue(r.find("fork-a2l@durable@durable").isEmpty());
        assertTrue(r.find("nothing@durable").isEmpty());
    }

    @Test
    void thePeersRunOnTheirOwnDrivers() {
        EngineJars jars = EngineJars.locate(null, null);
        EngineRegistry r = EngineRegistry.load();
        assertNull(Engine.probe(r.find("h2").orElseThrow(), jars));
        assertNull(Engine.probe(r.find("derby").orElseThrow(), jars));
    }

    @Test
    void eachEngineSaysWhichOfItsErrorsAreRetryable() {
        java.sql.SQLException duplicate = new java.sql.SQLException("Unique index or primary key violation", "23505");
        // H2's snapshot: a key taken on a stale D_NEXT_O_ID is a write-write conflict, cured by a retry
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.SERIALIZATION_FAILURE, Dialect.H2.classify(duplicate));
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.OTHER, Dialect.HSQLDB.classify(duplicate));
        // and a Delivery's DELETE of the oldest new order another Delivery deleted first
        java.sql.SQLException noRow = new java.sql.SQLException("expected 1 row changed, got 0",
                org.hsqldb.a2l.tpcc.Statements.NOT_ONE_ROW);
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.SERIALIZATION_FAILURE, Dialect.H2.classify(noRow));
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.OTHER, Dialect.HSQLDB.classify(noRow));
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.DEADLOCK, Dialect.DERBY.classify(
                new java.sql.SQLException("A lock could not be obtained due to a deadlock", "40001")));
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.LOCK_TIMEOUT, Dialect.DERBY.classify(
                new java.sql.SQLException("A lock could not be obtained within the time requested", "40XL1")));
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.SERIALIZATION_FAILURE, Dialect.POSTGRESQL.classify(
                new java.sql.SQLException("could not serialize access due to concurrent update", "40001")));
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.DEADLOCK, Dialect.POSTGRESQL.classify(
                new java.sql.SQLException("deadlock detected", "40P01")));
        assertEquals(org.hsqldb.a2l.tpcc.AbortReason.SERIALIZATION_FAILURE, Dialect.POSTGRESQL.classify(duplicate));
        assertEquals(Dialect.H2, Dialect.ofUrl("jdbc:h2:mem:x"));
        assertEquals(Dialect.GENERIC, Dialect.ofUrl("jdbc:sqlite:x"));
    }

    @Test
    void anEntryIsOneLine() {
        EngineRegistry r = EngineRegistry.parse(List.of("# comment", "",
                "fork-x | fork | hsqldb.tx=locks;hsqldb.latch_free=true | SET DATABASE DEFAULT ISOLATION LEVEL SERIALIZABLE; SELECT 1 FROM (VALUES(0)) | none"));
        EngineConfig c = r.find("fork-x").orElseThrow();
        assertEquals(List.of("SET DATABASE DEFAULT ISOLATION LEVEL SERIALIZABLE", "SELECT 1 FROM (VALUES(0))"), c.setupSql());
        assertThrows(IllegalArgumentException.class, () -> EngineRegistry.parse(List.of("bad | nowhere | x")));
        assertEquals(EngineConfig.JarKind.H2, EngineRegistry.parse(List.of("x | h2 | MODE=PostgreSQL")).find("x")
                .orElseThrow().jar());
        assertThrows(IllegalArgumentException.class, () -> EngineRegistry.parse(List.of("a | upstream | x", "a | fork | y")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineRegistry.parse(List.of("a | fork | x | | no-such-hook")));
        assertTrue(e.getMessage().contains("no-such-hook"), e.getMessage());
    }

    @Test
    void optionsMakeVariants() {
        EngineRegistry r = EngineRegistry.load();
        EngineConfig a2l = r.find("fork-a2l").orElseThrow();
        assertEquals(ReadsForUpdate.FOR_UPDATE_OF, a2l.reads());
        assertFalse(a2l.isVariant());
        // declared write sets read what they will write with the FOR UPDATE lock by themselves
        EngineConfig rl = r.find("fork-lf-rl").orElseThrow();
        assertEquals(ReadsForUpdate.PLAIN, rl.reads());
        assertFalse(rl.isVariant());
        EngineConfig plain = r.find("fork-a2l-plain").orElseThrow();
        assertEquals(ReadsForUpdate.PLAIN, plain.reads());
        assertTrue(plain.isVariant());
        // a JVM property for the engine (the fork's -Dhsqldb.lock_check, say) makes a variant too
        EngineConfig checked = EngineRegistry.parse(List.of(
                "fork-a2l-checked | fork | hsqldb.tx=a2l;hsqldb.lock_granularity=cell | | none"
                        + " | property=hsqldb.lock_check=true")).find("fork-a2l-checked").orElseThrow();
        assertEquals(Map.of("hsqldb.lock_check", "true"), checked.systemProperties());
        assertEquals("jdbc:hsqldb:mem:tpcc;hsqldb.tx=a2l;hsqldb.lock_granularity=cell", checked.url("tpcc"));
        assertTrue(checked.isVariant());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineRegistry.parse(List.of("a | fork | x | | none | reads=sometimes")));
        assertTrue(e.getMessage().contains("line 1") && e.getMessage().contains("sometimes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> EngineRegistry.parse(List.of("a | fork | x | | none | colour=blue")));
        assertTrue(e.getMessage().contains("colour=blue"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> EngineRegistry.parse(List.of("a | fork | x | | none | property=novalue")));
        assertTrue(e.getMessage().contains("KEY=VALUE"), e.getMessage());
    }

    @Test
    void aFeatureTheEngineLacksMakesTheConfigurationUnavailable() {
        EngineJars jars = EngineJars.locate(null, null);
        assertNull(Engine.probe(EngineRegistry.load().find("upstream-mvcc").orElseThrow(), jars));
        EngineRegistry fake = EngineRegistry.parse(List.of(
                "a2l | upstream | hsqldb.tx=a2l",
                "lf | upstream | hsqldb.tx=locks;hsqldb.latch_free=true",
                "bad-sql | upstream | hsqldb.tx=locks | SET DATABASE LATCH FREE TRUE"));
        assertEquals("asked for hsqldb.tx=a2l, the engine runs hsqldb.tx=LOCKS",
                Engine.probe(fake.find("a2l").orElseThrow(), jars));
        assertEquals("the engine does not know hsqldb.latch_free", Engine.probe(fake.find("lf").orElseThrow(), jars));
        assertTrue(Engine.probe(fake.find("bad-sql").orElseThrow(), jars).contains("LATCH"));
    }
}
