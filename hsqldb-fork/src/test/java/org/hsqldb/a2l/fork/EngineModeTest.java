package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;

class EngineModeTest {

    @Test
    void urlAppendsTheModeProperties() {
        assertEquals("jdbc:hsqldb:mem:a;hsqldb.tx=mvcc", EngineMode.MVCC.url("jdbc:hsqldb:mem:a"));
        assertEquals("jdbc:hsqldb:mem:a;x=1;hsqldb.tx=locks", EngineMode.LOCKS.url("jdbc:hsqldb:mem:a;x=1"));
        assertEquals("jdbc:hsqldb:mem:a;hsqldb.tx=mvlocks", EngineMode.MVLOCKS.url("jdbc:hsqldb:mem:a;"));
    }

    @Test
    void namesAreWhatPeopleType() {
        assertEquals(EngineMode.MVLOCKS, EngineMode.byId("mvlocks"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineMode.byId("nope"));
        assertTrue(e.getMessage().contains("locks, mvlocks, mvcc"), e.getMessage());
    }

    @Test
    void everyModeCanBeSetBySqlAndHasAnUpstreamCounterpart() {
        for (EngineMode m : EngineMode.all()) {
            assertEquals(m.urlProperties().size(), assertDoesNotThrow(m::settingStatements).size(), m.id());
            EngineMode counterpart = m.upstreamCounterpart();
            assertTrue(counterpart.isUpstreamMode(), m.id());
            assertEquals(m.isUpstreamMode() ? m : EngineMode.LOCKS, counterpart, m.id());
            assertDoesNotThrow(() -> { m.isApplied(); }, m.id() + " names a patch the series does not have");
        }
        assertEquals(List.of("SET DATABASE TRANSACTION CONTROL MVCC"), EngineMode.MVCC.settingStatements());
    }

    @Test
    void aModeIsAppliedOnlyWithItsPatch() {
        List<String> series = List.of("Add-a-setting", "Add-b-setting");
        assertTrue(PatchSeries.isApplied("Add-a", series, List.of("Add-a-setting")));
        assertFalse(PatchSeries.isApplied("Add-b", series, List.of("Add-a-setting")), "a prefix without the patch");
        assertThrows(IllegalStateException.class, () -> PatchSeries.isApplied("Add-c", series, series));
        assertThrows(IllegalStateException.class, () -> PatchSeries.isApplied("Add-", series, series),
                "a name that fits two patches is ambiguous");
    }

    @Test
    void upstreamModesSelectWhatTheySay() throws Exception {
        for (EngineMode m : EngineMode.all()) {
            if (!m.isUpstreamMode()) {
                continue;
            }
            try (Connection c = Engines.upstream(m.url("jdbc:hsqldb:mem:enginemode-" + m.id()));
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("CALL TRANSACTION_CONTROL()")) {
                assertTrue(rs.next());
                assertEquals(m.urlProperties().get("hsqldb.tx").toUpperCase(), rs.getString(1));
                s.execute("SHUTDOWN");
            }
        }
    }
}
