package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import org.hsqldb.types.HsqlDateTime;
import org.junit.jupiter.api.Test;

/**
 * Upstream 2.7.4 formats DATEs and TIMESTAMPs through one shared Date under two different monitors,
 * so two threads turning a DATE and a TIMESTAMP into text at once can each get the other's instant
 * (found when two TestSelf runs in one JVM read '2009-01-01 12:00:00' as '2009-01-01 00:00:00'). Without
 * the patch the direct race below shows wrong strings within a fraction of a second on two cores.
 */
@RequiresPatch("Format-each-date-and-timestamp")
class DateTimeFormatRaceTest {

    static final long DATE_SECONDS = 1_320_969_600L;      // 2011-11-11 00:00:00 UTC
    static final long TIMESTAMP_SECONDS = 1_230_811_200L; // 2009-01-01 12:00:00 UTC

    @Test
    void aDateAndATimestampFormattedAtOnceKeepTheirOwnInstants() throws Exception {
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        race(2_000, () -> {
            String d = HsqlDateTime.getDateString(DATE_SECONDS);
            if (!d.equals("2011-11-11")) wrong.add("date " + d);
        }, () -> {
            String t = HsqlDateTime.getTimestampString(TIMESTAMP_SECONDS, 0, 6);
            if (!t.equals("2009-01-01 12:00:00.000000")) wrong.add("timestamp " + t);
            String m = HsqlDateTime.getTimestampString(TIMESTAMP_SECONDS * 1000);
            if (!m.equals("2009-01-01 12:00:00")) wrong.add("timestamp (millis) " + m);
        });
        assertEquals(List.of(), List.copyOf(wrong).subList(0, Math.min(5, wrong.size())), wrong.size() + " wrong strings");
    }

    /** The same through JDBC: two sessions of one database read a DATE and a TIMESTAMP as strings. */
    @Test
    void twoSessionsReadingADateAndATimestampAsTextGetTheirOwnValues() throws Exception {
        String url = "jdbc:hsqldb:mem:dateTimeRace";
        try (Connection setup = DriverManager.getConnection(url, "SA", "");
             Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE t (d DATE, ts TIMESTAMP)");
            s.execute("INSERT INTO t VALUES (DATE '2011-11-11', TIMESTAMP '2009-01-01 12:00:00')");
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            try (Connection a = DriverManager.getConnection(url, "SA", "");
                 Connection b = DriverManager.getConnection(url, "SA", "");
                 Statement sa = a.createStatement();
                 Statement sb = b.createStatement()) {
                race(1_000, () -> read(sa, "SELECT d FROM t", "2011-11-11", wrong),
                        () -> read(sb, "SELECT ts FROM t", "2009-01-01 12:00:00.000000", wrong));
            }
            s.execute("SHUTDOWN");
            assertEquals(List.of(), List.copyOf(wrong).subList(0, Math.min(5, wrong.size())), wrong.size() + " wrong strings");
        }
    }

    private static void read(Statement s, String sql, String expected, ConcurrentLinkedQueue<String> wrong) {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            String got = rs.getString(1);
            if (!expected.equals(got)) wrong.add(sql + " -> " + got);
        } catch (Exception e) {
            wrong.add(sql + " -> " + e);
        }
    }

    /** Runs each body in a loop on its own thread for {@code millis}. */
    private static void race(long millis, Runnable... bodies) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (Runnable body : bodies) {
            Thread t = new Thread(() -> {
                while (!stop.get()) body.run();
            });
            threads.add(t);
            t.start();
        }
        Thread.sleep(millis);
        stop.set(true);
        for (Thread t : threads) t.join();
    }
}
