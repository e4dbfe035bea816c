package org.hsqldb.a2l.tpcc.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The chaos report's summary row and its paths, without running anything. */
class ChaosReportTest {

    static ChaosResult.Period period(Boolean idleLocksOk, long acksMissing) {
        ChaosResult.Period p = new ChaosResult.Period();
        p.seconds = 20;
        p.committed = 100;
        p.consistencyOk = true;
        p.idleLocksOk = idleLocksOk;
        p.acksMissing = acksMissing;
        return p;
    }

    static ChaosResult.Segment segment(String ended, long missing) {
        ChaosResult.Segment s = new ChaosResult.Segment();
        s.ended = ended;
        s.verify = new VerifyResult();
        s.verify.ok = missing == 0;
        s.verify.consistencyOk = true;
        s.verify.acknowledged = 500L;
        s.verify.missing = missing;
        return s;
    }

    @Test
    void aSummaryRowSaysWhichCheckHeldAndWhereTheLockTableIsNotVisible() {
        ChaosResult r = new ChaosResult();
        r.config = "fork-locks";
        r.kills = 1;
        r.reopens = 2;
        r.ok = true;
        r.periods.add(period(null, 0));
        r.periods.add(period(null, 0));
        r.segments.add(segment("killed", 0));
        r.segments.add(segment("shutdown", 0));
        ChaosReport.Row row = ChaosReport.Row.of(r);
        assertEquals("not visible", row.idleLocks());
        assertTrue(row.consistencyOk());
        assertEquals(2, row.verifiesOk());
        assertEquals(500, row.acknowledgedChecked());
        assertEquals(0, row.acknowledgedMissing());
        assertEquals(300.0, row.committedPerMinute());

        r.periods.add(period(true, 0));
        assertEquals("ok", ChaosReport.Row.of(r).idleLocks());
        r.periods.add(period(false, 3));
        r.segments.add(segment("shutdown", 2));
        ChaosReport.Row failed = ChaosReport.Row.of(r);
        assertEquals("HELD", failed.idleLocks());
        // missing in a period's own check and in a verify are both counted
        assertEquals(5, failed.acknowledgedMissing());
    }

    @Test
    void whatTheReportQuotesNamesFilesRelativeToTheRunFolder() {
        Path run = Path.of("/somewhere/results/2026-01-01T0000-chaos");
        String quoted = "cannot open: lock acquisition failure [file =/somewhere/results/2026-01-01T0000-chaos/configs/"
                + "fork-lf/db/tpcc.lck]; --out /somewhere/results/2026-01-01T0000-chaos";
        String text = ChaosReport.relativeToRun(run, quoted);
        assertFalse(text.contains("/somewhere"), text);
        assertTrue(text.contains("[file =configs/fork-lf/db/tpcc.lck]") && text.endsWith("--out <run folder>"), text);
    }
}
