package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsqldb.a2l.tpcc.AbortReason;
import org.hsqldb.a2l.tpcc.Benchmark;
import org.hsqldb.a2l.tpcc.Consistency;
import org.hsqldb.a2l.tpcc.IndexCheck;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Loader;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.TerminalStats;
import org.hsqldb.a2l.tpcc.TransactionHook;
import org.hsqldb.a2l.tpcc.TransactionHooks;
import org.hsqldb.a2l.tpcc.TxnType;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.IdleLocks;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.HeapTrend;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import org.hsqldb.a2l.tpcc.report.SoakResult;

/**
 * One configuration's soak, in one JVM: load, then the same terminals (connections kept) run
 * period after period, each with the next mix and, where the configuration allows, the other
 * statement order; between periods they wait at transaction boundaries while all twelve
 * consistency conditions are checked and the heap is measured after a full GC. At the end the
 * fork's index check walks every index. Writes OUT/soak.json.
 */
public final class Soak {

    /** {@code seconds}: running time in all (checks not counted), cut into periods of {@code periodSeconds}. */
    public record Plan(EngineConfig config, EngineJars jars, Scale scale, int clients, int seconds, int periodSeconds,
                       long seed, Isolation isolation, int retryBackoffMicros, int loaderThreads, Path out,
                       DatabaseLocation database) {}

    static final List<String> GROWING_TABLES = List.of("orders", "order_line", "new_order", "history");

    private Soak() {}

    /** The mix and order of period {@code i} (0-based): mixes in turn; orders so every pair comes up in 8 periods. */
    static Point turn(int i, boolean rbwOnly, int clients) {
        Mix mix = Mix.values()[i % Mix.values().length];
        StatementOrder order = rbwOnly || (i + i / Mix.values().length) % 2 == 1 ? StatementOrder.RBW
                : StatementOrder.ORIGINAL;
        return new Point(order, mix, clients);
    }

    /** Returns 0 when every check held, 1 otherwise; soak.json says which. */
    public static int run(Plan plan, PrintStream out) throws EngineException, SQLException, InterruptedException,
            IOException {
        EngineConfig config = plan.config();
        try {
            TransactionHooks.check(config.hook());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        boolean rbwOnly = TransactionHooks.isRbwOnly(config.hook());
        SoakResult result = new SoakResult();
        result.startedAt = Instant.now().toString();
        result.config = config.name();
        result.configDescription = config.describe();
        result.warehouses = plan.scale().warehouses();
        result.scale = plan.scale().name();
        result.clients = plan.clients();
        result.seconds = plan.seconds();
        result.periodSeconds = plan.periodSeconds();
        result.seed = plan.seed();
        result.isolation = plan.isolation().label;
        result.retryBackoffUs = plan.retryBackoffMicros();
        result.machine = MachineFacts.current();
        Path file = plan.out().resolve("soak.json");

        result.heapBeforeLoadBytes = heapAfterGc();
        Engine engine = Engine.load(config, plan.jars(), plan.database());
        Connection admin;
        try {
            admin = engine.connect();
        } catch (SQLException e) {
            engine.stopServer();
            throw new EngineException("cannot connect to " + engine.url() + ": " + Main.firstLine(e.getMessage()));
        }
        boolean completed = false;
        boolean stalled = false;
        try {
            String unavailable = engine.unavailableReason(admin);
            if (unavailable != null) {
                throw new EngineException("configuration " + config.name() + " is not available: " + unavailable);
            }
            DatabaseMetaData meta = admin.getMetaData();
            result.engineProduct = meta.getDatabaseProductName();
            result.engineVersion = meta.getDatabaseProductVersion();
            result.jdbcUrl = engine.url();
            result.database = plan.database().describe();
            out.printf("engine: %s %s via %s (%s)%n", result.engineProduct, result.engineVersion, engine.url(),
                    config.describe());

            Loader.Result load = new Loader(plan.scale(), plan.seed(), Instant.now(), engine::connect,
                    plan.loaderThreads(), out).load();
            result.loadSeconds = Math.round(load.seconds() * 10) / 10.0;
            result.loadRows = load.rows();
            result.heapAfterLoadBytes = heapAfterGc();
            result.loadBytesPerRow = load.rows() == 0 ? 0
                    : Math.round((result.heapAfterLoadBytes - result.heapBeforeLoadBytes) / (double) load.rows());
            out.printf("heap after GC: %.1f MB before the load, %.1f MB after (%.0f bytes per loaded row)%n",
                    mb(result.heapBeforeLoadBytes), mb(result.heapAfterLoadBytes), result.loadBytesPerRow);

            TransactionHook hook;
            try {
                hook = TransactionHooks.create(config.hook(), new TransactionHooks.Context(engine::connect,
                        plan.scale(), load.constants(), plan.seed(), out));
            } catch (SQLException e) {
                throw new EngineException("hook " + config.hook() + " of " + config.name() + ": " + e.getMessage());
            }
            Benchmark benchmark = new Benchmark(plan.scale(), load.constants(), plan.seed(), engine::connect,
                    Clock.systemUTC(), hook, null, out).idleProbe(() -> IdleLocks.check(admin, config))
                    .readsForUpdate(config.reads());
            periods(plan, benchmark, admin, rbwOnly, result, file, out);

            IndexCheck.Result index = IndexCheck.run(admin);
            result.indexCheck = index.oneLine();
            result.indexProblems = index.problems();
            result.indexOk = index.ok();
            out.println("index check: " + index.oneLine());
            index.problems().forEach(p -> out.println("   PROBLEM " + p));
            if (!index.ok()) result.failures.add("index check: " + index.problems().size() + " problem(s)");

            List<Long> heap = result.periods.stream().map(p -> p.heapAfterGcBytes).toList();
            List<Long> rows = result.periods.stream().map(p -> p.growingRows).toList();
            result.heap = HeapTrend.judge(heap, rows, result.loadBytesPerRow);
            out.println("heap: " + result.heap.note());
            completed = true;
        } catch (RuntimeException | SQLException e) {
            if (e instanceof UsageException) throw e;
            // the stalled sessions cannot be closed and SHUTDOWN would wait for them
            stalled = e instanceof Benchmark.EngineStalledException;
            result.failures.add("the soak stopped: " + Main.firstLine(stalled ? e.getMessage() : String.valueOf(e)));
            out.println("FAILED: " + (stalled ? e.getMessage() : e));
            completed = true;
        } finally {
            if (!completed) result.failures.add("the soak did not complete");
            result.ok = result.failures.isEmpty();
            result.write(file);
            if (!stalled) engine.shutdown(admin);
            try {
                admin.close();
            } catch (SQLException ignored) {
                // shut down already
            }
        }
        out.println("soak " + config.name() + ": " + (result.ok ? "OK" : "FAILED " + result.failures));
        return result.ok ? Main.OK : Main.FAILED;
    }

    private static void periods(Plan plan, Benchmark benchmark, Connection admin, boolean rbwOnly, SoakResult result,
                                Path file, PrintStream out) throws SQLException, InterruptedException, IOException {
        double runSeconds = 0;
        try (Benchmark.Terminals terminals = benchmark.open(plan.clients(), plan.isolation().jdbcLevel, plan.seed(),
                plan.retryBackoffMicros())) {
            for (int i = 0; runSeconds < plan.seconds() - 0.5; i++) {
                Point turn = turn(i, rbwOnly, plan.clients());
                long length = Math.min(plan.periodSeconds() * 1000L, Math.round((plan.seconds() - runSeconds) * 1000));
                long start = System.nanoTime();
                terminals.resume(turn.mix(), turn.order());
                Thread.sleep(length);
                Benchmark.Terminals.Period done = terminals.pause();
                double seconds = (System.nanoTime() - start) / 1e9;
                runSeconds += seconds;

                SoakResult.Period p = new SoakResult.Period();
                p.index = i + 1;
                p.endMinute = Math.round(runSeconds / 60 * 100) / 100.0;
                p.mix = turn.mix().label;
                p.order = turn.order().label;
                p.seconds = Math.round(seconds * 10) / 10.0;
                record(p, done.stats(), seconds);
                p.otherErrors = done.otherErrors();
                long checkStart = System.nanoTime();
                List<Consistency.Condition> conditions = new ArrayList<>(new Consistency(admin, plan.scale()).check(true));
                Consistency.Condition idle = benchmark.checkIdle();
                if (idle != null) conditions.add(idle);
                p.checkSeconds = Math.round((System.nanoTime() - checkStart) / 1e8) / 10.0;
                p.consistencyOk = Consistency.allOk(conditions);
                p.violations = conditions.stream().filter(c -> !c.ok())
                        .map(c -> c.id() + " " + c.rule() + ": " + String.join("; ", c.values())).toList();
                p.heapAfterGcBytes = heapAfterGc();
                p.growingRows = growingRows(admin);
                result.periods.add(p);
                out.printf("period %d: %.2f min, %s %s: %d committed (%.0f/min), aborts %s, consistency %s (%.1f s),"
                                + " heap after GC %.1f MB, %d rows in the growing tables%n", p.index, p.endMinute,
                        p.mix, p.order, p.committed, p.committedPerMinute, p.aborts, p.consistencyOk ? "OK" : "VIOLATED",
                        p.checkSeconds, mb(p.heapAfterGcBytes), p.growingRows);
                p.otherErrors.forEach(e -> out.println("   OTHER ERROR " + e));
                p.violations.forEach(v -> out.println("   VIOLATED " + v));
                if (!p.consistencyOk) result.failures.add("period " + p.index + ": consistency violated");
                // written after every period, so a soak that dies leaves what it saw
                result.write(file);
            }
        }
    }

    private static void record(SoakResult.Period p, TerminalStats s, double seconds) {
        p.committed = s.totalCommitted();
        p.committedPerMinute = Math.round(p.committed * 60 / seconds * 10) / 10.0;
        p.committedByType = new LinkedHashMap<>();
        for (TxnType t : TxnType.values()) p.committedByType.put(t.label, s.committed[t.ordinal()]);
        Map<String, Long> aborts = new LinkedHashMap<>();
        for (AbortReason a : AbortReason.values()) if (!a.injected) aborts.put(a.label, s.aborts(a));
        p.aborts = aborts;
        p.retries = s.retries;
    }

    private static long growingRows(Connection c) throws SQLException {
        long n = 0;
        try (Statement s = c.createStatement()) {
            for (String table : GROWING_TABLES) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rs.next();
                    n += rs.getLong(1);
                }
            }
        }
        return n;
    }

    /** Heap in use after full collections: what is live, so a leak shows as a rising line. */
    static long heapAfterGc() {
        // two rounds: the first may leave objects whose finalization or reference processing frees more
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static double mb(long bytes) {
        return bytes / 1048576.0;
    }
}
