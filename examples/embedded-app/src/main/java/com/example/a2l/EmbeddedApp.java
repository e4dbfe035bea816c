package com.example.a2l;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An embedded application on the HSQLDB-A2L fork: an in-memory database under attribute-level
 * locking ({@code hsqldb.tx=a2l}), one table, and two threads that update different columns of
 * the same rows at the same time. Under upstream's LOCKS mode they would take turns on the
 * table; under A2L each locks only its own column. Prints what ran where, the final sums and
 * the lock manager's counters; exits 1 if an update was lost.
 *
 * Java 11 source, nothing newer: it must run wherever hsqldb.jar 2.7.4 runs.
 */
public final class EmbeddedApp {

    private static final String URL = "jdbc:hsqldb:mem:example;hsqldb.tx=a2l";
    private static final int ROWS = 10;
    private static final int UPDATES = 2000;

    public static void main(String[] args) throws Exception {
        System.out.println("java.version=" + System.getProperty("java.version"));
        System.out.println("classfile " + EmbeddedApp.class.getName() + "=" + classFileVersion(EmbeddedApp.class));
        System.out.println("classfile org.hsqldb.jdbc.JDBCDriver=" + classFileVersion(org.hsqldb.jdbc.JDBCDriver.class));

        try (Connection c = DriverManager.getConnection(URL, "SA", "");
             Statement s = c.createStatement()) {
            System.out.println("database=" + single(s, "VALUES DATABASE_VERSION()")
                    + " transaction control=" + single(s, "VALUES TRANSACTION_CONTROL()"));
            s.execute("CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL, visits INT NOT NULL)");
            for (int id = 1; id <= ROWS; id++) {
                s.execute("INSERT INTO account VALUES (" + id + ", 0, 0)");
            }
            s.execute("SET DATABASE RESET LOCK COUNTERS");

            ExecutorService pool = Executors.newFixedThreadPool(2);
            long start = System.nanoTime();
            Future<Integer> balance = pool.submit(() -> updates("balance"));
            Future<Integer> visits = pool.submit(() -> updates("visits"));
            int retriesBalance = balance.get();
            int retriesVisits = visits.get();
            long millis = (System.nanoTime() - start) / 1_000_000;
            pool.shutdown();

            long sumBalance = Long.parseLong(single(s, "SELECT SUM(balance) FROM account"));
            long sumVisits = Long.parseLong(single(s, "SELECT SUM(visits) FROM account"));
            System.out.println("two threads, " + UPDATES + " committed updates each, in " + millis + " ms"
                    + " (retries: balance " + retriesBalance + ", visits " + retriesVisits + ")");
            System.out.println("SUM(balance)=" + sumBalance + " SUM(visits)=" + sumVisits);
            try (ResultSet rs = s.executeQuery(
                    "SELECT COUNTER_NAME, COUNTER_VALUE FROM INFORMATION_SCHEMA.SYSTEM_LOCK_COUNTERS")) {
                List<String> counters = new ArrayList<>();
                while (rs.next()) {
                    counters.add(rs.getString(1) + "=" + rs.getLong(2));
                }
                System.out.println("lock counters: " + String.join(" ", counters));
            }
            s.execute("SHUTDOWN");
            if (sumBalance != UPDATES || sumVisits != UPDATES) {
                System.out.println("FAILED: expected " + UPDATES + " in both sums");
                System.exit(1);
            }
            System.out.println("OK");
        }
    }

    /** One thread: UPDATES transactions, each adding 1 to {@code column} of one row; returns retries. */
    private static int updates(String column) throws SQLException {
        int retries = 0;
        try (Connection c = DriverManager.getConnection(URL, "SA", "");
             PreparedStatement update = c.prepareStatement(
                     "UPDATE account SET " + column + " = " + column + " + 1 WHERE id = ?")) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            for (int i = 0; i < UPDATES; i++) {
                while (true) {
                    try {
                        update.setInt(1, 1 + i % ROWS);
                        update.executeUpdate();
                        c.commit();
                        break;
                    } catch (SQLException e) {
                        c.rollback();
                        if (!"40001".equals(e.getSQLState())) {  // a deadlock victim tries again
                            throw e;
                        }
                        retries++;
                    }
                }
            }
        }
        return retries;
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The major version of a class's class file (55 = Java 11, 61 = Java 17). */
    private static int classFileVersion(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class");
             DataInputStream data = new DataInputStream(in)) {
            data.readInt();             // magic
            data.readUnsignedShort();   // minor
            return data.readUnsignedShort();
        }
    }
}
