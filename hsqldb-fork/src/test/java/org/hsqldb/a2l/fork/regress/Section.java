package org.hsqldb.a2l.fork.regress;

import java.util.List;

/**
 * One section of a test script, cut and parsed the way upstream's
 * {@code org.hsqldb.test.TestUtil} does it.
 *
 * @param line        line number (1-based) of the section's first line
 * @param tag         the type code after {@code /*}: one of {@code ' ' c r u e o s d w p},
 *                    or any other character for a section upstream leaves unprocessed
 * @param sql         the SQL sent to the engine
 * @param resultLines the lines between the tag and the closing {@code *}{@code /}
 *                    (the expected result), as upstream keeps them
 */
public record Section(int line, char tag, String sql, List<String> resultLines) {

    /** Tags upstream's harness knows; any other (e.g. upper case) is left unprocessed. */
    public static boolean isKnownTag(char tag) {
        return " dosecruwp".indexOf(tag) >= 0;
    }

    /** The expected row count (c) or update count (u). */
    public int expectedNumber() {
        return Integer.parseInt(resultLines.isEmpty() ? "" : resultLines.get(0));
    }

    /** The SQLSTATE an e section names, or null for "any error". */
    public String expectedState() {
        String s = resultLines.isEmpty() ? "" : resultLines.get(0).trim();
        return s.isEmpty() ? null : s;
    }

    /** The rows an r section expects, leading spaces removed. */
    public List<String> expectedRows() {
        return resultLines.stream().map(l -> l.replaceFirst("^ +", "")).toList();
    }
}
