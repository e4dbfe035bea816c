package org.hsqldb.a2l.fork.regress;

/**
 * The outcome of one check: a script section that upstream's harness would
 * count as passed or failed, or one of the runner's own checks (mode guard,
 * trigger calls, harness statements).
 *
 * @param unit     the unit it ran in: a script run alone, or a group's name
 * @param script   the script file (or harness step) it comes from
 * @param line     the section's first line; 0 = before the script, past the last line = after it
 * @param tag      the section's tag as written ({@code c r u e o}), {@code exec} for an
 *                 untagged statement, {@code mode} for the mode guard, {@code trigger} for
 *                 trigger call counts
 * @param sql      the SQL as sent (after any mode substitution)
 * @param expected what the check expects, as text
 * @param got      what the engine did, as text
 * @param pass     whether it met the expectation
 */
public record Check(String unit, String script, int line, String tag, String sql,
                    String expected, String got, boolean pass) {

    /** Identifies the same check across engines and modes. */
    public String key() {
        return unit + "|" + script + ":" + line;
    }

    /** script:line, plus the group it ran in when that is not the script itself. */
    public String where() {
        String w = script + ":" + line;
        return unit.equals(script) ? w : w + " (group " + unit + ")";
    }
}
