package org.hsqldb.a2l.fork;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain SQL script (statements end with ';' at the end of a line, '--'
 * lines are comments) run statement by statement, each outcome rendered as
 * text: rows, an update count, or an SQLSTATE. Two engines that agree on a
 * script produce equal transcripts.
 */
final class SqlScript {

    private SqlScript() {}

    static List<String> statements(String resource) throws IOException {
        try (InputStream in = SqlScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no test resource " + resource);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<String> out = new ArrayList<>();
            StringBuilder current = new StringBuilder();
            for (String line : text.split("\n")) {
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("--")) {
                    continue;
                }
                current.append(line).append('\n');
                if (t.endsWith(";")) {
                    String sql = current.toString().strip();
                    out.add(sql.substring(0, sql.length() - 1));
                    current.setLength(0);
                }
            }
            if (current.length() > 0) {
                out.add(current.toString().strip());
            }
            return out;
        }
    }

    static List<String> transcript(Connection c, List<String> statements) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                out.add("> " + sql);
                try {
                    if (s.execute(sql)) {
                        try (ResultSet rs = s.getResultSet()) {
                            render(rs, out);
                        }
                    } else {
                        out.add("count " + s.getUpdateCount());
                    }
                } catch (SQLException e) {
                    out.add("error " + e.getSQLState() + " " + e.getErrorCode());
                }
            }
        }
        return out;
    }

    private static void render(ResultSet rs, List<String> out) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        StringBuilder row = new StringBuilder("columns");
        for (int i = 1; i <= md.getColumnCount(); i++) {
            row.append(' ').append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i));
        }
        out.add(row.toString());
        while (rs.next()) {
            row.setLength(0);
            row.append("row");
            for (int i = 1; i <= md.getColumnCount(); i++) {
                row.append(" | ").append(rs.getString(i));
            }
            out.add(row.toString());
        }
    }
}
