package org.hsqldb.a2l.tpcc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Compares every TPC-C table of two databases row by row, in primary-key order. */
final class TableDiff {

    private TableDiff() {}

    /** The differences found (at most {@code limit}); empty when the databases are identical. */
    static List<String> diff(Connection a, Connection b, int limit) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String table : Schema.TABLES) {
            String sql = "SELECT * FROM " + table + " ORDER BY " + Schema.orderByForDump(table);
            try (Statement sa = a.createStatement(); Statement sb = b.createStatement();
                 ResultSet ra = sa.executeQuery(sql); ResultSet rb = sb.executeQuery(sql)) {
                ResultSetMetaData meta = ra.getMetaData();
                long row = 0;
                while (true) {
                    boolean hasA = ra.next(), hasB = rb.next();
                    row++;
                    if (!hasA && !hasB) break;
                    if (hasA != hasB) {
                        out.add(table + ": " + (hasA ? "first" : "second") + " database has more rows from row " + row);
                        break;
                    }
                    for (int col = 1; col <= meta.getColumnCount(); col++) {
                        Object va = ra.getObject(col), vb = rb.getObject(col);
                        if (!Objects.equals(va, vb)) {
                            out.add(table + " row " + row + " " + meta.getColumnName(col) + ": " + va + " vs " + vb);
                            if (out.size() >= limit) return out;
                        }
                    }
                }
            }
        }
        return out;
    }
}
