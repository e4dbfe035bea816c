package org.hsqldb.a2l.fork.regress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The sections upstream's LineGroupReader + ParsedSection would make of the same text. */
class ScriptParserTest {

    private static final String SCRIPT = String.join("\n",
            "-- a comment",
            "set database transaction control locks",
            "",
            "/*d* Some demo lines",
            "/*c1*/select * from information_schema.tables limit 1",
            "/*r",
            " PUBLIC*/select table_catalog from information_schema.tables limit 1",
            "/*e*/select '''",
            "create table t(a int,",
            "  b int)",
            "-- comments inside a section are skipped",
            "  ",
            "/*u2*/insert into t",
            " values (1, 2), (3, 4)",
            "/*r",
            " 1,2",
            " 3,4",
            "*/select * from t order by a",
            "/*e42501*/select * from nowhere",
            "/*C1*/select 1 from t",
            "/*s*/drop user nobody",
            "/*rARRAY[1,2],x*/select 1");

    @Test
    void cutsAndParsesSectionsAsUpstreamDoes() {
        List<Section> s = ScriptParser.parse(SCRIPT);
        assertEquals(12, s.size());

        assertSection(s.get(0), 2, ' ', "set database transaction control locks\n", List.of());
        assertEquals('d', s.get(1).tag());
        assertSection(s.get(2), 5, 'c', "select * from information_schema.tables limit 1", List.of("1"));
        assertEquals(1, s.get(2).expectedNumber());
        assertSection(s.get(3), 6, 'r', "select table_catalog from information_schema.tables limit 1",
                List.of(" PUBLIC"));
        assertEquals(List.of("PUBLIC"), s.get(3).expectedRows());
        assertSection(s.get(4), 8, 'e', "select '''", List.of());
        assertEquals(null, s.get(4).expectedState());
        assertSection(s.get(5), 9, ' ', "create table t(a int,\n  b int)\n", List.of());
        // tagged SQL continues without a separator, as upstream concatenates it
        assertSection(s.get(6), 13, 'u', "insert into t values (1, 2), (3, 4)", List.of("2"));
        assertEquals(List.of("1,2", "3,4"), s.get(7).expectedRows());
        assertEquals("select * from t order by a", s.get(7).sql());
        assertEquals("42501", s.get(8).expectedState());
        assertEquals('C', s.get(9).tag());
        assertEquals('s', s.get(10).tag());
        assertEquals(List.of("ARRAY[1,2]", "x"), RowMatcher.fields(s.get(11).expectedRows().get(0)));
    }

    @Test
    void rowsCompareFieldByFieldWithNullAndEmptyFields() {
        assertEquals(null, RowMatcher.mismatch(List.of("1,NULL,"), List.<String[]>of(new String[] {"1", null, ""}), 3));
        assertEquals("row 1 field 2: expected 'x', got NULL",
                RowMatcher.mismatch(List.of("1,x,"), List.<String[]>of(new String[] {"1", null, ""}), 3));
        assertEquals("expected 2 fields, the result has 1",
                RowMatcher.mismatch(List.of("1,2"), List.<String[]>of(new String[] {"1"}), 1));
        assertEquals("expected 1 rows, got 0", RowMatcher.mismatch(List.of("1"), List.of(), 1));
    }

    private static void assertSection(Section s, int line, char tag, String sql, List<String> result) {
        assertEquals(line, s.line(), "line of " + s);
        assertEquals(tag, s.tag(), "tag of " + s);
        assertEquals(sql, s.sql(), "sql of " + s);
        assertEquals(result, s.resultLines(), "expected result of " + s);
    }
}
