package org.hsqldb.a2l.fork.regress;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a TestSelf-format script into {@link Section}s exactly as upstream's
 * harness does (org.hsqldb.lib.LineGroupReader + TestUtil's ParsedSection),
 * so that a section's SQL, its expected result and its line number are the
 * ones upstream's own test run uses:
 * <ul>
 * <li>trailing spaces are cut; blank lines and lines starting with {@code --}
 *     are skipped wherever they are;</li>
 * <li>a line starting with a space or {@code *} continues the current
 *     section; any other line starts a new one (lines before the first
 *     section start are dropped);</li>
 * <li>a section starting with {@code /*X} has tag X. Its expected result runs
 *     up to the last line holding {@code *}{@code /}; the SQL is what follows
 *     that mark, the following lines appended without a separator. If the
 *     first line is just {@code /*X}, the result starts on the next line;</li>
 * <li>an untagged section's SQL is its lines, each followed by a newline.</li>
 * </ul>
 */
public final class ScriptParser {

    private ScriptParser() {}

    public static List<Section> parse(String text) {
        List<Section> out = new ArrayList<>();
        List<String> current = null;
        int start = 0;
        int lineNo = 0;
        for (String raw : text.split("\r\n|\r|\n", -1)) {
            lineNo++;
            String line = rightTrimSpaces(raw);
            if (line.isEmpty() || line.startsWith("--")) {
                continue;
            }
            boolean continuation = line.startsWith(" ") || line.startsWith("*");
            if (!continuation) {
                if (current != null) {
                    out.add(section(current, start));
                }
                current = new ArrayList<>();
                start = lineNo;
            }
            if (current != null) {
                current.add(line);
            }
        }
        if (current != null) {
            out.add(section(current, start));
        }
        return out;
    }

    private static Section section(List<String> group, int line) {
        String top = group.get(0);
        char tag = ' ';
        if (top.startsWith("/*") && top.length() > 2) {
            tag = top.charAt(2);
        }
        if (tag == 'd' || tag == 'w' || tag == 'p' || !Section.isKnownTag(tag)) {
            // never executed: display, multi-thread wait/proceed, unprocessed
            return new Section(line, tag, "", List.copyOf(group));
        }
        if (!top.startsWith("/*")) {
            StringBuilder sql = new StringBuilder();
            for (String l : group) {
                sql.append(l).append('\n');
            }
            return new Section(line, tag, sql.toString(), List.of());
        }
        List<String> lines = new ArrayList<>(group);
        if (top.length() == 3) {
            lines.remove(0);
        } else {
            lines.set(0, top.substring(3));
        }
        StringBuilder sql = new StringBuilder();
        int resultEnd = 0;
        int k = lines.size() - 1;
        for (; k >= 0; k--) {
            String l = lines.get(k);
            int end = l.indexOf("*/");
            if (end >= 0) {
                sql.insert(0, l.substring(end + 2));
                String before = l.substring(0, end);
                lines.set(k, before);
                resultEnd = before.isEmpty() ? k - 1 : k;
                break;
            }
            sql.insert(0, l);
        }
        List<String> result = lines.isEmpty() ? List.of()
                : List.copyOf(lines.subList(0, Math.max(0, Math.min(resultEnd + 1, lines.size()))));
        return new Section(line, tag, sql.toString(), result);
    }

    private static String rightTrimSpaces(String s) {
        int i = s.length();
        while (i > 0 && s.charAt(i - 1) == ' ') {
            i--;
        }
        return s.substring(0, i);
    }
}
