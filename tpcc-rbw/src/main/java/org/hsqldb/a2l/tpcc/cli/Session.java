package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.hsqldb.a2l.tpcc.Benchmark;
import org.hsqldb.a2l.tpcc.Consistency;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Loader;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.TransactionHook;
import org.hsqldb.a2l.tpcc.TransactionHooks;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineCounters;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.report.HumanSummary;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import org.hsqldb.a2l.tpcc.report.RunSummary;

/**
 * One JVM's work: open the engine, load once, then measure each point in turn (each with its
 * own warm-up) and check consistency after each. The database carries over from point to
 * point: New-Order grows it, which TPC-C allows, and every point starts from a consistent state.
 */
public final class Session {

    public record Plan(EngineConfig config, EngineJars jars, Scale scale, List<Point> points, int seconds, int warmup,
                       long seed, Isolation isolation, int progressSeconds, int retryBackoffMicros, int loaderThreads,
                       Path out,
                       boolean summaryPerPointDir, Integer rep) {}

    private Session() {}

    /** Returns 0 when every point's database is consistent, 1 otherwise. */
    public static int run(Plan plan, PrintStream out) throws EngineException, SQLException, InterruptedException,
            IOException {
        EngineConfig config = plan.config();
        Engine engine = Engine.load(config, plan.jars(), "tpcc");
        try {
            TransactionHooks.check(config.hook());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (TransactionHooks.isRbwOnly(config.hook())
                && plan.points().stream().anyMatch(p -> p.order() != StatementOrder.RBW)) {
            throw new UsageException("configuration " + config.name() + " declares RbW write sets: it runs"
                    + " the rbw order only (--order rbw)");
        }
        Connection admin;
        try {
            admin = engine.connect();
        } catch (SQLException e) {
            throw new EngineException("cannot connect to " + engine.url() + ": " + Main.firstLine(e.getMessage()));
        }
        try {
            String unavailable = engine.unavailableReason(admin);
            if (unavailable != null) {
                throw new EngineException("configuration " + config.name() + " is not available: " + unavailable);
            }
            DatabaseMetaData meta = admin.getMetaData();
            String product = meta.getDatabaseProductName();
            String version = meta.getDatabaseProductVersion();
            out.printf("engine: %s %s via %s (%s)%n", product, version, engine.url(), config.describe());
            if (!plan.scale().isStandard()) out.println("WARNING: non-standard scale " + plan.scale().name());

            Loader.Result load = new Loader(plan.scale(), plan.seed(), Instant.now(), engine::connect,
                    plan.loaderThreads(), out).load();
            TransactionHook hook;
            try {
                hook = TransactionHooks.create(config.hook(), new TransactionHooks.Context(engine::connect,
                        plan.scale(), load.constants(), plan.seed(), out));
            } catch (SQLException e) {
                throw new EngineException("hook " + config.hook() + " of " + config.name() + ": " + e.getMessage());
            }
            Benchmark benchmark = new Benchmark(plan.scale(), load.constants(), plan.seed(), engine::connect,
                    Clock.systemUTC(), hook, () -> EngineCounters.read(admin, config), out);

            boolean allConsistent = true;
            int index = 0;
            for (Point p : plan.points()) {
                index++;
                out.printf("point %d/%d: %s order, mix %s, %d client(s): %d s warm-up, %d s measured%n", index,
                        plan.points().size(), p.order(), p.mix(), p.clients(), plan.warmup(), plan.seconds());
                RunSummary s = new RunSummary();
                s.startedAt = Instant.now().toString();
                Benchmark.Result r = benchmark.run(new Benchmark.Settings(p.order(), p.mix(), p.clients(),
                        plan.warmup(), plan.seconds(), plan.seed(), plan.isolation().jdbcLevel,
                        plan.progressSeconds(), plan.retryBackoffMicros()));
                long checkStart = System.nanoTime();
                boolean full = index == plan.points().size();
                List<Consistency.Condition> conditions = new Consistency(admin, plan.scale()).check(full);
                s.consistencySeconds = Math.round((System.nanoTime() - checkStart) / 1e8) / 10.0;
                s.config = config.name();
                s.configDescription = config.describe();
                s.jdbcUrl = engine.url();
                s.engineProduct = product;
                s.engineVersion = version;
                s.order = p.order().label;
                s.mix = p.mix().label;
                s.warehouses = plan.scale().warehouses();
                s.scale = plan.scale().name();
                s.clients = p.clients();
                s.seconds = plan.seconds();
                s.warmup = plan.warmup();
                s.seed = plan.seed();
                s.isolation = plan.isolation().label;
                s.retryBackoffUs = plan.retryBackoffMicros();
                s.measurement(r);
                s.consistency = conditions;
                s.consistencyFull = full;
                s.consistencyOk = Consistency.allOk(conditions);
                s.loadSeconds = Math.round(load.seconds() * 10) / 10.0;
                s.loadRows = load.rows();
                s.machine = MachineFacts.current();
                s.rep = plan.rep();
                s.pointInJvm = plan.points().size() > 1 ? index : null;
                Path file = (plan.summaryPerPointDir() ? plan.out().resolve(p.dirName()) : plan.out())
                        .resolve("summary.json");
                s.write(file);
                HumanSummary.print(s, out);
                if (!s.consistencyOk) {
                    allConsistent = false;
                    String loud = "!!! CONSISTENCY VIOLATED: " + config.name() + " " + p + " (see " + file + ")";
                    out.println(loud);
                    if (out != System.err) System.err.println("tpcc: " + loud);
                }
            }
            return allConsistent ? Main.OK : Main.FAILED;
        } finally {
            engine.shutdown(admin);
            try {
                admin.close();
            } catch (SQLException ignored) {
                // shut down already
            }
        }
    }

    static long seedOrRandom(Long seed) {
        return seed != null ? seed : new java.security.SecureRandom().nextLong() & Long.MAX_VALUE;
    }
}
