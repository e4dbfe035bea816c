package org.hsqldb.a2l.tpcc.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Mix;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the harness jar: scripts/tpcc runs {@code run}, scripts/compare runs {@code compare}. */
@Command(name = "tpcc", mixinStandardHelpOptions = true,
        description = "TPC-C in Original and Read-before-Write order against HSQLDB (upstream or fork) or any JDBC engine.",
        subcommands = {RunCommand.class, CompareCommand.class, ConfigsCommand.class, IsolationCommand.class,
                LockSetsCommand.class, VerifyCommand.class, SoakCommand.class, ChaosCommand.class,
                MeasurementRunCommand.class, SoakRunCommand.class, ChaosRunCommand.class})
public final class Main implements Runnable {

    /** Exit codes: 0 ok, 1 run failed (consistency violated, engine error), 2 bad request. */
    public static final int OK = 0, FAILED = 1, USAGE = 2;

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    public static int execute(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.registerConverter(StatementOrder.class, s -> convert(StatementOrder::parse, s));
        cl.registerConverter(Mix.class, s -> convert(Mix::parse, s));
        cl.registerConverter(Isolation.class, s -> convert(Isolation::parse, s));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("tpcc: " + firstLine(ex.getMessage()) + " (see --help)");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof CommandLine.ParameterException || ex instanceof UsageException
                    || ex instanceof EngineException) {
                err.println("tpcc: " + firstLine(ex.getMessage()));
                return USAGE;
            }
            err.println("tpcc: failed: " + ex);
            ex.printStackTrace(err);
            return FAILED;
        });
        return cl.execute(args);
    }

    /** Lets picocli say "Invalid value for option '--mix': unknown mix 'x' (8-92, ...)" and nothing more. */
    private static <T> T convert(java.util.function.Function<String, T> parse, String s) {
        try {
            return parse.apply(s);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    static String firstLine(String s) {
        if (s == null) return "error";
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "missing command: run, compare, configs, isolation, lock-sets, verify, soak or chaos");
    }
}
