package org.hsqldb.a2l.tpcc.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpstreamBaselineTest {

    static final List<String> MODES = List.of("upstream", "upstream-mvlocks", "upstream-mvcc");

    @Test
    void theBestModeIsTheOneWithTheHighestMedianAtThePoint() {
        Map<String, Double> m = Map.of("upstream", 100.0, "upstream-mvlocks", 140.0, "upstream-mvcc", 120.0,
                "fork-a2l", 300.0);
        UpstreamBaseline.Best best = UpstreamBaseline.best(MODES, m);
        assertEquals("upstream-mvlocks", best.config());
        assertEquals(140.0, best.median());
        assertEquals("2.14", UpstreamBaseline.ratio(300, best.median()));
    }

    @Test
    void modesThatDidNotMeasureThePointAreLeftOut() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("upstream", 0.0); // every repetition stalled
        m.put("upstream-mvcc", 80.0);
        assertEquals("upstream-mvcc", UpstreamBaseline.best(MODES, m).config());
        assertNull(UpstreamBaseline.best(MODES, Map.of("upstream", 0.0, "fork-lf", 90.0)));
        assertNull(UpstreamBaseline.best(List.of(), Map.of("upstream", 10.0)));
        assertEquals("-", UpstreamBaseline.ratio(90, null));
    }

    @Test
    void aTieGoesToTheModeListedFirst() {
        assertEquals("upstream", UpstreamBaseline.best(MODES, Map.of("upstream-mvcc", 50.0, "upstream", 50.0)).config());
    }
}
