package org.hsqldb.a2l.tpcc;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs the terminals of one measurement point: every terminal has its own connection and input
 * stream, no keying or think time, and runs until the warm-up and the measured window are over.
 * Only what completes inside the window counts. An engine abort is rolled back, counted by reason
 * and, when a retry can cure it, retried with the same input; its latency then spans all attempts.
 */
public final class Benchmark {

    /**
     * {@code retryBackoffMicros}: before retrying an aborted attempt, sleep a random time up to
     * attempts x this (capped at 20 x). Without it a deadlock victim retries within microseconds,
     * re-takes its shared locks before the transaction it lost to is even scheduled, and loses again:
     * on upstream HSQLDB that spin produced tens of aborts per committed transaction.
     */
    public record Settings(StatementOrder order, Mix mix, int clients, int warmupSeconds, int seconds, long seed,
                           int isolation, int progressSeconds, int retryBackoffMicros) {}

    /** Reads engine counters (see EngineCounters); called at the start and end of the measured window. */
    @FunctionalInterface
    public interface CounterProbe {
        Map<String, Number> read() throws SQLException;
    }

    public record Result(TerminalStats stats, double measuredSeconds, List<String> otherErrors,
                         Map<String, Number> engineCounters) {}

    private static final int OTHER_ERRORS_KEPT = 5;

    private final Scale scale;
    private final NURandConstants runConstants;
    private final ConnectionSource connections;
    private final Clock clock;
    private final TransactionHook hook;
    private final CounterProbe counters;
    private final PrintStream log;

    public Benchmark(Scale scale, NURandConstants loadConstants, long seed, ConnectionSource connections, Clock clock,
                     TransactionHook hook, CounterProbe counters, PrintStream log) {
        this.scale = scale;
        this.runConstants = loadConstants.forRun(TpccRandom.derived(seed, "nurand-run", 0));
        this.connections = connections;
        this.clock = clock;
        this.hook = hook;
        this.counters = counters;
        this.log = log;
    }

    public NURandConstants runConstants() {
        return runConstants;
    }

    public Result run(Settings s) throws SQLException, InterruptedException {
        List<Connection> opened = new ArrayList<>();
        try {
            for (int t = 0; t < s.clients(); t++) {
                Connection c = connections.open();
                opened.add(c);
                c.setAutoCommit(false);
                c.setTransactionIsolation(s.isolation());
            }
            return measure(s, opened);
        } finally {
            for (Connection c : opened) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closing anyway
                }
            }
        }
    }

    private Result measure(Settings s, List<Connection> opened) throws InterruptedException, SQLException {
        long start = System.nanoTime();
        long windowStart = start + s.warmupSeconds() * 1_000_000_000L;
        long windowEnd = windowStart + s.seconds() * 1_000_000_000L;
        Shared shared = new Shared(windowStart, windowEnd);
        List<Terminal> terminals = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < s.clients(); t++) {
            InputGenerator inputs = new InputGenerator(scale, runConstants,
                    TpccRandom.derived(s.seed(), "terminal", t),
                    InputGenerator.homeWarehouseOf(t, scale), InputGenerator.districtOf(t, scale));
            Terminal terminal = new Terminal(opened.get(t), inputs, s, shared, go);
            terminals.add(terminal);
            terminal.thread.start();
        }
        go.countDown();
        Map<String, Number> before = Map.of();
        boolean measuring = false;
        long nextProgress = start + s.progressSeconds() * 1_000_000_000L;
        while (true) {
            long now = System.nanoTime();
            if (!measuring && now >= windowStart) {
                before = readCounters();
                measuring = true;
            }
            if (now >= windowEnd) break;
            if (s.progressSeconds() > 0 && now >= nextProgress) {
                log.printf("  %3.0f s %-9s committed %d, aborted %d%n", (now - start) / 1e9,
                        measuring ? "measuring" : "warm-up", shared.liveCommitted.sum(), shared.liveAborts.sum());
                nextProgress += s.progressSeconds() * 1_000_000_000L;
            }
            long until = Math.min(windowEnd, measuring ? nextProgress : Math.min(windowStart, nextProgress));
            Thread.sleep(Math.max(1, Math.min(1000, (until - now) / 1_000_000)));
        }
        Map<String, Number> after = readCounters();
        shared.stop = true;
        TerminalStats total = new TerminalStats();
        for (Terminal t : terminals) {
            t.thread.join();
            total.add(t.stats);
        }
        Throwable fatal = shared.fatal.get();
        if (fatal != null) throw new IllegalStateException("a terminal failed: " + fatal, fatal);
        return new Result(total, (windowEnd - windowStart) / 1e9, List.copyOf(shared.otherErrors),
                delta(before, after));
    }

    private Map<String, Number> readCounters() throws SQLException {
        return counters == null ? Map.of() : counters.read();
    }

    /** Counters are cumulative: report what the window added; non-numeric-looking keys pass as read. */
    private static Map<String, Number> delta(Map<String, Number> before, Map<String, Number> after) {
        Map<String, Number> out = new LinkedHashMap<>();
        after.forEach((k, v) -> {
            Number b = before.get(k);
            out.put(k, b == null ? v : (Number) (v.longValue() - b.longValue()));
        });
        return out;
    }

    /** State every terminal reads: the window, the stop flag, live counts for progress, the first odd errors. */
    private static final class Shared {
        final long windowStart;
        final long windowEnd;
        volatile boolean stop;
        final LongAdder liveCommitted = new LongAdder();
        final LongAdder liveAborts = new LongAdder();
        final List<String> otherErrors = Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<Throwable> fatal = new AtomicReference<>();

        Shared(long windowStart, long windowEnd) {
            this.windowStart = windowStart;
            this.windowEnd = windowEnd;
        }

        boolean inWindow(long t) {
            return t >= windowStart && t < windowEnd;
        }
    }

    private final class Terminal implements Runnable {
        final Thread thread;
        final TerminalStats stats = new TerminalStats();
        private final Connection connection;
        private final InputGenerator inputs;
        private final Settings settings;
        private final Shared shared;
        private final CountDownLatch go;

        Terminal(Connection connection, InputGenerator inputs, Settings settings, Shared shared, CountDownLatch go) {
            this.connection = connection;
            this.inputs = inputs;
            this.settings = settings;
            this.shared = shared;
            this.go = go;
            this.thread = new Thread(this, "tpcc-terminal");
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            try (TransactionRunner runner = new TransactionRunner(connection, scale, clock, hook)) {
                go.await();
                while (!shared.stop) {
                    TxnInput input = inputs.next(settings.mix());
                    if (!runToCompletion(runner, input)) break;
                }
            } catch (Throwable t) {
                shared.fatal.compareAndSet(null, t);
                shared.stop = true;
            }
        }

        /** Returns false when the connection is gone and this terminal cannot go on. */
        private boolean runToCompletion(TransactionRunner runner, TxnInput input) throws SQLException {
            TxnType type = input.type();
            long begin = System.nanoTime();
            for (int attempt = 1; ; attempt++) {
                TransactionRunner.Outcome outcome;
                try {
                    outcome = runner.execute(input, settings.order());
                } catch (SQLException e) {
                    runner.rollbackQuietly();
                    AbortReason reason = AbortReason.classify(e);
                    shared.liveAborts.increment();
                    boolean counted = shared.inWindow(System.nanoTime());
                    if (counted) stats.aborted(type, reason);
                    if (reason == AbortReason.OTHER && shared.otherErrors.size() < OTHER_ERRORS_KEPT) {
                        shared.otherErrors.add(type.label + ": SQLSTATE " + e.getSQLState() + " " + e.getMessage());
                    }
                    if (connection.isClosed()) return false;
                    if (!reason.retried || shared.stop) return true;
                    if (counted) stats.retries++;
                    if (settings.retryBackoffMicros() > 0) {
                        long maxNanos = Math.min(attempt, 20) * settings.retryBackoffMicros() * 1000L;
                        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxNanos + 1));
                    }
                    continue;
                }
                long end = System.nanoTime();
                if (outcome == TransactionRunner.Outcome.COMMITTED) {
                    shared.liveCommitted.increment();
                    if (shared.inWindow(end)) {
                        stats.committed(type, (end - begin) / 1000);
                        if (type == TxnType.DELIVERY) stats.deliverySkippedDistricts += runner.lastDeliverySkipped();
                    }
                } else {
                    shared.liveAborts.increment();
                    if (shared.inWindow(end)) stats.aborted(type, AbortReason.SPEC_ROLLBACK);
                }
                return true;
            }
        }
    }
}
