package org.hsqldb.a2l.fork;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the fork's index check (PERFORM CHECK ALL TABLE INDEX, which walks
 * every AVL index of every MEMORY table) and returns what it found wrong.
 */
public final class IndexIntegrity {

    private IndexIntegrity() {}

    /** Problems reported for all tables: empty when every index is sound. */
    public static List<String> problems(Connection c) throws SQLException {
        List<String> problems = new ArrayList<>();
        String table = "";
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PERFORM CHECK ALL TABLE INDEX")) {
            long tableRows = -1;
            while (rs.next()) {
                String name = rs.getString(1);
                String index = rs.getString(2);
                String info = rs.getString(3);
                if (!name.isEmpty()) {
                    table = name;
                }
                if (index.isEmpty() && info.startsWith("rows ")) {
                    tableRows = Long.parseLong(info.substring(5));
                } else if (info.startsWith("readable rows ")) {
                    long indexRows = Long.parseLong(info.substring(14));
                    if (indexRows != tableRows) {
                        problems.add(table + "." + index + ": " + indexRows + " readable rows, table has " + tableRows);
                    }
                } else {
                    problems.add(table + (index.isEmpty() ? "" : "." + index) + ": " + info);
                }
            }
        }
        return problems;
    }
}
