package org.hsqldb.a2l.tpcc.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which locks the terminals wait for: the fork's INFORMATION_SCHEMA.SYSTEM_LOCKS read every few
 * milliseconds during the measured window, each waiting request counted under its lock's name
 * with the key's values left out (a cell or row key of any row counts under its column or table,
 * each value shown as {@code n}: {@code T.C[n, n]}, a key range {@code T[n]}, a range's first row
 * {@code T[n, n, first]}) and its mode. The counters say how many waits there were; this says where,
 * weighted by how long they last (a wait seen in many samples lasted long). A wait shows under
 * the name it asked for, whichever name above it (an intention) it waits on.
 */
public final class LockWaitSampler {

    private static final Pattern KEY = Pattern.compile("\\[[^\\]]*\\]");
    private static final Pattern VALUE = Pattern.compile("-?[0-9]+");
    private final Connection admin;
    private final Map<String, Long> waits = new HashMap<>();
    private long samples;
    private long waiting;

    /** {@code admin}: a connection the terminals do not use; read from one thread only. */
    public LockWaitSampler(Connection admin) {
        this.admin = admin;
    }

    /** Reads the waiting requests once. */
    public void sample() throws SQLException {
        boolean autoCommit = admin.getAutoCommit();
        admin.setAutoCommit(true);
        try (Statement s = admin.createStatement();
             ResultSet rs = s.executeQuery("SELECT LOCK_NAME, LOCK_MODE FROM INFORMATION_SCHEMA.SYSTEM_LOCKS"
                     + " WHERE LOCK_STATE = 'WAITING' AND SESSION_ID <> SESSION_ID()")) {
            samples++;
            while (rs.next()) {
                waiting++;
                waits.merge(withoutValues(rs.getString(1)) + " " + rs.getString(2), 1L,
                        Long::sum);
            }
        } finally {
            admin.setAutoCommit(autoCommit);
        }
    }

    /** {@code name} with each number inside its key's brackets shown as {@code n}. */
    static String withoutValues(String name) {
        Matcher m = KEY.matcher(name);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(VALUE.matcher(m.group()).replaceAll("n")));
        }
        m.appendTail(out);
        return out.toString();
    }

    public long samples() {
        return samples;
    }

    /** The mean number of requests waiting at a sample. */
    public double meanWaiting() {
        return samples == 0 ? 0 : (double) waiting / samples;
    }

    /** The {@code top} names waited for most, with their share of all waiting requests seen, largest first. */
    public Map<String, Double> top(int top) {
        Map<String, Double> out = new LinkedHashMap<>();
        waits.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(top)
                .forEach(e -> out.put(e.getKey(), Math.round(1000.0 * e.getValue() / waiting) / 1000.0));
        return out;
    }
}
