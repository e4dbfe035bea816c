package org.hsqldb.a2l.fork.regress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.hsqldb.a2l.fork.PatchSeries;
import org.junit.jupiter.api.Test;

/**
 * Two runs of the suite going on at once must not share the engine's static
 * state: each run gets a copy of its engine in a class loader of its own
 * ({@link RunEngine}), as if in a JVM of its own.
 *
 * <p>The state that made a run fail once (TestSelfCheckConstraints.txt:49,
 * mvlocks: a TIMESTAMP read back as {@code 2009-01-01 00:00:00.000000}) is
 * upstream 2.7.4's {@code HsqlDateTime.sysDate}, a static Date shared by
 * {@code getDateString} and {@code getTimestampString} under two different
 * monitors. Formatting DATEs in one run and TIMESTAMPs in the other, as the two
 * runs did, shows it within milliseconds when both runs have the same engine
 * classes (hundreds of wrong strings a second on 2 cores); with a copy each it
 * cannot happen.
 */
class RegressionSuiteIsolationTest {

    private static final long TS_SECONDS = 1230811200L; // 2009-01-01 12:00:00 UTC
    private static final String TS_TEXT = "2009-01-01 12:00:00.000000";
    private static final long DATE_SECONDS = 1320969600L; // 2011-11-11 00:00:00 UTC
    private static final String DATE_TEXT = "2011-11-11";

    @Test
    void forkRunsHaveAnEngineEachAndDoNotChangeEachOthersResults() throws Exception {
        // before the series names the fork in its version, a fork run reports upstream's
        check(RegressionSuite::forkEngine,
                PatchSeries.isApplied("Identify-the-fork-in-the-product-version") ? "2.7.4-a2l" : "2.7.4");
    }

    @Test
    void upstreamRunsHaveAnEngineEachAndDoNotChangeEachOthersResults() throws Exception {
        check(RegressionSuite::upstreamEngine, "2.7.4");
    }

    private static void check(Supplier<ScriptRunner.ConnectionFactory> engines, String version) throws Exception {
        ClassLoader a = loaderOf(engines.get(), version);
        ClassLoader b = loaderOf(engines.get(), version);
        assertNotSame(a, b, "two runs got the same copy of the engine");
        assertNotSame(RegressionSuiteIsolationTest.class.getClassLoader(), a,
                "a run got the test class path's engine");

        Method timestamp = Class.forName("org.hsqldb.types.HsqlDateTime", true, a)
                .getMethod("getTimestampString", long.class, int.class, int.class);
        Method date = Class.forName("org.hsqldb.types.HsqlDateTime", true, b)
                .getMethod("getDateString", long.class);
        AtomicLong wrong = new AtomicLong();
        AtomicReference<String> example = new AtomicReference<>();
        long end = System.nanoTime() + 1_000_000_000L;
        Thread t = new Thread(() -> format(() -> timestamp.invoke(null, TS_SECONDS, 0, 6), TS_TEXT, end, wrong,
                example));
        Thread d = new Thread(() -> format(() -> date.invoke(null, DATE_SECONDS), DATE_TEXT, end, wrong, example));
        t.start();
        d.start();
        t.join();
        d.join();
        assertEquals(0, wrong.get(), "one run's DATEs and the other's TIMESTAMPs changed each other, e.g. "
                + example.get());
    }

    private static ClassLoader loaderOf(ScriptRunner.ConnectionFactory engine, String version) throws SQLException {
        try (Connection c = engine.open("jdbc:hsqldb:mem:isolation-" + System.identityHashCode(engine))) {
            assertEquals(version, c.getMetaData().getDatabaseProductVersion());
            ClassLoader loader = c.getClass().getClassLoader();
            c.createStatement().execute("SHUTDOWN");
            return loader;
        }
    }

    @FunctionalInterface
    private interface Call {
        Object call() throws Exception;
    }

    private static void format(Call call, String expected, long end, AtomicLong wrong,
                               AtomicReference<String> example) {
        try {
            while (System.nanoTime() < end) {
                Object got = call.call();
                if (!expected.equals(got)) {
                    wrong.incrementAndGet();
                    example.compareAndSet(null, "expected '" + expected + "', got '" + got + "'");
                }
            }
        } catch (Exception e) {
            wrong.incrementAndGet();
            example.compareAndSet(null, "a call failed: " + e);
        }
    }
}
