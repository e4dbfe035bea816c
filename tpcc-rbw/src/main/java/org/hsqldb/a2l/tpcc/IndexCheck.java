package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * HSQLDB's {@code PERFORM CHECK ALL TABLE INDEX}. The fork answers one row per table ({@code rows N})
 * and per index ({@code readable rows N}: what a walk of the index reached) or a description of
 * what is broken; an index that reaches a different number of rows than its table has is broken
 * too. Upstream 2.7.4 answers with problems only, so a sound database there gives no rows at all.
 */
public final class IndexCheck {

    /** {@code tables} and {@code indexes} count what the engine reported on; {@code problems} what is wrong. */
    public record Result(int tables, int indexes, List<String> problems) {
        public boolean ok() {
            return problems.isEmpty();
        }

        public String oneLine() {
            if (tables == 0 && problems.isEmpty()) return "no problem reported (the engine lists problems only)";
            return tables + " tables, " + indexes + " indexes walked: "
                    + (ok() ? "sound" : problems.size() + " PROBLEM(S)");
        }
    }

    private IndexCheck() {}

    public static Result run(Connection c) throws SQLException {
        List<String> problems = new ArrayList<>();
        int tables = 0, indexes = 0;
        String table = "";
        long tableRows = -1;
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PERFORM CHECK ALL TABLE INDEX")) {
            while (rs.next()) {
                String name = rs.getString(1), index = rs.getString(2), info = rs.getString(3);
                if (name != null && !name.isEmpty() && !name.equals(table)) {
                    table = name;
                    tableRows = -1;
                }
                if ((index == null || index.isEmpty()) && info.startsWith("rows ")) {
                    tables++;
                    tableRows = Long.parseLong(info.substring("rows ".length()).strip());
                } else if (info.startsWith("readable rows ")) {
                    indexes++;
                    long reached = Long.parseLong(info.substring("readable rows ".length()).strip());
                    if (reached != tableRows) {
                        problems.add(table + "." + index + ": " + reached + " readable rows, the table has " + tableRows);
                    }
                } else {
                    problems.add(table + (index == null || index.isEmpty() ? "" : "." + index) + ": " + info);
                }
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
        return new Result(tables, indexes, List.copyOf(problems));
    }
}
