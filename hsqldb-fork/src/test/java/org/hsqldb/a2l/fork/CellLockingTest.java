package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A2L under LOCK GRANULARITY CELL: a statement that addresses one row by its whole primary key
 * locks that row's cells, so transactions that write the same column of different rows run
 * together; the same cell, and the whole column (scans), still wait. Each case is also run
 * under column granularity, where the same schedule waits, so that the test can fail.
 */
@RequiresPatch("Lock-cells-row-keys-and-key-ranges")
class CellLockingTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private static String url(boolean cells) {
        return EngineMode.A2L.url("jdbc:hsqldb:mem:cells" + databases.incrementAndGet())
                + (cells ? ";hsqldb.lock_granularity=cell" : "");
    }

    private static void create(SessionThread s) throws SQLException {
        s.execute("CREATE TABLE t (w INT, d INT, b INT, c INT, PRIMARY KEY (w, d))");
        s.execute("INSERT INTO t VALUES (1, 1, 10, 20), (1, 2, 11, 21), (2, 1, 12, 22)");
    }

    /**
     * Runs {@code first} in one transaction, then {@code second} in another: under cells the
     * second runs at once, under columns it waits for the first to commit; then both commit.
     */
    private static void togetherUnderCellsWaitingUnderColumns(String first, Object[] firstValues, String second,
            Object[] secondValues, String check, long expected) throws Exception {
        for (boolean cells : new boolean[] {true, false}) {
            String url = url(cells);
            try (SessionThread one = new SessionThread(Engines.fork(url), "one");
                 SessionThread two = new SessionThread(Engines.fork(url), "two")) {
                create(one);
                one.setAutoCommit(false);
                two.setAutoCommit(false);
                assertEquals(1, SessionThread.await(one.submitPrepared(first, firstValues)));
                Future<Integer> other = two.submitPrepared(second, secondValues);
                if (cells) {
                    assertEquals(1, SessionThread.await(other), "cells: at once");
                } else {
                    two.awaitLockWait();
                    assertFalse(other.isDone(), "columns: waits");
                }
                one.commit();
                assertEquals(1, SessionThread.await(other));
                two.commit();
                assertEquals(expected, one.queryLong(check));
            }
        }
    }

    /** {@code one} runs {@code first}, {@code two} runs {@code second} and waits for it; both commit. */
    private static void meet(SessionThread one, SessionThread two, String first, String second)
            throws Exception {
        assertEquals(1, one.execute(first));
        Future<Integer> met = two.submit(second);
        two.awaitLockWait();
        one.commit();
        assertEquals(1, SessionThread.await(met));
        two.commit();
    }

    @Test
    void theSameColumnOfTwoRowsIsWrittenTogetherUnderCellsAndWaitsUnderColumns() throws Exception {
        togetherUnderCellsWaitingUnderColumns("UPDATE t SET b = b + ? WHERE w = ? AND d = ?", new Object[] {1, 1, 1},
                "UPDATE t SET b = b + ? WHERE d = ? AND w = ?", new Object[] {5, 2, 1},
                "SELECT SUM(b) FROM t", 10 + 1 + 11 + 5 + 12);
    }

    @Test
    void insertsOfDifferentKeysRunTogetherUnderCellsAndWaitUnderColumns() throws Exception {
        togetherUnderCellsWaitingUnderColumns("INSERT INTO t VALUES (?, ?, 0, 0)", new Object[] {5, 1},
                "INSERT INTO t VALUES (?, ?, 0, 0)", new Object[] {5, 2}, "SELECT COUNT(*) FROM t", 5);
    }

    @Test
    void theSameCellWaitsAndItsReaderWaitsAReaderOfAnotherRowDoesNot() throws Exception {
        String url = url(true);
        try (SessionThread writer = new SessionThread(Engines.fork(url), "writer");
             SessionThread other = new SessionThread(Engines.fork(url), "other")) {
            create(writer);
            writer.setAutoCommit(false);
            other.setAutoCommit(false);
            writer.execute("UPDATE t SET b = 99 WHERE w = 1 AND d = 1");

            assertEquals(11, other.queryLong("SELECT b FROM t WHERE w = 1 AND d = 2"));
            assertEquals(20, other.queryLong("SELECT c FROM t WHERE w = 1 AND d = 1"), "another column of the row");
            Future<Integer> sameCell = other.submitPrepared("SELECT b FROM t WHERE w = ? AND d = ?", 1, 1);
            other.awaitLockWait();
            writer.commit();
            SessionThread.await(sameCell);
            other.commit();

            writer.execute("UPDATE t SET b = 98 WHERE w = 2 AND d = 1");
            Future<Integer> sameCellWrite = other.submit("UPDATE t SET b = 0 WHERE w = 2 AND d = 1");
            other.awaitLockWait();
            writer.rollback();
            assertEquals(1, SessionThread.await(sameCellWrite));
            other.commit();
            assertEquals(0, writer.queryLong("SELECT b FROM t WHERE w = 2 AND d = 1"));
        }
    }

    @Test
    void aScanOfTheColumnAndACellWriterExcludeEachOther() throws Exception {
        String url = url(true);
        try (SessionThread writer = new SessionThread(Engines.fork(url), "writer");
             SessionThread scanner = new SessionThread(Engines.fork(url), "scanner")) {
            create(writer);
            writer.setAutoCommit(false);
            scanner.setAutoCommit(false);
            scanner.setIsolation(Connection.TRANSACTION_SERIALIZABLE);

            writer.execute("UPDATE t SET b = b + 1 WHERE w = 1 AND d = 2");
            Future<Integer> sum = scanner.submit("SELECT SUM(b) FROM t");
            scanner.awaitLockWait();
            writer.commit();
            SessionThread.await(sum);

            // the scanner holds S on column b to its end: a cell writer of b waits, of c does not
            assertEquals(1, writer.execute("UPDATE t SET c = 0 WHERE w = 1 AND d = 1"));
            Future<Integer> write = writer.submit("UPDATE t SET b = 0 WHERE w = 1 AND d = 1");
            writer.awaitLockWait();
            scanner.commit();
            assertEquals(1, SessionThread.await(write));
            writer.commit();
        }
    }

    @Test
    void aPointReadOfAMissingKeyKeepsItsInsertOut() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread inserter = new SessionThread(Engines.fork(url), "inserter")) {
            create(reader);
            reader.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(-1, SessionThread.await(reader.submit("SELECT b FROM t WHERE w = 9 AND d = 9")));
            Future<Integer> insert = inserter.submit("INSERT INTO t VALUES (9, 9, 0, 0)");
            inserter.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(insert));
        }
    }

    @Test
    void forUpdateOfOneRowLocksItsCellsForTheUpdate() throws Exception {
        String url = url(true);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            SessionThread.await(one.submit("SELECT b FROM t WHERE w = 1 AND d = 1 FOR UPDATE OF b"));
            SessionThread.await(two.submit("SELECT b FROM t WHERE w = 1 AND d = 2 FOR UPDATE OF b"));
            Future<Integer> same = two.submit("SELECT b FROM t WHERE w = 1 AND d = 1 FOR UPDATE OF b");
            two.awaitLockWait();
            one.execute("UPDATE t SET b = 50 WHERE w = 1 AND d = 1");
            one.commit();
            SessionThread.await(same);
            two.commit();
        }
    }

    @Test
    void explainSaysWhichAccessLocksCellsAndWhyOthersLockColumns() throws SQLException {
        try (Connection c = Engines.fork(url(true)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (w INT, d INT, b INT, c INT, PRIMARY KEY (w, d))");
            s.execute("CREATE TABLE v (k VARCHAR(10) PRIMARY KEY, b INT)");
            // the key's columns W and D need no cell (the row key covers them: see CellLocks
            // .coveredReads); C, written or not, is read by its cell; the same before and after
            // another session writes C
            List<String> expected = List.of("DATABASE S DATABASE null",
                    "PUBLIC.T.B[?, 3] X CELL one row by its primary key",
                    "PUBLIC.T.B[?] IX KEY RANGE the key range of the cell",
                    "PUBLIC.T.C[?, 3] S CELL one row by its primary key",
                    "PUBLIC.T[?, 3] S ROW KEY one row by its primary key");
            assertEquals(expected, explain(s, "UPDATE t SET b = c + 1 WHERE w = ? AND d = 3"));
            s.execute("UPDATE t SET c = 0 WHERE w = 0"); // asks for X on T.C (and finds no row)
            assertEquals(expected, explain(s, "UPDATE t SET b = c + 1 WHERE w = ? AND d = 3"));
            assertTrue(explain(s, "SELECT c FROM t WHERE w = 1").contains(
                    "PUBLIC.T.C[1] S KEY RANGE values of rows whose primary key starts with these values"));
            assertTrue(explain(s, "SELECT b FROM t WHERE d = 1").contains(
                    "PUBLIC.T.B S COLUMN rows not addressed by the whole primary key"));
            assertTrue(explain(s, "SELECT b FROM v WHERE k = 'a'").contains(
                    "PUBLIC.V.B S COLUMN a primary key column not of an integral type"));
            assertTrue(explain(s, "SELECT b FROM t WHERE w = 1 AND d = 1 OR w = 2 AND d = 2").stream()
                    .anyMatch(l -> l.startsWith("PUBLIC.T.B S COLUMN")));
            // a subquery of the SET clause reads other rows of the table
            List<String> sub = explain(s, "UPDATE t SET b = (SELECT MAX(c) FROM t) WHERE w = 1 AND d = 1");
            assertTrue(sub.contains("PUBLIC.T S TABLE null") && sub.stream().noneMatch(l -> l.contains("[")),
                    sub::toString);
        }
    }

    @Test
    void explainNamesTheKeyRangesOfRangeReadsInsertsAndDeletes() throws SQLException {
        try (Connection c = Engines.fork(url(true)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ol (w INT, d INT, o INT, n INT, v INT, PRIMARY KEY (w, d, o, n))");
            s.execute("CREATE INDEX ol_v ON ol (w, d, v)");
            List<String> range = explain(s, "SELECT SUM(v) FROM ol WHERE w = ? AND d = 2 AND o < ?");
            assertTrue(range.contains("PUBLIC.OL[?, 2] S KEY RANGE rows whose primary key starts with these values"),
                    range::toString);
            assertTrue(range.stream().noneMatch(l -> l.startsWith("PUBLIC.OL S ")), range::toString);
            // by another index whose leading columns are the primary key's
            assertTrue(explain(s, "SELECT n FROM ol WHERE w = 1 AND d = ? AND v = 7").contains(
                    "PUBLIC.OL[1, ?] S KEY RANGE rows whose primary key starts with these values"));
            // no leading primary key column fixed: the table
            assertTrue(explain(s, "SELECT n FROM ol WHERE d = 1").contains("PUBLIC.OL S TABLE null"));
            assertEquals(List.of("DATABASE S DATABASE null", "PUBLIC.OL IX TABLE null",
                    "PUBLIC.OL[?, ?, ?, ?] X ROW KEY one row by its primary key",
                    "PUBLIC.OL[?, ?, ?] IX KEY RANGE the key range of the row",
                    "PUBLIC.OL[?, ?] IX KEY RANGE the key range of the row",
                    "PUBLIC.OL[?] IX KEY RANGE the key range of the row"),
                    explain(s, "INSERT INTO ol VALUES (?, ?, ?, ?, 0)"));
            List<String> delete = explain(s, "DELETE FROM ol WHERE w = 1 AND d = 2 AND o = ? AND n = 4");
            assertTrue(delete.containsAll(List.of("PUBLIC.OL IX TABLE null",
                    "PUBLIC.OL[1, 2, ?, 4] X ROW KEY one row by its primary key",
                    "PUBLIC.OL[1, 2, ?] IX KEY RANGE the key range of the row",
                    "PUBLIC.OL[1] IX KEY RANGE the key range of the row")), delete::toString);
            assertTrue(explain(s, "DELETE FROM ol WHERE w = 1 AND d = 2").contains(
                    "PUBLIC.OL X TABLE rows not addressed by the whole primary key"));
            s.execute("CREATE TABLE child (id INT PRIMARY KEY, w INT, d INT, o INT, n INT,"
                    + " FOREIGN KEY (w, d, o, n) REFERENCES ol)");
            assertTrue(explain(s, "DELETE FROM ol WHERE w = 1 AND d = 2 AND o = 3 AND n = 4").contains(
                    "PUBLIC.OL X TABLE a foreign key references the table"));
        }
    }

    @Test
    void explainNamesTheCellRangesOfRangeReadsAndPointWrites() throws SQLException {
        try (Connection c = Engines.fork(url(true)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ol (w INT, d INT, o INT, v INT, x INT, PRIMARY KEY (w, d, o))");
            // a range read of a column nobody has written takes the range's values all the same
            assertTrue(explain(s, "SELECT SUM(v) FROM ol WHERE w = 1 AND d = ?").contains(
                    "PUBLIC.OL.V[1, ?] S KEY RANGE values of rows whose primary key starts with these values"));
            assertEquals(List.of("DATABASE S DATABASE null",
                    "PUBLIC.OL.V[1, ?, 3] X CELL one row by its primary key",
                    "PUBLIC.OL.V[1, ?] IX KEY RANGE the key range of the cell",
                    "PUBLIC.OL.V[1] IX KEY RANGE the key range of the cell",
                    "PUBLIC.OL[1, ?, 3] S ROW KEY one row by its primary key"),
                    explain(s, "UPDATE ol SET v = 0 WHERE w = 1 AND d = ? AND o = 3"));
            // a range read for update: U on the range (see CellLocks.isCell)
            assertTrue(explain(s, "SELECT v FROM ol WHERE w = 1 AND d = 2 FOR UPDATE OF v").contains(
                    "PUBLIC.OL.V[1, 2] U KEY RANGE values of rows whose primary key starts with these values"));
        }
    }

    @Test
    @RequiresPatch("Lock-the-cells-a-range-UPDATE-changes")
    void explainNamesTheCellLocksOfARangeUpdate() throws SQLException {
        try (Connection c = Engines.fork(url(true)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ol (w INT, d INT, o INT, v INT, x INT, PRIMARY KEY (w, d, o))");
            // a write of a range: IX and S on the range, X on each row's cell as it changes it
            List<String> update = explain(s, "UPDATE ol SET v = 1 WHERE w = 1 AND d = 2");
            assertTrue(update.containsAll(List.of(
                    "PUBLIC.OL.V[1, 2] IX KEY RANGE values of rows whose primary key starts with these values",
                    "PUBLIC.OL.V[1, 2] S KEY RANGE the values it reads of the key range",
                    "PUBLIC.OL.V[1] IX KEY RANGE the key range of the cell",
                    "PUBLIC.OL.V[1, 2, ..] X CELL each row it changes, when it changes it",
                    "PUBLIC.OL[1, 2] S KEY RANGE rows whose primary key starts with these values")), update::toString);
            assertTrue(update.stream().noneMatch(l -> l.startsWith("PUBLIC.OL.V X")), update::toString);
            // unless a key column past the range is not integral: the whole column
            s.execute("CREATE TABLE named (w INT, n VARCHAR(10), v INT, PRIMARY KEY (w, n))");
            s.execute("UPDATE named SET v = 0 WHERE w = 0 AND n = 'a'");
            assertTrue(explain(s, "UPDATE named SET v = 1 WHERE w = 1").contains(
                    "PUBLIC.NAMED.V X COLUMN a write of a key range of a key not all integral"));
        }
    }

    @Test
    @RequiresPatch("Lock-the-key-ranges-of-each-table-a-join")
    void explainNamesTheKeyRangesOfEachTableAJoinReachesByAKeyPrefix() throws SQLException {
        try (Connection c = Engines.fork(url(true)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ol (w INT, d INT, o INT, n INT, i INT, PRIMARY KEY (w, d, o, n))");
            s.execute("CREATE TABLE st (w INT, i INT, q INT, PRIMARY KEY (w, i))");
            s.execute("UPDATE st SET q = 0 WHERE w = 0 AND i = 0"); // asks for a cell of Q
            String join = "SELECT COUNT(*) FROM ol, st WHERE ol.w = ? AND ol.d = ? AND ol.o >= ?"
                    + " AND st.w = ? AND st.i = ol.i AND st.q < ?";
            List<String> both = explain(s, join);
            assertTrue(both.containsAll(List.of(
                    "PUBLIC.OL[?, ?] S KEY RANGE rows whose primary key starts with these values",
                    "PUBLIC.ST[?] S KEY RANGE rows whose primary key starts with these values")),
                    both::toString);
            assertTrue(both.stream().anyMatch(l -> l.startsWith("PUBLIC.ST.Q[?, PUBLIC.OL.I] S CELL each row the"
                    + " join reaches by its primary key, when it reaches it")), both::toString);
            assertTrue(both.stream().noneMatch(l -> l.startsWith("PUBLIC.OL S ") || l.startsWith("PUBLIC.ST S ")
                    || l.startsWith("PUBLIC.ST.Q S ")), both::toString);
            // ST reached by OL's column only: ST's table and columns, OL's range
            List<String> one = explain(s, "SELECT SUM(st.q) FROM ol JOIN st ON st.i = ol.i AND st.w = ol.w"
                    + " WHERE ol.w = 1 AND ol.d = 2");
            assertTrue(one.contains("PUBLIC.OL[1, 2] S KEY RANGE rows whose primary key starts with these values"),
                    one::toString);
            assertTrue(one.contains("PUBLIC.ST S TABLE null"), one::toString);
            assertTrue(one.contains("PUBLIC.ST.Q S COLUMN a key that depends on other rows or functions"),
                    one::toString);
            List<String> self = explain(s, "SELECT SUM(a.q + b.q) FROM st a, st b WHERE a.w = 1 AND b.w = 2");
            assertTrue(self.contains("PUBLIC.ST.Q S COLUMN a table joined with itself"), self::toString);
            // a FULL join's unmatched right rows are found by another walk: tables and columns
            List<String> full = explain(s, "SELECT COUNT(*) FROM ol FULL JOIN st ON st.w = 1 AND st.i = ol.i"
                    + " AND ol.w = 1");
            assertTrue(full.contains("PUBLIC.ST S TABLE null") && full.contains("PUBLIC.OL S TABLE null")
                    && full.stream().anyMatch(l -> l.endsWith("a RIGHT or FULL OUTER JOIN")), full::toString);
        }
    }

    @Test
    @RequiresPatch("Lock-the-key-ranges-of-each-table-a-join")
    void aJoinKeepsOutTheWritersOfItsTablesKeyRangesOnly() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            create(reader);
            reader.execute("CREATE TABLE u (w INT, i INT, q INT, PRIMARY KEY (w, i))");
            reader.execute("INSERT INTO u VALUES (1, 10, 5), (1, 20, 5), (2, 10, 5)");
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            String join = "SELECT SUM(u.q) FROM t, u WHERE t.w = 1 AND u.w = 1 AND u.i > t.d";
            assertEquals(20, reader.queryLong(join));
            // the other key ranges of both tables: at once
            assertEquals(1, writer.execute("INSERT INTO t VALUES (2, 5, 0, 0)"));
            assertEquals(1, writer.execute("UPDATE u SET q = 6 WHERE w = 2 AND i = 10"));
            assertEquals(1, writer.execute("INSERT INTO u VALUES (2, 30, 5)"));
            // the join's ranges: an insert into t's and a write of u's values wait
            assertWaitsForTheReader(reader, writer, "INSERT INTO t VALUES (1, 5, 0, 0)",
                    join, 20, "read again: the same rows", 30);
            Future<Integer> write = writer.submit("UPDATE u SET q = 7 WHERE w = 1 AND i = 20");
            writer.awaitLockWait();
            assertEquals(30, reader.queryLong(join), "read again: the same values");
            reader.commit();
            assertEquals(1, SessionThread.await(write));
            writer.commit();
            assertEquals(36, reader.queryLong(join));
            reader.commit();
        }
    }

    @Test
    @RequiresPatch("Lock-the-cells-of-each-row-a-join-reaches")
    void aJoinThatReachesRowsByTheirKeyKeepsOutTheWritersOfThoseRowsOnly() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer");
             SessionThread other = new SessionThread(Engines.fork(url), "other")) {
            createOrderLinesAndStock(reader, writer);
            // a writer of the column, to the end, that wrote the join's key range last (a row the
            // join does not reach): the join does not try the whole range (see the next tests)
            // and locks rows one by one
            other.setAutoCommit(false);
            assertEquals(1, other.execute("UPDATE st SET q = 6 WHERE w = 1 AND i = 30"));
            other.commit();
            assertEquals(1, other.execute("UPDATE st SET q = 6 WHERE w = 2 AND i = 10"));
            assertEquals(10, reader.queryLong(REACHING_JOIN));
            List<String> held = locksOf(reader);
            assertTrue(held.containsAll(List.of("PUBLIC.ST[1] S", "PUBLIC.ST.Q[1, 10] S", "PUBLIC.ST.Q[1, 20] S")),
                    held::toString);
            assertTrue(held.stream().noneMatch(l -> l.startsWith("PUBLIC.ST.Q[1] ") || l.startsWith("PUBLIC.ST.Q ")),
                    held::toString);
            // a row of the join's key range that it did not reach: at once
            assertEquals(1, writer.execute("UPDATE st SET q = 6 WHERE w = 1 AND i = 30"));
            // a row it reached: waits for the join's transaction
            Future<Integer> write = writer.submit("UPDATE st SET q = 7 WHERE w = 1 AND i = 20");
            writer.awaitLockWait();
            assertEquals(10, reader.queryLong(REACHING_JOIN), "read again: the same values");
            reader.commit();
            assertEquals(1, SessionThread.await(write));
            writer.commit();
            assertEquals(12, reader.queryLong(REACHING_JOIN));
            reader.commit();
            // a row the join looks for and does not find: its insert waits too
            assertEquals(1, writer.execute("INSERT INTO ol VALUES (1, 1, 3, 40)"));
            writer.commit();
            assertEquals(12, reader.queryLong(REACHING_JOIN), "no stock row 40 yet");
            assertWaitsForTheReader(reader, writer, "INSERT INTO st VALUES (1, 40, 5)",
                    REACHING_JOIN, 12, "read again: still no row 40", 17);
            reader.commit();
            assertEquals(List.of(), locksOf(reader));
            other.rollback();
        }
    }

    @Test
    @RequiresPatch("Lock-the-cells-of-each-row-a-join-reaches")
    void aJoinRefusedARowItReachesAsADeadlockVictimEndsItsTransactionAndKeepsNoLock() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            createOrderLinesAndStock(reader, writer);
            assertEquals(1, writer.execute("UPDATE st SET q = 7 WHERE w = 1 AND i = 20"));
            // the join reaches row 10, then waits for row 20, which the writer changed
            Future<Long> join = reader.submitQueryLong(REACHING_JOIN);
            reader.awaitLockWait();
            // the writer then wants row 10, which the join holds: the join, younger, is the victim
            Future<Integer> write = writer.submit("UPDATE st SET q = 8 WHERE w = 1 AND i = 10");
            SQLException victim = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> SessionThread.await(join));
            assertEquals("40001", victim.getSQLState(), victim::toString);
            assertEquals(List.of(), locksOf(reader), "the victim's transaction ended");
            assertEquals(1, SessionThread.await(write));
            writer.commit();
            assertEquals(15, reader.queryLong(REACHING_JOIN));
            reader.commit();
        }
    }

    /**
     * TPC-C's customers in small: district (1, 1) has two customers named A (1 and 3) and one
     * named B; customer 4 of district (1, 2) and customer 5 of warehouse 2 are named A too. The
     * index on last names fixes the primary key's first two columns and one more.
     */
    private static void createCustomers(SessionThread s) throws SQLException {
        s.execute("CREATE TABLE cu (w INT, d INT, id INT, last VARCHAR(16), bal INT, PRIMARY KEY (w, d, id))");
        s.execute("CREATE INDEX cu_last ON cu (w, d, last)");
        s.execute("INSERT INTO cu VALUES (1, 1, 1, 'A', 10), (1, 1, 2, 'B', 20), (1, 1, 3, 'A', 30),"
                + " (1, 2, 4, 'A', 40), (2, 1, 5, 'A', 50)");
    }

    /** TPC-C's Order-Status by last name, in small */
    private static final String BY_LAST = "SELECT bal FROM cu WHERE w = 1 AND d = 1 AND last = 'A' ORDER BY id";

    /** the same, the customer with the highest id first */
    private static final String BY_LAST_LAST_ID = BY_LAST + " DESC";

    /**
     * {@code other} writes bal in warehouse 1, commits, then holds a write of customer 5's: a
     * writer of the column that wrote warehouse 1's cells last, so that reads of district (1, 1)
     * lock the rows they find one by one rather than try the range's values (as the joins'
     * tests above do).
     */
    private static void keepBalWritten(SessionThread other) throws SQLException {
        other.setAutoCommit(false);
        assertEquals(1, other.execute("UPDATE cu SET bal = bal WHERE w = 1 AND d = 2 AND id = 4"));
        other.commit();
        assertEquals(1, other.execute("UPDATE cu SET bal = bal WHERE w = 2 AND d = 1 AND id = 5"));
    }

    @Test
    @RequiresPatch("Lock-the-cells-of-each-row-a-read-finds")
    void explainSaysAReadThroughAnotherIndexLocksTheCellsOfTheRowsItFinds() throws Exception {
        try (SessionThread s = new SessionThread(Engines.fork(url(true)), "s");
             Statement st = s.connection().createStatement()) {
            createCustomers(s);
            List<String> read = explain(st, BY_LAST);
            assertTrue(read.contains("PUBLIC.CU.BAL[W, D, ID] S CELL each row the read finds through index CU_LAST,"
                    + " when it finds it"), read::toString);
            assertTrue(read.stream().noneMatch(l -> l.startsWith("PUBLIC.CU.BAL[1, 1] ")), read::toString);
            // an indexed column (LAST, and the key's) needs no cell: the key range covers it
            assertTrue(read.stream().noneMatch(l -> l.startsWith("PUBLIC.CU.LAST")), read::toString);
            // by the primary key's prefix alone, the range's values
            assertTrue(explain(st, "SELECT bal FROM cu WHERE w = 1 AND d = 1").contains(
                    "PUBLIC.CU.BAL[1, 1] S KEY RANGE values of rows whose primary key starts with these values"));
            // another condition, an aggregate, FOR UPDATE: the range's values
            for (String sql : new String[] {"SELECT bal FROM cu WHERE w = 1 AND d = 1 AND last = 'A' AND bal > 0",
                    "SELECT SUM(bal) FROM cu WHERE w = 1 AND d = 1 AND last = 'A'",
                    "SELECT bal FROM cu WHERE w = 1 AND d = 1 AND last = 'A' FOR UPDATE"}) {
                assertTrue(explain(st, sql).stream().noneMatch(l -> l.contains("[W, D, ID]")), sql);
            }
        }
    }

    @Test
    @RequiresPatch("Lock-the-cells-of-each-row-a-read-finds")
    void aReadThroughAnotherIndexKeepsOutTheWritersOfTheRowsItFindsOnly() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer");
             SessionThread other = new SessionThread(Engines.fork(url), "other")) {
            createCustomers(reader);
            keepBalWritten(other);
            for (SessionThread s : new SessionThread[] {reader, writer}) {
                s.setAutoCommit(false);
                s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
            assertEquals(10, reader.queryLong(BY_LAST));
            List<String> held = locksOf(reader);
            assertTrue(held.containsAll(List.of("PUBLIC.CU.BAL[1, 1, 1] S", "PUBLIC.CU.BAL[1, 1, 3] S")),
                    held::toString);
            assertTrue(held.stream().noneMatch(l -> l.startsWith("PUBLIC.CU.BAL[1, 1] ")
                    || l.startsWith("PUBLIC.CU.BAL ") || l.startsWith("PUBLIC.CU.BAL[1, 1, 2]")), held::toString);
            // a row of the read's key range that it did not find: at once
            assertEquals(1, writer.execute("UPDATE cu SET bal = 21 WHERE w = 1 AND d = 1 AND id = 2"));
            // a row it found: waits for the read's transaction, on the row's cell
            Future<Integer> write = writer.submit("UPDATE cu SET bal = 31 WHERE w = 1 AND d = 1 AND id = 3");
            try (Statement look = other.connection().createStatement()) {
                awaitWaiting(look, ((org.hsqldb.jdbc.JDBCConnection) writer.connection()).getSession().getId(),
                        "PUBLIC.CU.BAL[1, 1, 3]", "X");
            }
            assertEquals(30, reader.queryLong(BY_LAST_LAST_ID),
                    "read again: the same values");
            reader.commit();
            assertEquals(1, SessionThread.await(write));
            writer.commit();
            assertEquals(31, reader.queryLong(BY_LAST_LAST_ID));
            // an insert into the read's key range waits for it too (no phantom)
            assertWaitsForTheReader(reader, writer, "INSERT INTO cu VALUES (1, 1, 6, 'A', 60)",
                    BY_LAST_LAST_ID, 31, "read again: no customer 6 yet", 60);
            reader.commit();
            assertEquals(List.of(), locksOf(reader));
            other.rollback();
        }
    }

    /**
     * TPC-C's Order-Status against a Delivery of another customer of its district: it reads its
     * customer by last name, then the customer's orders by customer; the Delivery sets the
     * carrier of another customer's order, then credits that customer. Under S on the district's
     * values (before) each waited for the other: a deadlock. Now neither waits.
     */
    @Test
    @RequiresPatch("Lock-the-cells-of-each-row-a-read-finds")
    void anOrderStatusByLastNameAndADeliveryOfAnotherCustomerOfItsDistrictRunTogether() throws Exception {
        String url = url(true);
        try (SessionThread status = new SessionThread(Engines.fork(url), "order-status");
             SessionThread delivery = new SessionThread(Engines.fork(url), "delivery");
             SessionThread other = new SessionThread(Engines.fork(url), "other")) {
            createCustomers(status);
            status.execute("CREATE TABLE od (w INT, d INT, o INT, c INT, carrier INT, PRIMARY KEY (w, d, o))");
            status.execute("CREATE INDEX od_c ON od (w, d, c)");
            status.execute("INSERT INTO od VALUES (1, 1, 1, 1, NULL), (1, 1, 2, 2, NULL), (1, 1, 3, 3, NULL)");
            keepBalWritten(other);
            for (SessionThread s : new SessionThread[] {status, delivery}) {
                s.setAutoCommit(false);
                s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
            assertEquals(10, status.queryLong(BY_LAST));
            assertEquals(1, delivery.execute("UPDATE od SET carrier = 7 WHERE w = 1 AND d = 1 AND o = 2"));
            // (as TPC-C's, it reads the carrier: a column the Delivery writes)
            Future<Long> orders = status.submitQueryLong("SELECT o, carrier FROM od WHERE w = 1 AND d = 1 AND c = 1"
                    + " ORDER BY o DESC FETCH FIRST 1 ROWS ONLY");
            assertEquals(1, SessionThread.await(orders), "the customer's orders: at once");
            assertEquals(1, delivery.execute("UPDATE cu SET bal = bal + 5 WHERE w = 1 AND d = 1 AND id = 2"),
                    "the other customer's credit: at once");
            status.commit();
            delivery.commit();
            assertEquals(0, status.lockCounter("DEADLOCKS"));
            assertEquals(25, status.queryLong("SELECT bal FROM cu WHERE w = 1 AND d = 1 AND id = 2"));
            status.commit();
            other.rollback();
        }
    }

    /**
     * Transfers between the balances of two customers of one district who share a last name
     * (two point updates, some rolled back, some pausing between their steps) race reads of the
     * name's customers through the last-name index: every read must see the name's total, which
     * only the cells it takes on each row it finds can give.
     */
    @org.junit.jupiter.api.RepeatedTest(3)
    @RequiresPatch("Lock-the-cells-of-each-row-a-read-finds")
    void readsThroughAnotherIndexSeeWholeTransfers() throws Exception {
        String url = url(true);
        int threads = 4, rounds = 300, names = 3, perName = 4;
        try (Connection setup = Engines.fork(url); Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE cu (w INT, d INT, id INT, last VARCHAR(16), bal INT, PRIMARY KEY (w, d, id))");
            s.execute("CREATE INDEX cu_last ON cu (w, d, last)");
            for (int id = 0; id < names * perName; id++) {
                s.execute("INSERT INTO cu VALUES (1, 1, " + id + ", 'N" + id % names + "', 100)");
            }
        }
        race(threads, id -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(id * 4099L);
            try (Connection c = Engines.fork(url);
                 PreparedStatement add = c.prepareStatement(
                         "UPDATE cu SET bal = bal + ? WHERE w = 1 AND d = 1 AND id = ?");
                 PreparedStatement read = c.prepareStatement(
                         "SELECT bal FROM cu WHERE w = 1 AND d = 1 AND last = ?")) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                playRounds(c, rounds, r -> {
                    int name = random.nextInt(names);
                    if (id % 2 == 0) {
                        int from = random.nextInt(perName), to = (from + 1 + random.nextInt(perName - 1)) % perName;
                        int amount = 1 + random.nextInt(50);
                        for (int[] step : new int[][] {{from, -amount}, {to, amount}}) {
                            add.setInt(1, step[1]);
                            add.setInt(2, step[0] * names + name);
                            assertEquals(1, add.executeUpdate());
                            if (step[1] < 0 && random.nextInt(4) == 0) {
                                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                            }
                        }
                        if (random.nextInt(4) == 0) {
                            c.rollback();
                        } else {
                            c.commit();
                        }
                    } else {
                        read.setString(1, "N" + name);
                        long sum = 0, rows = 0;
                        try (ResultSet rs = read.executeQuery()) {
                            while (rs.next()) {
                                sum += rs.getLong(1);
                                rows++;
                            }
                        }
                        assertEquals(perName, rows);
                        assertEquals(100L * perName, sum, "a name's total");
                        c.commit();
                    }
                });
            }
        });
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c));
            assertEquals(100L * names * perName, count(s, "SELECT SUM(bal) FROM cu"));
            s.execute("SHUTDOWN");
        }
    }

    /**
     * Transfers between the stock rows of one warehouse (two point updates, some rolled back,
     * some pausing between their two steps) race joins that reach those rows one by one from
     * the order lines that name them: every join must see the warehouse's total, which only
     * the cells it takes as it reaches each row can give (it holds no lock on the values of
     * the key range).
     */
    @org.junit.jupiter.api.RepeatedTest(3)
    @RequiresPatch("Lock-the-cells-of-each-row-a-join-reaches")
    void joinsReachingRowsOneByOneSeeWholeTransfers() throws Exception {
        String url = url(true);
        int threads = 4, rounds = 300, warehouses = 2, items = 8;
        createTransferStock(url, warehouses, items);
        race(threads, id -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(id * 6151L);
            try (Connection c = Engines.fork(url);
                 PreparedStatement add = c.prepareStatement(TRANSFER_STEP);
                 PreparedStatement join = c.prepareStatement(WAREHOUSE_JOIN)) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                playRounds(c, rounds, r -> {
                    int w = random.nextInt(warehouses);
                    if (id % 2 == 0) {
                        transfer(c, add, random, w, items, 4);
                    } else {
                        assertWholeWarehouse(join, w, items);
                        c.commit();
                    }
                });
            }
        });
        assertTransfersKeptTheTotal(url, warehouses, items);
    }

    /** one step of a transfer: adds ? to stock row (?, ?) */
    private static final String TRANSFER_STEP = "UPDATE st SET q = q + ? WHERE w = ? AND i = ?";

    /** a warehouse's order lines and the stock rows they name, reached one by one */
    private static final String WAREHOUSE_JOIN =
            "SELECT SUM(st.q), COUNT(*) FROM ol, st WHERE ol.w = ? AND st.w = ? AND st.i = ol.i";

    /**
     * The transfer races' tables: each warehouse's order lines name all its items, in reverse
     * order, and each stock row holds 100.
     */
    private static void createTransferStock(String url, int warehouses, int items) throws SQLException {
        try (Connection setup = Engines.fork(url); Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE ol (w INT, o INT, i INT, PRIMARY KEY (w, o))");
            s.execute("CREATE TABLE st (w INT, i INT, q INT, PRIMARY KEY (w, i))");
            for (int w = 0; w < warehouses; w++) {
                for (int i = 0; i < items; i++) {
                    s.execute("INSERT INTO ol VALUES (" + w + ", " + i + ", " + (items - 1 - i) + ")");
                    s.execute("INSERT INTO st VALUES (" + w + ", " + i + ", 100)");
                }
            }
        }
    }

    /**
     * A transfer between two stock rows of warehouse {@code w}: two point updates, pausing
     * between them one time in {@code pauseOneIn} so that a join may come between; a quarter of
     * the transfers are rolled back.
     */
    private static void transfer(Connection c, PreparedStatement add, java.util.SplittableRandom random,
                                 int w, int items, int pauseOneIn) throws SQLException {
        int from = random.nextInt(items), to = (from + 1 + random.nextInt(items - 1)) % items;
        int amount = 1 + random.nextInt(50);
        for (int[] step : new int[][] {{from, -amount}, {to, amount}}) {
            add.setInt(1, step[1]);
            add.setInt(2, w);
            add.setInt(3, step[0]);
            assertEquals(1, add.executeUpdate());
            if (step[1] < 0 && random.nextInt(pauseOneIn) == 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }
        if (random.nextInt(4) == 0) {
            c.rollback();
        } else {
            c.commit();
        }
    }

    /** WAREHOUSE_JOIN of {@code w} sees the warehouse's whole total: no transfer half seen */
    private static void assertWholeWarehouse(PreparedStatement join, int w, int items) throws SQLException {
        join.setInt(1, w);
        join.setInt(2, w);
        try (ResultSet rs = join.executeQuery()) {
            rs.next();
            assertEquals(100 * items, rs.getLong(1), "a warehouse's total");
            assertEquals(items, rs.getLong(2));
        }
    }

    /** after a transfer race: the indexes are whole and the stock holds what it was loaded with */
    private static void assertTransfersKeptTheTotal(String url, int warehouses, int items) throws Exception {
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c));
            assertEquals(100 * items * warehouses, count(s, "SELECT SUM(q) FROM st"));
            s.execute("SHUTDOWN");
        }
    }

    /** TPC-C's Stock-Level in small: order lines of district (1, 1) and the stock they name */
    private static final String REACHING_JOIN =
            "SELECT SUM(st.q) FROM ol, st WHERE ol.w = 1 AND ol.d = 1 AND st.w = 1 AND st.i = ol.i";

    /** makes REACHING_JOIN's tables; then both sessions run serializable transactions */
    private static void createOrderLinesAndStock(SessionThread reader, SessionThread writer)
            throws SQLException {
        reader.execute("CREATE TABLE ol (w INT, d INT, o INT, i INT, PRIMARY KEY (w, d, o))");
        reader.execute("CREATE TABLE st (w INT, i INT, q INT, PRIMARY KEY (w, i))");
        reader.execute("INSERT INTO ol VALUES (1, 1, 1, 10), (1, 1, 2, 20), (1, 2, 1, 30)");
        reader.execute("INSERT INTO st VALUES (1, 10, 5), (1, 20, 5), (1, 30, 5), (2, 10, 5)");
        for (SessionThread s : new SessionThread[] {reader, writer}) {
            s.setAutoCommit(false);
            s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
        }
    }

    @Test
    void aRangeReadOfValuesKeepsOutTheirWritersOnlyAndWritersOfOneRangeGoTogether() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(reader);
            for (SessionThread s : new SessionThread[] {reader, one, two}) {
                s.setAutoCommit(false);
                s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
            // writers of different cells of one range: together
            assertEquals(1, one.execute("UPDATE t SET b = b + 1 WHERE w = 1 AND d = 1"));
            assertEquals(1, two.execute("UPDATE t SET b = b + 1 WHERE w = 1 AND d = 2"));
            // a read of the range's values waits for both; of another range, not
            assertEquals(12, reader.queryLong("SELECT SUM(b) FROM t WHERE w = 2"));
            Future<Long> sum = reader.submitQueryLong("SELECT SUM(b) FROM t WHERE w = 1");
            reader.awaitLockWait();
            one.commit();
            reader.awaitLockWait();
            assertFalse(sum.isDone(), "the second writer still holds its cell");
            two.commit();
            assertEquals(23, SessionThread.await(sum));
            reader.commit();
            // and a writer of a cell of the range waits for the range's reader; of another range, not
            assertEquals(23, reader.queryLong("SELECT SUM(b) FROM t WHERE w = 1"));
            assertEquals(1, one.execute("UPDATE t SET b = 0 WHERE w = 2 AND d = 1"));
            Future<Integer> write = two.submit("UPDATE t SET b = 0 WHERE w = 1 AND d = 2");
            two.awaitLockWait();
            assertEquals(23, reader.queryLong("SELECT SUM(b) FROM t WHERE w = 1"), "read again: the same values");
            reader.commit();
            assertEquals(1, SessionThread.await(write));
            one.commit();
            two.commit();
            // a range read for update lets a plain reader of the range in, not a second one for update
            assertEquals(11, reader.queryLong("SELECT b FROM t WHERE w = 1 FOR UPDATE OF b"));
            assertEquals(11, one.queryLong("SELECT SUM(b) FROM t WHERE w = 1"));
            Future<Long> second = two.submitQueryLong("SELECT b FROM t WHERE w = 1 FOR UPDATE OF b");
            two.awaitLockWait();
            one.commit();
            reader.commit();
            assertEquals(11, SessionThread.await(second));
            two.commit();
        }
    }

    @Test
    @RequiresPatch("Lock-the-cells-a-range-UPDATE-changes")
    void aRangeUpdateLocksTheCellsOfItsRowsAndLeavesOtherRowsAndColumnsFree() throws Exception {
        String url = url(true);
        try (SessionThread writer = new SessionThread(Engines.fork(url), "writer");
             SessionThread other = new SessionThread(Engines.fork(url), "other")) {
            create(writer);
            writer.execute("INSERT INTO t VALUES (2, 2, 13, 23)");
            writer.execute("UPDATE t SET b = b, c = c WHERE w = 9 AND d = 9"); // b and c have writers: cells
            writer.setAutoCommit(false);
            other.setAutoCommit(false);
            writer.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            other.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(2, writer.execute("UPDATE t SET b = b + 100 WHERE w = 1"));
            List<String> held = locksOf(writer);
            assertTrue(held.containsAll(List.of("PUBLIC.T.B[1] IX", "PUBLIC.T.B[1] S", "PUBLIC.T.B[1, 1] X",
                    "PUBLIC.T.B[1, 2] X")), held::toString);
            assertFalse(held.contains("PUBLIC.T.B X"), held::toString);
            // another range's rows, and another column of the same rows: at once
            assertEquals(12, other.queryLong("SELECT b FROM t WHERE w = 2 AND d = 1"));
            assertEquals(25, other.queryLong("SELECT SUM(b) FROM t WHERE w = 2"));
            assertEquals(2, other.execute("UPDATE t SET b = b + 1 WHERE w = 2"), "another range, under columns it waits");
            assertEquals(1, other.execute("UPDATE t SET c = 0 WHERE w = 1 AND d = 1"));
            other.commit();
            // a point read of a changed cell waits, as does a read of the range
            Future<Long> point = other.submitQueryLong("SELECT b FROM t WHERE w = 1 AND d = 2");
            other.awaitLockWait();
            writer.commit();
            assertEquals(111, SessionThread.await(point));
            other.commit();
            // and a range UPDATE waits, in the middle of the statement, for a reader of one of its cells
            assertEquals(111, other.queryLong("SELECT b FROM t WHERE w = 1 AND d = 2"));
            Future<Integer> update = writer.submit("UPDATE t SET b = 0 WHERE w = 1");
            writer.awaitLockWait();
            assertEquals(111, other.queryLong("SELECT b FROM t WHERE w = 1 AND d = 2"), "read again: the same value");
            other.commit();
            assertEquals(2, SessionThread.await(update));
            writer.commit();
            assertEquals(0, other.queryLong("SELECT SUM(b) FROM t WHERE w = 1"));
            other.commit();
            assertEquals(List.of(), locksOf(other));
            assertEquals(List.of(), IndexIntegrity.problems(other.connection()));
        }
    }

    @Test
    @RequiresPatch("Lock-the-cells-a-range-UPDATE-changes")
    void aRangeUpdateRefusedItsCellsAsADeadlockVictimChangesNothingAndKeepsNoLock() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            create(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            writer.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(10, reader.queryLong("SELECT b FROM t WHERE w = 1 AND d = 1"));
            // the writer's transaction is the younger: it holds the range's IX, waits for the cell
            Future<Integer> update = writer.submit("UPDATE t SET b = -1 WHERE w = 1");
            writer.awaitLockWait();
            // the reader reads the range: it waits for the writer's IX, which waits for the reader
            Future<Long> range = reader.submitQueryLong("SELECT SUM(b) FROM t WHERE w = 1");
            SQLException victim = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> SessionThread.await(update));
            assertEquals("40001", victim.getSQLState(), victim::toString);
            assertEquals(List.of(), locksOf(writer), "the victim's transaction ended");
            assertEquals(21, SessionThread.await(range), "nothing changed");
            reader.commit();
            assertEquals(21, writer.queryLong("SELECT SUM(b) FROM t WHERE w = 1"));
            writer.commit();
        }
    }

    /**
     * A transaction's cells of one column and row keys of one table are locked whole (the
     * column, the table) only past lockmgr's threshold, 1024 keys under the parent: before, a
     * writer of a row the reader has not read gets in; from the 1025th read on, it waits. A
     * TPC-C Stock-Level reads about 200 stock rows; when the threshold was 64, one that found
     * the column free took S on all of it to its end, and every New-Order's update of a stock
     * row waited for it.
     */
    @Test
    void cellsAndRowKeysAreLockedWholeOnlyPastTheLockManagersThreshold() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            createStock(reader, 1100);
            for (SessionThread s : new SessionThread[] {reader, writer}) {
                s.setAutoCommit(false);
                s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
            try (PreparedStatement read = reader.connection().prepareStatement(
                    "SELECT q FROM st WHERE w = 1 AND i = ?")) {
                readRows(read, 1, 1024);
                List<String> held = locksOf(reader);
                assertTrue(held.containsAll(List.of("PUBLIC.ST.Q[1, 1024] S", "PUBLIC.ST[1, 1024] S"))
                        && !held.contains("PUBLIC.ST.Q S") && !held.contains("PUBLIC.ST S"),
                        () -> held.size() + " locks");
                assertEquals(0, reader.lockCounter("ESCALATIONS"));
                // so a row the reader has not read can be written at once
                assertEquals(1, writer.execute("UPDATE st SET q = 6 WHERE w = 1 AND i = 1100"));
                writer.commit();
                // the 1025th key, with the table and the column free: the reader takes them whole
                readRows(read, 1025, 1025);
                List<String> after = locksOf(reader);
                assertTrue(after.containsAll(List.of("PUBLIC.ST S", "PUBLIC.ST.Q S")), () -> after.size() + " locks");
                assertFalse(after.contains("PUBLIC.ST.Q[1, 1025] S") || after.contains("PUBLIC.ST[1, 1025] S"),
                        "covered by the column and the table");
                assertEquals(2, reader.lockCounter("ESCALATIONS"), "the row keys and the cells");
            }
            Future<Integer> update = writer.submit("UPDATE st SET q = 7 WHERE w = 1 AND i = 1100");
            writer.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(update));
            writer.commit();
            assertEquals(List.of(), locksOf(reader));
            assertEquals(List.of(), locksOf(writer));
        }
    }

    /**
     * The threshold is a database property: hsqldb.lock_escalation on the URL, or SET DATABASE
     * LOCK ESCALATION, shown in SYSTEM_PROPERTIES; a value out of range is refused.
     */
    @Test
    void theEscalationThresholdIsADatabaseProperty() throws Exception {
        String url = url(true);
        try (Connection c = Engines.fork(url + ";hsqldb.lock_escalation=4"); Statement s = c.createStatement()) {
            assertEquals(4, count(s, "SELECT CAST(PROPERTY_VALUE AS INT) FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES"
                    + " WHERE PROPERTY_NAME = 'hsqldb.lock_escalation'"));
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SET DATABASE LOCK ESCALATION 0"));
            assertEquals("42556", e.getSQLState(), e.getMessage());
            s.execute("SET DATABASE LOCK ESCALATION 1024");
            assertEquals(1024, count(s, "SELECT CAST(PROPERTY_VALUE AS INT) FROM INFORMATION_SCHEMA"
                    + ".SYSTEM_PROPERTIES WHERE PROPERTY_NAME = 'hsqldb.lock_escalation'"));
            s.execute("SET DATABASE LOCK ESCALATION 4");
        }
        SQLException bad = assertThrows(SQLException.class,
                () -> Engines.fork(url(true) + ";hsqldb.lock_escalation=0").close());
        assertTrue(bad.getMessage().contains("hsqldb.lock_escalation=0: expected 1 to"), bad.getMessage());
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader")) {
            createStock(reader, 10);
            reader.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            try (PreparedStatement read = reader.connection().prepareStatement(
                    "SELECT q FROM st WHERE w = 1 AND i = ?")) {
                readRows(read, 1, 4);
                assertFalse(locksOf(reader).contains("PUBLIC.ST.Q S"), "4 cells");
                readRows(read, 5, 5);
                assertTrue(locksOf(reader).containsAll(List.of("PUBLIC.ST S", "PUBLIC.ST.Q S")), "the fifth");
            }
            reader.commit();
        }
    }

    @Test
    void theEscalationThresholdIsPersistedWithTheDatabase(@TempDir Path dir) throws Exception {
        String url = "jdbc:hsqldb:file:" + dir.resolve("db") + ";hsqldb.tx=a2l;hsqldb.lock_granularity=cell";
        String query = "SELECT CAST(PROPERTY_VALUE AS INT) FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES"
                + " WHERE PROPERTY_NAME = 'hsqldb.lock_escalation'";
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(1024, count(s, query));
            s.execute("SET DATABASE LOCK ESCALATION 64");
            s.execute("SHUTDOWN");
        }
        // reopened without the setting on its URL: the database keeps its own
        try (Connection c = Engines.fork("jdbc:hsqldb:file:" + dir.resolve("db")); Statement s = c.createStatement()) {
            assertEquals(64, count(s, query));
            s.execute("SHUTDOWN");
        }
    }

    /** makes st (w, i, q) with rows (1, 1..rows, 5) */
    private static void createStock(SessionThread s, int rows) throws SQLException {
        s.execute("CREATE TABLE st (w INT, i INT, q INT, PRIMARY KEY (w, i))");
        try (PreparedStatement insert = s.connection().prepareStatement("INSERT INTO st VALUES (1, ?, 5)")) {
            for (int i = 1; i <= rows; i++) {
                insert.setInt(1, i);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void readRows(PreparedStatement read, int from, int to) throws SQLException {
        for (int i = from; i <= to; i++) {
            read.setInt(1, i);
            try (ResultSet rs = read.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(5, rs.getInt(1));
            }
        }
    }

    @Test
    void systemLocksListsAKeyRangeHeldInSAndInIx() throws Exception {
        try (SessionThread one = new SessionThread(Engines.fork(url(true)), "one")) {
            create(one);
            one.setAutoCommit(false);
            one.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(2, one.queryLong("SELECT COUNT(*) FROM t WHERE w = 1"));
            assertEquals(1, one.execute("INSERT INTO t VALUES (1, 7, 0, 0)"));
            List<String> held = locksOf(one);
            assertTrue(held.containsAll(List.of("PUBLIC.T[1] S", "PUBLIC.T[1] IX")), held::toString);
            one.commit();
        }
    }

    @Test
    void aRangeReadKeepsInsertsAndDeletesOfItsRangeOutAndLetsOtherRangesIn() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            create(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(2, reader.queryLong("SELECT COUNT(*) FROM t WHERE w = 1"));
            // another range: at once
            assertEquals(1, writer.execute("INSERT INTO t VALUES (2, 5, 0, 0)"));
            assertEquals(1, writer.execute("DELETE FROM t WHERE w = 2 AND d = 1"));
            // the range read: its insert and delete wait (no phantom)
            assertWaitsForTheReader(reader, writer, "INSERT INTO t VALUES (1, 5, 0, 0)",
                    "SELECT COUNT(*) FROM t WHERE w = 1", 2, "read again: the same rows", 3);
            Future<Integer> delete = writer.submit("DELETE FROM t WHERE w = 1 AND d = 5");
            writer.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(delete));
            writer.rollback();
            assertEquals(3, reader.queryLong("SELECT COUNT(*) FROM t WHERE w = 1"), "the delete rolled back");
            reader.commit();
            assertEquals(List.of(), IndexIntegrity.problems(reader.connection()));
        }
    }

    private static void createQueue(SessionThread s) throws SQLException {
        // the key's columns in another order than the table's: searches by key are in key order
        s.execute("CREATE TABLE q (o INT, w INT, d INT, PRIMARY KEY (w, d, o))");
        s.execute("INSERT INTO q (w, d, o) VALUES (1, 1, 5), (1, 1, 6), (1, 2, 3)");
    }

    /** A read of the first row of range (w, d) of table q, in key order (TPC-C's Delivery's). */
    private static String firstOf(int w, int d) {
        return "SELECT o FROM q WHERE w = " + w + " AND d = " + d + " ORDER BY w, d, o FETCH FIRST 1 ROWS ONLY";
    }

    @Test
    @RequiresPatch("Lock-the-first-row-of-a-key-range")
    void aReadOfARangesFirstRowKeepsOutOnlyWhatWouldChangeItsFirstRow() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            createQueue(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            // the table's first such read takes S on the table, and marks it
            assertEquals(5, reader.queryLong(firstOf(1, 1)));
            List<String> marking = locksOf(reader);
            assertTrue(marking.contains("PUBLIC.Q S"), marking::toString);
            reader.commit();
            assertEquals(5, reader.queryLong(firstOf(1, 1)));
            List<String> held = locksOf(reader);
            assertTrue(held.contains("PUBLIC.Q[1, 1, first] S") && !held.contains("PUBLIC.Q S")
                    && !held.contains("PUBLIC.Q[1, 1] S"), held::toString);
            // appends after the first row, a delete of another row, another range: at once
            assertEquals(1, writer.execute("INSERT INTO q (w, d, o) VALUES (1, 1, 9)"));
            assertEquals(1, writer.execute("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 6"));
            assertEquals(1, writer.execute("INSERT INTO q (w, d, o) VALUES (1, 2, 1)"));
            writer.commit();
            // an insert before the first row waits (no phantom)
            Future<Integer> before = writer.submit("INSERT INTO q (w, d, o) VALUES (1, 1, 2)");
            writer.awaitLockWait();
            assertEquals(5, reader.queryLong(firstOf(1, 1)), "read again: the same first row");
            reader.commit();
            assertEquals(1, SessionThread.await(before));
            writer.commit();
            // and so does the delete of the first row
            assertEquals(2, reader.queryLong(firstOf(1, 1)));
            Future<Integer> delete = writer.submit("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 2");
            writer.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(delete));
            writer.rollback();
            assertEquals(List.of(), IndexIntegrity.problems(reader.connection()));
        }
        // under columns the same append waits for the reader: the test can fail
        String columns = url(false);
        try (SessionThread reader = new SessionThread(Engines.fork(columns), "reader");
             SessionThread writer = new SessionThread(Engines.fork(columns), "writer")) {
            createQueue(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(5, reader.queryLong(firstOf(1, 1)));
            Future<Integer> append = writer.submit("INSERT INTO q (w, d, o) VALUES (1, 1, 9)");
            writer.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(append));
            writer.commit();
        }
    }

    /**
     * Table q made by {@code setup}; the {@code sessions} in SERIALIZABLE transactions; the table
     * marked by a first read of a range's first row, which takes S on the table (patch 0036), so
     * that the reads that follow lock first-row names.
     */
    private static void createQueueForConsumers(SessionThread setup, SessionThread... sessions)
            throws SQLException {
        createQueue(setup);
        for (SessionThread s : sessions) {
            s.setAutoCommit(false);
            s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
        }
        assertEquals(5, sessions[0].queryLong(firstOf(1, 1)));
        sessions[0].commit();
    }

    /**
     * Two consumers of a queue, each reading a range's head FOR UPDATE and then deleting it
     * (TPC-C's Delivery): the second waits at its read, then takes the next row. Read plainly,
     * both hold S on the head's first-row name and each delete waits for the other's S.
     */
    @Test
    @RequiresPatch("Lock-a-first-row-read-FOR-UPDATE")
    void consumersThatReadAQueuesHeadForUpdateTakeTurnsAtTheReadNotDeadlockAtTheDelete() throws Exception {
        String url = url(true);
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b");
             SessionThread other = new SessionThread(Engines.fork(url), "other")) {
            createQueueForConsumers(other, a, b);
            long deadlocks = other.lockCounter("DEADLOCKS");
            String head = firstOf(1, 1) + " FOR UPDATE";
            assertTrue(ForUpdateTest.explain(a.connection(), head).contains("PUBLIC.Q[1, 1, first] X"));
            assertEquals(5, a.queryLong(head));
            List<String> held = locksOf(a);
            assertTrue(held.contains("PUBLIC.Q[1, 1, first] X"), held::toString);
            // another range's head, and an append behind the head: at once
            assertEquals(3, b.queryLong(firstOf(1, 2) + " FOR UPDATE"));
            b.commit();
            assertEquals(1, other.execute("INSERT INTO q (w, d, o) VALUES (1, 1, 9)"));
            Future<Long> next = b.submitQueryLong(head);
            b.awaitLockWait();
            assertFalse(next.isDone());
            assertEquals(1, a.execute("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 5"));
            a.commit();
            assertEquals(6, SessionThread.await(next), "the head after the first consumer's delete");
            assertEquals(1, b.execute("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 6"));
            b.commit();
            assertEquals(deadlocks, other.lockCounter("DEADLOCKS"));
            // read plainly, the same two deadlock: the test can fail
            assertEquals(9, a.queryLong(firstOf(1, 1)));
            assertEquals(9, b.queryLong(firstOf(1, 1)));
            Future<Integer> aDelete = a.submit("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 9");
            a.awaitLockWait();
            SQLException victim = assertThrows(SQLException.class,
                    () -> b.execute("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 9"));
            assertEquals("40001", victim.getSQLState(), victim.getMessage());
            b.rollback();
            assertEquals(1, SessionThread.await(aDelete));
            a.commit();
            assertEquals(deadlocks + 1, other.lockCounter("DEADLOCKS"));
            assertEquals(0, other.queryLong("SELECT COUNT(*) FROM q WHERE w = 1 AND d = 1"));
            assertEquals(List.of(), IndexIntegrity.problems(other.connection()));
        }
    }

    @Test
    @RequiresPatch("Lock-the-first-row-of-a-key-range")
    void aFirstRowBeingInsertedIsWaitedForAndTheRowBeforeAnInsertStaysToItsEnd() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            createQueue(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(5, reader.queryLong(firstOf(1, 1))); // marks the table
            reader.commit();
            // an insert into an empty range makes its first row: a reader of it waits
            assertEquals(1, writer.execute("INSERT INTO q (w, d, o) VALUES (1, 3, 4)"));
            Future<Long> read = reader.submitQueryLong(firstOf(1, 3));
            reader.awaitLockWait();
            writer.commit();
            assertEquals(4, SessionThread.await(read));
            reader.commit();
            // a row appended after the first keeps the row before it until its end: were that row
            // deleted first, a reader would take the uncommitted row for the range's first
            assertEquals(1, writer.execute("INSERT INTO q (w, d, o) VALUES (1, 3, 7)"));
            Future<Integer> delete = reader.submit("DELETE FROM q WHERE w = 1 AND d = 3 AND o = 4");
            reader.awaitLockWait();
            writer.rollback();
            assertEquals(1, SessionThread.await(delete));
            reader.commit();
            assertEquals(0, reader.queryLong("SELECT COUNT(*) FROM q WHERE w = 1 AND d = 3"));
            reader.commit();
            assertEquals(List.of(), IndexIntegrity.problems(reader.connection()));
        }
    }

    @Test
    @RequiresPatch("Lock-the-first-row-of-a-key-range")
    void theTablesFirstSuchReadWaitsForAnInsertBeforeTheFirstRowAndOnlyAReaderWithoutIxMarksIt()
            throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            createQueue(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            writer.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            // an insert before the first row, made while nobody reads first rows by name
            assertEquals(1, writer.execute("INSERT INTO q (w, d, o) VALUES (1, 1, 2)"));
            Future<Long> first = reader.submitQueryLong(firstOf(1, 1));
            reader.awaitLockWait();
            writer.rollback();
            assertEquals(5, SessionThread.await(first));
            reader.commit();
            // a session that inserted into the table reads a first row: its S on the table does
            // not mark it, since its own insert locked no first row
            String url2 = url(true);
            try (SessionThread one = new SessionThread(Engines.fork(url2), "one");
                 SessionThread two = new SessionThread(Engines.fork(url2), "two")) {
                createQueue(one);
                one.setAutoCommit(false);
                two.setAutoCommit(false);
                one.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
                two.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
                assertEquals(1, one.execute("INSERT INTO q (w, d, o) VALUES (1, 1, 2)"));
                assertEquals(2, one.queryLong(firstOf(1, 1)));
                Future<Long> other = two.submitQueryLong(firstOf(1, 1));
                two.awaitLockWait(); // not the uncommitted row
                one.rollback();
                assertEquals(5, SessionThread.await(other));
                two.commit();
            }
        }
    }

    @Test
    @RequiresPatch("Lock-the-first-row-of-a-key-range")
    void theRowBeforeAnInsertOrDeleteIsLookedForAgainWhenItsInsertRollsBack() throws Exception {
        String url = url(true);
        try (SessionThread a = new SessionThread(Engines.fork(url), "a");
             SessionThread b = new SessionThread(Engines.fork(url), "b");
             SessionThread c = new SessionThread(Engines.fork(url), "c")) {
            createQueue(a);
            for (SessionThread s : List.of(a, b, c)) {
                s.setAutoCommit(false);
            }
            assertEquals(5, a.queryLong(firstOf(1, 1))); // marks the table
            a.commit();
            // a delete keeps the row before it: the delete of that row waits
            assertEquals(1, b.execute("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 6"));
            Future<Integer> before = c.submit("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 5");
            c.awaitLockWait();
            b.rollback();
            assertEquals(1, SessionThread.await(before));
            c.rollback();
            // b's row before is a's uncommitted 8; a rolls back, and b must look again and lock 6
            assertEquals(1, a.execute("INSERT INTO q (w, d, o) VALUES (1, 1, 8)"));
            Future<Integer> after = b.submit("INSERT INTO q (w, d, o) VALUES (1, 1, 9)");
            b.awaitLockWait();
            a.rollback();
            assertEquals(1, SessionThread.await(after));
            Future<Integer> delete = c.submit("DELETE FROM q WHERE w = 1 AND d = 1 AND o = 6");
            c.awaitLockWait();
            b.commit();
            assertEquals(1, SessionThread.await(delete));
            c.commit();
            assertEquals(List.of(), IndexIntegrity.problems(a.connection()));
        }
    }

    @Test
    @RequiresPatch("Lock-the-first-row-of-a-key-range")
    void insertsLockTheFirstRowsOfTheRangeLengthsThatAreReadSo() throws Exception {
        String url = url(true);
        try (SessionThread reader = new SessionThread(Engines.fork(url), "reader");
             SessionThread writer = new SessionThread(Engines.fork(url), "writer")) {
            createQueue(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            String firstOfW = "SELECT o FROM q WHERE w = 1 ORDER BY w, d, o FETCH FIRST 1 ROWS ONLY";
            assertEquals(5, reader.queryLong(firstOfW)); // marks ranges of one value
            reader.commit();
            assertEquals(5, reader.queryLong(firstOfW));
            List<String> held = locksOf(reader);
            assertTrue(held.contains("PUBLIC.Q[1, first] S"), held::toString);
            // the first row of range (1, 3), not of (1): at once; of (1): waits
            assertEquals(1, writer.execute("INSERT INTO q (w, d, o) VALUES (1, 3, 1)"));
            Future<Integer> before = writer.submit("INSERT INTO q (w, d, o) VALUES (1, 0, 8)");
            writer.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(before));
            writer.commit();
            assertEquals(8, reader.queryLong(firstOfW));
            reader.commit();
            assertEquals(List.of(), IndexIntegrity.problems(reader.connection()));
        }
    }

    @Test
    @RequiresPatch("Lock-the-first-row-of-a-key-range")
    void explainNamesTheFirstRowOfAReadOfARangesFirstRowAndWhatItsInsertsLock() throws Exception {
        try (SessionThread s = new SessionThread(Engines.fork(url(true)), "one");
             Statement st = s.connection().createStatement()) {
            createQueue(s);
            String first = "SELECT o FROM q WHERE w = ? AND d = ? ORDER BY w, d, o FETCH FIRST 1 ROWS ONLY";
            assertTrue(explain(st, first).contains("PUBLIC.Q S TABLE the first read of a key range's first row"
                    + " on the table (then its inserts and deletes lock what changes a first row)"),
                    () -> explain(st, first).toString());
            assertEquals(5, s.queryLong(firstOf(1, 1)));
            assertTrue(explain(st, first).contains(
                    "PUBLIC.Q[?, ?, first] S FIRST ROW the first row of the key range, in key order"),
                    () -> explain(st, first).toString());
            // not a read of the first row only: the key range
            for (String other : List.of("SELECT o FROM q WHERE w = ? AND d = ? ORDER BY w, d, o FETCH FIRST 2 ROWS ONLY",
                    "SELECT o FROM q WHERE w = ? AND d = ? ORDER BY w, d, o DESC FETCH FIRST 1 ROWS ONLY",
                    "SELECT o FROM q WHERE w = ? AND d = ? AND o > 3 ORDER BY w, d, o FETCH FIRST 1 ROWS ONLY",
                    "SELECT MIN(o) FROM q WHERE w = ? AND d = ?")) {
                assertTrue(explain(st, other).contains(
                        "PUBLIC.Q[?, ?] S KEY RANGE rows whose primary key starts with these values"),
                        () -> other + ": " + explain(st, other));
            }
            List<String> insert = explain(st, "INSERT INTO q (w, d, o) VALUES (?, ?, ?)");
            assertTrue(insert.containsAll(List.of(
                    "PUBLIC.Q[?, ?, first] IX FIRST ROW if no row of the key range comes before the row",
                    "PUBLIC.Q[the row before ?, ?, ?] S ROW KEY the row before it in the longest of those key"
                    + " ranges that has one")), insert::toString);
            // only the lengths whose first rows are read: no reader of (w) ranges yet
            assertTrue(insert.stream().noneMatch(l -> l.startsWith("PUBLIC.Q[?, first]")), insert::toString);
        }
    }

    /**
     * Queues: appenders insert rows into two ranges (in no particular order, so some come
     * before a range's first row), takers read a range's first row, delete it and record it,
     * counters read a range; a quarter of the appends and takes roll back. A take must delete
     * the row it read (nobody took it meanwhile) and record it once; afterwards every row taken
     * was committed by its appender, the rows left and taken are exactly the rows appended, and
     * every index checks.
     */
    @org.junit.jupiter.api.RepeatedTest(5)
    @RequiresPatch("Lock-the-first-row-of-a-key-range")
    void takersOfFirstRowsAndAppendersTakeEachCommittedRowOnceAndKeepTheIndexesWhole() throws Exception {
        String url = url(true);
        try (Connection setup = Engines.fork(url); Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE q (o INT, w INT, d INT, PRIMARY KEY (w, d, o))");
            s.execute("CREATE TABLE appended (w INT, d INT, o INT, PRIMARY KEY (w, d, o))");
            s.execute("CREATE TABLE taken (w INT, d INT, o INT, PRIMARY KEY (w, d, o))");
        }
        int threads = 6, rounds = 300, ranges = 2;
        race(threads, id -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(id * 7919L);
            try (Connection c = Engines.fork(url);
                 java.sql.PreparedStatement append = c.prepareStatement("INSERT INTO q (w, d, o) VALUES (1, ?, ?)");
                 java.sql.PreparedStatement note = c.prepareStatement("INSERT INTO appended VALUES (1, ?, ?)");
                 java.sql.PreparedStatement first = c.prepareStatement(
                         "SELECT o FROM q WHERE w = 1 AND d = ? ORDER BY w, d, o FETCH FIRST 1 ROWS ONLY");
                 java.sql.PreparedStatement take = c.prepareStatement("DELETE FROM q WHERE w = 1 AND d = ? AND o = ?");
                 java.sql.PreparedStatement taken = c.prepareStatement("INSERT INTO taken VALUES (1, ?, ?)");
                 java.sql.PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM q WHERE w = 1 AND d = ?")) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                playRounds(c, rounds, r -> {
                    int kind = random.nextInt(10), d = random.nextInt(ranges);
                    if (kind < 5) {
                        // half the appenders count down: their rows come before the first
                        int o = (id % 2 == 0 ? r : rounds - r) * threads + id;
                        for (java.sql.PreparedStatement p : List.of(append, note)) {
                            p.setInt(1, d);
                            p.setInt(2, o);
                            if (p.executeUpdate() != 1) {
                                throw new AssertionError("one row appended");
                            }
                        }
                    } else if (kind < 8) {
                        first.setInt(1, d);
                        int o;
                        try (ResultSet rs = first.executeQuery()) {
                            if (!rs.next()) {
                                c.commit();
                                return;
                            }
                            o = rs.getInt(1);
                        }
                        take.setInt(1, d);
                        take.setInt(2, o);
                        assertEquals(1, take.executeUpdate(), "the first row read is there to take");
                        taken.setInt(1, d);
                        taken.setInt(2, o);
                        taken.executeUpdate();
                    } else {
                        count.setInt(1, d);
                        try (ResultSet rs = count.executeQuery()) {
                            rs.next();
                        }
                    }
                    if (kind < 8 && random.nextInt(4) == 0) {
                        c.rollback();
                    } else {
                        c.commit();
                    }
                });
            }
        });
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c));
            assertEquals(0, count(s, "SELECT COUNT(*) FROM taken t WHERE NOT EXISTS"
                    + " (SELECT 1 FROM appended a WHERE a.w = t.w AND a.d = t.d AND a.o = t.o)"), "taken, never committed");
            assertEquals(0, count(s, "SELECT COUNT(*) FROM taken t, q WHERE q.w = t.w AND q.d = t.d AND q.o = t.o"),
                    "taken and left");
            assertEquals(count(s, "SELECT COUNT(*) FROM appended"),
                    count(s, "SELECT COUNT(*) FROM q") + count(s, "SELECT COUNT(*) FROM taken"));
            assertTrue(count(s, "SELECT COUNT(*) FROM taken") > 50, "takes were made");
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void deletesAndInsertsOfOneRangeRunTogetherAndThePointReadOfARowKeepsItsDeleteOut() throws Exception {
        String url = url(true);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            one.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(1, one.execute("DELETE FROM t WHERE w = 1 AND d = 1"));
            assertEquals(1, two.execute("DELETE FROM t WHERE w = 1 AND d = 2"), "another row of the range: at once");
            assertEquals(1, two.execute("INSERT INTO t VALUES (1, 3, 0, 0)"));
            Future<Integer> same = two.submit("DELETE FROM t WHERE w = 1 AND d = 1");
            two.awaitLockWait();
            one.rollback();
            assertEquals(1, SessionThread.await(same), "the first delete rolled back: the row is there");
            two.commit();
            assertEquals(0, one.queryLong("SELECT COUNT(*) FROM t WHERE w = 1 AND d < 3"));
            one.commit();
            assertEquals(12, one.queryLong("SELECT SUM(b) FROM t WHERE w = 2 AND d = 1"));
            Future<Integer> delete = two.submit("DELETE FROM t WHERE w = 2 AND d = 1");
            two.awaitLockWait();
            one.commit();
            assertEquals(1, SessionThread.await(delete));
            two.commit();
            assertEquals(List.of(), IndexIntegrity.problems(one.connection()));
        }
    }

    @Test
    void aDuplicateKeyWaitsForTheFirstInsertThenFailsOrSucceeds() throws Exception {
        String url = url(true);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            one.execute("INSERT INTO t VALUES (7, 1, 0, 0)");
            Future<Integer> duplicate = two.submit("INSERT INTO t VALUES (7, 1, 1, 1)");
            two.awaitLockWait();
            one.rollback();
            assertEquals(1, SessionThread.await(duplicate), "the first insert rolled back: the key is free");
            two.commit();

            one.execute("INSERT INTO t VALUES (8, 1, 0, 0)");
            Future<Integer> again = two.submit("INSERT INTO t VALUES (8, 1, 1, 1)");
            two.awaitLockWait();
            one.commit();
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> SessionThread.await(again));
            assertEquals("23505", e.getSQLState(), e.toString());
            two.rollback();
            assertEquals(0, one.queryLong("SELECT b FROM t WHERE w = 8 AND d = 1"));
        }
    }

    @Test
    void insertsAndReadersOfTheTableExcludeEachOther() throws Exception {
        String url = url(true);
        try (SessionThread inserter = new SessionThread(Engines.fork(url), "inserter");
             SessionThread reader = new SessionThread(Engines.fork(url), "reader")) {
            create(inserter);
            inserter.setAutoCommit(false);
            reader.setAutoCommit(false);
            reader.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
            inserter.execute("INSERT INTO t VALUES (3, 1, 0, 0)");
            Future<Integer> count = reader.submit("SELECT COUNT(*) FROM t WHERE b >= 0");
            reader.awaitLockWait();
            inserter.commit();
            SessionThread.await(count);
            Future<Integer> insert = inserter.submit("INSERT INTO t VALUES (3, 2, 0, 0)");
            inserter.awaitLockWait();
            reader.commit();
            assertEquals(1, SessionThread.await(insert));
            inserter.commit();
        }
    }

    @Test
    void aChildInsertWaitsForItsParentsInsertAndNotForOtherParents() throws Exception {
        String url = url(true);
        try (SessionThread parent = new SessionThread(Engines.fork(url), "parent");
             SessionThread child = new SessionThread(Engines.fork(url), "child")) {
            parent.execute("CREATE TABLE p (id INT PRIMARY KEY, v INT)");
            parent.execute("CREATE TABLE c (id INT PRIMARY KEY, p_id INT REFERENCES p (id))");
            parent.execute("INSERT INTO p VALUES (1, 0)");
            parent.setAutoCommit(false);
            child.setAutoCommit(false);
            parent.execute("INSERT INTO p VALUES (2, 0)");
            assertEquals(1, child.execute("INSERT INTO c VALUES (10, 1)"), "an existing parent, beside an insert into p");
            Future<Integer> orphanOrNot = child.submit("INSERT INTO c VALUES (11, 2)");
            child.awaitLockWait();
            parent.rollback();
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> SessionThread.await(orphanOrNot));
            assertEquals("23503", e.getSQLState(), "the parent row never came: " + e);
            child.commit();
            assertEquals(1, parent.queryLong("SELECT COUNT(*) FROM c"));
        }
    }

    @Test
    void explainNamesTheRowKeysOfAnInsert() throws SQLException {
        try (Connection c = Engines.fork(url(true)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE p (id INT PRIMARY KEY, v INT)");
            s.execute("CREATE TABLE c (id INT PRIMARY KEY, p_id INT REFERENCES p (id))");
            s.execute("CREATE TABLE h (p_id INT REFERENCES p (id), v INT)");
            assertEquals(List.of("DATABASE S DATABASE null", "PUBLIC.C IX TABLE null",
                    "PUBLIC.C[?] X ROW KEY one row by its primary key",
                    "PUBLIC.P[?] S ROW KEY the parent row of a foreign key"),
                    explain(s, "INSERT INTO c VALUES (?, ?)"));
            assertEquals(List.of("DATABASE S DATABASE null", "PUBLIC.H IX TABLE null",
                    "PUBLIC.P[5] S ROW KEY the parent row of a foreign key"),
                    explain(s, "INSERT INTO h VALUES (5, 0)"));
            assertTrue(explain(s, "INSERT INTO c SELECT id, id FROM p").contains(
                    "PUBLIC.C X TABLE not an INSERT of one row of VALUES"));
        }
    }

    @Test
    void insertsCheckTwoForeignKeysToOneParentAndASelfReferenceUnderTheParentsLock() throws Exception {
        String url = url(true);
        try (SessionThread parent = new SessionThread(Engines.fork(url), "parent");
             SessionThread child = new SessionThread(Engines.fork(url), "child")) {
            parent.execute("CREATE TABLE nodes (id INT PRIMARY KEY)");
            parent.execute("CREATE TABLE edges (id INT PRIMARY KEY, src INT REFERENCES nodes (id), "
                    + "dst INT REFERENCES nodes (id))");
            parent.execute("CREATE TABLE emp (id INT PRIMARY KEY, boss INT REFERENCES emp (id))");
            parent.execute("INSERT INTO nodes VALUES (1)");
            parent.execute("INSERT INTO emp VALUES (1, NULL)");
            parent.setAutoCommit(false);
            child.setAutoCommit(false);

            // the second key's parent row is being inserted: the edge must wait for it
            parent.execute("INSERT INTO nodes VALUES (2)");
            Future<Integer> edge = child.submit("INSERT INTO edges VALUES (1, 1, 2)");
            child.awaitLockWait();
            parent.rollback();
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> SessionThread.await(edge));
            assertEquals("23503", e.getSQLState(), e.toString());
            child.rollback();

            // the same with a boss row of the same table
            parent.execute("INSERT INTO emp VALUES (10, 1)");
            Future<Integer> report = child.submit("INSERT INTO emp VALUES (11, 10)");
            child.awaitLockWait();
            parent.rollback();
            e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> SessionThread.await(report));
            assertEquals("23503", e.getSQLState(), e.toString());
            child.rollback();
            assertEquals(0, parent.queryLong("SELECT COUNT(*) FROM edges"));
            assertEquals(1, parent.queryLong("SELECT COUNT(*) FROM emp"));
        }
    }

    @Test
    void aPointReadThatCallsARoutineLocksColumns() throws SQLException {
        try (Connection c = Engines.fork(url(true)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (w INT, d INT, b INT, c INT, PRIMARY KEY (w, d))");
            s.execute("CREATE FUNCTION total() RETURNS INT READS SQL DATA RETURN (SELECT SUM(b) FROM t)");
            assertTrue(explain(s, "SELECT total() + b FROM t WHERE w = 1 AND d = 1").contains(
                    "PUBLIC.T.B S COLUMN a routine call"), () -> explain(s, "SELECT total() + b FROM t WHERE w = 1 AND d = 1").toString());
            assertTrue(explain(s, "SELECT b FROM t WHERE w = CAST(? AS DOUBLE) AND d = 1").contains(
                    "PUBLIC.T.B S COLUMN a key expression not of an integral type"),
                    () -> explain(s, "SELECT b FROM t WHERE w = CAST(? AS DOUBLE) AND d = 1").toString());
        }
    }

    /**
     * Many sessions insert into one table and its child, some roll back, others read it by key
     * and by scan; afterwards every index checks and the rows are exactly the committed ones.
     */
    @org.junit.jupiter.api.RepeatedTest(5)
    void manyInsertersWithRollbacksAndReadersKeepTheIndexesWhole() throws Exception {
        String url = url(true);
        try (Connection setup = Engines.fork(url); Statement s = setup.createStatement()) {
            insertersWithRollbacksAndReaders(url, s);
        }
    }

    /** The race of the test above, on the database {@code setup} is connected to. */
    private static void insertersWithRollbacksAndReaders(String url, Statement setup) throws Exception {
        setup.execute("CREATE TABLE p (id INT PRIMARY KEY, v INT)");
        setup.execute("CREATE TABLE c (id INT PRIMARY KEY, p_id INT REFERENCES p (id), v INT)");
        setup.execute("INSERT INTO p VALUES (0, 0)");
        int threads = 6, rounds = 300;
        java.util.concurrent.atomic.AtomicLong committedParents = new java.util.concurrent.atomic.AtomicLong(1),
                committedChildren = new java.util.concurrent.atomic.AtomicLong();
        race(threads, id -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(id * 7919L);
            try (Connection c = Engines.fork(url)) {
                c.setAutoCommit(false);
                playRounds(c, rounds, r -> {
                    int kind = random.nextInt(10);
                    try (java.sql.PreparedStatement ins = c.prepareStatement("INSERT INTO p VALUES (?, ?)");
                         java.sql.PreparedStatement child = c.prepareStatement("INSERT INTO c VALUES (?, ?, ?)");
                         Statement q = c.createStatement()) {
                        if (kind < 7) {
                            int key = 1 + id * rounds + r;
                            ins.setInt(1, key);
                            ins.setInt(2, r);
                            ins.executeUpdate();
                            child.setInt(1, key);
                            child.setInt(2, random.nextBoolean() ? key : 0);
                            child.setInt(3, r);
                            child.executeUpdate();
                            if (random.nextInt(4) == 0) {
                                c.rollback();
                            } else {
                                c.commit();
                                committedParents.incrementAndGet();
                                committedChildren.incrementAndGet();
                            }
                        } else if (kind < 9) {
                            try (ResultSet rs = q.executeQuery("SELECT v FROM p WHERE id = " + random.nextInt(threads * rounds))) {
                                while (rs.next()) {
                                    rs.getInt(1);
                                }
                            }
                            c.commit();
                        } else {
                            try (ResultSet rs = q.executeQuery("SELECT COUNT(*), SUM(v) FROM c")) {
                                rs.next();
                            }
                            c.commit();
                        }
                    }
                });
            }
        });
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c));
            assertEquals(committedParents.get(), count(s, "SELECT COUNT(*) FROM p"));
            assertEquals(committedChildren.get(), count(s, "SELECT COUNT(*) FROM c"));
            assertEquals(0, count(s, "SELECT COUNT(*) FROM c WHERE p_id NOT IN (SELECT id FROM p)"));
            List<String> insert = explain(s, "INSERT INTO p VALUES (?, ?)");
            assertTrue(insert.stream().anyMatch(l -> l.startsWith("PUBLIC.P IX TABLE")), () -> "keyed: " + insert);
            s.execute("SHUTDOWN");
        }
    }

    /**
     * Sessions insert and delete pairs of rows whose values cancel out, in a few key ranges
     * shared by all, some roll back; others read ranges (alone and joined with another table),
     * single rows and the whole table. Every read of a range or of the table must see whole
     * pairs only (sum 0), and afterwards every
     * index checks and the rows are exactly the committed ones.
     */
    @org.junit.jupiter.api.RepeatedTest(5)
    void insertersDeletersAndRangeReadersOfSharedRangesSeeWholePairsAndKeepTheIndexesWhole()
            throws Exception {
        String url = url(true);
        try (Connection setup = Engines.fork(url); Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE e (g INT, n INT, v INT, PRIMARY KEY (g, n))");
            s.execute("CREATE TABLE gr (g INT PRIMARY KEY)");
            s.execute("INSERT INTO gr VALUES 0, 1, 2");
        }
        int threads = 6, rounds = 300, ranges = 3;
        java.util.concurrent.atomic.AtomicLong committedRows = new java.util.concurrent.atomic.AtomicLong();
        race(threads, id -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(id * 104729L);
            List<int[]> pairs = new ArrayList<>(); // this worker's committed pairs: g, n
            try (Connection c = Engines.fork(url);
                 java.sql.PreparedStatement ins = c.prepareStatement("INSERT INTO e VALUES (?, ?, ?)");
                 java.sql.PreparedStatement del = c.prepareStatement("DELETE FROM e WHERE g = ? AND n = ?");
                 java.sql.PreparedStatement range = c.prepareStatement("SELECT SUM(v), COUNT(*) FROM e WHERE g = ?");
                 java.sql.PreparedStatement joined = c.prepareStatement(
                         "SELECT SUM(e.v), COUNT(*) FROM gr, e WHERE gr.g = ? AND e.g = ? AND e.n >= gr.g");
                 java.sql.PreparedStatement point = c.prepareStatement("SELECT v FROM e WHERE g = ? AND n = ?");
                 Statement q = c.createStatement()) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                playRounds(c, rounds, r -> {
                    int kind = random.nextInt(10);
                    if (kind < 4) {
                        int g = random.nextInt(ranges), n = (id * rounds + r) * 2, v = 1 + random.nextInt(100);
                        for (int half = 0; half < 2; half++) {
                            ins.setInt(1, g);
                            ins.setInt(2, n + half);
                            ins.setInt(3, half == 0 ? v : -v);
                            ins.executeUpdate();
                        }
                        if (random.nextInt(4) == 0) {
                            c.rollback();
                        } else {
                            c.commit();
                            pairs.add(new int[] {g, n});
                            committedRows.addAndGet(2);
                        }
                    } else if (kind < 6 && !pairs.isEmpty()) {
                        int[] pair = pairs.get(random.nextInt(pairs.size()));
                        for (int half = 0; half < 2; half++) {
                            del.setInt(1, pair[0]);
                            del.setInt(2, pair[1] + half);
                            assertEquals(1, del.executeUpdate(), "a committed row of this worker");
                        }
                        if (random.nextInt(4) == 0) {
                            c.rollback();
                        } else {
                            c.commit();
                            pairs.remove(pair);
                            committedRows.addAndGet(-2);
                        }
                    } else if (kind < 8) {
                        int g = random.nextInt(ranges);
                        boolean join = random.nextBoolean(); // the range alone, or joined
                        java.sql.PreparedStatement read = join ? joined : range;
                        read.setInt(1, g);
                        if (join) {
                            read.setInt(2, g);
                        }
                        try (ResultSet rs = read.executeQuery()) {
                            rs.next();
                            assertEquals(0, rs.getLong(1), "a range holds whole pairs");
                            assertEquals(0, rs.getLong(2) % 2, "a range holds whole pairs");
                        }
                        c.commit();
                    } else if (kind < 9) {
                        point.setInt(1, random.nextInt(ranges));
                        point.setInt(2, random.nextInt(threads * rounds * 2));
                        try (ResultSet rs = point.executeQuery()) {
                            while (rs.next()) {
                                rs.getInt(1);
                            }
                        }
                        c.commit();
                    } else {
                        try (ResultSet rs = q.executeQuery("SELECT SUM(v), COUNT(*) FROM e")) {
                            rs.next();
                            assertEquals(0, rs.getLong(1), "the table holds whole pairs");
                        }
                        c.commit();
                    }
                });
            }
        });
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c));
            assertEquals(committedRows.get(), count(s, "SELECT COUNT(*) FROM e"));
            assertEquals(0, count(s, "SELECT COUNT(*) FROM (SELECT g FROM e GROUP BY g HAVING SUM(v) <> 0)"));
            s.execute("SHUTDOWN");
        }
    }

    /**
     * Transfers between two rows of one range (two point updates of one column, some rolled
     * back) and range UPDATEs of another column race range readers (plain, joined with another
     * table, and FOR UPDATE), repeated point reads and table reads: every read of a range must
     * see its total, which only a lock on the range's values that the transfers' cells conflict
     * with can give, and every read of the other column a range UPDATE whole or not at all.
     */
    @org.junit.jupiter.api.RepeatedTest(5)
    void transfersWithinRangesAndReadersOfTheRangesValuesSeeWholeTransfers() throws Exception {
        String url = url(true);
        int threads = 6, rounds = 400, ranges = 3, rows = 6;
        try (Connection setup = Engines.fork(url); Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE a (g INT, n INT, v INT, x INT DEFAULT 0, PRIMARY KEY (g, n))");
            s.execute("CREATE TABLE gr (g INT PRIMARY KEY)");
            s.execute("INSERT INTO gr VALUES 0, 1, 2");
            s.execute("CREATE TABLE nk (n INT PRIMARY KEY)");
            for (int g = 0; g < ranges; g++) {
                for (int n = 0; n < rows; n++) {
                    s.execute("INSERT INTO a (g, n, v) VALUES (" + g + ", " + n + ", 100)");
                }
            }
            for (int n = 0; n < rows; n++) {
                s.execute("INSERT INTO nk VALUES " + n);
            }
        }
        race(threads, id -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(id * 7919L);
            try (Connection c = Engines.fork(url);
                 java.sql.PreparedStatement add = c.prepareStatement("UPDATE a SET v = v + ? WHERE g = ? AND n = ?");
                 java.sql.PreparedStatement sum = c.prepareStatement("SELECT SUM(v) FROM a WHERE g = ?");
                 java.sql.PreparedStatement joined = c.prepareStatement(
                         "SELECT SUM(a.v) FROM gr, a WHERE gr.g = ? AND a.g = ? AND a.n >= gr.g - 10");
                 java.sql.PreparedStatement reaching = c.prepareStatement(
                         "SELECT SUM(a.v) FROM nk, a WHERE a.g = ? AND a.n = nk.n");
                 java.sql.PreparedStatement forUpdate = c.prepareStatement(
                         "SELECT v FROM a WHERE g = ? FOR UPDATE OF v");
                 java.sql.PreparedStatement point = c.prepareStatement("SELECT v FROM a WHERE g = ? AND n = ?");
                 java.sql.PreparedStatement bump = c.prepareStatement("UPDATE a SET x = x + 1 WHERE g = ?");
                 java.sql.PreparedStatement spread = c.prepareStatement(
                         "SELECT MAX(x) - MIN(x) FROM a WHERE g = ?");
                 java.sql.PreparedStatement pointX = c.prepareStatement("SELECT x FROM a WHERE g = ? AND n = ?");
                 Statement q = c.createStatement()) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                playRounds(c, rounds, r -> {
                    int kind = random.nextInt(12), g = random.nextInt(ranges);
                    if (kind < 5) {
                        int from = random.nextInt(rows), to = (from + 1 + random.nextInt(rows - 1)) % rows;
                        int amount = 1 + random.nextInt(50);
                        for (int[] step : new int[][] {{from, -amount}, {to, amount}}) {
                            add.setInt(1, step[1]);
                            add.setInt(2, g);
                            add.setInt(3, step[0]);
                            assertEquals(1, add.executeUpdate());
                        }
                        if (random.nextInt(4) == 0) {
                            c.rollback();
                        } else {
                            c.commit();
                        }
                    } else if (kind < 7) {
                        // the range alone, joined, or its rows reached one by one through a join
                        int how = random.nextInt(3);
                        java.sql.PreparedStatement read = how == 0 ? sum : how == 1 ? joined : reaching;
                        read.setInt(1, g);
                        if (how == 1) {
                            read.setInt(2, g);
                        }
                        try (ResultSet rs = read.executeQuery()) {
                            rs.next();
                            assertEquals(100 * rows, rs.getLong(1), "a range's total");
                        }
                        c.commit();
                    } else if (kind < 8) {
                        forUpdate.setInt(1, g);
                        long total = 0;
                        try (ResultSet rs = forUpdate.executeQuery()) {
                            while (rs.next()) {
                                total += rs.getLong(1);
                            }
                        }
                        assertEquals(100 * rows, total, "a range's total, read for update");
                        c.commit();
                    } else if (kind < 9) {
                        point.setInt(1, g);
                        point.setInt(2, random.nextInt(rows));
                        long[] seen = new long[2];
                        for (int i = 0; i < 2; i++) {
                            try (ResultSet rs = point.executeQuery()) {
                                rs.next();
                                seen[i] = rs.getLong(1);
                            }
                        }
                        assertEquals(seen[0], seen[1], "a cell read twice");
                        c.commit();
                    } else if (kind == 10) {
                        // a range UPDATE: every row of the range, or none
                        bump.setInt(1, g);
                        assertEquals(rows, bump.executeUpdate());
                        if (random.nextInt(4) == 0) {
                            c.rollback();
                        } else {
                            c.commit();
                        }
                    } else if (kind == 11) {
                        // its rows' cells, read by range or one by one, are all from one state
                        if (random.nextBoolean()) {
                            spread.setInt(1, g);
                            try (ResultSet rs = spread.executeQuery()) {
                                rs.next();
                                assertEquals(0, rs.getLong(1), "a range UPDATE seen in part by a range read");
                            }
                        } else {
                            long[] seen = new long[2];
                            for (int i = 0; i < 2; i++) {
                                pointX.setInt(1, g);
                                pointX.setInt(2, (i * 3 + random.nextInt(3)) % rows);
                                try (ResultSet rs = pointX.executeQuery()) {
                                    rs.next();
                                    seen[i] = rs.getLong(1);
                                }
                            }
                            assertEquals(seen[0], seen[1], "a range UPDATE seen in part by point reads");
                        }
                        c.commit();
                    } else {
                        try (ResultSet rs = q.executeQuery("SELECT SUM(v) FROM a")) {
                            rs.next();
                            assertEquals(100 * rows * ranges, rs.getLong(1), "the table's total");
                        }
                        c.commit();
                    }
                });
            }
        });
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            assertEquals(List.of(), IndexIntegrity.problems(c));
            assertEquals(0, count(s, "SELECT COUNT(*) FROM (SELECT g FROM a GROUP BY g HAVING SUM(v) <> "
                    + 100 * rows + " OR MAX(x) <> MIN(x))"));
            s.execute("SHUTDOWN");
        }
    }

    interface Round {
        void run(int round) throws SQLException;
    }

    /** Plays rounds 0 .. rounds - 1 on {@code c}; a deadlock victim's round is rolled back, not played again. */
    private static void playRounds(Connection c, int rounds, Round round) throws SQLException {
        for (int r = 0; r < rounds; r++) {
            try {
                round.run(r);
            } catch (SQLException e) {
                if (!"40001".equals(e.getSQLState())) {
                    throw e;
                }
                c.rollback();
            }
        }
    }

    interface Worker {
        void run(int id) throws Exception;
    }

    /** Runs {@code worker} on {@code threads} threads at once; fails if one fails or hangs. */
    private static void race(int threads, Worker worker) throws InterruptedException {
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            Thread th = new Thread(() -> {
                try {
                    worker.run(id);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "worker-" + t);
            workers.add(th);
            th.start();
        }
        for (Thread th : workers) {
            th.join(120_000);
            assertFalse(th.isAlive(), "a worker hung");
        }
        assertTrue(failures.isEmpty(), () -> failures.peek().toString());
    }

    /** Returns once the session waits for {@code mode} on the lock {@code name}; fails if it never does. */
    private static void awaitWaiting(Statement s, long session, String name, String mode) throws Exception {
        String sql = "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS WHERE SESSION_ID = " + session
                + " AND LOCK_NAME = '" + name + "' AND LOCK_MODE = '" + mode + "' AND LOCK_STATE = 'WAITING'";
        for (int i = 0; i < 6000; i++) {
            if (count(s, sql) == 1) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("session " + session + " never waited for " + name + " " + mode);
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * {@code write}, by {@code writer}, waits for {@code reader}'s transaction: {@code read}
     * still gives {@code same} meanwhile ({@code again} says what that means), and {@code after}
     * once the reader has committed and the write with it.
     */
    private static void assertWaitsForTheReader(SessionThread reader, SessionThread writer,
            String write, String read, long same, String again, long after) throws Exception {
        Future<Integer> written = writer.submit(write);
        writer.awaitLockWait();
        assertEquals(same, reader.queryLong(read), again);
        reader.commit();
        assertEquals(1, SessionThread.await(written));
        writer.commit();
        assertEquals(after, reader.queryLong(read));
    }

    /** The locks the session holds, as "name mode". */
    static List<String> locksOf(SessionThread session) throws SQLException {
        List<String> locks = new ArrayList<>();
        try (Statement s = session.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT LOCK_NAME, LOCK_MODE FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"
                     + " WHERE SESSION_ID = SESSION_ID() AND LOCK_STATE = 'HELD'")) {
            while (rs.next()) {
                locks.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        return locks;
    }

    static List<String> explain(Statement s, String sql) {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("EXPLAIN LOCKS FOR " + sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4));
            }
        } catch (SQLException e) {
            out.add(e.toString());
        }
        java.util.Collections.sort(out);
        return out;
    }
}
