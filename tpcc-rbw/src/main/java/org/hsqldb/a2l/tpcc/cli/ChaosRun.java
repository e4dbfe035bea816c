package org.hsqldb.a2l.tpcc.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.hsqldb.a2l.tpcc.AbortReason;
import org.hsqldb.a2l.tpcc.AckCheck;
import org.hsqldb.a2l.tpcc.AckLog;
import org.hsqldb.a2l.tpcc.CommitReceipt;
import org.hsqldb.a2l.tpcc.Benchmark;
import org.hsqldb.a2l.tpcc.Consistency;
import org.hsqldb.a2l.tpcc.FaultInjector;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Loader;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.TerminalStats;
import org.hsqldb.a2l.tpcc.TransactionHook;
import org.hsqldb.a2l.tpcc.TransactionHooks;
import org.hsqldb.a2l.tpcc.TxnType;
import org.hsqldb.a2l.tpcc.UniqueClock;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import org.hsqldb.a2l.tpcc.engine.EngineJars;
import org.hsqldb.a2l.tpcc.engine.IdleLocks;
import org.hsqldb.a2l.tpcc.report.ChaosResult;

/**
 * One segment of a configuration's chaos run, in a JVM of its own ({@code chaos-run}, started by
 * {@link Chaos}): opens the file database (loading it first when the directory is new), then the
 * terminals run period after period with faults ({@link FaultInjector}); after each period they
 * wait at transaction boundaries while the cheap consistency conditions (all twelve after the
 * segment's last period) and the empty lock table are checked, and the period is appended to the
 * periods file. Every acknowledged commit goes to the side file. The orchestrator kills this JVM at
 * a random moment, or it ends after its seconds with SHUTDOWN. It prints a heartbeat every second
 * (commits so far, what it is doing), which is how the orchestrator tells progress from a stall.
 */
public final class ChaosRun {

    /**
     * {@code seconds}: running time (checks included) before the segment ends by itself with SHUTDOWN;
     * {@code firstPeriod}: the number of this segment's first period in the configuration's run;
     * {@code loadSeed}: the seed of a load this segment makes (a loaded database keeps its own).
     */
    public record Plan(EngineConfig config, EngineJars jars, Scale scale, int clients, int seconds, int periodSeconds,
                       long seed, long loadSeed, int segment, int firstPeriod, Isolation isolation,
                       int retryBackoffMicros, int loaderThreads, DatabaseLocation database, Path acks, Path periods,
                       FaultInjector.Settings faults) {}

    /** Printed once the terminals are open and about to run: the kill clock starts here. */
    static final String RUNNING = "chaos-run: running";
    /** {@code chaos-run: heartbeat committed=N aborts=M phase=P}, every second. */
    static final String HEARTBEAT = "chaos-run: heartbeat ";
    static final String ENDED = "chaos-run: ended normally";

    private ChaosRun() {}

    public static int run(Plan plan, PrintStream out) throws EngineException, SQLException, InterruptedException,
            IOException {
        EngineConfig config = plan.config();
        try {
            TransactionHooks.check(config.hook());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        boolean rbwOnly = TransactionHooks.isRbwOnly(config.hook());
        DatabaseLocation db = plan.database();
        LoadRecord loaded = LoadRecord.read(db.directory());
        if (loaded == null && db.exists()) {
            throw new UsageException(db.directory() + " holds a database whose load never finished (no "
                    + LoadRecord.FILE + ")");
        }
        if (loaded != null) {
            String mismatch = loaded.mismatch(config, plan.scale());
            if (mismatch != null) throw new UsageException("cannot reuse the database in " + db.directory() + ": " + mismatch);
        }
        Engine engine = Engine.load(config, plan.jars(), db);
        Connection admin;
        try {
            admin = engine.connect();
        } catch (SQLException e) {
            throw new EngineException("cannot connect to " + engine.url() + ": " + Main.firstLine(e.getMessage()));
        }
        AckLog acks = null;
        boolean stalled = false;
        Heartbeat heartbeat = null;
        try {
            String unavailable = engine.unavailableReason(admin);
            if (unavailable != null) {
                throw new EngineException("configuration " + config.name() + " is not available: " + unavailable);
            }
            out.printf("engine: %s %s via %s (%s)%n", admin.getMetaData().getDatabaseProductName(),
                    admin.getMetaData().getDatabaseProductVersion(), engine.url(), config.describe());
            Loader.Result load;
            if (loaded != null) {
                out.println("database: reusing what is there, " + loaded.describe());
                load = new Loader.Result(0, 0, Loader.loadConstants(loaded.seed()));
            } else {
                Instant loadTime = Instant.now();
                load = new Loader(plan.scale(), plan.loadSeed(), loadTime, engine::connect, plan.loaderThreads(), out)
                        .load();
                try (var s = admin.createStatement()) {
                    s.execute("CHECKPOINT");
                }
                LoadRecord.of(config, plan.scale(), plan.loadSeed(), load.rows(), loadTime.toString())
                        .write(db.directory());
            }
            acks = AckLog.append(plan.acks());
            AckLog sideFile = acks;
            // this period's acknowledged commits, looked up in the database while the terminals pause
            List<CommitReceipt> acknowledged = Collections.synchronizedList(new ArrayList<>());
            TransactionHook hook;
            try {
                hook = TransactionHooks.create(config.hook(), new TransactionHooks.Context(engine::connect,
                        plan.scale(), load.constants(), plan.seed(), out));
            } catch (SQLException e) {
                throw new EngineException("hook " + config.hook() + " of " + config.name() + ": " + e.getMessage());
            }
            // unique time stamps make each Payment's HISTORY row and each Delivery findable afterwards
            Benchmark benchmark = new Benchmark(plan.scale(), load.constants(), plan.seed(), engine::connect,
                    new UniqueClock(Clock.systemUTC()), hook, null, out)
                    .idleProbe(() -> IdleLocks.check(admin, config)).readsForUpdate(config.reads())
                    .faultInjection().onCommit(receipt -> {
                        sideFile.committed(receipt);
                        if (receipt != null) acknowledged.add(receipt);
                    });
            try (Benchmark.Terminals terminals = benchmark.open(plan.clients(), plan.isolation().jdbcLevel,
                    plan.seed(), plan.retryBackoffMicros())) {
                Connection blocker = engine.connect();
                Connection schemaSession = engine.connect();
                FaultInjector faults = new FaultInjector(terminals, blocker, schemaSession, plan.scale(), plan.faults(),
                        plan.seed() ^ 0x5DEECE66DL);
                heartbeat = new Heartbeat(terminals, out);
                out.printf("%s segment %d: %d s at most, periods of %d s from period %d, %d terminal(s), seed %d%n",
                        RUNNING, plan.segment(), plan.seconds(), plan.periodSeconds(), plan.firstPeriod(),
                        plan.clients(), plan.seed());
                Outcome outcome = periods(plan, benchmark, terminals, faults, admin, rbwOnly, acknowledged, heartbeat,
                        out);
                if (outcome == Outcome.STALLED) {
                    // the stalled sessions cannot be closed and SHUTDOWN would wait for them
                    stalled = true;
                    return Main.FAILED;
                }
                heartbeat.phase("ending");
                if (outcome == Outcome.FAILED) return Main.FAILED;
                // its transaction ended with the last period (after a failure it may still be stuck in a
                // statement, holding its session: SHUTDOWN closes it then)
                blocker.close();
                schemaSession.close();
            }
            return Main.OK;
        } finally {
            if (acks != null) acks.close();
            if (!stalled) {
                if (heartbeat != null) heartbeat.phase("shutdown");
                long t = System.nanoTime();
                engine.shutdown(admin);
                out.printf("%s: SHUTDOWN in %.1f s%n", ENDED, (System.nanoTime() - t) / 1e9);
            }
            if (heartbeat != null) heartbeat.stop();
            try {
                admin.close();
            } catch (SQLException ignored) {
                // shut down already
            }
        }
    }

    private enum Outcome { OK, FAILED, STALLED }

    /** The file (beside periods.jsonl) a runner that stalled dumps its threads to. */
    static String stallDumpName(int segment) {
        return "threads-segment-" + segment + "-stall.txt";
    }

    private static Outcome periods(Plan plan, Benchmark benchmark, Benchmark.Terminals terminals, FaultInjector faults,
                                   Connection admin, boolean rbwOnly, List<CommitReceipt> acknowledged,
                                   Heartbeat heartbeat, PrintStream out)
            throws SQLException, InterruptedException, IOException {
        boolean allOk = true;
        long start = System.nanoTime();
        for (int i = 0; ; i++) {
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (elapsed >= plan.seconds() - 0.5) break;
            int index = plan.firstPeriod() + i;
            Point turn = Soak.turn(index - 1, rbwOnly, plan.clients());
            // a remainder shorter than half a period goes with the last one instead of making a stub of its own
            double left = plan.seconds() - elapsed;
            long length = Math.round(1000 * (left < plan.periodSeconds() * 1.5 ? left : plan.periodSeconds()));
            long periodStart = System.nanoTime();
            heartbeat.phase("running");
            faults.start(index);
            terminals.resume(turn.mix(), turn.order());
            Thread.sleep(length);
            heartbeat.phase("pausing");
            FaultInjector.Counts injected = faults.stop();

            ChaosResult.Period p = new ChaosResult.Period();
            p.segment = plan.segment();
            p.index = index;
            p.mix = turn.mix().label;
            p.order = turn.order().label;
            p.faults = injected;
            Benchmark.Terminals.Period done;
            try {
                done = terminals.pause();
            } catch (Benchmark.EngineStalledException e) {
                p.seconds = Math.round((System.nanoTime() - periodStart) / 1e8) / 10.0;
                p.stall = e.getMessage();
                p.endedAt = Instant.now().toString();
                // every thread, whole stacks and who holds what: the stall report shows only the terminals' tops
                Path dump = plan.periods().resolveSibling(stallDumpName(plan.segment()));
                try {
                    ThreadDumps.writeOwn(dump, plan.config().name() + " segment " + plan.segment() + " period " + index
                            + ": " + Main.firstLine(e.getMessage()));
                    p.threadDump = dump.getFileName().toString();
                } catch (IOException | RuntimeException x) {
                    out.println("chaos-run: could not write the thread dump " + dump + ": " + x);
                }
                ChaosResult.append(plan.periods(), p);
                String loud = "!!! " + plan.config().name() + " segment " + plan.segment() + " period " + index + ": "
                        + e.getMessage();
                out.println(loud);
                if (p.threadDump != null) out.println("!!! thread dump: " + p.threadDump);
                return Outcome.STALLED;
            }
            double seconds = (System.nanoTime() - periodStart) / 1e9;
            p.seconds = Math.round(seconds * 10) / 10.0;
            record(p, done.stats(), seconds);
            p.otherErrors = done.otherErrors();

            heartbeat.phase("checking");
            boolean last = (System.nanoTime() - start) / 1e9 >= plan.seconds() - 0.5;
            long checkStart = System.nanoTime();
            // every terminal is at a transaction boundary, the fault thread's transaction ended: no lock is held
            Consistency.Condition idle = benchmark.checkIdle();
            List<Consistency.Condition> conditions = new ArrayList<>(new Consistency(admin, plan.scale()).check(last));
            p.checkSeconds = Math.round((System.nanoTime() - checkStart) / 1e8) / 10.0;
            p.consistencyOk = Consistency.allOk(conditions);
            p.consistencyFull = last;
            p.conditionsChecked = conditions.size();
            p.violations = conditions.stream().filter(c -> !c.ok())
                    .map(c -> c.id() + " " + c.rule() + ": " + String.join("; ", c.values())).toList();
            if (idle != null) {
                p.idleLocksOk = idle.ok();
                p.idleLocks = idle.ok() ? List.of() : idle.values();
            }
            List<CommitReceipt> batch;
            synchronized (acknowledged) {
                batch = new ArrayList<>(acknowledged);
                acknowledged.clear();
            }
            AckCheck.Result ack = AckCheck.check(admin, batch);
            p.acksChecked = ack.acknowledged();
            p.acksMissing = ack.missing();
            p.acksMissingShown = ack.problems();
            p.endedAt = Instant.now().toString();
            ChaosResult.append(plan.periods(), p);
            out.printf("period %d (segment %d): %.1f s %s %s: %d committed (%.0f/min), aborts %s, faults: %d cancels"
                            + " (%d waiting, %d running, %d idle), %d lock holds (%d terminals with a %d s timeout), %d closes"
                            + " asked, %d schema changes (%d failed); consistency %s (%d conditions), idle locks %s,"
                            + " %d acknowledged commits %s (%.1f s)%n",
                    index, plan.segment(),
                    seconds, p.mix, p.order, p.committed, p.committedPerMinute, p.aborts, injected.cancels(),
                    injected.cancelWaiting, injected.cancelRunning, injected.cancelIdle, injected.lockHolds, injected.timeoutTerminals,
                    plan.faults().queryTimeoutSeconds(), injected.closeRequests, injected.schemaChanges,
                    injected.schemaChangesFailed, p.consistencyOk ? "OK" : "VIOLATED",
                    p.conditionsChecked, p.idleLocksOk == null ? "not checked" : p.idleLocksOk ? "none held" : "HELD",
                    p.acksChecked, p.acksMissing == 0 ? "present" : p.acksMissing + " MISSING", p.checkSeconds);
            p.otherErrors.forEach(e -> out.println("   OTHER ERROR " + e));
            injected.errors.forEach(e -> out.println("   FAULT THREAD " + e));
            p.violations.forEach(v -> out.println("   VIOLATED " + v));
            p.idleLocks.forEach(v -> out.println("   LOCK HELD " + v));
            p.acksMissingShown.forEach(v -> out.println("   MISSING " + v));
            allOk &= p.ok();
        }
        return allOk ? Outcome.OK : Outcome.FAILED;
    }

    private static void record(ChaosResult.Period p, TerminalStats s, double seconds) {
        p.committed = s.totalCommitted();
        p.committedPerMinute = Math.round(p.committed * 60 / seconds * 10) / 10.0;
        for (TxnType t : TxnType.values()) p.committedByType.put(t.label, s.committed[t.ordinal()]);
        for (AbortReason a : AbortReason.values()) p.aborts.put(a.label, s.aborts(a));
        p.retries = s.retries;
    }

    /** Prints the terminals' progress and what the run is doing every second. */
    private static final class Heartbeat {
        private final Thread thread;
        private volatile String phase = "starting";
        private volatile boolean stopped;

        Heartbeat(Benchmark.Terminals terminals, PrintStream out) {
            thread = new Thread(() -> {
                while (!stopped) {
                    out.println(HEARTBEAT + "committed=" + terminals.liveCommitted() + " aborts="
                            + terminals.liveAborts() + " phase=" + phase);
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "tpcc-heartbeat");
            thread.setDaemon(true);
            thread.start();
        }

        void phase(String p) {
            phase = p;
        }

        void stop() {
            stopped = true;
            thread.interrupt();
        }
    }
}
