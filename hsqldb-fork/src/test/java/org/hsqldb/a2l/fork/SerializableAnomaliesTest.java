package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The anomalies SERIALIZABLE excludes, each written as the two-session
 * schedule that would show it. Under attribute locks (and table locks) the
 * step that would create the anomaly waits, or a deadlock aborts one
 * transaction with 40001; either way what each transaction sees and the
 * final state are those of a serial execution. The same holds when the
 * writers declare their write sets and release their read locks at their
 * first write (RbW-RL), and when the reads that precede a write say so with
 * FOR UPDATE OF: both take the update lock at the read, so the second
 * reader of what the first will write waits at its read rather than
 * deadlocking at its write.
 */
@RequiresPatch("Update-non-indexed-columns-in-place")
class SerializableAnomaliesTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private SessionThread t1;
    private SessionThread t2;

    /**
     * How the sessions' first transactions run: plain 2PL; RbW-RL with their write sets
     * declared; plain 2PL with the reads that precede a write of the same row made FOR
     * UPDATE OF the column written.
     */
    enum Release {
        AT_COMMIT,
        EARLY,
        FOR_UPDATE
    }

    static Stream<Arguments> schedules() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (EngineMode mode : new EngineMode[] {EngineMode.A2L, EngineMode.A2L_LATCHED, EngineMode.A2L_CELL,
            EngineMode.LF}) {
            b.add(Arguments.of(mode, Release.AT_COMMIT));
        }
        // early release reads what it declared with the FOR UPDATE lock, and FOR UPDATE locks at
        // the read, only from the patches that make them so (bisect-check runs earlier prefixes)
        if (PatchSeries.isApplied("Read-what-a-declared-write-set-names")) {
            b.add(Arguments.of(EngineMode.A2L, Release.EARLY));
            b.add(Arguments.of(EngineMode.LF, Release.EARLY));
        }
        if (PatchSeries.isApplied("Take-the-locks-of-SELECT-.-FOR-UPDATE-OF")) {
            b.add(Arguments.of(EngineMode.A2L, Release.FOR_UPDATE));
            b.add(Arguments.of(EngineMode.A2L_CELL, Release.FOR_UPDATE));
            b.add(Arguments.of(EngineMode.LF, Release.FOR_UPDATE));
        }
        return b.build();
    }

    private void open(EngineMode mode, Release release) throws SQLException {
        // (before its patch a mode's URL property is ignored: the schedule would pass as another mode)
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        String url = mode.url("jdbc:hsqldb:mem:anomaly" + databases.incrementAndGet());
        t1 = new SessionThread(Engines.fork(url), "t1");
        t2 = new SessionThread(Engines.fork(url), "t2");
        t1.execute("CREATE TABLE acc (id INT PRIMARY KEY, x INT, y INT, oncall BOOLEAN)");
        t1.execute("INSERT INTO acc VALUES (1, 50, 50, TRUE), (2, 0, 0, TRUE)");
        for (SessionThread t : new SessionThread[] {t1, t2}) {
            t.setAutoCommit(false);
            t.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            if (release == Release.EARLY) { // (schedules() offers EARLY and FOR_UPDATE only with their patches)
                // each first transaction writes at most these; retries after a 40001 run plain
                t.execute("SET SESSION EARLY RELEASE TRUE");
                t.execute("DECLARE WRITE SET acc (x, y, oncall)");
            }
        }
    }

    private void close() throws SQLException {
        t1.close();
        t2.close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schedules")
    void dirtyWrite(EngineMode mode, Release release) throws Exception {
        open(mode, release);
        t1.execute("UPDATE acc SET x = 1 WHERE id = 1");
        Future<Integer> w2 = t2.submit("UPDATE acc SET x = 2 WHERE id = 1");
        t2.awaitLockWait();
        t1.rollback();
        SessionThread.await(w2);
        t2.commit();
        assertEquals(2, t1.queryLong("SELECT x FROM acc WHERE id = 1"));
        close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schedules")
    void dirtyRead(EngineMode mode, Release release) throws Exception {
        open(mode, release);
        t1.execute("UPDATE acc SET x = 999 WHERE id = 1");
        Future<Long> r2 = readLater(t2, "SELECT x FROM acc WHERE id = 1");
        t2.awaitLockWait();
        t1.rollback();
        assertEquals(50L, (long) SessionThread.await(r2), "t2 never sees t1's uncommitted 999");
        close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schedules")
    void lostUpdate(EngineMode mode, Release release) throws Exception {
        open(mode, release);
        String read = "SELECT x FROM acc WHERE id = 1" + (release == Release.FOR_UPDATE ? " FOR UPDATE OF x" : "");
        long x1 = t1.queryLong(read);
        if (readsForUpdate(release)) {
            // the read takes the update lock on x: t2's read waits for t1's transaction
            Future<Long> r2 = readLater(t2, read);
            t2.awaitLockWait();
            t1.execute("UPDATE acc SET x = " + (x1 + 10) + " WHERE id = 1");
            t1.commit();
            long x2 = SessionThread.await(r2);
            assertEquals(60, x2, "t2 reads after t1's update");
            t2.execute("UPDATE acc SET x = " + (x2 + 20) + " WHERE id = 1");
            t2.commit();
            assertEquals(80, t1.queryLong("SELECT x FROM acc WHERE id = 1"), "both increments count");
            close();
            return;
        }
        long x2 = t2.queryLong(read);
        Future<Integer> w1 = t1.submit("UPDATE acc SET x = " + (x1 + 10) + " WHERE id = 1");
        t1.awaitLockWait();
        SQLException victim = assertThrows(SQLException.class,
                () -> t2.execute("UPDATE acc SET x = " + (x2 + 20) + " WHERE id = 1"));
        assertEquals("40001", victim.getSQLState());
        SessionThread.await(w1);
        t1.commit();
        // the victim retries from its read
        long again = t2.queryLong("SELECT x FROM acc WHERE id = 1");
        t2.execute("UPDATE acc SET x = " + (again + 20) + " WHERE id = 1");
        t2.commit();
        assertEquals(80, t1.queryLong("SELECT x FROM acc WHERE id = 1"), "both increments count");
        close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schedules")
    void nonRepeatableRead(EngineMode mode, Release release) throws Exception {
        open(mode, release);
        assertEquals(50, t1.queryLong("SELECT x FROM acc WHERE id = 1"));
        Future<Integer> w2 = t2.submit("UPDATE acc SET x = 0 WHERE id = 1");
        t2.awaitLockWait();
        assertEquals(50, t1.queryLong("SELECT x FROM acc WHERE id = 1"));
        t1.commit();
        SessionThread.await(w2);
        t2.commit();
        close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schedules")
    void phantom(EngineMode mode, Release release) throws Exception {
        open(mode, release);
        assertEquals(1, t1.queryLong("SELECT COUNT(*) FROM acc WHERE x > 10"));
        Future<Integer> insert = t2.submit("INSERT INTO acc VALUES (3, 77, 0, FALSE)");
        t2.awaitLockWait();
        assertEquals(1, t1.queryLong("SELECT COUNT(*) FROM acc WHERE x > 10"));
        t1.commit();
        SessionThread.await(insert);
        t2.commit();
        close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schedules")
    void readSkew(EngineMode mode, Release release) throws Exception {
        open(mode, release);
        long x = t1.queryLong("SELECT x FROM acc WHERE id = 1");
        // t2 moves 30 from x to y; its first write waits for t1's read lock on x
        Future<Integer> moveX = t2.submit("UPDATE acc SET x = x - 30 WHERE id = 1");
        t2.awaitLockWait();
        long y = t1.queryLong("SELECT y FROM acc WHERE id = 1");
        assertEquals(100, x + y, "t1 sees x and y of one state");
        t1.commit();
        SessionThread.await(moveX);
        t2.execute("UPDATE acc SET y = y + 30 WHERE id = 1");
        t2.commit();
        assertEquals(100, t1.queryLong("SELECT x + y FROM acc WHERE id = 1"));
        close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("schedules")
    void writeSkew(EngineMode mode, Release release) throws Exception {
        open(mode, release);
        // two doctors on call; each may go off call if the other stays: both must not
        assertEquals(2, t1.queryLong("SELECT COUNT(*) FROM acc WHERE oncall"));
        if (release == Release.EARLY) {
            // oncall is declared: the count takes its update lock, and t2's count waits for t1
            Future<Long> count2 = readLater(t2, "SELECT COUNT(*) FROM acc WHERE oncall");
            t2.awaitLockWait();
            t1.execute("UPDATE acc SET oncall = FALSE WHERE id = 1");
            t1.commit();
            assertEquals(1, (long) SessionThread.await(count2), "t2 sees t1 went off call");
            t2.commit();
            assertEquals(1, t1.queryLong("SELECT COUNT(*) FROM acc WHERE oncall"));
            close();
            return;
        }
        // (a COUNT is not updatable: FOR UPDATE could not apply, the plain schedule follows)
        assertEquals(2, t2.queryLong("SELECT COUNT(*) FROM acc WHERE oncall"));
        Future<Integer> off1 = t1.submit("UPDATE acc SET oncall = FALSE WHERE id = 1");
        t1.awaitLockWait();
        SQLException victim = assertThrows(SQLException.class,
                () -> t2.execute("UPDATE acc SET oncall = FALSE WHERE id = 2"));
        assertEquals("40001", victim.getSQLState());
        SessionThread.await(off1);
        t1.commit();
        assertEquals(1, t2.queryLong("SELECT COUNT(*) FROM acc WHERE oncall"), "the retry sees t1 went off call");
        t2.commit();
        assertTrue(t1.queryLong("SELECT COUNT(*) FROM acc WHERE oncall") >= 1);
        close();
    }

    /** Whether the reads that precede a write take the update lock (declared, or FOR UPDATE). */
    private static boolean readsForUpdate(Release release) {
        return release != Release.AT_COMMIT;
    }

    private static Future<Long> readLater(SessionThread t, String sql) {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return t.queryLong(sql);
            } catch (SQLException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }
}
