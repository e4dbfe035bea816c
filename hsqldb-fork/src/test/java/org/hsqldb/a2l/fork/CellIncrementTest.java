package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LOCK GRANULARITY CELL with {@code -Dhsqldb.cell_increments=true}: a point UPDATE's SET clause that
 * adds to its column ({@code c = c + e}) takes IX on the cell, so increments of one cell run
 * together, and every other access of the cell waits for all of them. Each case that claims
 * concurrency is also run where it must wait (another kind of write, or the property not set), so
 * that it can fail.
 */
@RequiresPatch("Let-increments-of-one-cell-run-together")
class CellIncrementTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private static String url() {
        return EngineMode.A2L.url("jdbc:hsqldb:mem:increments" + databases.incrementAndGet())
                + ";hsqldb.lock_granularity=cell";
    }

    /**
     * A connection to {@code url}, with increments on if it opens the database, and the other JVM
     * properties given (name, value, ...): they are read when a database opens, and tests run one
     * at a time, so they are put back at once.
     */
    static Connection open(String url, String... properties) throws SQLException {
        System.setProperty("hsqldb.cell_increments", "true");
        for (int i = 0; i < properties.length; i += 2) {
            System.setProperty(properties[i], properties[i + 1]);
        }
        try {
            return url.startsWith("jdbc:hsqldb:file:") ? java.sql.DriverManager.getConnection(url, "SA", "")
                    : Engines.fork(url);
        } finally {
            System.clearProperty("hsqldb.cell_increments");
            for (int i = 0; i < properties.length; i += 2) {
                System.clearProperty(properties[i]);
            }
        }
    }

    private static SessionThread session(String url, String name) throws SQLException {
        return new SessionThread(open(url), name);
    }

    private static void create(SessionThread s) throws SQLException {
        s.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal DECIMAL(12,2), cnt INT, note VARCHAR(20), f DOUBLE)");
        s.execute("INSERT INTO acct VALUES (1, 100.00, 0, 'a', 0), (2, 200.00, 0, 'b', 0)");
    }

    private static final String ADD = "UPDATE acct SET bal = bal + ?, cnt = cnt + 1 WHERE id = ?";

    @Test
    void incrementsOfOneCellRunTogetherAndItsReaderWaitsForAllOfThem() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one");
             SessionThread two = session(url, "two");
             SessionThread reader = session(url, "reader")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            reader.setAutoCommit(false);
            assertEquals(1, SessionThread.await(one.submitPrepared(ADD, new BigDecimal("10.50"), 1)));
            assertEquals(1, SessionThread.await(two.submitPrepared(ADD, new BigDecimal("-3.25"), 1)), "at once");
            List<String> locks = CellLockingTest.locksOf(two);
            assertTrue(locks.contains("PUBLIC.ACCT.BAL[1] IX") && locks.contains("PUBLIC.ACCT.CNT[1] IX"),
                    locks::toString);
            assertEquals(0, one.lockCounter("WAITS"));
            // another column of the row is written beside them
            assertEquals(1, SessionThread.await(reader.submit("UPDATE acct SET note = 'r' WHERE id = 1")));

            Future<Long> read = reader.submitQueryLong("SELECT cnt FROM acct WHERE id = 1");
            reader.awaitLockWait();
            one.rollback();
            Thread.sleep(50);
            assertFalse(read.isDone(), "the reader waits for every increment of the cell");
            two.commit();
            assertEquals(1L, SessionThread.await(read));
            assertEquals("96.75", reader.queryString("SELECT bal FROM acct WHERE id = 1"));
            reader.commit();
        }
    }

    @Test
    void byDefaultTheSecondIncrementWaits() throws Exception {
        String url = url();
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            assertEquals(1, SessionThread.await(one.submitPrepared(ADD, BigDecimal.ONE, 1)));
            assertTrue(CellLockingTest.locksOf(one).contains("PUBLIC.ACCT.BAL[1] X"), () -> lockList(one));
            Future<Integer> second = two.submitPrepared(ADD, BigDecimal.ONE, 1);
            two.awaitLockWait();
            one.commit();
            assertEquals(1, SessionThread.await(second));
            two.commit();
            assertEquals("102.00", one.queryString("SELECT bal FROM acct WHERE id = 1"));
        }
    }

    /** Past the lock manager's escalation threshold, a transaction's increments of one column take it whole. */
    @Test
    void manyIncrementsOfOneColumnTakeTheColumnWhole() throws Exception {
        String url = url();
        try (SessionThread one = new SessionThread(open(url, "hsqldb.lock_escalation", "4"), "one")) {
            one.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal DECIMAL(12,2), cnt INT)");
            for (int id = 1; id <= 6; id++) {
                one.execute("INSERT INTO acct VALUES (" + id + ", 0, 0)");
            }
            one.setAutoCommit(false);
            for (int id = 1; id <= 4; id++) {
                assertEquals(1, one.execute("UPDATE acct SET bal = bal + 1 WHERE id = " + id));
            }
            assertTrue(CellLockingTest.locksOf(one).contains("PUBLIC.ACCT.BAL[4] IX"), () -> lockList(one));
            assertEquals(0, one.lockCounter("ESCALATIONS"));
            assertEquals(1, one.execute("UPDATE acct SET bal = bal + 1 WHERE id = 5"));
            assertEquals(1, one.lockCounter("ESCALATIONS"));
            List<String> locks = CellLockingTest.locksOf(one);
            assertTrue(locks.contains("PUBLIC.ACCT.BAL X") && !locks.contains("PUBLIC.ACCT.BAL[5] IX"),
                    locks::toString);
            one.commit();
            assertEquals(5, one.queryLong("SELECT SUM(bal) FROM acct"));
        }
    }

    @Test
    void anyOtherWriteOfTheCellAndItsIncrementsWaitForEachOther() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one");
             SessionThread two = session(url, "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            assertEquals(1, SessionThread.await(one.submitPrepared(ADD, BigDecimal.TEN, 1)));
            Future<Integer> set = two.submit("UPDATE acct SET bal = 0 WHERE id = 1");
            two.awaitLockWait();
            one.commit();
            assertEquals(1, SessionThread.await(set));
            Future<Integer> add = one.submitPrepared(ADD, BigDecimal.ONE, 1);
            one.awaitLockWait();
            // another row does not wait
            assertEquals(1, SessionThread.await(two.submitPrepared(ADD, BigDecimal.ONE, 2)));
            two.commit();
            assertEquals(1, SessionThread.await(add));
            one.commit();
            assertEquals("1.00", one.queryString("SELECT bal FROM acct WHERE id = 1"));
            assertEquals(2, one.queryLong("SELECT cnt FROM acct WHERE id = 1"));
        }
    }

    /** A reader that then adds to what it read holds S and IX: a second such reader waits. */
    @Test
    void aReadOfTheCellBeforeItsIncrementKeepsOtherIncrementsOut() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one");
             SessionThread two = session(url, "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            one.setIsolation(Connection.TRANSACTION_SERIALIZABLE); // read locks to the end
            assertEquals("100.00", one.queryString("SELECT bal FROM acct WHERE id = 1"));
            assertEquals(1, SessionThread.await(one.submitPrepared(ADD, BigDecimal.ONE, 1)));
            Future<Integer> add = two.submitPrepared(ADD, BigDecimal.ONE, 1);
            two.awaitLockWait();
            one.commit();
            assertEquals(1, SessionThread.await(add));
            two.commit();
        }
    }

    @Test
    void explainSaysWhichSetClausesAreIncrements() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one");
             Statement s = one.connection().createStatement()) {
            create(one);
            s.execute("CREATE TABLE checked (id INT PRIMARY KEY, v INT CHECK (v >= 0))");
            s.execute("CREATE DOMAIN money AS DECIMAL(12,2) CHECK (VALUE >= 0)");
            s.execute("CREATE TABLE purse (id INT PRIMARY KEY, m money)");
            String increment = " IX CELL an increment of one row by its primary key: the cell's other"
                    + " increments run beside it (X if it adds null)";
            List<String> plan = CellLockingTest.explain(s, "UPDATE acct SET bal = ? + bal, cnt = cnt - 1 WHERE id = ?");
            assertTrue(plan.contains("PUBLIC.ACCT.BAL[?]" + increment)
                    && plan.contains("PUBLIC.ACCT.CNT[?]" + increment), plan::toString);
            String write = " X CELL one row by its primary key";
            String[][] writes = {
                {"UPDATE acct SET bal = bal * 2 WHERE id = ?", "BAL"},
                {"UPDATE acct SET bal = bal + cnt WHERE id = ?", "BAL"},
                {"UPDATE acct SET bal = bal + 1 WHERE id = ? AND bal > 0", "BAL"},
                {"UPDATE acct SET bal = bal + 1, cnt = bal WHERE id = ?", "BAL"},
                {"UPDATE acct SET cnt = cnt + 1.5 WHERE id = ?", "CNT"}, // would round
                {"UPDATE acct SET cnt = 1 - cnt WHERE id = ?", "CNT"},
                {"UPDATE acct SET f = f + 1 WHERE id = ?", "F"}, // not exact
                {"UPDATE checked SET v = v - 1 WHERE id = ?", "V"},
                {"UPDATE purse SET m = m - 1 WHERE id = ?", "M"}, // a domain's CHECK
            };
            // (a subquery: not an increment, nor a cell)
            List<String> subquery = CellLockingTest.explain(s,
                    "UPDATE acct SET bal = bal + (SELECT MAX(cnt) FROM acct) WHERE id = ?");
            assertTrue(subquery.stream().noneMatch(l -> l.contains("increment")), subquery::toString);
            for (String[] w : writes) {
                String table = w[0].split(" ")[1].toUpperCase();
                List<String> writePlan = CellLockingTest.explain(s, w[0]);
                assertTrue(writePlan.contains("PUBLIC." + table + "." + w[1] + "[?]" + write),
                        () -> w[0] + ": " + writePlan);
            }
        }
    }

    /** An UPDATE asked for its generated columns may return the value: it writes the cell under X. */
    @Test
    void anUpdateAskedForItsGeneratedColumnsTakesX() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one")) {
            create(one);
            one.setAutoCommit(false);
            try (PreparedStatement p = one.connection().prepareStatement(
                    "UPDATE acct SET bal = bal + 1 WHERE id = 1", new String[] {"BAL"})) {
                assertEquals(1, p.executeUpdate());
            }
            assertTrue(CellLockingTest.locksOf(one).contains("PUBLIC.ACCT.BAL[1] X"), () -> lockList(one));
            one.commit();
        }
    }

    @Test
    void anIncrementByNullSetsTheCellToNullUnderXAndANullCellStaysNull() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one");
             SessionThread two = session(url, "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            assertEquals(1, SessionThread.await(one.submitPrepared(ADD, null, 1)));
            assertTrue(CellLockingTest.locksOf(one).contains("PUBLIC.ACCT.BAL[1] X"), () -> lockList(one));
            Future<Integer> add = two.submitPrepared(ADD, BigDecimal.ONE, 1);
            two.awaitLockWait();
            one.rollback(); // puts 100.00 back
            assertEquals(1, SessionThread.await(add));
            two.commit();
            assertEquals("101.00", one.queryString("SELECT bal FROM acct WHERE id = 1"));

            one.execute("UPDATE acct SET bal = NULL WHERE id = 2");
            one.commit();
            assertEquals(1, SessionThread.await(one.submitPrepared(ADD, BigDecimal.ONE, 2)));
            assertEquals(1, SessionThread.await(two.submitPrepared(ADD, BigDecimal.TEN, 2)), "at once");
            one.rollback();
            two.commit();
            assertNull(one.queryString("SELECT bal FROM acct WHERE id = 2"));
            assertEquals(1, one.queryLong("SELECT cnt FROM acct WHERE id = 2"));
        }
    }

    /**
     * An increment whose value fails when the locks are taken takes X, and the statement fails as
     * it runs, in autocommit and in a transaction, which then ends: no lock is left.
     */
    @Test
    void anIncrementThatCannotBeEvaluatedFailsAndLeavesNoLock() throws Exception {
        String url = url();
        String add = "UPDATE acct SET cnt = cnt + 10 / ? WHERE id = ?";
        try (SessionThread one = session(url, "one");
             SessionThread two = session(url, "two")) {
            create(one);
            SQLException e = assertThrows(SQLException.class,
                    () -> SessionThread.await(one.submitPrepared(add, 0, 1)));
            assertEquals("22012", e.getSQLState());
            assertEquals(0, two.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"));
            one.setAutoCommit(false);
            e = assertThrows(SQLException.class, () -> SessionThread.await(one.submitPrepared(add, 0, 1)));
            assertEquals("22012", e.getSQLState());
            one.rollback();
            assertEquals(0, two.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"));
            assertEquals(1, two.execute("UPDATE acct SET cnt = 5 WHERE id = 1"));
            assertEquals(5, two.queryLong("SELECT cnt FROM acct WHERE id = 1"));
        }
    }

    @Test
    void aSavepointsRollbackAndAFailedStatementTakeBackOnlyTheirOwnIncrements() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one");
             SessionThread two = session(url, "two")) {
            one.execute("CREATE TABLE small (id INT PRIMARY KEY, a DECIMAL(4,0), b DECIMAL(4,0))");
            one.execute("INSERT INTO small VALUES (1, 100, 9000)");
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            String add = "UPDATE small SET a = a + ?, b = b + ? WHERE id = 1";
            assertEquals(1, SessionThread.await(one.submitPrepared(add, 1, -2000)));  // b 7000, or 9000
            assertEquals(1, SessionThread.await(two.submitPrepared(add, 10, 0)));
            one.execute("SAVEPOINT s");
            assertEquals(1, SessionThread.await(one.submitPrepared(add, 100, 0)));
            assertEquals(1, SessionThread.await(two.submitPrepared(add, 1000, 0))); // after one's
            one.execute("ROLLBACK TO SAVEPOINT s"); // takes back one's 100, not two's 1000
            // two adds to a, then b cannot have 2500 (11500 if one rolls back): the statement
            // fails and takes back its a, after one's since
            assertEquals(1, SessionThread.await(one.submitPrepared(add, 5, 0)));
            SQLException e = assertThrows(SQLException.class,
                    () -> SessionThread.await(two.submitPrepared(add, 7, 2500)));
            assertEquals("22003", e.getSQLState());
            one.commit();
            two.commit();
            assertEquals(100 + 1 + 10 + 1000 + 5, one.queryLong("SELECT a FROM small WHERE id = 1"));
            assertEquals(7000, one.queryLong("SELECT b FROM small WHERE id = 1"));
        }
    }

    /**
     * A statement that adds to a and then is refused its increment of b takes back what it added
     * to a, while others keep adding to a: none of theirs is lost (putting back the value a had
     * before the statement would lose those that came in between).
     */
    @Test
    void aStatementRefusedHalfWayThroughARowLosesNoOtherIncrement() throws Exception {
        String url = url();
        int adders = 3, rounds = 400;
        try (SessionThread holder = session(url, "holder")) {
            holder.execute("CREATE TABLE small (id INT PRIMARY KEY, a INT, b DECIMAL(4,0))");
            holder.execute("INSERT INTO small VALUES (1, 0, 5000)");
            holder.setAutoCommit(false);
            // b is 1000, or 5000 if this rolls back: any b + 5000 is refused meanwhile
            assertEquals(1, holder.execute("UPDATE small SET b = b - 4000 WHERE id = 1"));
            ExecutorService pool = Executors.newFixedThreadPool(adders + 1);
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < adders; t++) {
                done.add(pool.submit(() -> {
                    try (Connection c = open(url);
                         PreparedStatement add = c.prepareStatement("UPDATE small SET a = a + 1 WHERE id = 1")) {
                        for (int r = 0; r < rounds; r++) {
                            assertEquals(1, add.executeUpdate());
                        }
                    }
                    return rounds;
                }));
            }
            Future<Integer> refused = pool.submit(() -> {
                int n = 0;
                try (Connection c = open(url);
                     PreparedStatement add = c.prepareStatement(
                             "UPDATE small SET a = a + 1, b = b + 5000 WHERE id = 1")) {
                    // at least 200 tries, whether the adders are still going or not
                    while (n < 200 || done.stream().anyMatch(f -> !f.isDone())) {
                        SQLException e = assertThrows(SQLException.class, add::executeUpdate);
                        assertEquals("22003", e.getSQLState());
                        n++;
                    }
                }
                return n;
            });
            int total = 0;
            for (Future<Integer> f : done) {
                total += SessionThread.await(f);
            }
            assertTrue(SessionThread.await(refused) >= 200);
            pool.shutdown();
            holder.rollback();
            assertEquals(total, holder.queryLong("SELECT a FROM small WHERE id = 1"));
            assertEquals(5000, holder.queryLong("SELECT b FROM small WHERE id = 1"));
        }
    }

    /**
     * Escrow: an increment is refused if a rollback of another one in progress could leave the
     * value out of its type's range; one that no outcome pushes out is let in.
     */
    @Test
    void anIncrementThatARollbackInProgressCouldPushOutOfRangeIsRefused() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one");
             SessionThread two = session(url, "two")) {
            one.execute("CREATE TABLE small (id INT PRIMARY KEY, v DECIMAL(4,0))");
            one.execute("INSERT INTO small VALUES (1, 9000)");
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            String add = "UPDATE small SET v = v + ? WHERE id = 1";
            assertEquals(1, SessionThread.await(one.submitPrepared(add, -2000))); // 7000
            // 9500 now, but 11500 if one rolls back
            SQLException e = assertThrows(SQLException.class,
                    () -> SessionThread.await(two.submitPrepared(add, 2500)));
            assertEquals("22003", e.getSQLState());
            assertTrue(e.getMessage().contains("rollback of others in progress"), e::getMessage);
            assertEquals(1, SessionThread.await(two.submitPrepared(add, 900))); // 7900, or 9900
            one.rollback();
            two.commit();
            assertEquals(9900, one.queryLong("SELECT v FROM small WHERE id = 1"));
            // the bounds are the increments in progress, not those that ended
            assertEquals(1, SessionThread.await(one.submitPrepared(add, 99)));
            one.commit();
            assertEquals(9999, one.queryLong("SELECT v FROM small WHERE id = 1"));
            e = assertThrows(SQLException.class, () -> SessionThread.await(one.submitPrepared(add, 1)));
            assertEquals("22003", e.getSQLState());
        }
    }

    /**
     * Many sessions move random amounts between a few rows by increments (+x on one, -x on
     * another), some reading a cell first, some rolling back, while a scanner sums the column under
     * S on it: the scanner always sees the total the rows started with (no increment in progress
     * is seen), every row ends with its start plus what committed, and no lock is left.
     */
    @Test
    void manySessionsMovingAmountsByIncrementsLeaveWhatCommitted() throws Exception {
        String url = url();
        int threads = 6, rounds = 300, rows = 3;
        try (SessionThread admin = session(url, "admin")) {
            admin.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal DECIMAL(12,2), cnt INT)");
            for (int r = 1; r <= rows; r++) {
                admin.execute("INSERT INTO acct VALUES (" + r + ", 1000.00, 0)");
            }
            long[][] committed = new long[threads][rows + 1]; // cents
            int[][] counts = new int[threads][rows + 1];
            ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                done.add(pool.submit(() -> {
                    Random random = new Random(42 + me);
                    try (Connection c = open(url);
                         PreparedStatement add = c.prepareStatement(
                                 "UPDATE acct SET bal = bal + ?, cnt = cnt + 1 WHERE id = ?");
                         PreparedStatement read = c.prepareStatement("SELECT bal FROM acct WHERE id = ?")) {
                        c.setAutoCommit(false);
                        for (int round = 0; round < rounds; round++) {
                            long[] cents = new long[rows + 1];
                            int[] n = new int[rows + 1];
                            try {
                                for (int k = 1 + random.nextInt(2); k > 0; k--) {
                                    int from = 1 + random.nextInt(rows);
                                    int to = 1 + (from + random.nextInt(rows - 1)) % rows;
                                    if (random.nextInt(10) == 0) {
                                        read.setInt(1, from);
                                        try (ResultSet rs = read.executeQuery()) {
                                            rs.next();
                                        }
                                    }
                                    long amount = random.nextInt(20001) - 10000;
                                    for (int[] leg : new int[][] {{from, -1}, {to, 1}}) {
                                        add.setBigDecimal(1, BigDecimal.valueOf(leg[1] * amount, 2));
                                        add.setInt(2, leg[0]);
                                        assertEquals(1, add.executeUpdate());
                                        cents[leg[0]] += leg[1] * amount;
                                        n[leg[0]]++;
                                    }
                                }
                                if (random.nextInt(4) == 0) {
                                    c.rollback();
                                    continue;
                                }
                                c.commit();
                            } catch (SQLException e) {
                                if (!"40001".equals(e.getSQLState())) { // a deadlock victim, rolled back
                                    throw e;
                                }
                                continue;
                            }
                            for (int r = 1; r <= rows; r++) {
                                committed[me][r] += cents[r];
                                counts[me][r] += n[r];
                            }
                        }
                    }
                    return null;
                }));
            }
            AtomicInteger scans = new AtomicInteger();
            Future<?> scanner = pool.submit(() -> {
                try (Connection c = open(url); Statement s = c.createStatement()) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                    // at least 20 scans, whether the movers are still going or not
                    while (scans.get() < 20 || done.stream().anyMatch(f -> !f.isDone())) {
                        try (ResultSet rs = s.executeQuery("SELECT SUM(bal) FROM acct")) {
                            rs.next();
                            assertEquals(BigDecimal.valueOf(rows * 100000L, 2), rs.getBigDecimal(1));
                        }
                        c.commit();
                        scans.incrementAndGet();
                    }
                }
                return null;
            });
            for (Future<?> f : done) {
                SessionThread.await(f);
            }
            SessionThread.await(scanner);
            pool.shutdown();
            assertTrue(scans.get() >= 20);
            for (int r = 1; r <= rows; r++) {
                long cents = 100000;
                long n = 0;
                for (int t = 0; t < threads; t++) {
                    cents += committed[t][r];
                    n += counts[t][r];
                }
                assertEquals(BigDecimal.valueOf(cents, 2).toPlainString(),
                        admin.queryString("SELECT bal FROM acct WHERE id = " + r), "row " + r);
                assertEquals(n, admin.queryLong("SELECT cnt FROM acct WHERE id = " + r), "row " + r);
            }
            assertEquals(0, admin.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"));
            admin.execute("PERFORM CHECK ALL TABLE INDEX");
        }
    }

    /**
     * The redo log gets what each increment added, not the cell's value, which holds other
     * increments in progress: here one that is rolled back after the other committed. A
     * transaction that inserted the row, or wrote the cell otherwise, logs the value instead.
     */
    @Test
    void theRedoLogReplaysWhatCommittedIncrementsAdded(@TempDir Path dir) throws SQLException {
        String url = "jdbc:hsqldb:file:" + dir.resolve("db") + ";hsqldb.tx=a2l;hsqldb.lock_granularity=cell"
                + ";hsqldb.write_delay=false;hsqldb.lock_file=false";
        try (Connection a = open(url); Connection b = open(url)) {
            try (Statement s = a.createStatement()) {
                s.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal DECIMAL(12,2), cnt INT)");
                s.execute("INSERT INTO acct VALUES (1, 100.00, 0), (2, 0.00, 0)");
            }
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try (PreparedStatement pa = a.prepareStatement(ADD);
                 PreparedStatement pb = b.prepareStatement(ADD);
                 Statement sa = a.createStatement()) {
                pa.setBigDecimal(1, new BigDecimal("5.00"));
                pa.setInt(2, 1);
                assertEquals(1, pa.executeUpdate()); // 105, in progress
                pb.setBigDecimal(1, new BigDecimal("-7.50"));
                pb.setInt(2, 1);
                assertEquals(1, pb.executeUpdate()); // 97.50
                b.commit(); // logged while the cell holds a's 5.00
                a.rollback();
                pa.setBigDecimal(1, new BigDecimal("0.25"));
                pa.setInt(2, 2);
                assertEquals(1, pa.executeUpdate());
                a.commit();
                // the row inserted, then added to, in one transaction; a cell set, then added to
                sa.execute("INSERT INTO acct VALUES (3, 1.00, 0)");
                pa.setBigDecimal(1, new BigDecimal("2.00"));
                pa.setInt(2, 3);
                assertEquals(1, pa.executeUpdate());
                sa.execute("UPDATE acct SET bal = 50.00 WHERE id = 2");
                pa.setInt(2, 2);
                assertEquals(1, pa.executeUpdate());
                a.commit();
            }
            try (Statement s = a.createStatement()) {
                s.execute("SHUTDOWN IMMEDIATELY");
            }
        }
        try (Connection c = open(url);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, bal, cnt FROM acct ORDER BY id")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getInt(1) + ":" + rs.getBigDecimal(2).toPlainString() + ":" + rs.getInt(3));
            }
            assertEquals(List.of("1:92.50:1", "2:52.00:2", "3:3.00:1"), rows);
            s.execute("SHUTDOWN");
        }
    }

    /** the session's locks, for a failure message */
    private static String lockList(SessionThread session) {
        try {
            return CellLockingTest.locksOf(session).toString();
        } catch (SQLException e) {
            return e.toString();
        }
    }
}
