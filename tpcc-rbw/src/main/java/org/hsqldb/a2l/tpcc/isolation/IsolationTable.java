package org.hsqldb.a2l.tpcc.isolation;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.engine.Dialect;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.RunSummary;

/**
 * Which anomalies each engine configuration prevents at the isolation level the benchmark runs it
 * at, and how: every {@link Anomaly}'s schedule is played over JDBC on two connections against a
 * fresh table (a fresh in-memory database where the engine has them) and the cell says ALLOWED, or
 * how the engine prevented it: a step blocked until the other transaction ended, a transaction was
 * aborted (with its SQLSTATE), or neither (the reads saw committed versions). {@link #run} returns
 * the table; {@link Result#toMarkdown()} and {@link Result#write} give it to reports.
 */
public final class IsolationTable {

    /** The HSQLDB configurations and peers the table is about, in its column order. */
    public static final List<String> DEFAULT_CONFIGS = List.of("upstream", "upstream-mvlocks", "upstream-mvcc",
            "fork-lf", "fork-a2l", "h2", "derby", "postgresql");

    /**
     * {@code blockMillis}: how long a step may take before it counts as blocked; {@code resolveMillis}:
     * how long a blocked step may stay so at the end before it counts as hung; {@code isolation}: the
     * level to run at, null for the one each engine's benchmark runs ({@link Dialect#benchmarkIsolation}).
     */
    public record Options(long blockMillis, long resolveMillis, Isolation isolation, List<Anomaly> anomalies) {
        public static Options defaults() {
            return new Options(500, 30_000, null, List.of(Anomaly.values()));
        }
    }

    public enum Verdict { PREVENTED, ALLOWED, HUNG, ERROR, UNAVAILABLE }

    /** One (anomaly, configuration): the verdict, how (for PREVENTED), and the run's details. */
    public record Cell(String anomaly, String config, Verdict verdict, String how,
                       List<ScheduleRunner.StepResult> steps, Map<String, Long> reads, Map<String, Long> finalState) {
        /** The table's cell text. */
        public String text() {
            return switch (verdict) {
                case ALLOWED -> "**ALLOWED**";
                case PREVENTED -> how;
                case HUNG -> "hung";
                case ERROR -> "error: " + how;
                case UNAVAILABLE -> "-";
            };
        }
    }

    /** One configuration: its engine and version, the level it ran at and what its documentation says. */
    public record Column(String config, String engine, String isolation, String guarantee, String unavailable) {}

    public record Result(long blockMillis, List<Column> columns, List<Cell> cells) {

        public Cell cell(Anomaly a, String config) {
            return cells.stream().filter(c -> c.anomaly().equals(a.code) && c.config().equals(config)).findFirst()
                    .orElse(null);
        }

        public List<String> anomalies() {
            Set<String> out = new LinkedHashSet<>();
            for (Cell c : cells) out.add(c.anomaly());
            return List.copyOf(out);
        }

        public String toMarkdown() {
            StringBuilder md = new StringBuilder();
            md.append("## Isolation: anomaly schedules on two connections\n\n")
                    .append("Each schedule is issued step by step over JDBC on two connections (T1, T2), on a fresh")
                    .append(" table, at the isolation level the benchmark runs the engine at. A step that has not")
                    .append(" finished after ").append(blockMillis).append(" ms is *blocked*: the next step is issued")
                    .append(" anyway, and the blocked one is seen to resolve once the other transaction ends. Cells:")
                    .append(" **ALLOWED**, the anomaly happened; else how it was prevented: `blocked` (a step waited")
                    .append(" until the other transaction ended, and the result is a serial one), `aborted STATE` (a")
                    .append(" transaction was rolled back with that SQLSTATE), `blocked, aborted STATE` (both), or")
                    .append(" `versions` (nothing waited or aborted: the reads saw committed versions). `hung`: a")
                    .append(" step never resolved; `-`: the configuration is not available here.\n\n");
            md.append("| anomaly |");
            for (Column c : columns) md.append(" ").append(c.config()).append(" |");
            md.append("\n|---|").append("---|".repeat(columns.size())).append("\n");
            for (Anomaly a : Anomaly.values()) {
                if (cells.stream().noneMatch(c -> c.anomaly().equals(a.code))) continue;
                md.append("| ").append(a.label()).append(" |");
                for (Column c : columns) {
                    Cell cell = cell(a, c.config());
                    md.append(" ").append(cell == null ? "" : cell.text()).append(" |");
                }
                md.append("\n");
            }
            md.append("\n| config | engine | isolation | what the engine's documentation says it guarantees |\n")
                    .append("|---|---|---|---|\n");
            for (Column c : columns) {
                md.append("| ").append(c.config()).append(" | ")
                        .append(c.unavailable() != null ? "not available: " + c.unavailable().replace("|", "/") : c.engine())
                        .append(" | ").append(c.isolation() == null ? "" : c.isolation()).append(" | ")
                        .append(c.guarantee() == null ? "" : c.guarantee()).append(" |\n");
            }
            md.append("\nSchedules (table iso_acc: rows (1, x 50, y 50, oncall 1) and (2, x 50, y 50, oncall 1)):\n\n");
            for (Anomaly a : Anomaly.values()) {
                if (cells.stream().noneMatch(c -> c.anomaly().equals(a.code))) continue;
                md.append("- **").append(a.label()).append("**: ").append(a.description).append(". ");
                List<String> steps = new ArrayList<>();
                for (Schedule.Step s : a.schedule().steps()) steps.add("`" + s.describe() + "`");
                md.append(String.join("; ", steps)).append("\n");
            }
            return md.toString();
        }

        public String toJson() {
            return RunSummary.GSON.toJson(this);
        }

        /** isolation.md and isolation.json in {@code dir}. */
        public void write(Path dir) throws IOException {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("isolation.md"), "# Isolation table\n\n" + toMarkdown());
            Files.writeString(dir.resolve("isolation.json"), toJson() + "\n");
        }
    }

    private static final AtomicLong DATABASES = new AtomicLong();

    private IsolationTable() {}

    /** The table for {@code configs} with the default options, the jars of the build. */
    public static Result run(List<EngineConfig> configs) {
        return run(configs, EngineJars.locate(null, null), Options.defaults(), null);
    }

    /** {@code log}: one line per cell as it is decided, or null. */
    public static Result run(List<EngineConfig> configs, EngineJars jars, Options options, PrintStream log) {
        ScheduleRunner runner = new ScheduleRunner(options.blockMillis(), options.resolveMillis());
        List<Column> columns = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        for (EngineConfig config : configs) {
            String unavailable = Engine.probe(config, jars);
            if (unavailable != null) {
                columns.add(new Column(config.name(), null, null, null, unavailable));
                for (Anomaly a : options.anomalies()) {
                    cells.add(new Cell(a.code, config.name(), Verdict.UNAVAILABLE, unavailable, List.of(), Map.of(), Map.of()));
                }
                if (log != null) log.println(config.name() + ": not available: " + unavailable);
                continue;
            }
            Isolation level = options.isolation() != null ? options.isolation() : config.dialect().benchmarkIsolation();
            String engine = null;
            for (Anomaly a : options.anomalies()) {
                Cell cell;
                try {
                    Played p = play(config, jars, a, runner, level);
                    engine = p.engine();
                    cell = p.cell();
                } catch (Exception e) {
                    cell = new Cell(a.code, config.name(), Verdict.ERROR, ScheduleRunner.firstLine(String.valueOf(
                            e.getMessage())), List.of(), Map.of(), Map.of());
                }
                cells.add(cell);
                if (log != null) log.printf("%-18s %-10s %s%n", config.name(), a.code, cell.text());
            }
            columns.add(new Column(config.name(), engine, level.label, config.dialect().guarantee(config, level), null));
        }
        return new Result(options.blockMillis(), columns, cells);
    }

    private record Played(String engine, Cell cell) {}

    private static Played play(EngineConfig config, EngineJars jars, Anomaly anomaly, ScheduleRunner runner,
                               Isolation level) throws Exception {
        String db = "iso_" + config.name().replaceAll("\\W", "_") + "_" + anomaly.name().toLowerCase() + "_"
                + DATABASES.incrementAndGet();
        Engine engine = Engine.load(config, jars, db);
        Connection admin = engine.connect();
        boolean hung = false;
        try {
            admin.setAutoCommit(true);
            DatabaseMetaData meta = admin.getMetaData();
            String product = meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion();
            Dialect dialect = Dialect.of(admin);
            fill(admin, dialect);
            Schedule schedule = anomaly.schedule();
            ScheduleRunner.Run run = runner.run(schedule, engine, admin, level, dialect.isolationSessionSetup());
            hung = run.hung();
            Verdict verdict;
            String how = null;
            if (run.hung()) {
                verdict = Verdict.HUNG;
                how = "a step never resolved";
            } else if (schedule.anomalous().test(run.observed())) {
                verdict = Verdict.ALLOWED;
            } else {
                verdict = Verdict.PREVENTED;
                how = how(run.steps());
            }
            return new Played(product, new Cell(anomaly.code, config.name(), verdict, how, run.steps(),
                    run.observed().reads(), run.observed().finalState()));
        } finally {
            if (hung) {
                // SHUTDOWN would wait for the session that never returned
                new Thread(() -> close(admin), "isolation-close").start();
            } else {
                engine.shutdown(admin);
                close(admin);
            }
        }
    }

    /** The table, rows (1, 50, 50, 1) and (2, 50, 50, 1), committed. */
    private static void fill(Connection admin, Dialect dialect) throws SQLException {
        try (Statement s = admin.createStatement()) {
            try {
                s.execute(dialect.dropTable(Schedule.TABLE));
            } catch (SQLException e) {
                if (dialect != Dialect.GENERIC && !dialect.isMissingTable(e)) throw e;
            }
            s.execute(dialect.ddl(Schedule.CREATE));
            for (String insert : Schedule.ROWS) s.execute(insert);
        }
    }

    /** How a schedule that showed no anomaly was kept from it. */
    static String how(List<ScheduleRunner.StepResult> steps) {
        boolean blocked = steps.stream().anyMatch(s -> s.blocked() && !s.queued());
        Set<String> aborts = new LinkedHashSet<>();
        for (ScheduleRunner.StepResult s : steps) if (s.sqlState() != null) aborts.add(s.sqlState());
        if (!aborts.isEmpty()) return (blocked ? "blocked, " : "") + "aborted " + String.join("/", aborts);
        return blocked ? "blocked" : "versions";
    }

    private static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // gone already
        }
    }

    /** The configurations named, in order; an unknown name is an EngineException. */
    public static List<EngineConfig> configs(List<String> names, org.hsqldb.a2l.tpcc.engine.EngineRegistry registry)
            throws EngineException {
        List<EngineConfig> out = new ArrayList<>();
        for (String n : names) {
            out.add(registry.find(n).orElseThrow(() -> new EngineException("unknown config '" + n + "' (known: "
                    + String.join(", ", registry.names()) + ")")));
        }
        return out;
    }
}
