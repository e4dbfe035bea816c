package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.hsqldb.server.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bad input in every mode: each gets a clear error, the other sessions go on,
 * and afterwards the data and its indexes are what the committed work left.
 * The database holds accounts whose balances always sum to 1000.
 */
class BadInputTest {

    private static final AtomicInteger databases = new AtomicInteger();

    private static String newUrl(EngineMode mode) {
        assumeTrue(mode.isApplied(), mode + " is not in the applied patch series");
        return mode.url("jdbc:hsqldb:mem:bad" + databases.incrementAndGet());
    }

    private static void create(SessionThread s) throws SQLException {
        s.execute("CREATE TABLE acc (id INT PRIMARY KEY, balance INT NOT NULL, owner VARCHAR(20))");
        s.execute("CREATE INDEX acc_owner ON acc (owner)");
        s.execute("INSERT INTO acc VALUES (1, 500, 'ann'), (2, 300, 'bob'), (3, 200, 'cy')");
    }

    /** The invariant and the indexes, checked from a fresh connection. */
    private static void assertConsistent(String url) throws SQLException {
        try (Connection c = Engines.fork(url); Statement s = c.createStatement()) {
            var rs = s.executeQuery("SELECT SUM(balance), COUNT(*) FROM acc");
            rs.next();
            assertEquals(1000, rs.getInt(1), "balances sum to 1000");
            assertEquals(3, rs.getInt(2));
            assertEquals("[]", IndexIntegrity.problems(c).toString());
        }
    }

    private static void transfer(SessionThread s, int from, int to, int amount) throws SQLException {
        s.execute("UPDATE acc SET balance = balance - " + amount + " WHERE id = " + from);
        s.execute("UPDATE acc SET balance = balance + " + amount + " WHERE id = " + to);
        s.commit();
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void malformedSqlFailsTheStatementOnlyAndOthersGoOn(EngineMode mode) throws Exception {
        String url = newUrl(mode);
        try (SessionThread one = new SessionThread(Engines.fork(url), "one");
             SessionThread two = new SessionThread(Engines.fork(url), "two")) {
            create(one);
            one.setAutoCommit(false);
            two.setAutoCommit(false);
            one.execute("UPDATE acc SET balance = balance - 50 WHERE id = 1");
            for (String bad : new String[] {"UPDATE acc SET WHERE id = 2", "SELEKT * FROM acc",
                    "UPDATE acc SET balance = 'lots' WHERE id = 2", "UPDATE nosuchtable SET x = 1",
                    "INSERT INTO acc VALUES (1, 0, 'dup')", "UPDATE acc SET balance = NULL WHERE id = 2"}) {
                SQLException e = assertThrows(SQLException.class, () -> one.execute(bad), bad);
                assertTrue(e.getSQLState() != null && !e.getSQLState().startsWith("40"),
                        bad + " must fail the statement, not the transaction: " + e.getSQLState() + " " + e.getMessage());
            }
            // the transaction is intact: it completes its transfer
            one.execute("UPDATE acc SET balance = balance + 50 WHERE id = 2");
            one.commit();
            transfer(two, 3, 1, 25);
        }
        assertConsistent(url);
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void aClientThatDisconnectsMidTransactionIsRolledBackAndFreesItsLocks(EngineMode mode) throws Exception {
        String url = newUrl(mode);
        try (SessionThread admin = new SessionThread(Engines.fork(url), "admin");
             SessionThread waiter = new SessionThread(Engines.fork(url), "waiter")) {
            create(admin);
            SessionThread leaver = new SessionThread(Engines.fork(url), "leaver");
            leaver.setAutoCommit(false);
            waiter.setAutoCommit(false);
            leaver.execute("UPDATE acc SET balance = balance - 100 WHERE id = 1");
            Future<Integer> blocked = waiter.submit("UPDATE acc SET balance = balance - 10 WHERE id = 1");
            waiter.awaitLockWait();
            leaver.close();    // no COMMIT, no ROLLBACK
            assertEquals(1, SessionThread.await(blocked));
            waiter.execute("UPDATE acc SET balance = balance + 10 WHERE id = 3");
            waiter.commit();
            assertEquals(490, admin.queryLong("SELECT balance FROM acc WHERE id = 1"), "the leaver's -100 is gone");
        }
        assertConsistent(url);
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVCC", "LF", "A2L"})
    void aNetworkClientKilledMidTransactionIsRolledBackAndFreesItsLocks(EngineMode mode) throws Exception {
        String name = "net" + databases.incrementAndGet();
        String url = newUrl(mode).replaceFirst("jdbc:hsqldb:mem:bad\\d+", "jdbc:hsqldb:mem:" + name);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Server server = new Server();
        server.setAddress("127.0.0.1");
        server.setPort(port);
        server.setDatabaseName(0, name);
        server.setDatabasePath(0, url.substring("jdbc:hsqldb:".length()));
        server.setSilent(true);
        server.setLogWriter(null);
        server.setErrWriter(null);
        server.start();
        try (SessionThread admin = new SessionThread(Engines.fork(url), "admin");
             SessionThread waiter = new SessionThread(Engines.fork(url), "waiter")) {
            create(admin);
            waiter.setAutoCommit(false);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process client = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    NetworkClient.class.getName(), "jdbc:hsqldb:hsql://127.0.0.1:" + port + "/" + name)
                    .redirectErrorStream(true).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line = out.readLine();
                assertEquals("UPDATED", line, "the client's first line");
                Future<Integer> blocked = waiter.submit("UPDATE acc SET balance = balance - 10 WHERE id = 1");
                waiter.awaitLockWait();
                client.destroyForcibly();    // SIGKILL: the socket just closes
                assertTrue(client.waitFor(60, TimeUnit.SECONDS));
                assertEquals(1, SessionThread.await(blocked));
            }
            waiter.execute("UPDATE acc SET balance = balance + 10 WHERE id = 3");
            waiter.commit();
            assertEquals(490, admin.queryLong("SELECT balance FROM acc WHERE id = 1"), "the client's -100 is gone");
            assertConsistent(url);
        } finally {
            server.shutdown();
        }
    }

    /** The network client the test kills: takes a lock and waits. */
    public static final class NetworkClient {
        public static void main(String[] args) throws Exception {
            Connection c = DriverManager.getConnection(args[0], "SA", "");
            c.setAutoCommit(false);
            c.createStatement().execute("UPDATE acc SET balance = balance - 100 WHERE id = 1");
            System.out.println("UPDATED");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    @RequiresPatch("Let-a-statement-timeout-end-every-lock-wait")
    void aStatementTimeoutEndsALockWaitAndTheSessionsGoOn(EngineMode mode) throws Exception {
        String url = newUrl(mode);
        try (SessionThread holder = new SessionThread(Engines.fork(url), "holder");
             SessionThread waiter = new SessionThread(Engines.fork(url), "waiter")) {
            create(holder);
            holder.setAutoCommit(false);
            waiter.setAutoCommit(false);
            holder.execute("CREATE TABLE side (id INT PRIMARY KEY, n INT)");
            holder.execute("INSERT INTO side VALUES (1, 0)");
            holder.commit();
            holder.execute("UPDATE acc SET balance = balance - 100 WHERE id = 1");
            // not the waiter's first statement: its transaction holds something already
            waiter.execute("UPDATE side SET n = n + 1");
            Future<Integer> timedOut = waiter.submit("UPDATE acc SET balance = balance + 1 WHERE id = 1", 1);
            SQLException e = assertThrows(SQLException.class, () -> SessionThread.await(timedOut));
            assertTrue(e.getSQLState().startsWith("40") || e.getSQLState().equals("57014")
                    || e.getSQLState().equals("HYT00"), e.getSQLState() + " " + e.getMessage());
            holder.execute("UPDATE acc SET balance = balance + 100 WHERE id = 3");
            holder.commit();
            // whatever the timeout did to the waiter's transaction, rolling back leaves it clean
            waiter.rollback();
            assertEquals(0, waiter.queryLong("SELECT n FROM side"));
            transfer(waiter, 2, 1, 7);
        }
        assertConsistent(url);
    }

    @ParameterizedTest
    @EnumSource(value = EngineMode.class, names = {"LOCKS", "MVLOCKS", "MVCC", "LF", "A2L"})
    @RequiresPatch("Lock-tables-through-lockmgr")
    void switchingTheModeWhileAnotherSessionHoldsLocksWaitsForItsTransaction(EngineMode mode) throws Exception {
        String url = newUrl(mode);
        String target = mode == EngineMode.A2L ? "LOCKS" : "A2L";
        assumeTrue(EngineMode.A2L.isApplied(), "A2L is not in the applied patch series");
        try (SessionThread holder = new SessionThread(Engines.fork(url), "holder");
             SessionThread admin = new SessionThread(Engines.fork(url), "admin")) {
            create(holder);
            holder.setAutoCommit(false);
            holder.execute("UPDATE acc SET balance = balance - 100 WHERE id = 1");
            Future<Integer> change = admin.submit("SET DATABASE TRANSACTION CONTROL " + target);
            admin.awaitLockWait();
            holder.execute("UPDATE acc SET balance = balance + 100 WHERE id = 2");
            holder.commit();
            SessionThread.await(change);
            assertEquals(target, admin.queryString(
                    "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES WHERE PROPERTY_NAME = 'hsqldb.tx'"));
            transfer(holder, 2, 3, 1);
        }
        assertConsistent(url);
    }

    @Test
    void aLatchFreeDatabaseRefusesMvccAndKeepsWorking() throws Exception {
        String url = newUrl(EngineMode.LF);
        try (SessionThread s = new SessionThread(Engines.fork(url), "s")) {
            create(s);
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SET DATABASE TRANSACTION CONTROL MVCC"));
            assertTrue(e.getMessage().contains("LATCH FREE") || e.getMessage().contains("latch"), e.getMessage());
            s.setAutoCommit(false);
            transfer(s, 1, 2, 5);
        }
        assertConsistent(url);
    }

    @Test
    @RequiresPatch("Refuse-unknown-transaction-modes")
    void unknownModesAreRefusedAtConnectAndNothingIsCreated(@TempDir Path dir) throws Exception {
        for (String props : new String[] {"hsqldb.tx=a2", "hsqldb.tx=bogus", "hsqldb.latch_free=yes"}) {
            SQLException e = assertThrows(SQLException.class,
                    () -> Engines.fork("jdbc:hsqldb:file:" + dir.resolve("db") + ";" + props));
            assertEquals("42556", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains(props), e.getMessage());
            assertTrue(e.getMessage().contains("expected"), e.getMessage());
        }
        String[] left = new File(dir.toString()).list();
        assertEquals(0, left.length, "files left behind: " + String.join(", ", left));

        // the names stay upstream's business: unknown ones are ignored unless check_props=true
        Engines.fork("jdbc:hsqldb:mem:bad" + databases.incrementAndGet() + ";hsqldb.no_such_property=1").close();
        SQLException e = assertThrows(SQLException.class, () -> Engines.fork(
                "jdbc:hsqldb:mem:bad" + databases.incrementAndGet() + ";check_props=true;hsqldb.no_such_property=1"));
        assertEquals("42555", e.getSQLState());
    }

    @ParameterizedTest
    @EnumSource(EngineMode.class)
    void anUnknownModeInSqlIsASyntaxErrorAndTheModeStays(EngineMode mode) throws Exception {
        String url = newUrl(mode);
        try (SessionThread s = new SessionThread(Engines.fork(url), "s")) {
            create(s);
            String before = s.queryString(
                    "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES WHERE PROPERTY_NAME = 'hsqldb.tx'");
            for (String bad : new String[] {"SET DATABASE TRANSACTION CONTROL BOGUS", "SET DATABASE LATCH FREE MAYBE"}) {
                SQLException e = assertThrows(SQLException.class, () -> s.execute(bad));
                assertEquals("42581", e.getSQLState(), bad + ": " + e.getMessage());
            }
            assertEquals(before, s.queryString(
                    "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES WHERE PROPERTY_NAME = 'hsqldb.tx'"));
            s.setAutoCommit(false);
            transfer(s, 3, 2, 20);
        }
        assertConsistent(url);
    }
}
