package org.hsqldb.a2l.tpcc.isolation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.EngineRegistry;
import org.hsqldb.a2l.tpcc.engine.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The anomaly table on the engines whose behaviour is known: the fork's A2L prevents every anomaly
 * by locking (a wait, or a deadlock victim's 40001); HSQLDB's MVCC is snapshot isolation and allows
 * write skew; H2's SERIALIZABLE is snapshot-based too; Derby locks. The cells are asserted whole,
 * mechanism included: the runner must give the same table every time.
 */
class IsolationTableTest {

    @TempDir
    Path out;

    private static final EngineRegistry REGISTRY = EngineRegistry.load();

    private static IsolationTable.Result table(String... configs) throws Exception {
        return IsolationTable.run(IsolationTable.configs(List.of(configs), REGISTRY), EngineJars.locate(null, null),
                IsolationTable.Options.defaults(), null);
    }

    /** Anomaly code -> cell text of one configuration. */
    private static Map<String, String> column(IsolationTable.Result r, String config) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Anomaly a : Anomaly.values()) out.put(a.code, r.cell(a, config).text());
        return out;
    }

    private static Map<String, String> expect(String... codeAndText) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < codeAndText.length; i += 2) out.put(codeAndText[i], codeAndText[i + 1]);
        return out;
    }

    /** Table-level (LF) or column-level (A2L) two-phase locking: writes wait, cycles end in a victim. */
    private static final Map<String, String> LOCKING = expect(
            "G0", "blocked", "G1a", "blocked", "G1b", "blocked", "G1c", "blocked",
            "P4", "blocked, aborted 40001", "P2", "blocked", "P3", "blocked", "G-single", "blocked",
            "G2-item", "blocked, aborted 40001", "G2", "blocked, aborted 40001");

    @Test
    void a2lPreventsEveryAnomalyAndMvccAllowsWriteSkew() throws Exception {
        assumeTrue(Files.isRegularFile(EngineJars.locate(null, null).fork()), "the fork jar is not built");
        IsolationTable.Result r = table("fork-a2l", "upstream-mvcc");
        assertEquals(LOCKING, column(r, "fork-a2l"));
        assertEquals(expect(
                "G0", "aborted 40001", "G1a", "versions", "G1b", "versions", "G1c", "versions",
                "P4", "aborted 40001", "P2", "versions", "P3", "versions", "G-single", "versions",
                "G2-item", "**ALLOWED**", "G2", "**ALLOWED**"), column(r, "upstream-mvcc"));

        r.write(out);
        String md = Files.readString(out.resolve("isolation.md"));
        assertTrue(md.contains("| G2-item write skew | blocked, aborted 40001 | **ALLOWED** |"), md);
        assertTrue(md.contains("snapshot isolation"), "each engine's documented guarantee is stated");
        assertTrue(Files.readString(out.resolve("isolation.json")).contains("\"verdict\": \"ALLOWED\""));
    }

    @Test
    void h2IsSnapshotIsolationAndDerbyLocks() throws Exception {
        IsolationTable.Result r = table("h2", "derby");
        assertEquals(expect(
                "G0", "blocked, aborted 40001", "G1a", "versions", "G1b", "versions", "G1c", "versions",
                "P4", "blocked, aborted 40001", "P2", "versions", "P3", "versions", "G-single", "versions",
                "G2-item", "**ALLOWED**", "G2", "**ALLOWED**"), column(r, "h2"));
        Map<String, String> derby = new LinkedHashMap<>(LOCKING);
        // row locks: each reads the row the other wrote, a cycle that Derby's detector breaks
        derby.put("G1c", "blocked, aborted 40001");
        assertEquals(derby, column(r, "derby"));
    }

    @Test
    void postgresqlSerializableSnapshotIsolationPreventsEveryAnomaly() throws Exception {
        String reason = TestPostgres.start();
        try {
            assumeTrue(reason == null, "PostgreSQL cannot be started here: " + reason);
            IsolationTable.Result r = table("postgresql");
            assertEquals(expect(
                    "G0", "blocked, aborted 40001", "G1a", "versions", "G1b", "versions", "G1c", "aborted 40001",
                    "P4", "blocked, aborted 40001", "P2", "versions", "P3", "versions", "G-single", "versions",
                    "G2-item", "aborted 40001", "G2", "aborted 40001"), column(r, "postgresql"));
        } finally {
            TestPostgres.stop();
        }
    }

    @Test
    void anUnavailableConfigurationIsAColumnOfDashesWithItsReason() {
        IsolationTable.Result r = IsolationTable.run(List.of(EngineConfig.hsqldb("nowhere", EngineConfig.JarKind.UPSTREAM,
                        "hsqldb.tx=a2l", List.of(), "none")), EngineJars.locate(null, null),
                new IsolationTable.Options(500, 30_000, null, List.of(Anomaly.G0)), null);
        assertEquals("-", r.cell(Anomaly.G0, "nowhere").text());
        assertTrue(r.toMarkdown().contains("not available: asked for hsqldb.tx=a2l"), r.toMarkdown());
    }
}
