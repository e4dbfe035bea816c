package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.hsqldb.Session;
import org.hsqldb.jdbc.JDBCConnection;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lock-lifetime invariant: a session outside a transaction holds no lock, and every way
 * a statement or a transaction ends leaves nothing behind. For every lock-manager mode,
 * isolation level and autocommit setting, each way of ending (commit, rollback, statement
 * timeout, cancel, deadlock victim, constraint violation, runtime error, connection close,
 * session kill, idle and while waiting) is played on a fresh database; then, with every
 * session idle, no session holds or awaits a lock (SYSTEM_LOCKS, where the mode shows
 * locks), a CHECKPOINT (which needs every other transaction to be over) completes, and a
 * fresh session reads and writes. The ways that depend on timing (cancel, deadlock, kill
 * while waiting) run several rounds in each combination.
 */
class LockLifetimeTest {

    private static final AtomicInteger databases = new AtomicInteger();
    private static final int[] ISOLATION = {Connection.TRANSACTION_READ_UNCOMMITTED,
        Connection.TRANSACTION_READ_COMMITTED, Connection.TRANSACTION_REPEATABLE_READ,
        Connection.TRANSACTION_SERIALIZABLE};
    private static final int RACY_ROUNDS = 3;

    /** How the subject session's statement or transaction ends. */
    enum End {
        COMMIT, ROLLBACK, TIMEOUT, TIMEOUT_OF_A_READ, CANCEL, DEADLOCK_VICTIM, CONSTRAINT_VIOLATION,
        RUNTIME_ERROR, CONNECTION_CLOSE, KILL_IDLE, KILL_WAITING
    }

    static Stream<Arguments> combinations() {
        List<Arguments> out = new ArrayList<>();
        for (EngineMode mode : EngineMode.values()) {
            for (int isolation : ISOLATION) {
                for (boolean autocommit : new boolean[] {false, true}) {
                    out.add(Arguments.of(mode, isolation, autocommit));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, isolation {1}, autocommit {2}")
    @MethodSource("combinations")
    @RequiresPatch("Lock-tables-through-lockmgr")
    void everyWayOfEndingLeavesNoLockBehind(EngineMode mode, int isolation, boolean autocommit) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        List<String> failures = new ArrayList<>();
        for (End end : End.values()) {
            int rounds = end == End.CANCEL || end == End.DEADLOCK_VICTIM || end == End.KILL_WAITING
                    ? RACY_ROUNDS : 1;
            for (int round = 0; round < rounds; round++) {
                String url = mode.url("jdbc:hsqldb:mem:lifetime" + databases.incrementAndGet());
                try {
                    play(end, url, mode, isolation, autocommit);
                } catch (NotApplicable n) {
                    break;
                } catch (Throwable t) {
                    failures.add(end + " (round " + round + "): " + t);
                }
            }
        }
        System.out.println("lock lifetime, " + mode + ", isolation " + isolation + ", autocommit " + autocommit
                + ": " + (failures.isEmpty() ? "ok" : String.join("; ", failures)));
        if (!failures.isEmpty()) {
            fail(failures.size() + " way(s) of ending left the database stuck or locked:\n"
                    + String.join("\n", failures));
        }
    }

    static Stream<Arguments> lockManagerModes() {
        List<Arguments> out = new ArrayList<>();
        for (EngineMode mode : EngineMode.values()) {
            if (!mode.isUpstreamMode()) {
                for (boolean autocommit : new boolean[] {false, true}) {
                    out.add(Arguments.of(mode, autocommit));
                }
            }
        }
        return out.stream();
    }

    /**
     * A cancel that comes after a statement began but before its session had an owner in the
     * lock table (the session's first statement that locks) still ends the statement's lock
     * wait: it cannot wake a wait that has not begun, so the session must find it before it
     * waits. The session is held where this happens: a statement takes its session's timeout
     * monitor after it has its start SCN (which the cancel names) and before it asks for locks.
     */
    @ParameterizedTest(name = "{0}, autocommit {1}")
    @MethodSource("lockManagerModes")
    @RequiresPatch("Lock-tables-through-lockmgr")
    void aCancelBeforeTheSessionFirstLocksEndsItsWait(EngineMode mode, boolean autocommit) throws Exception {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = mode.url("jdbc:hsqldb:mem:lifetime" + databases.incrementAndGet());
        try (Connection setup = Engines.fork(url)) {
            create(setup);
        }
        try (SessionThread a = new SessionThread(Engines.fork(url), "subject");
             SessionThread b = new SessionThread(Engines.fork(url), "other")) {
            a.setAutoCommit(autocommit);
            b.setAutoCommit(false);
            b.execute("UPDATE acc SET v = v + 1 WHERE id = 1");
            Session session = (Session) ((JDBCConnection) a.connection()).getSession();
            assertNull(field(session, "lockState"), "the subject has not locked anything yet");
            AtomicReference<Statement> running = new AtomicReference<>();
            Future<Integer> f;
            synchronized (field(session, "timeoutManager")) {
                f = a.submit("UPDATE acc SET v = v + 10 WHERE id = 1", 0, running);
                awaitBlockedIn(a, "startTimeout");
                running.get().cancel();
            }
            try {
                f.get(10, TimeUnit.SECONDS);
                fail("the cancelled statement did not fail");
            } catch (ExecutionException e) {
                assertTrue(e.getCause() instanceof SQLException, String.valueOf(e.getCause()));
                assertEquals("40502", ((SQLException) e.getCause()).getSQLState());
            } catch (TimeoutException hang) {
                String dump = threadDump();
                b.rollback(); // lets the subject through
                fail("the statement cancelled before its session first locked waits for the lock:\n" + dump);
            }
            endTransaction(a, autocommit, true);
            b.commit();
            assertQuiescent(url);
        }
    }

    private static void awaitBlockedIn(SessionThread s, String method) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            Thread t = s.thread();
            if (t != null && t.getState() == Thread.State.BLOCKED) {
                StackTraceElement[] stack = t.getStackTrace();
                if (stack.length > 0 && stack[0].getMethodName().equals(method)) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        fail("the statement never reached " + method);
    }

    private static Object field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    private static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE acc (id INT PRIMARY KEY, v INT NOT NULL)");
            s.execute("CREATE TABLE side (id INT PRIMARY KEY, w INT NOT NULL)");
            s.execute("INSERT INTO acc VALUES (1, 10), (2, 20), (3, 30)");
            s.execute("INSERT INTO side VALUES (1, 1), (2, 2)");
        }
    }

    private static void play(End end, String url, EngineMode mode, int isolation, boolean autocommit)
            throws Exception {
        try (Connection setup = Engines.fork(url)) {
            create(setup);
        }
        try (SessionThread a = new SessionThread(Engines.fork(url), "subject");
             SessionThread b = new SessionThread(Engines.fork(url), "other")) {
            a.setIsolation(isolation);
            a.setAutoCommit(autocommit);
            b.setAutoCommit(false);
            long aId = sessionId(a);
            switch (end) {
                case COMMIT -> {
                    a.execute("SELECT v FROM acc WHERE id = 1");
                    a.execute("UPDATE acc SET v = v + 1 WHERE id = 2");
                    endTransaction(a, autocommit, true);
                }
                case ROLLBACK -> {
                    a.execute("SELECT v FROM acc WHERE id = 1");
                    a.execute("UPDATE acc SET v = v + 1 WHERE id = 2");
                    endTransaction(a, autocommit, false);
                }
                case TIMEOUT, TIMEOUT_OF_A_READ -> {
                    boolean read = end == End.TIMEOUT_OF_A_READ;
                    // only the locking modes make a read wait for a writer
                    if (read && (mode == EngineMode.MVCC || mode == EngineMode.MVLOCKS)) {
                        throw new NotApplicable();
                    }
                    b.execute("UPDATE acc SET v = v + 1 WHERE id = 1");
                    Future<Integer> f = a.submit(read ? "SELECT v FROM acc WHERE id = 1"
                            : "UPDATE acc SET v = v + 10 WHERE id = 1", 1);
                    expectFailure(f);
                    endTransaction(a, autocommit, true);
                    b.commit();
                }
                case CANCEL -> {
                    b.execute("UPDATE acc SET v = v + 1 WHERE id = 1");
                    AtomicReference<Statement> running = new AtomicReference<>();
                    Future<Integer> f = a.submit("UPDATE acc SET v = v + 10 WHERE id = 1", 0, running);
                    if (awaitWait(a, f)) {
                        running.get().cancel();
                        expectFailure(f);
                    }
                    endTransaction(a, autocommit, true);
                    b.commit();
                }
                case DEADLOCK_VICTIM -> {
                    if (autocommit) {
                        // one statement per transaction holds nothing while it waits: no cycle
                        a.execute("UPDATE acc SET v = v + 1 WHERE id = 1");
                        break;
                    }
                    a.execute("UPDATE acc SET v = v + 1 WHERE id = 1");
                    b.execute("UPDATE side SET w = w + 1 WHERE id = 1");
                    Future<Integer> fa = a.submit("UPDATE side SET w = w + 10 WHERE id = 1");
                    if (!awaitWait(a, fa)) {
                        endTransaction(a, false, false);
                        b.commit();
                        break;
                    }
                    Future<Integer> fb = b.submit("UPDATE acc SET v = v + 10 WHERE id = 1");
                    int failed = 0;
                    for (Future<Integer> f : List.of(fa, fb)) {
                        try {
                            SessionThread.await(f);
                        } catch (SQLException e) {
                            failed++;
                        }
                    }
                    assertTrue(failed >= 1, "a deadlock must refuse one of the two");
                    endTransaction(a, false, true);
                    b.commit();
                }
                case CONSTRAINT_VIOLATION -> {
                    a.execute("UPDATE acc SET v = v + 1 WHERE id = 2");
                    expectFailure(a.submit("INSERT INTO acc VALUES (1, 0)"));
                    endTransaction(a, autocommit, true);
                }
                case RUNTIME_ERROR -> {
                    a.execute("UPDATE acc SET v = v + 1 WHERE id = 2");
                    expectFailure(a.submit("UPDATE acc SET v = v / (v - v) WHERE id = 3"));
                    endTransaction(a, autocommit, true);
                }
                case CONNECTION_CLOSE -> {
                    a.execute("SELECT v FROM acc WHERE id = 1");
                    a.execute("UPDATE acc SET v = v + 1 WHERE id = 2");
                    // closed with its transaction open: the close rolls it back
                }
                case KILL_IDLE -> {
                    a.execute("SELECT v FROM acc WHERE id = 1");
                    a.execute("UPDATE acc SET v = v + 1 WHERE id = 2");
                    b.execute("ALTER SESSION " + aId + " RELEASE");
                    b.commit();
                    endTransactionIgnoringErrors(a, autocommit);
                }
                case KILL_WAITING -> {
                    try (SessionThread holder = new SessionThread(Engines.fork(url), "holder")) {
                        holder.setAutoCommit(false);
                        a.execute("UPDATE side SET w = w + 1 WHERE id = 2");
                        holder.execute("UPDATE acc SET v = v + 1 WHERE id = 1");
                        Future<Integer> f = a.submit("UPDATE acc SET v = v + 10 WHERE id = 1");
                        awaitWait(a, f);
                        b.execute("ALTER SESSION " + aId + " RELEASE");
                        b.commit();
                        holder.commit();
                        try {
                            SessionThread.await(f);
                        } catch (SQLException e) {
                            // ended by the kill, or ran after the holder committed
                        }
                        endTransactionIgnoringErrors(a, autocommit);
                    }
                }
                default -> throw new IllegalStateException(end.toString());
            }
            if (end == End.CONNECTION_CLOSE) {
                a.close();
            }
            // every session idle, none closed (but the one the case closes)
            assertQuiescent(url);
        }
    }

    /** A way of ending that does not exist in a mode (reads never wait under MVCC and MVLOCKS). */
    private static final class NotApplicable extends RuntimeException {
        NotApplicable() {
            super(null, null, false, false);
        }
    }

    /**
     * Returns true once the session waits for a lock, false if its statement ended at once
     * with an error instead (MVCC at REPEATABLE READ and SERIALIZABLE refuses a write to a
     * row another transaction changed rather than wait: that is a way of ending too); fails
     * if it succeeded without waiting, or neither waited nor ended within 10 s.
     */
    private static boolean awaitWait(SessionThread s, Future<Integer> f) throws Exception {
        for (int i = 0; i < 1000; i++) {
            if (s.isWaitingForLock()) {
                return true;
            }
            if (f.isDone()) {
                try {
                    SessionThread.await(f);
                } catch (SQLException e) {
                    return false;
                }
                fail("the statement did not wait for the lock another session holds");
            }
            Thread.sleep(10);
        }
        fail("the statement neither waited nor ended within 10 s");
        return false;
    }

    private static long sessionId(SessionThread s) throws SQLException {
        return s.queryLong("VALUES SESSION_ID()");
    }

    private static void expectFailure(Future<Integer> f) {
        try {
            SessionThread.await(f);
        } catch (SQLException expected) {
            return; // the way it ends
        } catch (AssertionError hang) {
            throw new AssertionError(hang.getMessage() + "\n" + threadDump(), hang);
        }
        fail("the statement did not fail");
    }

    private static String threadDump() {
        StringBuilder sb = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            if (t.getName().equals("subject") || t.getName().equals("other") || t.getName().equals("holder")) {
                sb.append('"').append(t.getName()).append("\" ").append(t.getState()).append('\n');
                for (StackTraceElement e : stack) {
                    sb.append("    at ").append(e).append('\n');
                }
            }
        });
        return sb.toString();
    }

    private static void endTransaction(SessionThread s, boolean autocommit, boolean commit) throws SQLException {
        if (autocommit) {
            return;
        }
        if (commit) {
            s.commit();
        } else {
            s.rollback();
        }
    }

    /** After a kill the application ends its transaction as it can: commit, else rollback. */
    private static void endTransactionIgnoringErrors(SessionThread s, boolean autocommit) {
        if (autocommit) {
            return;
        }
        try {
            s.commit();
        } catch (SQLException | AssertionError e) {
            try {
                s.rollback();
            } catch (SQLException | AssertionError ignored) {
                // the session may have been closed by the kill
            }
        }
    }

    /**
     * Every session idle: no lock held or awaited by anyone but the checking session, a
     * CHECKPOINT completes (it waits for every transaction), and a fresh session reads and
     * writes. Each step is bounded, so a stuck database fails the test instead of hanging it.
     */
    static void assertQuiescent(String url) throws Exception {
        Connection c = Engines.fork(url);
        try {
            if (PatchSeries.isApplied("Show-locks-lock-counters")) {
                List<String> locks = bounded("SYSTEM_LOCKS", () -> {
                    List<String> rows = new ArrayList<>();
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                            "SELECT SESSION_ID, LOCK_NAME, LOCK_MODE, LOCK_STATE FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"
                            + " WHERE SESSION_ID <> SESSION_ID()")) {
                        while (rs.next()) {
                            rows.add(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getString(3) + " "
                                    + rs.getString(4));
                        }
                    }
                    return rows;
                });
                assertEquals(List.of(), locks, "locks left at quiescence");
            }
            bounded("CHECKPOINT", () -> {
                try (Statement s = c.createStatement()) {
                    s.execute("CHECKPOINT");
                }
                return null;
            });
            bounded("a fresh session's read and write", () -> {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM acc")) {
                        rs.next();
                        assertEquals(3, rs.getInt(1));
                    }
                    assertEquals(1, s.executeUpdate("UPDATE side SET w = w + 1 WHERE id = 2"));
                }
                c.commit();
                return null;
            });
            bounded("SHUTDOWN", () -> {
                try (Statement s = c.createStatement()) {
                    s.execute("SHUTDOWN");
                }
                return null;
            });
        } finally {
            // a stuck close would hang the run: close in the background
            CompletableFuture.runAsync(() -> {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closed by SHUTDOWN
                }
            });
        }
    }

    interface Step<T> {
        T run() throws Exception;
    }

    private static <T> T bounded(String what, Step<T> step) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(step.run());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "quiescence check: " + what);
        t.setDaemon(true);
        t.start();
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not complete within 10 s: the database is stuck");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw (Error) e.getCause();
        }
    }
}
