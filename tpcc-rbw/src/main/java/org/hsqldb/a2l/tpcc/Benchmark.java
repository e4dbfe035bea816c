package org.hsqldb.a2l.tpcc;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.hsqldb.a2l.tpcc.engine.Dialect;

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

    /** Takes one sample of the engine's lock waits (see engine.LockWaitSampler); called from the driver's thread. */
    @FunctionalInterface
    public interface WaitProbe {
        void sample() throws SQLException;
    }

    /**
     * {@code idleLocks}: the {@link IdleProbe}'s condition after the measured window, or null;
     * {@code jvmInWindow}: what the JIT and the collectors spent during the window.
     */
    public record Result(TerminalStats stats, double measuredSeconds, List<String> otherErrors,
                         Map<String, Number> engineCounters, Consistency.Condition idleLocks,
                         JvmWork jvmInWindow) {}

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
    private WaitProbe waitProbe;
    private int waitSampleMillis;
    private final PrintStream log;
    private CommitListener commitListener = receipt -> { };
    private ReadsForUpdate readsForUpdate = ReadsForUpdate.PLAIN;
    private ClientShape clientShape = ClientShape.HARNESS;
    private boolean faults;

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

    /** Samples the engine's lock waits with {@code probe} every {@code everyMillis} ms of the measured window; returns this. */
    public Benchmark sampleLockWaits(WaitProbe probe, int everyMillis) {
        this.waitProbe = probe;
        this.waitSampleMillis = Math.max(1, everyMillis);
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

    /** Has the terminals prepare and batch their statements as {@code shape} says; returns this. */
    public Benchmark clientShape(ClientShape shape) {
        this.clientShape = shape;
        return this;
    }

    /** Tells {@code listener} of every commit (see {@link CommitListener}); returns this. */
    public Benchmark onCommit(CommitListener listener) {
        this.commitListener = listener;
        return this;
    }

    /**
     * Lets the terminals opened from now on take faults ({@link Terminals#cancel},
     * {@link Terminals#closeMidTransaction}, {@link Terminals#queryTimeout}); returns this.
     */
    public Benchmark faultInjection() {
        this.faults = true;
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
        JvmWork jvmBefore = JvmWork.now();
        boolean measuring = false;
        long nextProgress = start + s.progressSeconds() * 1_000_000_000L;
        while (terminals.failure() == null) {
            long now = System.nanoTime();
            if (!measuring && now >= windowStart) {
                before = readCounters();
                jvmBefore = JvmWork.now();
                measuring = true;
            }
            if (now >= windowEnd) break;
            if (s.progressSeconds() > 0 && now >= nextProgress) {
                log.printf("  %3.0f s %-9s committed %d, aborted %d%n", (now - start) / 1e9,
                        measuring ? "measuring" : "warm-up", terminals.liveCommitted(), terminals.liveAborts());
                nextProgress += s.progressSeconds() * 1_000_000_000L;
            }
            long until = Math.min(windowEnd, measuring ? nextProgress : Math.min(windowStart, nextProgress));
            if (measuring && waitProbe != null) {
                waitProbe.sample();
                until = Math.min(until, now + waitSampleMillis * 1_000_000L);
            }
            Thread.sleep(Math.max(1, Math.min(1000, (until - now) / 1_000_000)));
        }
        Map<String, Number> after = readCounters();
        JvmWork jvmInWindow = JvmWork.now().since(jvmBefore);
        Terminals.Period period = terminals.stop();
        // every terminal is at a transaction boundary and its connection still open
        Consistency.Condition idle = idleProbe.check();
        return new Result(period.stats(), (windowEnd - windowStart) / 1e9, period.otherErrors(),
                delta(before, after), idle, jvmInWindow);
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

        /**
         * What a terminal is doing at a glance: between transactions (parked, backing off before a
         * retry, logging a commit), inside a transaction attempt with its thread blocked (in the
         * engine: a lock wait), or inside one running.
         */
        public enum Activity { IDLE, WAITING, RUNNING }

        private final List<Connection> opened = new ArrayList<>();
        private final List<Terminal> terminals = new ArrayList<>();
        private final LongAdder liveCommitted = new LongAdder();
        private final LongAdder liveAborts = new LongAdder();
        private final List<String> otherErrors = Collections.synchronizedList(new ArrayList<>());
        private final AtomicReference<Throwable> fatal = new AtomicReference<>();
        private final int retryBackoffMicros;
        private final int isolation;
        private final long stallNanos;
        /** The engine's: which of its SQLSTATEs are retryable conflicts. */
        private final Dialect dialect;
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
            this.isolation = isolation;
            this.stallNanos = stallSeconds * 1_000_000_000L;
            try {
                for (int t = 0; t < clients; t++) {
                    Connection c = connections.open();
                    opened.add(c);
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(isolation);
                }
                dialect = Dialect.of(opened.get(0));
            } catch (SQLException | RuntimeException e) {
                closeConnections();
                throw e;
            }
            for (int t = 0; t < clients; t++) {
                InputGenerator inputs = new InputGenerator(scale, runConstants, TpccRandom.derived(seed, "terminal", t),
                        InputGenerator.homeWarehouseOf(t, scale), InputGenerator.districtOf(t, scale));
                terminals.add(new Terminal(t, opened.get(t), inputs, this, seed * 0x9E3779B97F4A7C15L + t));
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

        public int size() {
            return terminals.size();
        }

        /** What terminal {@code t} is doing now (a glance: it may have moved on when you act on it). */
        public Activity activity(int t) {
            return terminals.get(t).activity();
        }

        /**
         * Statement.cancel() on terminal {@code t}'s connection (a statement of its own, made when the
         * connection was opened): HSQLDB then ends whatever that session executes, a lock wait
         * included, with 40502. The terminal counts the attempt {@code cancelled} and retries it. A
         * cancel that finds the session between statements of a transaction ends its next statement;
         * one that finds it outside a transaction does nothing. Returns the terminal's activity at
         * the moment of the cancel.
         */
        public Activity cancel(int t) throws SQLException {
            Terminal x = faultable(t);
            synchronized (x.faultLock) {
                Activity a = x.activity();
                if (x.cancelHandle == null) return a;
                // under faultLock: the terminal cannot begin its next attempt before the cancel is done
                x.cancelSent = true;
                x.cancelHandle.cancel();
                return a;
            }
        }

        /**
         * Asks terminal {@code t} to close its connection in the middle of its next transaction
         * (after one of its statements, at a random one, at the latest before its commit), then
         * open a new one and go on with its next input. The attempt counts {@code closed}; it was
         * never acknowledged, so it is not retried.
         */
        public void closeMidTransaction(int t) {
            faultable(t).closeWanted = true;
        }

        /** Terminal {@code t}'s statements run with this JDBC query timeout from its next statement on (0: none). */
        public void queryTimeout(int t, int seconds) {
            faultable(t).wantedTimeout = seconds;
        }

        private Terminal faultable(int t) {
            if (!faults) throw new IllegalStateException("the terminals were opened without faultInjection()");
            return terminals.get(t);
        }

        /** A connection a terminal opens to replace one it closed: closed with the others. */
        private Connection reopen() throws SQLException {
            // not under this monitor: pause() must be able to see a stall while an engine refuses connections
            Connection c = connections.open();
            try {
                c.setAutoCommit(false);
                c.setTransactionIsolation(isolation);
                synchronized (this) {
                    if (!closed) {
                        opened.add(c);
                        return c;
                    }
                }
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            c.close();
            throw new SQLException("the terminals are closed", "08003");
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
            List<Connection> all;
            synchronized (this) {
                all = List.copyOf(opened);
            }
            for (Connection c : all) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closing anyway
                }
            }
        }
    }

    private record Turn(Mix mix, StatementOrder order) {}

    /** The SQLException of an attempt whose terminal closed its connection on purpose (a chaos fault). */
    static final class ClosedByFault extends SQLException {
        ClosedByFault(int executed) {
            super("the terminal closed its connection after " + executed + " statement(s) of the transaction"
                    + " (injected fault)", "08003");
        }
    }

    private final class Terminal implements Runnable {
        final Thread thread;
        final int index;
        // guarded by the Terminals: waiting between transactions for a resume
        boolean parked;
        // replaced by the controller while this terminal is parked
        TerminalStats stats = new TerminalStats();
        private final InputGenerator inputs;
        private final Terminals shared;
        // replaced (under faultLock) when a fault closes the connection
        private Connection connection;
        private TransactionRunner runner;

        // faults, see Terminals.cancel, closeMidTransaction and queryTimeout
        final Object faultLock = new Object();
        /** A statement of the current connection to cancel through; null when there are no faults. */
        Statement cancelHandle;
        /** A cancel was sent since the current attempt began (guarded by faultLock). */
        boolean cancelSent;
        volatile boolean inAttempt;
        volatile boolean closeWanted;
        volatile int wantedTimeout;
        private int appliedTimeout;
        private boolean attemptTimed;
        private final SplittableRandom faultRandom;

        Terminal(int index, Connection connection, InputGenerator inputs, Terminals shared, long faultSeed) {
            this.index = index;
            this.connection = connection;
            this.inputs = inputs;
            this.shared = shared;
            this.faultRandom = new SplittableRandom(faultSeed);
            this.thread = new Thread(this, "tpcc-terminal-" + index);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                runner = newRunner(connection);
                for (Turn turn; (turn = shared.awaitTurn(this)) != null; ) {
                    TxnInput input = inputs.next(turn.mix());
                    if (!runToCompletion(input, turn.order())) break;
                }
            } catch (Throwable t) {
                shared.failed(t);
            } finally {
                if (runner != null) runner.close();
                shared.ended();
            }
        }

        private TransactionRunner newRunner(Connection c) throws SQLException {
            TransactionRunner r = new TransactionRunner(c, scale, clock, hook, readsForUpdate, clientShape);
            Statement handle = faults ? c.createStatement() : null;
            synchronized (faultLock) {
                connection = c;
                cancelHandle = handle;
            }
            if (faults) {
                r.checkpoint(this::checkpoint);
                appliedTimeout = 0;
            }
            return r;
        }

        Terminals.Activity activity() {
            if (!inAttempt) return Terminals.Activity.IDLE;
            Thread.State state = thread.getState();
            return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING
                    || state == Thread.State.BLOCKED ? Terminals.Activity.WAITING : Terminals.Activity.RUNNING;
        }

        private void beginAttempt() {
            if (!faults) return;
            synchronized (faultLock) {
                cancelSent = false;
            }
            attemptTimed = false;
            inAttempt = true;
        }

        /** Before each statement and the commit of an attempt: apply the wanted timeout, close if asked to. */
        private void checkpoint(int executed, boolean commit) throws SQLException {
            int timeout = wantedTimeout;
            if (timeout != appliedTimeout) {
                runner.queryTimeout(timeout);
                appliedTimeout = timeout;
            }
            if (timeout > 0) attemptTimed = true;
            if (closeWanted && executed > 0 && (commit || faultRandom.nextInt(4) == 0)) {
                closeWanted = false;
                synchronized (faultLock) {
                    cancelHandle = null;
                    try {
                        connection.close();
                    } catch (SQLException ignored) {
                        // closed anyway
                    }
                }
                throw new ClosedByFault(executed);
            }
        }

        /** Why the attempt failed: the injected faults first (only the terminal knows them), then the engine's code. */
        private AbortReason classify(SQLException e) {
            if (e instanceof ClosedByFault) return AbortReason.CLOSED;
            if (faults && "40502".equals(e.getSQLState())) {
                boolean cancelled;
                synchronized (faultLock) {
                    cancelled = cancelSent;
                }
                if (cancelled) return AbortReason.CANCELLED;
                if (attemptTimed) return AbortReason.TIMED_OUT;
            }
            return shared.dialect.classify(e);
        }

        /** Returns false when the connection is gone and this terminal cannot go on. */
        private boolean runToCompletion(TxnInput input, StatementOrder order) throws SQLException, IOException {
            TxnType type = input.type();
            long begin = System.nanoTime();
            for (int attempt = 1; ; attempt++) {
                TransactionRunner.Outcome outcome;
                beginAttempt();
                try {
                    outcome = runner.execute(input, order);
                } catch (SQLException e) {
                    AbortReason reason = classify(e);
                    inAttempt = false;
                    if (reason != AbortReason.CLOSED) runner.rollbackQuietly();
                    shared.liveAborts.increment();
                    boolean counted = shared.inWindow(System.nanoTime());
                    if (counted) stats.aborted(type, reason);
                    if (reason == AbortReason.OTHER && shared.otherErrors.size() < OTHER_ERRORS_KEPT) {
                        shared.otherErrors.add(type.label + ": SQLSTATE " + e.getSQLState() + " " + e.getMessage());
                    }
                    if (reason == AbortReason.CLOSED) {
                        // the transaction is gone with its session; the next input runs on a new connection
                        runner.close();
                        runner = null;
                        if (shared.stop) return false;
                        runner = newRunner(shared.reopen());
                        return true;
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
                inAttempt = false;
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
