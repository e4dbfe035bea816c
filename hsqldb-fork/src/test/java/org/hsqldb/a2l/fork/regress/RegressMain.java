package org.hsqldb.a2l.fork.regress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hsqldb.a2l.fork.EngineMode;

/**
 * Command-line entry of the regression suite, run by scripts/regress:
 * {@code [--modes m1,m2] [--scripts GLOB] [--verbose] [--threads N] [--work DIR]}.
 * Exit status: 0 no regression, 1 regressions, 2 bad options, 3 the suite could not run.
 */
public final class RegressMain {

    private RegressMain() {}

    public static void main(String[] args) throws Exception {
        List<EngineMode> modes = new ArrayList<>();
        String glob = null;
        boolean verbose = false;
        int threads = Math.min(2, Runtime.getRuntime().availableProcessors());
        Path work = Path.of("target", "regress");
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--modes" -> {
                        for (String m : value(args, ++i, "--modes").split(",")) {
                            if (!m.isBlank()) {
                                modes.add(EngineMode.byId(m.trim()));
                            }
                        }
                    }
                    case "--scripts" -> glob = value(args, ++i, "--scripts");
                    case "--verbose" -> verbose = true;
                    case "--threads" -> threads = Integer.parseInt(value(args, ++i, "--threads"));
                    case "--work" -> work = Path.of(value(args, ++i, "--work"));
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("regress: " + e.getMessage() + " (try scripts/regress --help)");
            System.exit(2);
        }
        Comparison.Report report;
        long start = System.nanoTime();
        try {
            report = RegressionSuite.run(new RegressionSuite.Options(modes, glob, RegressionSuite.defaultScriptDir(),
                    work, threads, verbose ? System.out : null));
        } catch (IllegalArgumentException e) {
            System.err.println("regress: " + e.getMessage() + " (try scripts/regress --help)");
            System.exit(2);
            return;
        } catch (IllegalStateException e) {
            System.err.println("regress: " + e.getMessage());
            System.exit(3);
            return;
        }
        report.print(System.out, verbose);
        if (verbose) {
            System.out.printf("suite time %.1f s; every check of every run: %s/*/checks.tsv%n",
                    (System.nanoTime() - start) / 1e9, work.toAbsolutePath());
        }
        System.exit(report.regressions().isEmpty() ? 0 : 1);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
