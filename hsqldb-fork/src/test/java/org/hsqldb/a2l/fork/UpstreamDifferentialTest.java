package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The fork and unmodified 2.7.4 give the same answers to the same SQL. */
class UpstreamDifferentialTest {

    @Test
    void sameTranscriptAsUpstream() throws Exception {
        List<String> script = SqlScript.statements("/differential.sql");
        assertTrue(script.size() > 30, "the script should exercise a fair amount of SQL");
        List<String> upstream;
        List<String> fork;
        try (Connection c = Engines.upstream("jdbc:hsqldb:mem:differential")) {
            upstream = SqlScript.transcript(c, script);
        }
        try (Connection c = Engines.fork("jdbc:hsqldb:mem:differential")) {
            fork = SqlScript.transcript(c, script);
        }
        // a script that errors everywhere would compare equal and prove nothing
        long errors = upstream.stream().filter(l -> l.startsWith("error ")).count();
        assertEquals(2, errors, "expected exactly the script's two deliberate errors on upstream:\n"
                + String.join("\n", upstream));
        assertEquals(String.join("\n", upstream), String.join("\n", fork));
    }
}
