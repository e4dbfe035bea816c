package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.AckLog;
import org.hsqldb.a2l.tpcc.Benchmark;
import org.hsqldb.a2l.tpcc.ClientShape;
import org.hsqldb.a2l.tpcc.Consistency;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Loader;
import org.hsqldb.a2l.tpcc.LoadedCopy;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.TransactionHook;
import org.hsqldb.a2l.tpcc.TransactionHooks;
import org.hsqldb.a2l.tpcc.UniqueClock;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import org.hsqldb.a2l.tpcc.engine.Dialect;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineCounters;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.IdleLocks;
import org.hsqldb.a2l.tpcc.engine.LockWaitSampler;
import org.hsqldb.a2l.tpcc.report.HumanSummary;
import org.hsqldb.a2l.tpcc.report.MachineFacts;
import org.hsqldb.a2l.tpcc.report.RunPaths;
import org.hsqldb.a2l.tpcc.report.RunSummary;

/**
 * One JVM's work: open the engine, load once, then measure each point in turn (each with its
 * own warm-up) and check consistency after each. What each point starts from is the plan's
 * {@link PointStart}: {@code compare} restores (HSQLDB) or reloads (other engines) the loaded
 * database before every point, so no point measures what an earlier one left behind; {@code tpcc run}
 * measures one point on the database it loaded (or reuses, with --database-dir). {@code compare}
 * starts one measurement run per configuration and repetition, each in a child JVM
 * ({@link MeasurementRunCommand}).
 */
public final class MeasurementRun {

    /**
     * {@code database}: in memory, in files (reused when loaded before) or served over the network;
     * {@code acks}: the side file acknowledged commits are appended to, or null; {@code runFolder}: the
     * folder the summaries name themselves relative to (compare's results/RUN-ID; else {@code out});
     * {@code pointStart}: what each point starts from.
     */
    public record Plan(EngineConfig config, EngineJars jars, Scale scale, List<Point> points, int seconds, int warmup,
                       long seed, Isolation isolation, int progressSeconds, int retryBackoffMicros, int loaderThreads,
                       Path out,
                       boolean summaryPerPointDir, Integer rep, DatabaseLocation database, Path acks, Path runFolder,
                       PointStart pointStart, int lockWaitSampleMillis, ClientShape clientShape) {

        /** No sampling of lock waits, the harness' client. */
        public Plan(EngineConfig config, EngineJars jars, Scale scale, List<Point> points, int seconds, int warmup,
                    long seed, Isolation isolation, int progressSeconds, int retryBackoffMicros, int loaderThreads,
                    Path out, boolean summaryPerPointDir, Integer rep, DatabaseLocation database, Path acks,
                    Path runFolder, PointStart pointStart) {
            this(config, jars, scale, points, seconds, warmup, seed, isolation, progressSeconds, retryBackoffMicros,
                    loaderThreads, out, summaryPerPointDir, rep, database, acks, runFolder, pointStart, 0,
                    ClientShape.HARNESS);
        }

        /** The same plan, sampling the engine's lock waits every {@code millis} ms (0: not). */
        public Plan sampleLockWaits(int millis) {
            return new Plan(config, jars, scale, points, seconds, warmup, seed, isolation, progressSeconds,
                    retryBackoffMicros, loaderThreads, out, summaryPerPointDir, rep, database, acks, runFolder,
                    pointStart, millis, clientShape);
        }

        /** The same plan, its terminals and schema shaped as {@code shape} says. */
        public Plan clientShape(ClientShape shape) {
            return new Plan(config, jars, scale, points, seconds, warmup, seed, isolation, progressSeconds,
                    retryBackoffMicros, loaderThreads, out, summaryPerPointDir, rep, database, acks, runFolder,
                    pointStart, lockWaitSampleMillis, shape);
        }

        /** The database carries over between points (one point: nothing to carry). */
        public Plan(EngineConfig config, EngineJars jars, Scale scale, List<Point> points, int seconds, int warmup,
                    long seed, Isolation isolation, int progressSeconds, int retryBackoffMicros, int loaderThreads,
                    Path out, boolean summaryPerPointDir, Integer rep, DatabaseLocation database, Path acks,
                    Path runFolder) {
            this(config, jars, scale, points, seconds, warmup, seed, isolation, progressSeconds, retryBackoffMicros,
                    loaderThreads, out, summaryPerPointDir, rep, database, acks, runFolder, PointStart.CARRY);
        }

        /** Summaries relative to {@code out}. */
        public Plan(EngineConfig config, EngineJars jars, Scale scale, List<Point> points, int seconds, int warmup,
                    long seed, Isolation isolation, int progressSeconds, int retryBackoffMicros, int loaderThreads,
                    Path out, boolean summaryPerPointDir, Integer rep, DatabaseLocation database, Path acks) {
            this(config, jars, scale, points, seconds, warmup, seed, isolation, progressSeconds, retryBackoffMicros,
                    loaderThreads, out, summaryPerPointDir, rep, database, acks, out);
        }

        /** An in-process in-memory database, no side file. */
        public Plan(EngineConfig config, EngineJars jars, Scale scale, List<Point> points, int seconds, int warmup,
                    long seed, Isolation isolation, int progressSeconds, int retryBackoffMicros, int loaderThreads,
                    Path out, boolean summaryPerPointDir, Integer rep) {
            this(config, jars, scale, points, seconds, warmup, seed, isolation, progressSeconds, retryBackoffMicros,
                    loaderThreads, out, summaryPerPointDir, rep, DatabaseLocation.memory("tpcc"), null);
        }
    }

    /** An opened database: its engine, the admin connection (counters, checks), what the engine calls itself. */
    private static final class Opened implements AutoCloseable {
        final Engine engine;
        final Connection admin;
        final String product;
        final String version;
        /** Stalled sessions cannot be closed and SHUTDOWN would wait for them: leave the database as it is. */
        boolean stalled;

        private Opened(Engine engine, Connection admin, String product, String version) {
            this.engine = engine;
            this.admin = admin;
            this.product = product;
            this.version = version;
        }

        static Opened open(EngineConfig config, EngineJars jars, DatabaseLocation where)
                throws EngineException, SQLException {
            Engine engine = Engine.load(config, jars, where);
            Connection admin;
            try {
                admin = engine.connect();
            } catch (SQLException e) {
                engine.stopServer();
                throw new EngineException("cannot connect to " + engine.url() + ": " + Main.firstLine(e.getMessage()));
            }
            try {
                String unavailable = engine.unavailableReason(admin);
                if (unavailable != null) {
                    throw new EngineException("configuration " + config.name() + " is not available: " + unavailable);
                }
                DatabaseMetaData meta = admin.getMetaData();
                return new Opened(engine, admin, meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
            } catch (EngineException | SQLException | RuntimeException e) {
                engine.shutdown(admin);
                admin.close();
                throw e;
            }
        }

        @Override
        public void close() {
            if (!stalled) {
                try {
                    engine.shutdown(admin, "SHUTDOWN");
                } catch (SQLException ignored) {
                    // shut down already
                }
            }
            try {
                admin.close();
            } catch (SQLException ignored) {
                // shut down already
            }
        }
    }

    private MeasurementRun() {}

    /**
     * After a restore or reload of an HSQLDB file database: a CHECKPOINT writes the rows into the
     * .script and empties the .log, so that the point does not meet an automatic checkpoint (the log
     * passing hsqldb.log_size) in the middle of its measurement.
     */
    private static void checkpointFiles(Plan plan, Opened db) throws SQLException {
        if (!plan.database().isFile() || !plan.config().isHsqldb()) return;
        try (var s = db.admin.createStatement()) {
            s.execute("CHECKPOINT");
        }
    }

    /** Returns 0 when every point's database is consistent, 1 otherwise. */
    public static int run(Plan plan, PrintStream out) throws EngineException, SQLException, InterruptedException,
            IOException {
        EngineConfig config = plan.config();
        LoadRecord loaded = previousLoad(plan);
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
        PointStart start = plan.pointStart();
        // a served database belongs to the server's JVM; an in-process one (in memory or in files, as a
        // NAME@durable configuration's) can be restored or reloaded between points
        if (start != PointStart.CARRY && plan.database().served()) {
            throw new UsageException("points start from a restored or reloaded database only in process"
                    + " (not with --server)");
        }
        if (start == PointStart.RESTORE && config.dialect() == Dialect.GENERIC) {
            throw new UsageException("restoring the loaded tables from a copy in the database is for HSQLDB,"
                    + " H2, Derby and PostgreSQL; use reload");
        }
        Opened db = Opened.open(config, plan.jars(), plan.database());
        AckLog acks = null;
        try {
            String product = db.product, version = db.version;
            String guarantee = Dialect.of(db.admin).guarantee(config, plan.isolation());
            out.printf("engine: %s %s via %s (%s)%n", product, version, db.engine.url(), config.describe());
            if (!plan.clientShape().equals(ClientShape.HARNESS)) out.println("client: " + plan.clientShape().describe());
            if (plan.database().isFile() || plan.database().served()) {
                out.println("database: " + describe(plan.database(), config));
            }
            if (!plan.scale().isStandard()) out.println("WARNING: non-standard scale " + plan.scale().name());

            Loader.Result load;
            Instant loadTime = Instant.now();
            if (loaded != null) {
                out.println("database: reusing what is there, " + loaded.describe());
                load = new Loader.Result(0, 0, Loader.loadConstants(loaded.seed()));
            } else {
                Opened first = db;
                load = new Loader(plan.scale(), plan.seed(), loadTime, first.engine::connect, plan.loaderThreads(), out)
                        .constrained(plan.clientShape().constrained()).load();
                if (plan.database().isFile() && config.isHsqldb()) {
                    // the load is now in the .script file: a later reopen need not replay its log
                    try (var s = db.admin.createStatement()) {
                        s.execute("CHECKPOINT");
                    }
                    LoadRecord.of(config, plan.scale(), plan.seed(), load.rows(), loadTime.toString())
                            .write(plan.database().directory());
                }
            }
            Clock clock = Clock.systemUTC();
            if (plan.acks() != null) {
                acks = AckLog.append(plan.acks());
                // unique time stamps make each Payment's HISTORY row and each Delivery findable afterwards
                clock = new UniqueClock(clock);
                out.println("acknowledged commits go to " + plan.acks());
            }
            TransactionHook hook;
            try {
                Opened first = db;
                hook = TransactionHooks.create(config.hook(), new TransactionHooks.Context(first.engine::connect,
                        plan.scale(), load.constants(), plan.seed(), out));
            } catch (SQLException e) {
                throw new EngineException("hook " + config.hook() + " of " + config.name() + ": " + e.getMessage());
            }
            Double loadedCopySeconds = null;
            if (start == PointStart.RESTORE) {
                long t = System.nanoTime();
                LoadedCopy.save(db.admin);
                loadedCopySeconds = seconds(t);
                out.printf("database: copied the loaded tables to schema %s in %.1f s; every point starts from them%n",
                        LoadedCopy.SCHEMA, loadedCopySeconds);
            }

            boolean allConsistent = true;
            int index = 0;
            // a read-only point (100-0) leaves the database as it found it: the next point need not restore
            boolean unchanged = false;
            for (Point p : plan.points()) {
                index++;
                out.printf("point %d/%d: %s order, mix %s, %d client(s): %d s warm-up, %d s measured%n", index,
                        plan.points().size(), p.order(), p.mix(), p.clients(), plan.warmup(), plan.seconds());
                Double setupSeconds = null;
                long setupStart = System.nanoTime();
                if (unchanged && start != PointStart.CARRY) {
                    out.println("database: as the point before left it: that point was read-only and wrote nothing");
                } else if (start == PointStart.RESTORE) {
                    Opened current = db;
                    LoadedCopy.restore(current.engine::connect, plan.loaderThreads(), plan.clientShape().constrained());
                    checkpointFiles(plan, current);
                    setupSeconds = seconds(setupStart);
                    out.printf("database: restored the loaded tables in %.1f s%n", setupSeconds);
                } else if (start == PointStart.RELOAD && index > 1) {
                    Opened current = db;
                    new Loader(plan.scale(), plan.seed(), loadTime, current.engine::connect, plan.loaderThreads(), out)
                            .constrained(plan.clientShape().constrained()).load();
                    checkpointFiles(plan, current);
                    setupSeconds = seconds(setupStart);
                    out.printf("database: reloaded in %.1f s%n", setupSeconds);
                }
                Double gcSeconds = collectHeap(out);
                Opened current = db;
                Benchmark benchmark = new Benchmark(plan.scale(), load.constants(), plan.seed(), current.engine::connect,
                        clock, hook, () -> EngineCounters.read(current.admin, config), out);
                if (acks != null) benchmark.onCommit(acks);
                benchmark.idleProbe(() -> IdleLocks.check(current.admin, config)).readsForUpdate(config.reads())
                        .clientShape(plan.clientShape());
                LockWaitSampler waits = plan.lockWaitSampleMillis() > 0 && config.jar() == EngineConfig.JarKind.FORK
                        ? new LockWaitSampler(current.admin) : null;
                if (waits != null) benchmark.sampleLockWaits(waits::sample, plan.lockWaitSampleMillis());
                RunSummary s = new RunSummary();
                s.startedAt = Instant.now().toString();
                Benchmark.Result r;
                try {
                    r = benchmark.run(new Benchmark.Settings(p.order(), p.mix(), p.clients(),
                            plan.warmup(), plan.seconds(), plan.seed(), plan.isolation().jdbcLevel,
                            plan.progressSeconds(), plan.retryBackoffMicros()));
                } catch (Benchmark.EngineStalledException e) {
                    current.stalled = true;
                    String loud = "!!! " + config.name() + " " + p + ": " + e.getMessage();
                    out.println(loud);
                    if (out != System.err) System.err.println("tpcc: " + loud);
                    return Main.FAILED;
                }
                unchanged = p.mix().readOnly();
                long checkStart = System.nanoTime();
                boolean full = index == plan.points().size();
                List<Consistency.Condition> conditions =
                        new ArrayList<>(new Consistency(current.admin, plan.scale()).check(full));
                if (r.idleLocks() != null) conditions.add(r.idleLocks());
                s.consistencySeconds = Math.round((System.nanoTime() - checkStart) / 1e8) / 10.0;
                s.config = config.name();
                s.configDescription = config.describe();
                s.client = plan.clientShape().label();
                s.jdbcUrl = current.engine.url();
                s.engineInProcess = current.engine.runsInThisJvm();
                if (plan.database().isFile() || plan.database().served()) s.database = describe(plan.database(), config);
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
                s.isolationGuarantee = guarantee;
                s.retryBackoffUs = plan.retryBackoffMicros();
                s.measurement(r);
                if (waits != null) s.lockWaitSamples(waits, plan.lockWaitSampleMillis());
                s.consistency = conditions;
                s.consistencyFull = full;
                s.consistencyOk = Consistency.allOk(conditions);
                s.loadSeconds = Math.round(load.seconds() * 10) / 10.0;
                s.loadRows = load.rows();
                s.pointStart = plan.points().size() > 1 || start != PointStart.CARRY ? start.label : null;
                s.loadedCopySeconds = loadedCopySeconds;
                s.pointSetupSeconds = setupSeconds;
                s.gcBeforePointSeconds = gcSeconds;
                s.machine = MachineFacts.current();
                s.rep = plan.rep();
                s.pointInJvm = plan.points().size() > 1 ? index : null;
                Path file = (plan.summaryPerPointDir() ? plan.out().resolve(p.dirName()) : plan.out())
                        .resolve("summary.json");
                s.write(file, plan.runFolder());
                HumanSummary.print(s, file, out);
                if (!s.consistencyOk) {
                    allConsistent = false;
                    String loud = "!!! CONSISTENCY VIOLATED: " + config.name() + " " + p + " (see " + RunPaths.display(file) + ")";
                    out.println(loud);
                    if (out != System.err) System.err.println("tpcc: " + loud);
                }
            }
            return allConsistent ? Main.OK : Main.FAILED;
        } finally {
            if (acks != null) acks.close();
            db.close();
        }
    }

    /**
     * Every point starts from a collected heap: a full collection frees what the load, a restore
     * or the point before left as garbage and compacts what they left live, so that less of it
     * goes into the point. Read-only work on a database that two loader threads filled at once
     * (as LOCK GRANULARITY CELL lets them insert into one table) ran slower than on one that one
     * thread loaded, and a collection gave back part of that (results/README.md, "Read-only work
     * and where the load left the rows"). {@code -Dtpcc.gc_before_point=false} turns it off, for
     * measuring what it does. Returns the seconds it took, or null when off.
     */
    private static Double collectHeap(PrintStream out) {
        if (!Boolean.parseBoolean(System.getProperty("tpcc.gc_before_point", "true"))) return null;
        long t = System.nanoTime();
        System.gc();
        double s = seconds(t);
        out.printf("heap: collected in %.1f s before the point%n", s);
        return s;
    }

    private static double seconds(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1e8) / 10.0;
    }

    /** The record of an earlier load of the plan's file database, null for a new one; refuses what cannot be reused. */
    private static LoadRecord previousLoad(Plan plan) throws IOException {
        DatabaseLocation db = plan.database();
        if (!db.isFile()) return null;
        LoadRecord loaded = LoadRecord.read(db.directory());
        if (loaded == null) {
            if (db.exists()) {
                throw new UsageException(db.directory() + " holds a database whose load never finished (no "
                        + LoadRecord.FILE + "): delete it or give another --database-dir");
            }
            return null;
        }
        String mismatch = loaded.mismatch(plan.config(), plan.scale());
        if (mismatch != null) throw new UsageException("cannot reuse the database in " + db.directory() + ": " + mismatch);
        return loaded;
    }

    static long seedOrRandom(Long seed) {
        return seed != null ? seed : new java.security.SecureRandom().nextLong() & Long.MAX_VALUE;
    }

    /** Where the database is, and for a peer's files what its commits sync. */
    private static String describe(DatabaseLocation database, EngineConfig config) {
        return config.isPeer() && database.isFile()
                ? "file database " + database.directory().resolve(database.name()) + " ("
                        + config.commitDurability() + ")"
                : database.describe();
    }
}
