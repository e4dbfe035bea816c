package org.hsqldb.a2l.tpcc.cli;

import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.ClientShape;
import picocli.CommandLine.Option;

/** How the terminals talk to the database, for the commands that measure ({@link ClientShape}). */
public final class ClientOptions {

    @Option(names = "--client", paramLabel = "HOW",
            description = "prepared (each terminal prepares a statement once and keeps it) or per-call (prepared,"
                    + " executed and closed on every call, as JdbcTemplate and ORMs without a statement cache do)"
                    + " (default: ${DEFAULT-VALUE})")
    String client = "prepared";

    @Option(names = "--batches", description = "New-Order's stock updates and order lines as two JDBC batches")
    boolean batches;

    @Option(names = "--schema", paramLabel = "NAME",
            description = "plain (the harness' keys and foreign keys) or constrained (also UNIQUE on ORDERS by"
                    + " customer and the foreign key NEW_ORDER -> ORDERS; New-Order then inserts ORDERS first)"
                    + " (default: ${DEFAULT-VALUE})")
    String schema = "plain";

    ClientShape shape() {
        boolean perCall = switch (client) {
            case "prepared" -> false;
            case "per-call" -> true;
            default -> throw new UsageException("--client must be prepared or per-call, not '" + client + "'");
        };
        boolean constrained = switch (schema) {
            case "plain" -> false;
            case "constrained" -> true;
            default -> throw new UsageException("--schema must be plain or constrained, not '" + schema + "'");
        };
        return new ClientShape(perCall, batches, constrained);
    }

    /** The options that give a child JVM the same shape. */
    static List<String> args(ClientShape shape) {
        List<String> args = new ArrayList<>(List.of("--client", shape.perCall() ? "per-call" : "prepared",
                "--schema", shape.constrained() ? "constrained" : "plain"));
        if (shape.batches()) args.add("--batches");
        return args;
    }
}
