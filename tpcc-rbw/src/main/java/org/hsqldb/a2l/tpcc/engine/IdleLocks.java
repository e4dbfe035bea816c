package org.hsqldb.a2l.tpcc.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.Consistency;

/**
 * The lock-lifetime invariant checked from outside: with every terminal idle at a transaction
 * boundary, no session holds or awaits a lock. Read from the engine's own view of its locks
 * (the fork's INFORMATION_SCHEMA.SYSTEM_LOCKS), leaving out the checking session itself; a
 * violation is reported as a failed condition beside TPC-C's consistency conditions, so it
 * fails a run the same way. The engine's own system sessions (user {@code _SYSTEM}: the
 * checkpoint HSQLDB starts in the background when the log is full holds X on the database and
 * every table while it runs) are waited for, up to a minute, then reported as any other.
 */
public final class IdleLocks {

    /** The condition's id in summaries and reports. */
    public static final String ID = "idle-locks";
    private static final int SHOWN = 5;
    private static final long SYSTEM_WAIT_NANOS = 60_000_000_000L;

    private IdleLocks() {}

    /**
     * The condition for the engine behind {@code c}, or null if the configuration's engine shows
     * no locks (then there is nothing to check).
     */
    public static Consistency.Condition check(Connection c, EngineConfig config) throws SQLException {
        if (config == null || config.jar() != EngineConfig.JarKind.FORK) {
            return null;
        }
        List<String> rows = new ArrayList<>();
        long count = 0;
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        if (!showsLocks(c)) {
            c.setAutoCommit(autoCommit);
            return null;
        }
        long deadline = System.nanoTime() + SYSTEM_WAIT_NANOS;
        try (Statement s = c.createStatement()) {
            for (;;) {
                rows.clear();
                count = 0;
                boolean onlySystem = true;
                try (ResultSet rs = s.executeQuery("SELECT l.SESSION_ID, LOCK_NAME, LOCK_MODE, LOCK_STATE, DURATION,"
                        + " (SELECT COUNT(*) FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS u"
                        + " WHERE u.SESSION_ID = l.SESSION_ID AND u.USER_NAME = '_SYSTEM')"
                        + " FROM INFORMATION_SCHEMA.SYSTEM_LOCKS l WHERE l.SESSION_ID <> SESSION_ID()")) {
                    while (rs.next()) {
                        count++;
                        onlySystem &= rs.getLong(6) > 0;
                        if (rows.size() < SHOWN) {
                            rows.add("session " + rs.getLong(1) + (rs.getLong(6) > 0 ? " (system)" : "") + " "
                                    + rs.getString(4) + " " + rs.getString(3) + "(" + rs.getString(2) + ") "
                                    + rs.getString(5));
                        }
                    }
                }
                if (count == 0 || !onlySystem || System.nanoTime() > deadline) {
                    break;
                }
                try {
                    Thread.sleep(100); // a background checkpoint: wait for it to end
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        } catch (SQLException e) {
            // a fork built before SYSTEM_LOCKS existed: nothing to look at
            if ("42501".equals(e.getSQLState())) {
                return null;
            }
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
        return new Consistency.Condition(ID, "no lock held or awaited with every terminal idle", count == 0, 1, count,
                rows);
    }

    /**
     * Whether the database runs the fork's lock manager, whose locks SYSTEM_LOCKS shows: A2L, or
     * LOCKS with LATCH FREE. Upstream's own managers (LOCKS, MVLOCKS, MVCC) keep their locks
     * where the table does not show them; an empty table would prove nothing there.
     */
    private static boolean showsLocks(Connection c) throws SQLException {
        String tx = null, latchFree = null;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT PROPERTY_NAME, PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES"
                     + " WHERE PROPERTY_NAME IN ('hsqldb.tx', 'hsqldb.latch_free')")) {
            while (rs.next()) {
                if (rs.getString(1).equals("hsqldb.tx")) {
                    tx = rs.getString(2);
                } else {
                    latchFree = rs.getString(2);
                }
            }
        }
        return "A2L".equalsIgnoreCase(tx) || ("LOCKS".equalsIgnoreCase(tx) && "true".equalsIgnoreCase(latchFree));
    }
}
