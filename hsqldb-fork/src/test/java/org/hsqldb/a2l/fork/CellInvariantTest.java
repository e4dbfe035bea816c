package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The locking invariant of A2L's cells (lockmgr/README.md, "The invariant"): under LOCK
 * GRANULARITY CELL a statement waits only for a transaction that holds or has asked for a
 * conflicting lock on the same key, or for a lock that really covers it (a scan, a range, a
 * structural change); never because of granularity, history or timing. Two sessions at
 * SERIALIZABLE with autocommit off: A runs its statement and keeps its transaction open, B runs
 * its own; the test sees B either finish or park in the lock manager. Each schedule runs many
 * rounds on one database, the first on a fresh one, each later one after a random history
 * (transactions that met and waited on the same table, scans, inserts and deletes of other
 * rows, a pause longer than the 250 ms a table used to stay "contended", or nothing) and a
 * random pause between A's statement and B's. Column granularity (A2L's default) runs the same
 * schedules: different rows of one column wait there, the same key and the covering locks wait
 * in both.
 */
@RequiresPatch("Lock-cells-and-row-keys-on-every-table")
class CellInvariantTest {

    private static final AtomicInteger databases = new AtomicInteger();
    private static final int ROUNDS = 20;

    /** What B does while A's transaction is open, in each granularity. */
    enum Outcome { RUNS, WAITS }

    record Schedule(String name, String a, String b, Outcome cell, Outcome column) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Outcome RUNS = Outcome.RUNS, WAITS = Outcome.WAITS;

    static final List<Schedule> SCHEDULES = List.of(
            // different keys: never wait under cells
            new Schedule("updates of one column, different rows",
                    "UPDATE t SET v = v + 1 WHERE id = 1", "UPDATE t SET v = v + 1 WHERE id = 2", RUNS, WAITS),
            new Schedule("a read and an update of one column, different rows",
                    "SELECT v FROM t WHERE id = 1", "UPDATE t SET v = 9 WHERE id = 2", RUNS, WAITS),
            new Schedule("an update and a read of one column, different rows",
                    "UPDATE t SET v = 9 WHERE id = 1", "SELECT v FROM t WHERE id = 2", RUNS, WAITS),
            new Schedule("a read and an update of a column nobody wrote before, different rows",
                    "SELECT w FROM t WHERE id = 1", "UPDATE t SET w = 5 WHERE id = 2", RUNS, WAITS),
            new Schedule("a read for update and an update, different rows",
                    "SELECT v FROM t WHERE id = 1 FOR UPDATE OF v", "UPDATE t SET v = 7 WHERE id = 2", RUNS, WAITS),
            new Schedule("inserts of different keys",
                    "INSERT INTO t VALUES (10, 0, 0)", "INSERT INTO t VALUES (11, 0, 0)", RUNS, WAITS),
            new Schedule("deletes of different keys",
                    "DELETE FROM t WHERE id = 1", "DELETE FROM t WHERE id = 2", RUNS, WAITS),
            new Schedule("a read of a missing key and an insert of another",
                    "SELECT v FROM t WHERE id = 10", "INSERT INTO t VALUES (11, 0, 0)", RUNS, WAITS),
            new Schedule("an insert and a read of another key",
                    "INSERT INTO t VALUES (10, 0, 0)", "SELECT v FROM t WHERE id = 2", RUNS, WAITS),
            new Schedule("a delete and an update of another row",
                    "DELETE FROM t WHERE id = 1", "UPDATE t SET v = 3 WHERE id = 2", RUNS, WAITS),
            // u.x is indexed: a read of it takes no cell (the row key covers it, CellLocks.coveredReads)
            new Schedule("a read of an indexed column and a delete of another row",
                    "SELECT x FROM u WHERE id = 1", "DELETE FROM u WHERE id = 2", RUNS, WAITS),
            new Schedule("updates of different columns of one row",
                    "UPDATE t SET v = 1 WHERE id = 1", "UPDATE t SET w = 1 WHERE id = 1", RUNS, RUNS),
            // the same key, and locks that cover it: wait in both granularities
            new Schedule("updates of one cell",
                    "UPDATE t SET v = v + 1 WHERE id = 1", "UPDATE t SET v = v + 1 WHERE id = 1", WAITS, WAITS),
            new Schedule("a read and an update of one cell",
                    "SELECT v FROM t WHERE id = 1", "UPDATE t SET v = 9 WHERE id = 1", WAITS, WAITS),
            new Schedule("a read of a missing key and its insert (a phantom)",
                    "SELECT v FROM t WHERE id = 10", "INSERT INTO t VALUES (10, 0, 0)", WAITS, WAITS),
            new Schedule("inserts of one key",
                    "INSERT INTO t VALUES (10, 0, 0)", "INSERT INTO t VALUES (10, 1, 1)", WAITS, WAITS),
            new Schedule("a delete and a read of its row",
                    "DELETE FROM t WHERE id = 1", "SELECT v FROM t WHERE id = 1", WAITS, WAITS),
            new Schedule("a scan of a column and an update of one of its cells",
                    "SELECT SUM(v) FROM t", "UPDATE t SET v = 9 WHERE id = 2", WAITS, WAITS),
            new Schedule("an update of a cell and a scan of its column",
                    "UPDATE t SET v = 9 WHERE id = 2", "SELECT SUM(v) FROM t", WAITS, WAITS),
            new Schedule("a scan of the rows and an insert (a phantom)",
                    "SELECT COUNT(*) FROM t", "INSERT INTO t VALUES (10, 0, 0)", WAITS, WAITS),
            new Schedule("a read of an indexed column and an update of it, same row",
                    "SELECT x FROM u WHERE id = 1", "UPDATE u SET x = 5 WHERE id = 1", WAITS, WAITS),
            // an update of an indexed column moves its row in the index: X on the table
            new Schedule("a read of an indexed column and an update of it in another row",
                    "SELECT x FROM u WHERE id = 1", "UPDATE u SET x = 5 WHERE id = 2", WAITS, WAITS),
            new Schedule("a read of an indexed column and a delete of its row",
                    "SELECT x FROM u WHERE id = 1", "DELETE FROM u WHERE id = 1", WAITS, WAITS),
            new Schedule("a range read and an update in the range",
                    "SELECT SUM(v) FROM t WHERE id BETWEEN 1 AND 2", "UPDATE t SET v = 9 WHERE id = 2", WAITS,
                    WAITS));

    static Stream<Arguments> schedules() {
        List<Arguments> out = new ArrayList<>();
        for (Schedule s : SCHEDULES) {
            out.add(Arguments.of(s, true));
            out.add(Arguments.of(s, false));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, cells {1}")
    @MethodSource("schedules")
    void aStatementWaitsOnlyForTheSameKeyOrALockThatCoversIt(Schedule schedule, boolean cells) throws Exception {
        String url = "jdbc:hsqldb:mem:cell_invariant_" + databases.incrementAndGet() + ";hsqldb.tx=a2l"
                + (cells ? ";hsqldb.lock_granularity=cell" : "");
        Outcome expected = cells ? schedule.cell() : schedule.column();
        Random random = new Random(schedule.name().hashCode() * 31L + (cells ? 1 : 0));
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b");
             SessionThread c = new SessionThread(Engines.fork(url), "c")) {
            a.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT, w INT)");
            a.execute("INSERT INTO t VALUES (1, 0, 0), (2, 0, 0), (3, 0, 0)");
            a.execute("CREATE TABLE u (id INT PRIMARY KEY, x INT, y INT)");
            a.execute("CREATE INDEX u_x ON u (x)");
            a.execute("INSERT INTO u VALUES (1, 0, 0), (2, 0, 0), (3, 0, 0)");
            for (SessionThread s : List.of(a, b, c)) {
                s.setAutoCommit(false);
                s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
            for (int round = 0; round < ROUNDS; round++) {
                String history = round == 0 ? "a fresh database" : history(random, b, c);
                a.execute(schedule.a());
                int pause = random.nextInt(4);
                if (pause > 0) {
                    Thread.sleep(pause);
                }
                Future<Integer> bs = b.submit(schedule.b());
                Outcome seen = outcome(b, bs);
                a.rollback();
                try {
                    SessionThread.await(bs);
                } catch (SQLException e) {
                    // a duplicate key after a rollback cannot happen; anything else is a failure
                    fail(schedule + ": B failed after A's rollback: " + e);
                }
                b.rollback();
                assertEquals(expected, seen, schedule + ", " + (cells ? "cells" : "columns") + ", round " + round
                        + " after " + history);
            }
            assertEquals(0, c.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS WHERE SESSION_ID <> "
                    + "SESSION_ID()"), "locks left behind");
            c.commit();
        }
    }

    /** Whether the submitted statement finishes or parks waiting for a lock; decided by what happens first. */
    private static Outcome outcome(SessionThread session, Future<Integer> statement) throws InterruptedException {
        long end = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < end) {
            if (statement.isDone()) {
                return Outcome.RUNS;
            }
            if (session.isWaitingForLock()) {
                return Outcome.WAITS;
            }
            Thread.sleep(0, 200_000);
        }
        throw new AssertionError("the statement neither finished nor waited for a lock in 30 s");
    }

    /**
     * One of the histories a table may have before a round, run by sessions b and c and ended
     * (committed or rolled back) before the round begins; returns what it was, for the message.
     */
    private static String history(Random random, SessionThread b, SessionThread c) throws Exception {
        switch (random.nextInt(6)) {
            case 0: {
                // two transactions meet on one row: c waits for b
                b.execute("UPDATE t SET v = v + 1 WHERE id = 3");
                Future<Integer> waits = c.submit("UPDATE t SET v = v - 1 WHERE id = 3");
                c.awaitLockWait();
                b.commit();
                SessionThread.await(waits);
                c.commit();
                return "a wait on the table";
            }
            case 1:
                c.execute("SELECT SUM(v), SUM(w) FROM t");
                c.commit();
                return "a scan";
            case 2:
                c.execute("INSERT INTO t VALUES (20, 0, 0)");
                c.execute("DELETE FROM t WHERE id = 20");
                c.commit();
                return "an insert and a delete of another row";
            case 3:
                // a table's locks once depended on what happened in the last 250 ms
                Thread.sleep(260);
                return "a quiet spell";
            case 4:
                c.execute("UPDATE t SET w = w WHERE id = 3");
                c.rollback();
                return "a rolled back write of another row";
            default:
                return "nothing";
        }
    }
}
