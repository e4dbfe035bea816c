package org.hsqldb.a2l.fork.regress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which scripts run, how, and in what order.
 *
 * <p>Upstream's TestUtil runs every TestSelf*.txt, sorted by name, on one
 * file database, one connection per script, so a script can see anything an
 * earlier one left behind. Here each script runs alone on a fresh {@code mem:}
 * database (its outcome then depends on nothing else, and MEMORY tables are
 * the storage the fork's LF and A2L modes change), except the scripts that
 * need another: those run as a group, in order, one connection per script,
 * on a fresh file database that restarts where the scripts themselves say
 * SHUTDOWN (or the upstream harness class that drives them does). The groups
 * are read off the scripts' headers and endings; the scripts that only use
 * TestSelf.txt's tables share a mem: database with it instead; the text-table
 * and trigger scripts are driven as upstream's TestTextTables and
 * TestTriggers drive them.
 */
public final class ScriptPlan {

    /** What a unit does, in order. */
    public sealed interface Step permits Script, Sql, TriggerCalls {}

    /** Run a script on a new connection, as TestUtil.testScript does. */
    public record Script(String file) implements Step {}

    /** Run one statement on a new connection: what an upstream harness class does between scripts. */
    public record Sql(String sql) implements Step {}

    /** TestTriggers.java's checks: statements on the trigger table and the calls they must cause. */
    public record TriggerCalls() implements Step {}

    /**
     * A unit of work with a database of its own.
     *
     * @param name         the script's file name for a single script, else the group's name
     * @param fileDatabase a fresh file database, or a fresh mem: database
     * @param steps        what to run, in order
     */
    public record Unit(String name, boolean fileDatabase, List<Step> steps) {

        public List<String> scripts() {
            return steps.stream().filter(s -> s instanceof Script).map(s -> ((Script) s).file()).toList();
        }
    }

    /** The groups; they run after the single scripts. */
    static final List<Unit> GROUPS = List.of(
            // these use the CUSTOMER and INVOICE tables TestSelf.txt leaves behind (upstream's sorted
            // run puts TestSelf.txt first); no restart needed, so they share a mem: database
            new Unit("testself-shared-tables", false, Stream.of("TestSelf.txt", "TestSelfArrays.txt",
                    "TestSelfFunction.txt", "TestSelfLeftJoin.txt", "TestSelfStoredProcedure.txt")
                    .map(s -> (Step) new Script(s)).toList()),
            group("create-modify-verify", "TestSelfCreate.txt", "TestSelfModify.txt", "TestSelfVerify.txt"),
            group("immediate-shutdown", "TestSelfImmediateShutdown.txt", "TestSelfImmediateShutdownRecover.txt"),
            group("no-dml-bug", "TestSelfNoDmlBug1.txt", "TestSelfNoDmlBug2.txt"),
            group("pers-schem", "TestSelfPersSchemA.txt", "TestSelfPersSchemB.txt", "TestSelfPersSchemC.txt",
                    "TestSelfPersSchemD.txt"),
            group("schema-per-cach-tbl", "TestSelfSchemaPerCachTbl1.txt", "TestSelfSchemaPerCachTbl2.txt"),
            group("schema-persist-a", "TestSelfSchemaPersistA1.txt", "TestSelfSchemaPersistA2.txt"),
            group("schema-persist-b", "TestSelfSchemaPersistB1.txt", "TestSelfSchemaPersistB2.txt"),
            group("schema-persist-c", "TestSelfSchemaPersistC1.txt", "TestSelfSchemaPersistC2.txt"),
            group("seq-rights", "TestSelfSeqRightsA.txt", "TestSelfSeqRightsB.txt", "TestSelfSeqRightsC.txt"),
            group("temp-table", "TestSelfTempTable1.txt", "TestSelfTempTable2.txt"),
            // TestTextTables.testSectionOne / testSectionTwo: set up, TestText01, restart, TestText02
            new Unit("text-tables-shutdown", true, List.of(
                    new Sql("set files write delay 0"), new Sql("set database transaction control locks"),
                    new Script("TestText01.txt"), new Sql("SHUTDOWN"),
                    new Script("TestText02.txt"), new Sql("SHUTDOWN"))),
            new Unit("text-tables-shutdown-immediately", true, List.of(
                    new Sql("set files write delay 0"), new Sql("set database transaction control locks"),
                    new Script("TestText01.txt"), new Sql("SHUTDOWN IMMEDIATELY"),
                    new Script("TestText02.txt"), new Sql("SHUTDOWN"))),
            // TestTriggers.testTriggerAction: the script, the checked statements, restart, again
            new Unit("triggers", true, List.of(
                    new Script("TestTriggers.txt"), new TriggerCalls(), new Sql("shutdown"), new TriggerCalls())));

    private static Unit group(String name, String... scripts) {
        return new Unit(name, true, Stream.of(scripts).map(s -> (Step) new Script(s)).toList());
    }

    private ScriptPlan() {}

    /**
     * The units for the scripts in {@code dir} whose names match {@code glob}
     * (all when null). A group runs whole if any of its scripts matches, since
     * its later scripts need the earlier ones. Every TestSelf*.txt that is in
     * no group runs alone; a grouped script missing from {@code dir} is an error.
     */
    public static List<Unit> units(Path dir, String glob) {
        Set<String> files = new LinkedHashSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".txt")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list test scripts in " + dir, e);
        }
        PathMatcher matcher = glob == null ? null : FileSystems.getDefault().getPathMatcher("glob:" + glob);
        Set<String> grouped = new LinkedHashSet<>();
        List<Unit> out = new ArrayList<>();
        for (Unit g : GROUPS) {
            for (String f : g.scripts()) {
                if (!files.contains(f)) {
                    throw new IllegalStateException("script " + f + " of group " + g.name() + " is missing from " + dir);
                }
            }
            grouped.addAll(g.scripts());
        }
        for (String f : files) {
            if (f.startsWith("TestSelf") && !grouped.contains(f) && matches(matcher, f)) {
                out.add(new Unit(f, false, List.of(new Script(f))));
            }
        }
        for (Unit g : GROUPS) {
            if (g.scripts().stream().anyMatch(f -> matches(matcher, f))) {
                out.add(g);
            }
        }
        return out;
    }

    private static boolean matches(PathMatcher matcher, String file) {
        return matcher == null || matcher.matches(Path.of(file));
    }
}
