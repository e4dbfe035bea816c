package org.hsqldb.a2l.tpcc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.TestPostgres;
import org.hsqldb.a2l.tpcc.report.RunSummary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peers run TPC-C like the fork does: load, terminals in both orders, all twelve consistency
 * conditions, no abort the harness cannot explain (a 23505 of H2's or PostgreSQL's snapshot is a
 * retried serialization failure, not "other"). Tiny scale, 2-3 clients, 2 s per point.
 */
class PeerRunTest {

    @TempDir
    Path out;

    static String postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = TestPostgres.start();
    }

    @AfterAll
    static void stopPostgres() {
        TestPostgres.stop();
    }

    private List<RunSummary> measure(String config) throws Exception {
        List<Point> points = List.of(new Point(StatementOrder.ORIGINAL, Mix.M8_92, 3),
                new Point(StatementOrder.RBW, Mix.M8_92, 2));
        MeasurementRun.Plan plan = new MeasurementRun.Plan(EngineOptions.named(config), EngineJars.locate(null, null),
                Scale.tiny(1), points, 2, 1, 11L, Isolation.SERIALIZABLE, 0, 500, 2, out, true, 1);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(0, MeasurementRun.run(plan, new PrintStream(log, true)), log.toString());
        List<RunSummary> runs = new ArrayList<>();
        for (Point p : points) runs.add(RunSummary.read(out.resolve(p.dirName()).resolve("summary.json")));
        for (RunSummary s : runs) {
            assertTrue(s.consistencyOk, config + " " + s.order);
            assertTrue(s.committed > 0, config + " " + s.order + " committed nothing");
            assertEquals(0L, s.aborts.byReason().getOrDefault("other", 0L), config + " " + s.otherErrors);
            assertEquals("serializable", s.isolation);
            assertNotNull(s.isolationGuarantee);
        }
        assertEquals(12, runs.get(1).consistency.size(), "all twelve conditions after the last point");
        return runs;
    }

    @Test
    void h2RunsBothOrdersConsistently() throws Exception {
        for (RunSummary s : measure("h2")) {
            assertEquals("H2", s.engineProduct);
            assertTrue(s.isolationGuarantee.startsWith("H2 2.x documentation"), s.isolationGuarantee);
        }
    }

    @Test
    void derbyRunsBothOrdersConsistently() throws Exception {
        for (RunSummary s : measure("derby")) assertEquals("Apache Derby", s.engineProduct);
    }

    @Test
    void postgresqlRunsBothOrdersConsistently() throws Exception {
        assumeTrue(postgres == null, "PostgreSQL cannot be started here: " + postgres);
        for (RunSummary s : measure("postgresql")) {
            assertEquals("PostgreSQL", s.engineProduct);
            assertTrue(s.isolationGuarantee.contains("Serializable Snapshot Isolation"), s.isolationGuarantee);
        }
    }
}
