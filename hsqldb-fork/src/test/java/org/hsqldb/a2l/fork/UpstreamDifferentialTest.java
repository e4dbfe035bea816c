package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fork, in each of its modes, and unmodified 2.7.4 (in the same mode, or LOCKS for the
 * fork's own modes) give the same answers to the same SQL from one session.
 */
class UpstreamDifferentialTest {

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void sameTranscriptAsUpstream(EngineMode mode) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        List<String> script = SqlScript.statements("/differential.sql");
        assertTrue(script.size() > 30, "the script should exercise a fair amount of SQL");
        List<String> upstream;
        List<String> fork;
        try (Connection c = Engines.upstream(mode.upstreamCounterpart().url(
                "jdbc:hsqldb:mem:differential-upstream-" + mode.id() + ";shutdown=true"))) {
            upstream = SqlScript.transcript(c, script);
        }
        try (Connection c = Engines.fork(mode.url("jdbc:hsqldb:mem:differential-" + mode.id() + ";shutdown=true"))) {
            fork = SqlScript.transcript(c, script);
        }
        // a script that errors everywhere would compare equal and prove nothing
        long errors = upstream.stream().filter(l -> l.startsWith("error ")).count();
        assertEquals(2, errors, "expected exactly the script's two deliberate errors on upstream:\n"
                + String.join("\n", upstream));
        assertEquals(String.join("\n", upstream), String.join("\n", fork));
    }
}
