package org.hsqldb.a2l.fork.regress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hsqldb.a2l.fork.regress.ScriptRunner.RunResult;

/** Every check of a run as a tab-separated file, for reading or diffing runs after the fact. */
final class CheckLog {

    private CheckLog() {}

    static void write(Path file, RunResult run) {
        List<String> lines = new ArrayList<>();
        lines.add("unit\tscript\tline\ttag\tpass\texpected\tgot\tsql");
        for (Check c : run.checks()) {
            lines.add(String.join("\t", c.unit(), c.script(), String.valueOf(c.line()), c.tag(),
                    c.pass() ? "pass" : "FAIL", esc(c.expected()), esc(c.got()), esc(c.sql())));
        }
        run.substitutions().forEach(s -> lines.add("# substituted " + s));
        run.notes().forEach(n -> lines.add("# note " + n));
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n");
    }
}
