package org.hsqldb.a2l.fork.regress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.hsqldb.a2l.fork.EngineMode;

/**
 * Keeps a script from taking the database out of the mode under test.
 *
 * <p>A statement that sets one of the properties a mode is made of (for now
 * {@code SET DATABASE TRANSACTION CONTROL x}, and {@code SET DATABASE LATCH
 * FREE x} once the fork has it; see {@link EngineMode#settablePropertiesSql()})
 * is replaced, in a mode run, by the statements that set the mode under test.
 * The check the section makes (usually just "no error") is then made on those.
 * Only a section whose whole SQL is one such statement is replaced; one buried
 * in a multi-statement section is reported, not rewritten.
 */
final class ModeSubstitution {

    private final List<Pattern> whole = new ArrayList<>();
    private final List<Pattern> anywhere = new ArrayList<>();

    ModeSubstitution() {
        for (String format : EngineMode.settablePropertiesSql().values()) {
            String words = String.join("\\s+", format.replace("%s", "").trim().split("\\s+"));
            whole.add(Pattern.compile("(?is)\\s*" + words + "\\s+\\S+\\s*;?\\s*"));
            anywhere.add(Pattern.compile("(?is)\\b" + words + "\\b"));
        }
    }

    /** The statements to run instead of {@code sql} in {@code mode}, or null to run it as written. */
    List<String> replacement(EngineMode mode, String sql) {
        for (Pattern p : whole) {
            if (p.matcher(sql).matches()) {
                return mode.settingStatements();
            }
        }
        return null;
    }

    /** True if {@code sql} sets a mode property somewhere (whether or not it can be replaced). */
    boolean setsModeProperty(String sql) {
        String s = sql.toUpperCase(Locale.ROOT);
        for (Pattern p : anywhere) {
            if (p.matcher(s).find()) {
                return true;
            }
        }
        return false;
    }
}
