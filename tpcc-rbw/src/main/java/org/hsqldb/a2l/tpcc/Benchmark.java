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
import java.util.function.BooleanSupplier;
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

    /**
     * Looks at the engine's locks while every terminal is idle at a transaction boundary, its
     * connection still open: null when the engine shows none.
     */
    @FunctionalInterface
    public interface IdleProbe {
        Consistency.Condition check() throws SQLException;
    }

    /** {@code idleLocks}: the {@link IdleProbe}'s condition after the measured window, or null. */
    public record Result(TerminalStats stats, double measuredSeconds, List<String> otherErrors,
                         Map<String, Number> engineCounters, Consistency.Condition idleLocks) {}

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

    /**
     * How long the driver waits for the terminals to reach a transaction boundary while nothing
     * commits before it calls the engine stalled (-Dtpcc.stallSeconds, default 60). Without it a
     * lock wait that never ends (upstream 2.7.4's LOCKS mode has them under heavy contention)
     * hangs a run or a soak for ever instead of failing it.
     */
    static final long STALL_SECONDS = Long.getLong("tpcc.stallSeconds", 60);

    private final Scale scale;
    private final NURandConstants runConstants;
    private final ConnectionSource connections;
    private final Clock clock;
    private final TransactionHook hook;
    private final CounterProbe counters;
    private IdleProbe idleProbe = () -> null;
    private final PrintStream log;
    private CommitListener commitListener = receipt -> { };
    private ReadsForUpdate readsForUpdate = ReadsForUpdate.PLAIN;

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

    /** Checks the engine's locks with {@code probe} after each measured window; returns this. */
    public Benchmark idleProbe(IdleProbe probe) {
        this.idleProbe = probe;
        return this;
    }

    /** The probe's condition now (call it while every terminal is idle), or null. */
    public Consistency.Condition checkIdle() throws SQLException {
        return idleProbe.check();
    }

    /** Writes the reads that precede an update of the same rows in this form; returns this. */
    public Benchmark readsForUpdate(ReadsForUpdate form) {
        this.readsForUpdate = form;
        return this;
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
        return new Terminals(clients, isolation, seed, retryBackoffMicros, STALL_SECONDS);
    }

    /** As {@link #open(int, int, long, int)}, declaring the engine stalled after {@code stallSeconds}. */
    Terminals open(int clients, int isolation, long seed, int retryBackoffMicros, long stallSeconds)
            throws SQLException {
        return new Terminals(clients, isolation, seed, retryBackoffMicros, stallSeconds);
    }

    /**
     * The terminals stopped making progress: some of them have waited inside a transaction for
     * the whole stall time and no transaction committed meanwhile. The message names what each
     * unfinished terminal is doing; the database is left as it is (its sessions cannot be
     * closed while they wait), so the process should end.
     */
    public static final class EngineStalledException extends IllegalStateException {
        EngineStalledException(String message) {
            super(message);
        }
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
        // every terminal is at a transaction boundary and its connection still open
        Consistency.Condition idle = idleProbe.check();
        return new Result(period.stats(), (windowEnd - windowStart) / 1e9, period.otherErrors(),
                delta(before, after), idle);
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
        private final long stallNanos;
        private volatile EngineStalledException stalled;
        // guarded by this; the volatile ones are also read without the lock on the terminals' fast path
        private volatile boolean pauseRequested = true;
        private volatile boolean stop;
        private volatile Turn turn;
        private volatile long windowStart;
        private volatile long windowEnd;
        private int alive;
        private int parked;
        private boolean closed;

        private Terminals(int clients, int isolation, long seed, int retryBackoffMicros, long stallSeconds)
                throws SQLException {
            this.retryBackoffMicros = retryBackoffMicros;
            this.stallNanos = stallSeconds * 1_000_000_000L;
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
                terminals.add(new Terminal(t, opened.get(t), inputs, this));
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
            awaitTerminals(() -> parked >= alive);
            failIfFailed();
            return collect();
        }

        /** Stops the terminals for good (at transaction boundaries) and returns what they did last. */
        synchronized Period stop() throws InterruptedException {
            stop = true;
            notifyAll();
            awaitTerminals(() -> alive == 0);
            failIfFailed();
            return collect();
        }

        /** Waits (holding this) until {@code done}; throws EngineStalledException as described there. */
        private void awaitTerminals(BooleanSupplier done) throws InterruptedException {
            if (stalled != null) throw stalled;
            long committed = liveCommitted.sum();
            long lastProgress = System.nanoTime();
            while (!done.getAsBoolean()) {
                wait(Math.max(1, Math.min(1000, stallNanos / 1_000_000)));
                long now = System.nanoTime();
                long c = liveCommitted.sum();
                if (c != committed) {
                    committed = c;
                    lastProgress = now;
                } else if (now - lastProgress >= stallNanos && !done.getAsBoolean()) {
                    stalled = new EngineStalledException(describeStall((now - lastProgress) / 1_000_000_000L));
                    throw stalled;
                }
            }
        }

        private String describeStall(long seconds) {
            StringBuilder b = new StringBuilder();
            int busy = 0;
            for (Terminal t : terminals) {
                Thread.State state = t.thread.getState();
                if (state == Thread.State.TERMINATED || t.parked) continue;
                busy++;
                b.append("\n  terminal ").append(t.index).append(" (").append(state).append(')');
                StackTraceElement[] stack = t.thread.getStackTrace();
                for (int i = 0, shown = 0; i < stack.length && shown < 8; i++) {
                    String frame = stack[i].toString();
                    if (frame.startsWith("java.") || frame.startsWith("jdk.")) continue;
                    b.append("\n      at ").append(frame);
                    shown++;
                }
            }
            return "engine stalled: " + busy + " of " + terminals.size() + " terminal(s) did not reach a"
                    + " transaction boundary and nothing committed for " + seconds + " s (" + liveAborts.sum()
                    + " aborts so far); what they were doing:" + b;
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
        private Turn awaitTurn(Terminal self) throws InterruptedException {
            if (!pauseRequested && !stop) return turn;
            synchronized (this) {
                if (pauseRequested && !stop) {
                    parked++;
                    self.parked = true;
                    notifyAll();
                    while (pauseRequested && !stop) wait();
                    self.parked = false;
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
                // a stalled terminal holds its session's monitor, so closing its connection would hang too
                if (stalled != null) return;
                awaitTerminals(() -> alive == 0);
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
        final int index;
        // guarded by the Terminals: waiting between transactions for a resume
        boolean parked;
        // replaced by the controller while this terminal is parked
        TerminalStats stats = new TerminalStats();
        private final Connection connection;
        private final InputGenerator inputs;
        private final Terminals shared;

        Terminal(int index, Connection connection, InputGenerator inputs, Terminals shared) {
            this.index = index;
            this.connection = connection;
            this.inputs = inputs;
            this.shared = shared;
            this.thread = new Thread(this, "tpcc-terminal-" + index);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            try (TransactionRunner runner = new TransactionRunner(connection, scale, clock, hook, readsForUpdate)) {
                for (Turn turn; (turn = shared.awaitTurn(this)) != null; ) {
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
