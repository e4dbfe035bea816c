package org.hsqldb.a2l.fork.regress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.hsqldb.a2l.fork.EngineMode;

/**
 * Runs {@link ScriptPlan} units against one engine in one mode and records
 * every check, the way upstream's TestUtil judges a section:
 * <ul>
 * <li>untagged: the statement must not throw;</li>
 * <li>{@code /*u N*}{@code /}: update count N; {@code /*c N*}{@code /}: a result set of N rows;</li>
 * <li>{@code /*r ...*}{@code /}: a result set equal, row by row, to the given rows
 *     (fields split at commas, {@code ARRAY[..]} kept whole, SQL NULL written NULL);</li>
 * <li>{@code /*e*}{@code /}: an SQLException ({@code /*e STATE*}{@code /}: with that SQLSTATE);</li>
 * <li>{@code /*o*}{@code /}: any result set; {@code /*s*}{@code /}: run, outcome ignored (no check);</li>
 * <li>{@code /*d*}{@code /}: displayed, not run; {@code /*w*}{@code /} and {@code /*p*}{@code /}
 *     (multi-threaded wait/proceed) and upper-case tags: not run, as upstream leaves them.</li>
 * </ul>
 * One connection and one Statement per script, as TestUtil.testScript. In a
 * mode run (mode not null) the URL carries the mode's properties, statements
 * that would switch the mode are substituted ({@link ModeSubstitution}), and a
 * mode guard check at the start and end of each script verifies the database
 * is still in the mode.
 */
public final class ScriptRunner {

    /** An engine, given as a source of JDBC connections. */
    @FunctionalInterface
    public interface ConnectionFactory {
        Connection open(String url) throws SQLException;
    }

    private static final AtomicInteger MEM_DATABASES = new AtomicInteger();
    private static final String TRIGGER_CLASS = "org.hsqldb.test.TriggerClass";

    private final String runName;
    private final ConnectionFactory engine;
    private final EngineMode mode;
    private final Path scriptDir;
    private final Path workDir;
    private final Duration unitTimeout;
    private final ModeSubstitution substitution = new ModeSubstitution();

    private final List<Check> checks = Collections.synchronizedList(new ArrayList<>());
    private final List<String> substitutions = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, String> scriptCache = new ConcurrentHashMap<>();
    private volatile ClassLoader triggerLoader;

    /**
     * @param runName     names the run in reports and in database names
     * @param engine      where connections come from
     * @param mode        the mode to run in, or null to run the scripts verbatim with the engine's defaults
     * @param scriptDir   the directory holding the scripts
     * @param workDir     where file databases go; emptied first
     * @param unitTimeout how long one unit may take before it is abandoned and reported
     */
    public ScriptRunner(String runName, ConnectionFactory engine, EngineMode mode, Path scriptDir, Path workDir,
                        Duration unitTimeout) {
        this.runName = runName;
        this.engine = engine;
        this.mode = mode;
        this.scriptDir = scriptDir;
        this.workDir = workDir;
        this.unitTimeout = unitTimeout;
    }

    /** The outcome of one run: every check made, in order, and what was substituted. */
    public record RunResult(String name, EngineMode mode, List<Check> checks, List<String> substitutions,
                            List<String> notes, Set<String> scripts, Duration elapsed) {

        public long failed() {
            return checks.stream().filter(c -> !c.pass()).count();
        }
    }

    public RunResult run(List<ScriptPlan.Unit> units) {
        long start = System.nanoTime();
        deleteTree(workDir);
        Set<String> scripts = new LinkedHashSet<>();
        for (ScriptPlan.Unit u : units) {
            scripts.addAll(u.scripts());
            runUnit(u);
        }
        List<Check> all;
        synchronized (checks) {
            all = List.copyOf(uniqueKeys(checks));
        }
        return new RunResult(runName, mode, all, List.copyOf(substitutions), List.copyOf(notes), scripts,
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** A check key seen twice in a run (a script run twice in one unit) gets an occurrence suffix. */
    private static List<Check> uniqueKeys(List<Check> in) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        List<Check> out = new ArrayList<>(in.size());
        for (Check c : in) {
            int n = seen.merge(c.key(), 1, Integer::sum);
            out.add(n == 1 ? c : new Check(c.unit(), c.script() + "#" + n, c.line(), c.tag(), c.sql(),
                    c.expected(), c.got(), c.pass()));
        }
        return out;
    }

    // ---------------------------------------------------------------- units

    /** Where a unit is, for the report when it has to be abandoned. */
    private final class UnitState {
        final ScriptPlan.Unit unit;
        final List<Check> made = new ArrayList<>();
        volatile String script;
        volatile int line;
        volatile boolean abandoned;
        int triggerChecks;

        UnitState(ScriptPlan.Unit unit) {
            this.unit = unit;
            this.script = unit.name();
        }

        synchronized void add(Check c) {
            if (!abandoned) {
                made.add(c);
            }
        }
    }

    private void runUnit(ScriptPlan.Unit unit) {
        UnitState state = new UnitState(unit);
        String url = unitUrl(unit);
        Thread worker = new Thread(() -> {
            try {
                int stepNo = 0;
                for (ScriptPlan.Step step : unit.steps()) {
                    stepNo++;
                    if (step instanceof ScriptPlan.Script s) {
                        runScript(state, s.file(), url);
                    } else if (step instanceof ScriptPlan.Sql s) {
                        runHarnessSql(state, stepNo, s.sql(), url);
                    } else if (step instanceof ScriptPlan.TriggerCalls) {
                        runTriggerCalls(state, url);
                    }
                }
            } catch (Throwable t) {
                state.add(new Check(unit.name(), state.script, state.line, "crash", "", "the unit runs to its end",
                        describe(t), false));
            } finally {
                shutdownQuietly(url);
            }
        }, "regress-" + runName + "-" + unit.name());
        worker.setDaemon(true);
        worker.start();
        try {
            worker.join(unitTimeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (state) {
            if (worker.isAlive()) {
                // a hung engine must not hang the suite: report where it stuck, leave the thread behind
                state.abandoned = true;
                worker.interrupt();
                state.made.add(new Check(unit.name(), state.script, state.line, "timeout", "",
                        "the unit finishes within " + unitTimeout.toSeconds() + " s",
                        "still running at " + state.script + ":" + state.line, false));
                notes.add(runName + ": unit " + unit.name() + " abandoned after " + unitTimeout.toSeconds()
                        + " s at " + state.script + ":" + state.line);
            }
            checks.addAll(state.made);
        }
    }

    private String unitUrl(ScriptPlan.Unit unit) {
        String base;
        if (unit.fileDatabase()) {
            base = "jdbc:hsqldb:file:" + workDir.resolve(unit.name()).resolve("db").toAbsolutePath();
        } else {
            base = "jdbc:hsqldb:mem:regress-" + runName.replaceAll("[^A-Za-z0-9]", "-") + "-"
                    + MEM_DATABASES.incrementAndGet();
        }
        // as upstream's TestUtil connects
        base += ";sql.enforce_strict_size=true";
        return mode == null ? base : mode.url(base);
    }

    private Connection open(String url) throws SQLException {
        Connection c = engine.open(url);
        useTriggerLoader(c);
        return c;
    }

    private void shutdownQuietly(String url) {
        try (Connection c = engine.open(url + ";ifexists=true"); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException | RuntimeException e) {
            // not open (the unit shut it down itself) or gone: nothing to release
        }
    }

    // -------------------------------------------------------------- scripts

    private void runScript(UnitState state, String file, String url) {
        state.script = file;
        state.line = 0;
        String text = scriptCache.computeIfAbsent(file, f -> {
            try {
                return Files.readString(scriptDir.resolve(f), StandardCharsets.ISO_8859_1);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        List<Section> sections = ScriptParser.parse(text);
        int afterLast = (int) text.lines().count() + 1;
        String unit = state.unit.name();
        Connection c;
        try {
            c = open(url);
        } catch (SQLException | RuntimeException e) {
            state.add(new Check(unit, file, 0, "connect", "", "a connection", describe(e), false));
            return;
        }
        try {
            guard(state, c, file, 0, false);
            try (Statement st = c.createStatement()) {
                for (Section s : sections) {
                    state.line = s.line();
                    Check check = runSection(st, unit, file, s);
                    if (check != null) {
                        state.add(check);
                    }
                }
            } catch (SQLException e) {
                // only createStatement/close can get here; a closed statement after SHUTDOWN is expected
            }
            guard(state, c, file, afterLast, true);
        } finally {
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                // closed by the script's SHUTDOWN
            }
        }
    }

    /** A statement of the upstream harness class that drives a group; its "line" is its step number. */
    private void runHarnessSql(UnitState state, int step, String sql, String url) {
        state.script = "harness";
        state.line = step;
        Section s = new Section(step, ' ', sql, List.of());
        try (Connection c = open(url); Statement st = c.createStatement()) {
            state.add(runSection(st, state.unit.name(), "harness", s));
        } catch (SQLException e) {
            state.add(new Check(state.unit.name(), "harness", state.line, "connect", sql, "a connection",
                    describe(e), false));
        }
    }

    Check runSection(Statement st, String unit, String file, Section s) {
        char tag = s.tag();
        if (tag == 'd') {
            return null;
        }
        if (!Section.isKnownTag(tag) || tag == 'w' || tag == 'p') {
            notes.add(runName + ": " + file + ":" + s.line() + ": section with tag '" + tag
                    + "' not run (upstream's harness does not process it either)");
            return null;
        }
        List<String> sqls = List.of(s.sql());
        if (mode != null) {
            List<String> replaced = substitution.replacement(mode, s.sql());
            if (replaced != null) {
                sqls = replaced;
                substitutions.add(file + ":" + s.line() + (unit.equals(file) ? "" : " (group " + unit + ")")
                        + ": '" + s.sql().strip() + "' -> '" + String.join("; ", replaced) + "'");
            } else if (substitution.setsModeProperty(s.sql())) {
                notes.add(runName + ": " + file + ":" + s.line()
                        + ": sets a mode property inside a larger statement; not substituted");
            }
        }
        String sql = String.join(";\n", sqls);
        Outcome out = execute(st, sqls, tag == 'r' ? Rows.ALL : tag == 'c' || tag == 'o' ? Rows.COUNT : Rows.NONE);
        if (out.error != null && String.valueOf(out.error.getMessage()).contains("lock check:")) {
            // -Dhsqldb.lock_check found a table's storage used without a covering table lock: a failure
            // whatever the section expected, even an error or nothing at all (/*e*/, /*s*/)
            return check(unit, file, s, String.valueOf(tag), sql, "storage used under a covering table lock",
                    out.describe(), false);
        }
        switch (tag) {
            case 's':
                return null;
            case ' ':
                return check(unit, file, s, "exec", sql, "no error", out.error == null ? "ok" : out.describe(),
                        out.error == null);
            case 'o':
                return check(unit, file, s, "o", sql, "a result set", out.describe(), out.isResultSet());
            case 'e': {
                String state = s.expectedState();
                boolean pass = out.error instanceof SQLException e
                        && (state == null || state.equalsIgnoreCase(e.getSQLState()));
                return check(unit, file, s, "e", sql, state == null ? "an error" : "error " + state,
                        out.error == null ? "no error: " + out.describe() : out.describe(), pass);
            }
            case 'c':
            case 'u': {
                int want;
                try {
                    want = s.expectedNumber();
                } catch (NumberFormatException e) {
                    return check(unit, file, s, String.valueOf(tag), sql, "a number after the tag",
                            "unparseable: " + s.resultLines(), false);
                }
                if (tag == 'c') {
                    return check(unit, file, s, "c", sql, want + " rows", out.describe(),
                            out.isResultSet() && out.rowCount == want);
                }
                return check(unit, file, s, "u", sql, "update count " + want, out.describe(),
                        out.error == null && out.updateCount == want);
            }
            case 'r': {
                List<String> want = s.expectedRows();
                String mismatch = out.isResultSet() ? RowMatcher.mismatch(want, out.rows, out.columnCount)
                        : "no result set";
                String expected = want.isEmpty() ? "(no rows)" : String.join("\n", want);
                String got = out.isResultSet() ? out.rowsText() : out.describe();
                if (mismatch != null && out.isResultSet()) {
                    got += "\n(" + mismatch + ")";
                }
                return check(unit, file, s, "r", sql, expected, got, mismatch == null);
            }
            default:
                throw new IllegalStateException("tag " + tag);
        }
    }

    private static Check check(String unit, String file, Section s, String tag, String sql, String expected,
                               String got, boolean pass) {
        return new Check(unit, file, s.line(), tag, sql.strip(), expected, got, pass);
    }

    // ------------------------------------------------------------ execution

    private enum Rows { NONE, COUNT, ALL }

    /** What the last of a section's statements did. */
    private static final class Outcome {
        Throwable error;
        int updateCount = -1;
        boolean resultSet;
        boolean counted;
        int rowCount;
        int columnCount;
        List<String[]> rows = List.of();

        boolean isResultSet() {
            return error == null && resultSet;
        }

        String describe() {
            if (error != null) {
                return ScriptRunner.describe(error);
            }
            if (resultSet) {
                return counted ? rowCount + " rows" : "a result set";
            }
            return "update count " + updateCount;
        }

        String rowsText() {
            if (rows.isEmpty()) {
                return "(no rows)";
            }
            return rows.stream().map(r -> {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < r.length; i++) {
                    b.append(i == 0 ? "" : ",").append(r[i]);
                }
                return b.toString();
            }).collect(Collectors.joining("\n"));
        }
    }

    private static Outcome execute(Statement st, List<String> sqls, Rows rows) {
        Outcome out = new Outcome();
        for (String sql : sqls) {
            out = new Outcome();
            try {
                st.execute(sql);
                out.updateCount = st.getUpdateCount();
                if (out.updateCount == -1) {
                    try (ResultSet rs = st.getResultSet()) {
                        out.resultSet = rs != null;
                        if (rs != null && rows != Rows.NONE) {
                            out.counted = true;
                            out.columnCount = rs.getMetaData().getColumnCount();
                            out.rows = new ArrayList<>();
                            while (rs.next()) {
                                out.rowCount++;
                                if (rows == Rows.ALL) {
                                    String[] row = new String[out.columnCount];
                                    for (int i = 0; i < row.length; i++) {
                                        row[i] = rs.getString(i + 1);
                                    }
                                    out.rows.add(row);
                                }
                            }
                        }
                    }
                }
            } catch (OutOfMemoryError e) {
                throw e;
            } catch (Throwable t) {
                // anything the engine throws is an outcome: an SQLException is an error as
                // the scripts mean it, anything else fails every check
                out.error = t;
            }
            if (out.error != null) {
                break;
            }
        }
        return out;
    }

    static String describe(Throwable t) {
        String msg = String.valueOf(t.getMessage()).lines().findFirst().orElse("").strip();
        if (msg.length() > 200) {
            msg = msg.substring(0, 200) + "...";
        }
        if (t instanceof SQLException e) {
            return "error " + e.getSQLState() + ": " + msg;
        }
        return "exception " + t.getClass().getName() + ": " + msg;
    }

    // ----------------------------------------------------------- mode guard

    private void guard(UnitState state, Connection c, String file, int line, boolean atEnd) {
        if (mode == null) {
            return;
        }
        Map<String, String> seen = new LinkedHashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(
                     "SELECT PROPERTY_NAME, PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES")) {
            while (rs.next()) {
                seen.put(rs.getString(1), rs.getString(2));
            }
        } catch (SQLException e) {
            if (atEnd && e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                return; // the script shut the database down: nothing left to look at
            }
            state.add(new Check(state.unit.name(), file, line, "mode", "", expectedMode(), describe(e), false));
            return;
        }
        boolean pass = true;
        List<String> got = new ArrayList<>();
        for (Map.Entry<String, String> p : mode.urlProperties().entrySet()) {
            String actual = seen.get(p.getKey());
            if (actual == null) {
                // the engine does not show this property: the guard cannot see it, say so
                got.add(p.getKey() + "=(not listed)");
            } else {
                got.add(p.getKey() + "=" + actual);
                pass &= actual.equalsIgnoreCase(p.getValue());
            }
        }
        state.add(new Check(state.unit.name(), file, line, "mode", "", expectedMode(), String.join(", ", got),
                pass));
    }

    private String expectedMode() {
        return mode.urlProperties().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    // --------------------------------------------------------- trigger calls

    /** TestTriggers.java's runStatements: each statement and the trigger calls it must cause. */
    private static final Object[][] TRIGGER_STATEMENTS = {
            // sql, total calls, then {trigger type, calls} pairs (types as in org.hsqldb.trigger.Trigger)
            {"insert into testtrig values (default, 'inserted val 1', 100)", 3, new int[] {0, 1, 6, 1, 3, 1}},
            {"insert into testtrig (c2, c3) select c2, c3 from testtrig where c1 < 0", 1, new int[] {0, 1, 6, 0, 3, 0}},
            {"update testtrig set c2 = c2 || ' updated' where c1 = 0", 3, new int[] {2, 1, 8, 1, 5, 1}},
            {"update testtrig set c2 = c2 || ' updated' where c1 < 0", 1, new int[] {2, 1, 8, 0, 5, 0}},
    };
    private static final String[] TRIGGER_TYPES = {"INSERT_AFTER", "DELETE_AFTER", "UPDATE_AFTER",
            "INSERT_AFTER_ROW", "DELETE_AFTER_ROW", "UPDATE_AFTER_ROW", "INSERT_BEFORE_ROW", "DELETE_BEFORE_ROW",
            "UPDATE_BEFORE_ROW"};

    private void runTriggerCalls(UnitState state, String url) throws ReflectiveOperationException {
        String unit = state.unit.name();
        String where = "TestTriggers.java";
        state.script = where;
        try (Connection c = open(url); Statement st = c.createStatement()) {
            Class<?> counter = Class.forName(TRIGGER_CLASS, true, Thread.currentThread().getContextClassLoader());
            for (String setup : new String[] {"delete from testtrig", "alter table testtrig alter column c1 restart with 0"}) {
                state.line = ++state.triggerChecks;
                state.add(runSection(st, unit, where, new Section(state.line, ' ', setup, List.of())));
            }
            for (Object[] t : TRIGGER_STATEMENTS) {
                state.line = ++state.triggerChecks;
                counter.getMethod("reset").invoke(null);
                Outcome out = execute(st, List.of((String) t[0]), Rows.NONE);
                int[] calls = (int[]) counter.getMethod("calls").invoke(null);
                int[] pairs = (int[]) t[2];
                boolean pass = out.error == null && calls[calls.length - 1] == (Integer) t[1];
                StringBuilder expected = new StringBuilder("no error, " + t[1] + " calls:");
                for (int i = 0; i < pairs.length; i += 2) {
                    expected.append(' ').append(TRIGGER_TYPES[pairs[i]]).append('=').append(pairs[i + 1]);
                    pass &= calls[pairs[i]] == pairs[i + 1];
                }
                StringBuilder got = new StringBuilder(out.error == null ? "ok" : out.describe());
                got.append(", ").append(calls[calls.length - 1]).append(" calls:");
                for (int i = 0; i < TRIGGER_TYPES.length; i++) {
                    if (calls[i] != 0) {
                        got.append(' ').append(TRIGGER_TYPES[i]).append('=').append(calls[i]);
                    }
                }
                state.add(new Check(unit, where, state.line, "trigger", (String) t[0], expected.toString(),
                        got.toString(), pass));
            }
        } catch (SQLException e) {
            state.add(new Check(unit, where, ++state.triggerChecks, "connect", "", "a connection", describe(e), false));
        }
    }

    /**
     * Lets the engine find {@code org.hsqldb.test.TriggerClass}: HSQLDB loads
     * trigger classes through the thread's context class loader, so give it
     * one that sees this test's classes on top of the engine's own, with a
     * copy of the trigger class of its own so that runs going on at the same
     * time do not count each other's calls.
     */
    private void useTriggerLoader(Connection c) {
        ClassLoader loader = triggerLoader;
        if (loader == null) {
            synchronized (this) {
                if (triggerLoader == null) {
                    triggerLoader = new TriggerLoader(c.getClass().getClassLoader());
                }
                loader = triggerLoader;
            }
        }
        Thread.currentThread().setContextClassLoader(loader);
    }

    /** Sees the engine's classes, but defines its own TriggerClass from the test classes. */
    private static final class TriggerLoader extends URLClassLoader {

        TriggerLoader(ClassLoader engine) {
            super(new URL[] {org.hsqldb.test.TriggerClass.class.getProtectionDomain().getCodeSource().getLocation()},
                    engine);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(TRIGGER_CLASS)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
