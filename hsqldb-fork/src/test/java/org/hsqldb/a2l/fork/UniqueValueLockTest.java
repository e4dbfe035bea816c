package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * Under cells, an INSERT into a table with a UNIQUE constraint besides its primary key locks the
 * new row's value of it, not the table: inserts of different values run together, a second insert
 * of one value waits for the first and then fails (23505) or succeeds as the first commits or rolls
 * back, a read of a missing value keeps its insert out, and a foreign key that references a UNIQUE
 * constraint is checked under S on the parent's value. The TPC-C schema as commonly declared (ORDERS
 * with UNIQUE by customer, NEW_ORDER -> ORDERS) is the motivating case.
 */
@RequiresPatch("Lock-the-value-of-a-secondary-UNIQUE-constraint")
class UniqueValueLockTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private static String url() {
        return EngineMode.A2L_CELL.url("jdbc:hsqldb:mem:unique_value_" + databases.incrementAndGet());
    }

    private static void create(SessionThread s) throws SQLException {
        s.execute("CREATE TABLE customer (w INT, d INT, c INT, name VARCHAR(16), PRIMARY KEY (w, d, c))");
        s.execute("CREATE TABLE orders (w INT, d INT, o INT, c INT, carrier INT, PRIMARY KEY (w, d, o),"
                + " CONSTRAINT orders_by_customer UNIQUE (w, d, c, o),"
                + " FOREIGN KEY (w, d, c) REFERENCES customer (w, d, c))");
        s.execute("CREATE TABLE new_order (w INT, d INT, o INT, PRIMARY KEY (w, d, o),"
                + " FOREIGN KEY (w, d, o) REFERENCES orders (w, d, o))");
        s.execute("CREATE TABLE account (id INT PRIMARY KEY, code INT, CONSTRAINT account_code UNIQUE (code))");
        s.execute("CREATE TABLE payment (id INT PRIMARY KEY, code INT, amount INT,"
                + " FOREIGN KEY (code) REFERENCES account (code))");
        for (int d = 1; d <= 2; d++) {
            for (int c = 1; c <= 3; c++) {
                s.execute("INSERT INTO customer VALUES (1, " + d + ", " + c + ", 'n')");
            }
        }
        s.execute("INSERT INTO account VALUES (1, 100), (2, 200)");
        s.execute("CREATE TABLE code_book (id INT PRIMARY KEY, code INT, CONSTRAINT code_book_code UNIQUE (code))");
    }

    /** A session at SERIALIZABLE: its reads hold their locks to its end. */
    private static SessionThread session(String url, String name) throws SQLException {
        SessionThread s = new SessionThread(Engines.fork(url), name);
        s.setIsolation(Connection.TRANSACTION_SERIALIZABLE);
        return s;
    }

    @Test
    void explainLocksTheNewRowsValueAndTheParentsRowsNotTheTables() throws Exception {
        try (SessionThread one = session(url(), "one"); Statement s = one.connection().createStatement()) {
            create(one);
            List<String> insertOrder = CellLockingTest.explain(s, "INSERT INTO orders VALUES (1, 1, 7, 2, NULL)");
            assertTrue(insertOrder.contains("PUBLIC.ORDERS IX TABLE null"), insertOrder.toString());
            assertTrue(insertOrder.contains("PUBLIC.ORDERS[1, 1, 7] X ROW KEY one row by its primary key"),
                    insertOrder.toString());
            assertTrue(insertOrder.contains("PUBLIC.ORDERS[ORDERS_BY_CUSTOMER: 1, 1, 2, 7] X UNIQUE KEY the row's"
                    + " value of a UNIQUE constraint (none if it has a null)"), insertOrder.toString());
            assertTrue(insertOrder.contains("PUBLIC.CUSTOMER[1, 1, 2] S ROW KEY the parent row of a foreign key"),
                    insertOrder.toString());
            assertFalse(insertOrder.stream().anyMatch(l -> l.startsWith("PUBLIC.ORDERS X ")
                    || l.startsWith("PUBLIC.CUSTOMER S ")), "no whole table: " + insertOrder);

            List<String> insertNewOrder = CellLockingTest.explain(s, "INSERT INTO new_order VALUES (1, 1, 7)");
            assertTrue(insertNewOrder.contains("PUBLIC.ORDERS[1, 1, 7] S ROW KEY the parent row of a foreign key"),
                    insertNewOrder.toString());
            assertFalse(insertNewOrder.stream().anyMatch(l -> l.startsWith("PUBLIC.NEW_ORDER X ")),
                    insertNewOrder.toString());

            List<String> payment = CellLockingTest.explain(s, "INSERT INTO payment VALUES (1, 100, 5)");
            assertTrue(payment.contains("PUBLIC.ACCOUNT[ACCOUNT_CODE: 100] S UNIQUE KEY the parent row of a foreign"
                    + " key, by the UNIQUE constraint it references"), payment.toString());

            // the value is known only once the row is found: a delete keeps the table
            List<String> delete = CellLockingTest.explain(s, "DELETE FROM code_book WHERE id = 2");
            assertTrue(delete.stream().anyMatch(l -> l.startsWith("PUBLIC.CODE_BOOK X TABLE a UNIQUE constraint")),
                    delete.toString());
        }
    }

    @Test
    void insertsOfDifferentValuesRunTogether() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one"); SessionThread two = session(url, "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            // New-Orders of two districts: ORDERS, then NEW_ORDER, as the constrained TPC-C does
            assertEquals(1, one.execute("INSERT INTO orders VALUES (1, 1, 7, 2, NULL)"));
            assertEquals(1, one.execute("INSERT INTO new_order VALUES (1, 1, 7)"));
            assertEquals(1, SessionThread.await(two.submit("INSERT INTO orders VALUES (1, 2, 7, 2, NULL)")),
                    "another district's order at once");
            assertEquals(1, SessionThread.await(two.submit("INSERT INTO new_order VALUES (1, 2, 7)")));
            one.commit();
            two.commit();
            assertEquals(2, one.queryLong("SELECT COUNT(*) FROM new_order"));
        }
    }

    @Test
    void aSecondInsertOfOneValueWaitsThenFailsOrSucceedsAsTheFirstEnds() throws Exception {
        for (boolean firstCommits : new boolean[] {true, false}) {
            String url = url();
            try (SessionThread one = session(url, "one"); SessionThread two = session(url, "two")) {
                create(one);
                one.setAutoCommit(false);
                two.setAutoCommit(false);
                assertEquals(1, one.execute("INSERT INTO account VALUES (3, 300)"));
                Future<Integer> duplicate = two.submit("INSERT INTO account VALUES (4, 300)");
                two.awaitLockWait();
                assertFalse(duplicate.isDone(), "waits for the first insert of 300");
                if (firstCommits) {
                    one.commit();
                    SQLException e = assertThrows(SQLException.class, () -> SessionThread.await(duplicate));
                    assertEquals("23505", e.getSQLState(), e.toString());
                } else {
                    one.rollback();
                    assertEquals(1, SessionThread.await(duplicate), "the value is free again");
                }
                two.commit();
                assertEquals(1, one.queryLong("SELECT COUNT(*) FROM account WHERE code = 300"));
            }
        }
    }

    @Test
    void aReadOfAMissingValueKeepsItsInsertOut() throws Exception {
        String url = url();
        try (SessionThread reader = session(url, "reader"); SessionThread writer = session(url, "writer")) {
            create(reader);
            reader.setAutoCommit(false);
            writer.setAutoCommit(false);
            assertEquals(0, reader.queryLong("SELECT COUNT(*) FROM orders WHERE w = 1 AND d = 1 AND c = 3"));
            Future<Integer> insert = writer.submit("INSERT INTO orders VALUES (1, 1, 9, 3, NULL)");
            writer.awaitLockWait();
            assertEquals(0, reader.queryLong("SELECT COUNT(*) FROM orders WHERE w = 1 AND d = 1 AND c = 3"),
                    "no phantom while the reader's transaction runs");
            reader.commit();
            assertEquals(1, SessionThread.await(insert));
            writer.commit();
        }
    }

    @Test
    void aForeignKeyToAUniqueConstraintWaitsForItsParentsInsert() throws Exception {
        String url = url();
        try (SessionThread parent = session(url, "parent"); SessionThread child = session(url, "child");
             SessionThread other = session(url, "other")) {
            create(parent);
            parent.setAutoCommit(false);
            child.setAutoCommit(false);
            other.setAutoCommit(false);
            assertEquals(1, parent.execute("INSERT INTO account VALUES (5, 500)"));
            Future<Integer> payment = child.submit("INSERT INTO payment VALUES (1, 500, 7)");
            child.awaitLockWait();
            assertFalse(payment.isDone(), "waits for the parent's value being inserted");
            assertEquals(1, SessionThread.await(other.submit("INSERT INTO payment VALUES (2, 100, 7)", 5)),
                    "another parent's value is not waited for");
            parent.commit();
            assertEquals(1, SessionThread.await(payment));
            child.commit();
            other.commit();
        }
    }

    @Test
    void aBatchOfInsertsOfDifferentValuesRunsBesideAnother() throws Exception {
        String url = url();
        try (SessionThread one = session(url, "one"); SessionThread two = session(url, "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            assertEquals(3, batchInsert(one, 10));
            // a batch that waited for the first transaction would end with 40502 after 5 s
            assertEquals(3, batchInsert(two, 20), "the second batch at once");
            one.commit();
            two.commit();
            assertEquals(8, one.queryLong("SELECT COUNT(*) FROM account"));
        }
    }

    private static int batchInsert(SessionThread s, int from) throws SQLException {
        try (PreparedStatement ps = s.connection().prepareStatement("INSERT INTO account VALUES (?, ?)")) {
            ps.setQueryTimeout(5);
            for (int i = from; i < from + 3; i++) {
                ps.setInt(1, i);
                ps.setInt(2, i * 1000);
                ps.addBatch();
            }
            int done = 0;
            for (int n : ps.executeBatch()) {
                done += n;
            }
            return done;
        }
    }

    /**
     * Many sessions insert rows whose unique values collide, many rounds, with rollbacks: no value
     * is committed twice, every committed insert is there, and the indexes are sound.
     */
    @Test
    void concurrentInsertsOfCollidingValuesCommitEachValueOnce() throws Exception {
        String url = url();
        try (Connection admin = Engines.fork(url); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE account (id INT PRIMARY KEY, code INT, CONSTRAINT account_code UNIQUE (code))");
        }
        AtomicInteger ids = new AtomicInteger();
        AtomicLong committed = new AtomicLong();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            final int seed = t;
            Thread thread = new Thread(() -> {
                Random random = new Random(seed);
                try (Connection c = Engines.fork(url);
                     PreparedStatement ps = c.prepareStatement("INSERT INTO account VALUES (?, ?)")) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                    for (int round = 0; round < 400; round++) {
                        int inserted = 0;
                        try {
                            for (int k = 0; k < 1 + random.nextInt(3); k++) {
                                ps.setInt(1, ids.incrementAndGet());
                                ps.setInt(2, random.nextInt(600));
                                ps.executeUpdate();
                                inserted++;
                            }
                            if (random.nextInt(5) == 0) {
                                c.rollback();
                            } else {
                                c.commit();
                                committed.addAndGet(inserted);
                            }
                        } catch (SQLException e) {
                            c.rollback();
                            if (!e.getSQLState().equals("23505") && !e.getSQLState().equals("40001")) {
                                failures.add(e.getSQLState() + " " + e.getMessage());
                            }
                        }
                    }
                } catch (SQLException e) {
                    failures.add(e.toString());
                }
            }, "unique-inserter-" + t);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(120_000);
            assertFalse(t.isAlive(), t.getName() + " did not finish");
        }
        assertEquals(List.of(), failures);
        try (Connection admin = Engines.fork(url); Statement s = admin.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT code) FROM account")) {
                rs.next();
                assertEquals(committed.get(), rs.getLong(1), "every committed insert is there");
                assertEquals(rs.getLong(1), rs.getLong(2), "no value twice");
            }
            assertTrue(committed.get() > 100, "enough inserts committed to mean something: " + committed);
            assertEquals(List.of(), IndexIntegrity.problems(admin));
            assertEquals(0, queryLong(s, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"), "no lock left");
        }
    }

    private static long queryLong(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

}
