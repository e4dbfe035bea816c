package org.hsqldb.a2l.tpcc.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import org.hsqldb.a2l.tpcc.AckCheck;
import org.hsqldb.a2l.tpcc.AckLog;
import org.hsqldb.a2l.tpcc.Consistency;
import org.hsqldb.a2l.tpcc.IndexCheck;
import org.hsqldb.a2l.tpcc.engine.DatabaseLocation;
import org.hsqldb.a2l.tpcc.engine.Engine;
import org.hsqldb.a2l.tpcc.engine.EngineConfig;
import org.hsqldb.a2l.tpcc.engine.EngineException;
import org.hsqldb.a2l.tpcc.report.VerifyResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Reopens a file database (after a crash HSQLDB recovers it from its log on the way), checks all
 * twelve consistency conditions, that every acknowledged commit of the side file is there, and the
 * indexes (on the fork), then shuts it down as asked: the second half of a crash-safety test.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reopens the file database in DIR and checks it: TPC-C consistency conditions 3.3.2.1-12,",
                "every commit acknowledged in the side file (tpcc run --acks), and PERFORM CHECK ALL TABLE INDEX.",
                "Exit code 0 all hold, 1 something is missing or violated, 2 bad options."})
public final class VerifyCommand implements Callable<Integer> {

    @Option(names = "--database-dir", paramLabel = "DIR", required = true,
            description = "the database directory a `tpcc run --database-dir DIR` loaded")
    Path databaseDir;

    @Option(names = "--acks", paramLabel = "FILE", description = "side file of acknowledged commits (tpcc run --acks)")
    Path acks;

    @Option(names = "--shutdown", paramLabel = "HOW",
            description = "how to close the database afterwards: normal (SHUTDOWN) or compact (SHUTDOWN COMPACT);"
                    + " default: ${DEFAULT-VALUE}")
    String shutdown = "normal";

    @Mixin
    EngineOptions engine;

    // the chaos run reads what verify found from here
    @Option(names = "--result", paramLabel = "FILE", hidden = true)
    Path resultFile;

    @Override
    public Integer call() throws Exception {
        VerifyResult result = new VerifyResult();
        try {
            return verify(System.out, result);
        } finally {
            if (resultFile != null && (result.openFailure != null || result.shutdown != null)) result.write(resultFile);
        }
    }

    private int verify(PrintStream out, VerifyResult result) throws Exception {
        if (engine.url != null) throw new UsageException("verify opens HSQLDB file databases: give --config, not --url");
        String shutdownSql = switch (shutdown) {
            case "normal" -> "SHUTDOWN";
            case "compact" -> "SHUTDOWN COMPACT";
            default -> throw new UsageException("--shutdown is normal or compact, not '" + shutdown + "'");
        };
        DatabaseLocation db = DatabaseLocation.file(databaseDir);
        LoadRecord loaded = LoadRecord.read(db.directory());
        if (loaded == null) {
            throw new UsageException(db.directory() + " holds no finished TPC-C load (no " + LoadRecord.FILE + ")");
        }
        EngineConfig config = EngineOptions.named(engine.config != null ? engine.config : loaded.config());
        String mismatch = loaded.mismatch(config, loaded.scale());
        if (mismatch != null) throw new UsageException("cannot open " + db.directory() + " as " + config.name() + ": " + mismatch);
        AckLog.Contents contents = null;
        if (acks != null) {
            if (!Files.isRegularFile(acks)) throw new UsageException("no side file " + acks);
            contents = AckLog.read(acks);
        }

        out.println("database: " + db.describe() + ", " + loaded.describe());
        Engine e = Engine.load(config, engine.jars(), db);
        long opening = System.nanoTime();
        Connection c;
        try {
            c = e.connect();
        } catch (SQLException ex) {
            // a database that does not come back after a crash is a failed check, not a bad request
            String message = Main.firstLine(ex.getMessage());
            result.openFailure = message;
            out.println("verify: FAILED, cannot open " + e.url() + ": " + message);
            if (message.contains("lock acquisition")) {
                Path lockFile = db.directory().resolve(DatabaseLocation.FILE_NAME + ".lck");
                out.println("   (HSQLDB's lock file " + lockFile + ": another"
                        + " process has the database open, or one was killed less than 10 s ago and its heartbeat"
                        + " is not stale yet)");
            }
            return Main.FAILED;
        }
        boolean ok = true;
        try {
            String unavailable = e.unavailableReason(c);
            if (unavailable != null) throw new EngineException("configuration " + config.name() + ": " + unavailable);
            result.engineProduct = c.getMetaData().getDatabaseProductName();
            result.engineVersion = c.getMetaData().getDatabaseProductVersion();
            result.openSeconds = Math.round((System.nanoTime() - opening) / 1e8) / 10.0;
            out.printf("engine: %s %s as %s, opened (and recovered) in %.1f s%n", result.engineProduct,
                    result.engineVersion, config.name(), (System.nanoTime() - opening) / 1e9);

            List<Consistency.Condition> conditions = new Consistency(c, loaded.scale()).check(true);
            boolean consistent = Consistency.allOk(conditions);
            result.conditions = conditions;
            result.consistencyOk = consistent;
            ok &= consistent;
            out.println("consistency: " + (consistent ? "all " + conditions.size() + " conditions hold" : "VIOLATED"));
            for (Consistency.Condition k : conditions) {
                out.printf("   %-8s %-4s %s: %s%n", k.id(), k.ok() ? "ok" : "FAIL", k.rule(),
                        k.values().isEmpty() ? "" : k.values().get(0));
                if (!k.ok()) k.values().stream().skip(1).forEach(v -> out.println("                 " + v));
            }

            if (contents != null) {
                AckCheck.Result r = AckCheck.check(c, contents.receipts());
                result.acknowledged = r.acknowledged();
                result.newOrders = r.newOrders();
                result.payments = r.payments();
                result.deliveries = r.deliveries();
                result.deliveredOrders = r.deliveredOrders();
                result.missing = r.missing();
                result.missingShown = r.problems();
                result.tornLastLine = contents.tornLastLine();
                ok &= r.ok();
                out.println("acks: " + r.oneLine() + (contents.tornLastLine()
                        ? " (the side file ends in a line the kill cut short; it was not checked)" : ""));
                r.problems().forEach(p -> out.println("   MISSING " + p));
                if (r.missing() > r.problems().size()) out.println("   ... and " + (r.missing() - r.problems().size()) + " more");
            }

            IndexCheck.Result index = IndexCheck.run(c);
            result.indexCheck = index.oneLine();
            result.indexOk = index.ok();
            result.indexProblems = index.problems();
            ok &= index.ok();
            out.println("index check: " + index.oneLine());
            index.problems().forEach(p -> out.println("   PROBLEM " + p));
        } finally {
            long closing = System.nanoTime();
            result.shutdown = shutdownSql;
            try {
                e.shutdown(c, shutdownSql);
                result.shutdownOk = true;
                out.printf("shutdown: %s in %.1f s%n", shutdownSql, (System.nanoTime() - closing) / 1e9);
            } catch (SQLException ex) {
                ok = false;
                out.println("shutdown: " + shutdownSql + " FAILED: " + ex.getMessage());
            } finally {
                result.shutdownSeconds = Math.round((System.nanoTime() - closing) / 1e8) / 10.0;
                c.close();
            }
        }
        result.ok = ok;
        out.println("verify: " + (ok ? "OK" : "FAILED"));
        return ok ? Main.OK : Main.FAILED;
    }
}
