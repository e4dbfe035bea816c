package org.hsqldb.a2l.tpcc.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsqldb.a2l.tpcc.Consistency;

/** What {@code tpcc verify --result FILE} found, for the chaos run (which runs verify in a child JVM). */
public final class VerifyResult {

    public boolean ok;
    /** Why the database could not be opened, or null. */
    public String openFailure;
    public String engineProduct;
    public String engineVersion;
    /** Opening the database, its log replayed after a crash. */
    public double openSeconds;
    public boolean consistencyOk;
    public List<Consistency.Condition> conditions = new ArrayList<>();
    /** Null when no side file was given. */
    public Long acknowledged;
    public long newOrders;
    public long payments;
    public long deliveries;
    public long deliveredOrders;
    public long missing;
    public List<String> missingShown = List.of();
    /** The side file ended in a line a kill cut short (not checked). */
    public boolean tornLastLine;
    public String indexCheck;
    public boolean indexOk;
    public List<String> indexProblems = List.of();
    public String shutdown;
    public boolean shutdownOk;
    public double shutdownSeconds;

    public void write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, RunSummary.GSON.toJson(this) + "\n");
    }

    public static VerifyResult read(Path file) throws IOException {
        return RunSummary.GSON.fromJson(Files.readString(file), VerifyResult.class);
    }

    /** One line for reports: consistency, acknowledged commits, indexes. */
    public String oneLine() {
        if (openFailure != null) return "could not open the database: " + openFailure;
        long held = conditions.stream().filter(Consistency.Condition::ok).count();
        return (consistencyOk ? "all " + conditions.size() + " conditions hold" : "CONSISTENCY VIOLATED ("
                + (conditions.size() - held) + " of " + conditions.size() + ")")
                + "; " + (acknowledged == null ? "no side file" : acknowledged + " acknowledged commits, "
                + (missing == 0 ? "none missing" : missing + " MISSING"))
                + "; index check " + (indexOk ? "sound" : "PROBLEMS: " + indexProblems.size())
                + (shutdownOk ? "" : "; " + shutdown + " FAILED");
    }
}
