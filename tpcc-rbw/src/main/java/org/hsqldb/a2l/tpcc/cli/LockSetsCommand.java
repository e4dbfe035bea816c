package org.hsqldb.a2l.tpcc.cli;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.ClientShape;
import org.hsqldb.a2l.tpcc.Loader;
import org.hsqldb.a2l.tpcc.LockSetAnalysis;
import org.hsqldb.a2l.tpcc.Scale;
import org.hsqldb.a2l.tpcc.StatementOrder;
import org.hsqldb.a2l.tpcc.TxnType;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The write-set analysis on its own: each transaction's statements with their lock sets, the
 * DECLARE WRITE SET the RbW-RL configurations issue, and the RbW violations of the order.
 */
@Command(name = "lock-sets", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads a TPC-C database on a fork configuration, runs sample transactions (rolled back)",
                "and prints each transaction's statements, their lock sets (EXPLAIN LOCKS FOR), the union",
                "of their exclusive locks as DECLARE WRITE SET, and the statements that would break early",
                "release (RbW violations). Exit code 0 when the order has no violation, 1 when it has."})
public final class LockSetsCommand implements Callable<Integer> {

    @Option(names = "--order", paramLabel = "ORDER", description = "original or rbw (default: ${DEFAULT-VALUE})")
    StatementOrder order = StatementOrder.RBW;

    @Option(names = "--warehouses", paramLabel = "N", description = "warehouses to load (default: ${DEFAULT-VALUE})")
    int warehouses = 1;

    @Option(names = "--samples", paramLabel = "N", description = "transactions per type (default: ${DEFAULT-VALUE})")
    int samples = 200;

    @Option(names = "--seed", paramLabel = "N", description = "default: ${DEFAULT-VALUE}")
    long seed = 2015;

    @Option(names = "--explain",
            description = "print every lock as EXPLAIN LOCKS FOR gives it (granularity, and the reason for a whole"
                    + " column or table under LOCK GRANULARITY CELL), not only its mode and name")
    boolean explain;

    @Mixin
    EngineOptions engineOptions;

    @Mixin
    ClientOptions clientOptions;

    @Override
    public Integer call() throws Exception {
        if (warehouses < 1) throw new UsageException("--warehouses must be at least 1");
        if (samples < 1) throw new UsageException("--samples must be at least 1");
        ClientShape shape = clientOptions.shape();
        EngineConfig config = engineOptions.resolve();
        if (config.jar() != EngineConfig.JarKind.FORK) {
            throw new UsageException("lock sets come from the fork's EXPLAIN LOCKS: choose a fork configuration");
        }
        Engine engine = Engine.load(config, engineOptions.jars(), "locksets");
        PrintStream out = System.out;
        try (Connection admin = engine.connect()) {
            String unavailable = engine.unavailableReason(admin);
            if (unavailable != null) {
                throw new EngineException("configuration " + config.name() + " is not available: " + unavailable);
            }
            Scale scale = Scale.standard(warehouses);
            Loader.Result load = new Loader(scale, seed, Instant.now(), engine::connect, 2, out)
                    .constrained(shape.constrained()).load();
            Map<TxnType, LockSetAnalysis.Result> results;
            boolean clean = true;
            try (Connection c = engine.connect()) {
                results = LockSetAnalysis.analyze(c, scale, load.constants(), seed, order, samples, config.reads(),
                        shape);
                out.printf("%s (%s), %s order, %s%n", config.name(), c.getMetaData().getDatabaseProductVersion(),
                        order.label, shape.describe());
                for (LockSetAnalysis.Result r : results.values()) {
                    print(r, explain ? c : null, out);
                    clean &= r.violations().isEmpty();
                }
            }
            out.printf("%s order on %s: %s%n", order.label, config.name(),
                    clean ? "no RbW violation" : "RbW violations (see above)");
            engine.shutdown(admin);
            return clean ? Main.OK : Main.FAILED;
        } catch (SQLException e) {
            throw new EngineException(config.name() + ": " + Main.firstLine(e.getMessage()));
        }
    }

    /** One transaction's statements and lock sets; each lock on a line of its own if {@code explain} is given. */
    private static void print(LockSetAnalysis.Result r, Connection explain, PrintStream out) throws SQLException {
        out.println();
        out.println(r.type().label + ":");
        for (String sql : r.statements()) {
            out.println("  " + sql);
            if (explain == null) {
                out.println("      " + String.join(" ", r.locks().get(sql).stream().map(Object::toString).toList()));
            } else {
                for (String line : LockSetAnalysis.explained(explain, sql)) out.println("      " + line);
            }
        }
        String declaration = r.declaration();
        out.println("  write set: " + (declaration == null ? "none (reads only)" : declaration));
        if (r.violations().isEmpty()) {
            out.println("  RbW violations: none");
        } else {
            out.println("  RbW violations:");
            for (String v : r.violations()) out.println("    " + v);
        }
    }
}
