package org.hsqldb.a2l.fork.regress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.hsqldb.a2l.fork.EngineMode;
import org.hsqldb.a2l.fork.Engines;
import org.hsqldb.a2l.fork.regress.ScriptRunner.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner judges sections as upstream's harness does, and a wrong expectation fails. */
class ScriptRunnerTest {

    @TempDir
    Path dir;

    @Test
    void wrongExpectationsFailAndRightOnesPass() throws IOException {
        write("TestSelfTiny.txt",
                "create table t(a int, b varchar(10))",
                "/*u1*/insert into t values (1, 'one')",
                "/*u1*/insert into t values (2, null)",
                "/*c2*/select * from t",
                "/*c3*/select * from t",                      // wrong: 2 rows
                "/*r",
                " 1,one",
                " 2,NULL",
                "*/select * from t order by a",
                "/*r1,uno*/select * from t where a = 1",      // wrong value
                "/*e*/select * from nowhere",
                "/*e*/select * from t",                       // wrong: no error
                "/*e42501*/select * from nowhere",
                "/*e22001*/select * from nowhere",            // wrong SQLSTATE
                "/*u0*/delete from t where a = 1",            // wrong count
                "/*s*/drop table nowhere",                    // silent: no check
                "/*d*/ not run",
                "/*o*/select * from t",
                "select * from nowhere");                     // untagged must not fail

        Map<Integer, Check> byLine = run(null, unit("TestSelfTiny.txt", false)).checks().stream()
                .collect(Collectors.toMap(Check::line, c -> c));

        for (int passing : new int[] {1, 2, 3, 4, 6, 11, 13, 18}) {
            assertTrue(byLine.get(passing).pass(), "line " + passing + ": " + byLine.get(passing));
        }
        assertFalse(byLine.get(5).pass());
        assertEquals("3 rows", byLine.get(5).expected());
        assertEquals("2 rows", byLine.get(5).got());
        assertFalse(byLine.get(10).pass());
        assertTrue(byLine.get(10).got().contains("row 1 field 2: expected 'uno', got 'one'"), byLine.get(10).got());
        assertFalse(byLine.get(12).pass());
        assertFalse(byLine.get(14).pass());
        assertTrue(byLine.get(14).got().startsWith("error 42501"), byLine.get(14).got());
        assertFalse(byLine.get(15).pass());
        assertEquals("update count 1", byLine.get(15).got());
        assertFalse(byLine.get(19).pass());
        assertEquals("exec", byLine.get(19).tag());
        assertEquals(14, byLine.size(), "s and d sections make no check: " + byLine.keySet());
    }

    @Test
    void groupsRunInOrderOnOneFileDatabaseAcrossRestarts() throws IOException {
        write("TestSelfPartA.txt",
                "create cached table kept(i int primary key)",
                "/*u1*/insert into kept values (7)",
                "/*u0*/SHUTDOWN");
        write("TestSelfPartB.txt",
                "/*r7*/select i from kept");
        ScriptPlan.Unit group = new ScriptPlan.Unit("parts", true,
                List.of(new ScriptPlan.Script("TestSelfPartA.txt"), new ScriptPlan.Script("TestSelfPartB.txt")));
        RunResult r = run(EngineMode.MVCC, group);
        assertTrue(r.checks().stream().allMatch(Check::pass), r.checks().toString());
        assertTrue(r.checks().stream().anyMatch(c -> c.script().equals("TestSelfPartB.txt") && c.tag().equals("r")));
        assertTrue(Files.exists(dir.resolve("work/parts/db.script")), "a file database");
    }

    @Test
    void modeSwitchesAreSubstitutedAndTheGuardCatchesHiddenOnes() throws IOException {
        write("TestSelfSwitch.txt",
                "set database transaction control locks",
                "/*c1*/select * from (values(1))");
        write("TestSelfHiddenSwitch.txt",
                "/*u0*/set autocommit true; set database transaction control locks");

        RunResult r = run(EngineMode.MVCC, unit("TestSelfSwitch.txt", false), unit("TestSelfHiddenSwitch.txt", false));

        assertEquals(List.of("TestSelfSwitch.txt:1: 'set database transaction control locks' -> "
                + "'SET DATABASE TRANSACTION CONTROL MVCC'"), r.substitutions());
        List<Check> guards = r.checks().stream().filter(c -> c.tag().equals("mode")).toList();
        assertEquals(4, guards.size(), guards.toString());
        assertTrue(guards.get(0).pass() && guards.get(1).pass() && guards.get(2).pass(), guards.toString());
        Check hidden = guards.get(3);
        assertFalse(hidden.pass(), "the unsubstituted switch left mvcc: " + hidden);
        assertEquals("hsqldb.tx=LOCKS", hidden.got());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("TestSelfHiddenSwitch.txt:1")), r.notes().toString());
    }

    @Test
    void verbatimRunsLeaveTheScriptAlone() throws IOException {
        write("TestSelfSwitch.txt", "/*u0*/set database transaction control mvcc");
        RunResult r = run(null, unit("TestSelfSwitch.txt", false));
        assertTrue(r.substitutions().isEmpty());
        assertEquals(1, r.checks().size(), "no mode guard without a mode: " + r.checks());
        assertEquals("set database transaction control mvcc", r.checks().get(0).sql());
    }

    private RunResult run(EngineMode mode, ScriptPlan.Unit... units) {
        return new ScriptRunner("test", Engines::fork, mode, dir, dir.resolve("work"), Duration.ofSeconds(60))
                .run(List.of(units));
    }

    private static ScriptPlan.Unit unit(String script, boolean file) {
        return new ScriptPlan.Unit(script, file, List.of(new ScriptPlan.Script(script)));
    }

    private void write(String name, String... lines) throws IOException {
        Files.write(dir.resolve(name), List.of(lines));
    }
}
