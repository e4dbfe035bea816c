package org.hsqldb.a2l.tpcc.isolation;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.engine.Engine;

/**
 * Plays a {@link Schedule} on two connections, each driven by a thread of its own. Steps are issued
 * strictly in the schedule's order: the runner hands a step to its session's thread and waits for it
 * up to the block timeout. A step that has not finished by then is blocked (it waits for a lock, or
 * is queued behind its session's blocked step); the runner notes that and issues the next step, so a
 * blocked step is later seen to resolve (or to be aborted) by what the other session does, never by
 * a sleep racing the engine. At the end every outstanding step gets the resolve timeout; one still
 * waiting then is "hung" (a wait the engine never ends).
 *
 * <p>A step that fails ends its transaction: the session rolls back and skips its remaining steps.
 */
public final class ScheduleRunner {

    /** How one step went. {@code blocked}: it had not finished within the block timeout. */
    public record StepResult(int index, String step, String outcome, boolean blocked, boolean queued, String sqlState,
                      String message, Long value) {}

    /** One run: the steps, what was observed, and whether a step never resolved. */
    public record Run(List<StepResult> steps, Schedule.Observed observed, boolean hung) {}

    private final long blockMillis;
    private final long resolveMillis;

    ScheduleRunner(long blockMillis, long resolveMillis) {
        this.blockMillis = blockMillis;
        this.resolveMillis = resolveMillis;
    }

    /** One session: a connection and the only thread that uses it. */
    private static final class Session implements AutoCloseable {
        final int id;
        final Connection connection;
        final ExecutorService thread;
        volatile boolean aborted;
        volatile boolean committed;

        Session(int id, Connection connection) {
            this.id = id;
            this.connection = connection;
            this.thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "isolation-T" + id);
                t.setDaemon(true);
                return t;
            });
        }

        /** Autocommit off, the isolation level, the dialect's session statements, then a committed read. */
        void prepare(int isolation, List<String> setup) throws Exception {
            thread.submit(() -> {
                connection.setAutoCommit(false);
                connection.setTransactionIsolation(isolation);
                try (Statement s = connection.createStatement()) {
                    for (String sql : setup) s.execute(sql);
                    // the first statement of a connection loads classes: not inside the schedule
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + Schedule.TABLE)) {
                        rs.next();
                    }
                }
                connection.commit();
                return null;
            }).get(60, TimeUnit.SECONDS);
        }

        StepResult execute(int index, Schedule.Step step, Map<String, Long> reads, boolean queued) {
            String text = step.describe();
            if (aborted) return new StepResult(index, text, "skipped (transaction aborted)", false, queued, null, null, null);
            try {
                Long value = null;
                switch (step.kind()) {
                    case READ -> {
                        try (Statement s = connection.createStatement();
                             ResultSet rs = s.executeQuery(step.sql().apply(reads))) {
                            if (rs.next()) {
                                value = rs.getLong(1);
                                if (rs.wasNull()) value = null;
                            }
                        }
                        if (value != null) reads.put(step.key(), value);
                    }
                    case WRITE -> {
                        try (Statement s = connection.createStatement()) {
                            s.executeUpdate(step.sql().apply(reads));
                        }
                    }
                    case COMMIT -> {
                        connection.commit();
                        committed = true;
                    }
                    case ROLLBACK -> connection.rollback();
                }
                return new StepResult(index, text, value == null ? "ok" : "ok: " + value, false, queued, null, null, value);
            } catch (SQLException e) {
                aborted = true;
                try {
                    connection.rollback();
                } catch (SQLException ignored) {
                    // the engine rolled back already
                }
                return new StepResult(index, text, "aborted " + e.getSQLState(), false, queued, e.getSQLState(),
                        firstLine(e.getMessage()), null);
            } catch (RuntimeException e) {
                aborted = true;
                return new StepResult(index, text, "failed: " + e, false, queued, null, e.toString(), null);
            }
        }

        @Override
        public void close() {
            thread.shutdownNow();
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }

    /**
     * Runs {@code schedule} on the table {@link Schedule#TABLE} that {@code admin} has just filled;
     * {@code admin} reads the final rows afterwards (autocommit on).
     */
    Run run(Schedule schedule, Engine engine, Connection admin, Isolation level, List<String> sessionSetup)
            throws Exception {
        Session[] sessions = {new Session(1, engine.connect()), new Session(2, engine.connect())};
        boolean hung = false;
        try {
            for (Session s : sessions) s.prepare(level.jdbcLevel, sessionSetup);
            Map<String, Long> reads = new ConcurrentHashMap<>();
            List<StepResult> results = new ArrayList<>();
            Map<Integer, Future<StepResult>> outstanding = new LinkedHashMap<>();
            List<Schedule.Step> steps = schedule.steps();
            for (int i = 0; i < steps.size(); i++) {
                Schedule.Step step = steps.get(i);
                Session s = sessions[step.session() - 1];
                int index = i;
                boolean queued = outstanding.keySet().stream().anyMatch(k -> steps.get(k).session() == step.session());
                Future<StepResult> f = s.thread.submit(() -> s.execute(index, step, reads, queued));
                results.add(null);
                try {
                    results.set(i, f.get(blockMillis, TimeUnit.MILLISECONDS));
                } catch (TimeoutException blocked) {
                    outstanding.put(i, f);
                }
                harvest(outstanding, results);
            }
            for (Map.Entry<Integer, Future<StepResult>> e : new ArrayList<>(outstanding.entrySet())) {
                try {
                    results.set(e.getKey(), blocked(e.getValue().get(resolveMillis, TimeUnit.MILLISECONDS)));
                } catch (TimeoutException never) {
                    hung = true;
                    results.set(e.getKey(), new StepResult(e.getKey(), steps.get(e.getKey()).describe(),
                            "hung: still waiting after " + resolveMillis / 1000 + " s", true, false, null, null, null));
                }
                outstanding.remove(e.getKey());
            }
            Map<String, Long> finalState = hung ? Map.of() : finalState(admin);
            return new Run(results, new Schedule.Observed(Map.copyOf(reads), sessions[0].committed,
                    sessions[1].committed, finalState), hung);
        } finally {
            if (hung) {
                // a session that never returns keeps its thread; its connection is closed from here
                for (Session s : sessions) new Thread(s::close, "isolation-close").start();
            } else {
                for (Session s : sessions) s.close();
            }
        }
    }

    /** Moves the outstanding steps that have finished into {@code results}, marked blocked. */
    private static void harvest(Map<Integer, Future<StepResult>> outstanding, List<StepResult> results)
            throws InterruptedException, ExecutionException {
        for (var it = outstanding.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getValue().isDone()) continue;
            results.set(e.getKey(), blocked(e.getValue().get()));
            it.remove();
        }
    }

    private static StepResult blocked(StepResult r) {
        return new StepResult(r.index(), r.step(), r.outcome(), true, r.queued(), r.sqlState(), r.message(), r.value());
    }

    /** x1, y1, oncall1, x2 ... of every row, and the row count. */
    private static Map<String, Long> finalState(Connection admin) throws SQLException {
        Map<String, Long> state = new LinkedHashMap<>();
        long rows = 0;
        try (Statement s = admin.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, x, y, oncall FROM " + Schedule.TABLE + " ORDER BY id")) {
            while (rs.next()) {
                rows++;
                long id = rs.getLong(1);
                state.put("x" + id, rs.getLong(2));
                state.put("y" + id, rs.getLong(3));
                state.put("oncall" + id, rs.getLong(4));
            }
        }
        state.put("rows", rows);
        return state;
    }

    static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
