package org.hsqldb.a2l.tpcc.report;

import java.nio.file.Path;

/**
 * Paths as the harness writes them into what it leaves behind. Reports, summaries and CSV files get
 * committed under results/ and read on other machines, so they hold paths relative to their run
 * folder, never the absolute paths of the machine that ran them.
 */
public final class RunPaths {

    private RunPaths() {}

    /** {@code file} relative to {@code runFolder}, with '/' separators (either may be relative to the working directory). */
    public static String relative(Path runFolder, Path file) {
        Path base = runFolder.toAbsolutePath().normalize();
        return base.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    /** {@code file} for the console: relative to the working directory when it lies under it, else as it is. */
    public static String display(Path file) {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        Path f = file.toAbsolutePath().normalize();
        return f.startsWith(cwd) && !f.equals(cwd) ? cwd.relativize(f).toString() : file.toString();
    }
}
