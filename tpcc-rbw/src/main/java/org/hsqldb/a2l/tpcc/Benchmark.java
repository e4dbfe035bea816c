package org.hsqldb.a2l.tpcc;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * Told of every commit in the committing terminal's thread, after {@code commit()} returned and
     * before the terminal starts its next transaction; {@code receipt} is null for read-only ones.
     * An exception stops the run.
     */
    @FunctionalInterface
    public interface CommitListener {
        void committed(CommitReceipt receipt) throws IOException;
    }

    private static final int OTHER_ERRORS_KEPT = 5;

    private final Scale scale;
    private final NURandConstants runConstants;
    private final ConnectionSource connections;
    private final Clock clock;
    private final TransactionHook hook;
    private final CounterProbe counters;
    private final PrintStream log;
    private CommitListener commitListener = receipt -> { };

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

    /** Tells {@code listener} of every commit (see {@link CommitListener}); returns this. */
    public Benchmark onCommit(CommitListener listener) {
        this.commitListener = listener;
        return this;
    }

    public Result run(Settings s) throws SQLException, InterruptedException {
        try (Terminals terminals = open(s.clients(), s.isolation(), s.seed(), s.retryBackoffMicros())) {
            return measure(s, terminals);
        }
    }

    /**
     * Opens one connection per terminal and starts the terminals paused: {@link Terminals#resume}
     * lets them run, {@link Terminals#pause} stops them between transactions. Terminal t draws
     * its inputs from the same seeded stream as in {@link #run}.
     */
    public Terminals open(int clients, int isolation, long seed, int retryBackoffMicros)
            throws SQLException {
        return new Terminals(clients, isolation, seed, retryBackoffMicros);
    }

    private Result measure(Settings s, Terminals terminals) throws InterruptedException, SQLException {
        long start = System.nanoTime();
        long windowStart = start + s.warmupSeconds() * 1_000_000_000L;
        long windowEnd = windowStart + s.seconds() * 1_000_000_000L;
        terminals.resume(s.mix(), s.order(), windowStart, windowEnd);
        Map<String, Number> before = Map.of();
        boolean measuring = false;
        long nextProgress = start + s.progressSeconds() * 1_000_000_000L;
        while (terminals.failure() == null) {
            long now = System.nanoTime();
            if (!measuring && now >= windowStart) {
                before = readCounters();
                measuring = true;
            }
            if (now >= windowEnd) break;
            if (s.progressSeconds() > 0 && now >= nextProgress) {
                log.printf("  %3.0f s %-9s committed %d, aborted %d%n", (now - start) / 1e9,
                        measuring ? "measuring" : "warm-up", terminals.liveCommitted(), terminals.liveAborts());
                nextProgress += s.progressSeconds() * 1_000_000_000L;
            }
            long until = Math.min(windowEnd, measuring ? nextProgress : Math.min(windowStart, nextProgress));
            Thread.sleep(Math.max(1, Math.min(1000, (until - now) / 1_000_000)));
        }
        Map<String, Number> after = readCounters();
        Terminals.Period period = terminals.stop();
        return new Result(period.stats(), (windowEnd - windowStart) / 1e9, period.otherErrors(),
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

    /**
     * The terminals of a run, with their connections. They start paused; between {@link #resume}
     * and {@link #pause} they run transactions back to back. A pause takes effect at transaction
     * boundaries: a terminal finishes (commits, or gives up on) the transaction it is in, retries
     * included, then parks holding no locks, so the database can be checked while they wait.
     */
    public final class Terminals implements AutoCloseable {

        /** What the terminals did since the last resume. */
        public record Period(TerminalStats stats, List<String> otherErrors) {}

        private final List<Connection> opened = new ArrayList<>();
        private final List<Terminal> terminals = new ArrayList<>();
        private final LongAdder liveCommitted = new LongAdder();
        private final LongAdder liveAborts = new LongAdder();
        private final List<String> otherErrors = Collections.synchronizedList(new ArrayList<>());
        private final AtomicReference<Throwable> fatal = new AtomicReference<>();
        private final int retryBackoffMicros;
        // guarded by this; the volatile ones are also read without the lock on the terminals' fast path
        private volatile boolean pauseRequested = true;
        private volatile boolean stop;
        private volatile Turn turn;
        private volatile long windowStart;
        private volatile long windowEnd;
        private int alive;
        private int parked;
        private boolean closed;

        private Terminals(int clients, int isolation, long seed, int retryBackoffMicros) throws SQLException {
            this.retryBackoffMicros = retryBackoffMicros;
            try {
                for (int t = 0; t < clients; t++) {
                    Connection c = connections.open();
                    opened.add(c);
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(isolation);
                }
            } catch (SQLException | RuntimeException e) {
                closeConnections();
                throw e;
            }
            for (int t = 0; t < clients; t++) {
                InputGenerator inputs = new InputGenerator(scale, runConstants, TpccRandom.derived(seed, "terminal", t),
                        InputGenerator.homeWarehouseOf(t, scale), InputGenerator.districtOf(t, scale));
                terminals.add(new Terminal(opened.get(t), inputs, this));
            }
            alive = clients;
            for (Terminal t : terminals) t.thread.start();
        }

        /** Runs {@code mix} in {@code order}, counting what completes from now on. */
        public void resume(Mix mix, StatementOrder order) {
            resume(mix, order, System.nanoTime(), Long.MAX_VALUE);
        }

        synchronized void resume(Mix mix, StatementOrder order, long windowStart, long windowEnd) {
            this.turn = new Turn(mix, order);
            this.windowStart = windowStart;
            this.windowEnd = windowEnd;
            pauseRequested = false;
            notifyAll();
        }

        /**
         * Waits until every terminal is parked between transactions and returns what they did
         * since the last resume. Throws if a terminal failed.
         */
        public synchronized Period pause() throws InterruptedException {
            pauseRequested = true;
            while (parked < alive) wait();
            failIfFailed();
            return collect();
        }

        /** Stops the terminals for good (at transaction boundaries) and returns what they did last. */
        synchronized Period stop() throws InterruptedException {
            stop = true;
            notifyAll();
            while (alive > 0) wait();
            failIfFailed();
            return collect();
        }

        private Period collect() {
            TerminalStats total = new TerminalStats();
            for (Terminal t : terminals) {
                total.add(t.stats);
                t.stats = new TerminalStats();
            }
            List<String> errors;
            synchronized (otherErrors) {
                errors = List.copyOf(otherErrors);
                otherErrors.clear();
            }
            return new Period(total, errors);
        }

        private void failIfFailed() {
            Throwable t = fatal.get();
            if (t != null) throw new IllegalStateException("a terminal failed: " + t, t);
        }

        public Throwable failure() {
            return fatal.get();
        }

        public long liveCommitted() {
            return liveCommitted.sum();
        }

        public long liveAborts() {
            return liveAborts.sum();
        }

        /** A terminal's next step: the mix and order to run, or null when it is to end. */
        private Turn awaitTurn() throws InterruptedException {
            if (!pauseRequested && !stop) return turn;
            synchronized (this) {
                if (pauseRequested && !stop) {
                    parked++;
                    notifyAll();
                    while (pauseRequested && !stop) wait();
                    parked--;
                }
                return stop ? null : turn;
            }
        }

        private synchronized void ended() {
            alive--;
            notifyAll();
        }

        private void failed(Throwable t) {
            fatal.compareAndSet(null, t);
            synchronized (this) {
                stop = true;
                notifyAll();
            }
        }

        boolean inWindow(long t) {
            return t >= windowStart && t < windowEnd;
        }

        @Override
        public void close() throws InterruptedException {
            synchronized (this) {
                if (closed) return;
                closed = true;
                stop = true;
                notifyAll();
                while (alive > 0) wait();
            }
            closeConnections();
        }

        private void closeConnections() {
            for (Connection c : opened) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closing anyway
                }
            }
        }
    }

    private record Turn(Mix mix, StatementOrder order) {}

    private final class Terminal implements Runnable {
        final Thread thread;
        // replaced by the controller while this terminal is parked
        TerminalStats stats = new TerminalStats();
        private final Connection connection;
        private final InputGenerator inputs;
        private final Terminals shared;

        Terminal(Connection connection, InputGenerator inputs, Terminals shared) {
            this.connection = connection;
            this.inputs = inputs;
            this.shared = shared;
            this.thread = new Thread(this, "tpcc-terminal");
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            try (TransactionRunner runner = new TransactionRunner(connection, scale, clock, hook)) {
                for (Turn turn; (turn = shared.awaitTurn()) != null; ) {
                    TxnInput input = inputs.next(turn.mix());
                    if (!runToCompletion(runner, input, turn.order())) break;
                }
            } catch (Throwable t) {
                shared.failed(t);
            } finally {
                shared.ended();
            }
        }

        /** Returns false when the connection is gone and this terminal cannot go on. */
        private boolean runToCompletion(TransactionRunner runner, TxnInput input, StatementOrder order)
                throws SQLException, IOException {
            TxnType type = input.type();
            long begin = System.nanoTime();
            for (int attempt = 1; ; attempt++) {
                TransactionRunner.Outcome outcome;
                try {
                    outcome = runner.execute(input, order);
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
                    if (shared.retryBackoffMicros > 0) {
                        long maxNanos = Math.min(attempt, 20) * shared.retryBackoffMicros * 1000L;
                        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxNanos + 1));
                    }
                    continue;
                }
                long end = System.nanoTime();
                if (outcome == TransactionRunner.Outcome.COMMITTED) {
                    commitListener.committed(runner.lastReceipt());
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
