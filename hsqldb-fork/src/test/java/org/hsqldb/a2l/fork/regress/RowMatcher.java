package org.hsqldb.a2l.fork.regress;

import java.util.ArrayList;
import java.util.List;

/** Compares a result with an r section's expected rows as upstream's ResultSetParsedSection does. */
final class RowMatcher {

    private static final String DELIMITER = ",";

    private RowMatcher() {}

    /** Null if {@code actual} matches {@code expected}, else what differs first. */
    static String mismatch(List<String> expected, List<String[]> actual, int columnCount) {
        for (int row = 0; row < actual.size() && row < expected.size(); row++) {
            List<String> fields = fields(expected.get(row));
            if (fields.size() != columnCount) {
                return "expected " + fields.size() + " fields, the result has " + columnCount;
            }
            String[] got = actual.get(row);
            for (int i = 0; i < fields.size(); i++) {
                boolean same = got[i] == null ? fields.get(i).equalsIgnoreCase("NULL") : got[i].equals(fields.get(i));
                if (!same) {
                    return "row " + (row + 1) + " field " + (i + 1) + ": expected '" + fields.get(i) + "', got "
                            + (got[i] == null ? "NULL" : "'" + got[i] + "'");
                }
            }
        }
        if (actual.size() != expected.size()) {
            return "expected " + expected.size() + " rows, got " + actual.size();
        }
        return null;
    }

    /**
     * An expected row split at commas, keeping empty fields; a field that opens
     * with {@code ARRAY[} runs to the first later field that ends with {@code ]}
     * (upstream's rule; if none does, it swallows the rest but the rest stays).
     */
    static List<String> fields(String row) {
        List<String> parts = new ArrayList<>(List.of(row.split(DELIMITER, -1)));
        for (int i = 0; i < parts.size(); i++) {
            String f = parts.get(i);
            if (!f.startsWith("ARRAY[") || f.endsWith("]")) {
                continue;
            }
            for (int j = i + 1; j < parts.size(); j++) {
                String part = parts.get(j);
                f += DELIMITER + part;
                if (part.endsWith("]")) {
                    parts.set(i, f);
                    parts.subList(i + 1, j + 1).clear();
                    break;
                }
                if (j == parts.size() - 1) {
                    parts.set(i, f);
                }
            }
        }
        return parts;
    }
}
