package org.hsqldb.a2l.tpcc.report;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.hsqldb.a2l.tpcc.FaultInjector;

/** Writes a chaos run's report.md, periods.csv and chaos.json (everything). */
public final class ChaosReport {

    /**
     * {@code totalSeconds}: what was asked for; {@code secondsPerConfig}: each configuration's share;
     * {@code faults}: the fault thread's rates (its hold is {@code holdMillis}).
     */
    public record Meta(String runId, String commandLine, MachineFacts machine, int totalSeconds, int secondsPerConfig,
                       int killEverySeconds, int periodSeconds, int clients, int warehouses, String scale, long seed,
                       String jvmOpts, int holdMillis, FaultInjector.Settings faults, long stallSeconds,
                       Map<String, String> unavailable, double elapsedSeconds, List<String> failures) {}

    /**
     * One configuration at a glance (report.md's summary table, chaos.json's {@code summary}): the
     * faults injected by kind and the aborts they caused, kills and reopens, and whether each check
     * held. {@code idleLocks}: "ok", "HELD" or "not visible" (the mode's lock manager is upstream's,
     * whose locks SYSTEM_LOCKS does not show); {@code consistencyOk} covers every period's check and
     * every verify.
     */
    public record Row(String config, boolean ok, double minutes, int segments, int kills, int reopens, long committed,
                      double committedPerMinute, long cancels, long cancelsWaiting, long cancelsRunning,
                      long lockHolds, long timeoutTerminals, long closeRequests, long schemaChanges,
                      long abortsCancelled,
                      long abortsTimedOut, long abortsClosed, long engineAborts, int periods, int periodsChecked,
                      int verifies, int verifiesOk, boolean consistencyOk, String idleLocks, int idleLocksChecked,
                      long acknowledgedChecked, long acknowledgedMissing, int stalls) {

        static Row of(ChaosResult r) {
            double recorded = r.periods.stream().mapToDouble(p -> p.seconds).sum();
            long committed = r.periods.stream().mapToLong(p -> p.committed).sum();
            List<ChaosResult.Period> checked = r.periods.stream().filter(p -> p.stall == null).toList();
            int verifies = (int) r.segments.stream().filter(s -> s.verify != null || s.verifyExitCode != null).count();
            int verifiesOk = (int) r.segments.stream().filter(s -> s.verify != null && s.verify.ok).count();
            boolean consistent = checked.stream().allMatch(p -> p.consistencyOk)
                    && r.segments.stream().allMatch(s -> s.verify == null || s.verify.consistencyOk)
                    && r.segments.stream().anyMatch(s -> s.verify != null && s.verify.openFailure == null);
            int idleChecked = (int) checked.stream().filter(p -> p.idleLocksOk != null).count();
            boolean held = checked.stream().anyMatch(p -> Boolean.FALSE.equals(p.idleLocksOk));
            String idle = held ? "HELD" : idleChecked == 0 ? "not visible" : "ok";
            // the final verify looks up every acknowledged commit of every segment; the periods' checks
            // looked up each period's own
            long acknowledged = 0;
            for (ChaosResult.Segment s : r.segments) {
                if (s.verify != null && s.verify.acknowledged != null) acknowledged = s.verify.acknowledged;
            }
            long missing = r.segments.stream().filter(s -> s.verify != null).mapToLong(s -> s.verify.missing).sum()
                    + r.periods.stream().mapToLong(p -> p.acksMissing).sum();
            return new Row(r.config, r.ok, Math.round(r.ranSeconds / 6) / 10.0, r.segments.size(), r.kills, r.reopens,
                    committed, recorded == 0 ? 0 : Math.round(committed * 600 / recorded) / 10.0,
                    sumFaults(r, FaultInjector.Counts::cancels), sumFaults(r, x -> x.cancelWaiting),
                    sumFaults(r, x -> x.cancelRunning), sumFaults(r, x -> x.lockHolds),
                    sumFaults(r, x -> x.timeoutTerminals), sumFaults(r, x -> x.closeRequests),
                    sumFaults(r, x -> x.schemaChanges), aborts(r, "cancelled"), aborts(r, "timed_out"), aborts(r, "closed"),
                    aborts(r, "deadlock") + aborts(r, "serialization_failure") + aborts(r, "lock_timeout"),
                    r.periods.size(), checked.size(), verifies, verifiesOk, consistent, idle, idleChecked, acknowledged,
                    missing, r.stalls.size());
        }
    }

    private record Everything(Meta meta, List<Row> summary, List<ChaosResult> configs) {}

    private static final List<String> REASONS = List.of("deadlock", "serialization_failure", "lock_timeout",
            "cancelled", "timed_out", "closed", "other", "spec_rollback");

    private ChaosReport() {}

    public static void write(Path dir, List<ChaosResult> results, Meta meta) throws IOException {
        writeCsv(dir.resolve("periods.csv"), results);
        List<Row> rows = results.stream().map(Row::of).toList();
        Files.writeString(dir.resolve("chaos.json"),
                relativeToRun(dir, RunSummary.GSON.toJson(new Everything(meta, rows, results)) + "\n"));
        Files.writeString(dir.resolve("report.md"), relativeToRun(dir, markdown(results, meta)));
    }

    /**
     * {@code text} with the run folder's absolute path gone: files under it named relative to it (as
     * RunPaths does), the folder itself as "&lt;run folder&gt;". What the report quotes from the engine
     * (an error opening the database, say) may name files of the database, and the report is committed.
     */
    static String relativeToRun(Path dir, String text) {
        String abs = dir.toAbsolutePath().normalize().toString();
        return text.replace(abs + "/", "").replace(abs, "<run folder>");
    }

    private static void writeCsv(Path file, List<ChaosResult> results) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("config,segment,period,mix,order,seconds,committed,committed_per_minute,"
                    + String.join(",", REASONS.stream().map(r -> "aborts_" + r).toList()) + ",retries,"
                    + "cancel_waiting,cancel_running,cancel_idle,lock_holds,lock_holds_failed,timeout_terminals,"
                    + "close_requests,schema_changes,schema_changes_failed,consistency_ok,consistency_full,"
                    + "idle_locks_ok,acks_checked,acks_missing,"
                    + "check_seconds,stalled");
            for (ChaosResult r : results) {
                for (ChaosResult.Period p : r.periods) {
                    StringBuilder b = new StringBuilder();
                    b.append(r.config).append(',').append(p.segment).append(',').append(p.index).append(',')
                            .append(nz(p.mix)).append(',').append(nz(p.order)).append(',').append(p.seconds).append(',')
                            .append(p.committed).append(',').append(p.committedPerMinute);
                    for (String reason : REASONS) b.append(',').append(p.aborts.getOrDefault(reason, 0L));
                    FaultInjector.Counts f = p.faults != null ? p.faults : new FaultInjector.Counts();
                    b.append(',').append(p.retries).append(',').append(f.cancelWaiting).append(',')
                            .append(f.cancelRunning).append(',').append(f.cancelIdle).append(',').append(f.lockHolds)
                            .append(',').append(f.lockHoldsFailed).append(',').append(f.timeoutTerminals).append(',')
                            .append(f.closeRequests).append(',').append(f.schemaChanges).append(',')
                            .append(f.schemaChangesFailed).append(',').append(p.stall == null && p.consistencyOk)
                            .append(',')
                            .append(p.consistencyFull).append(',')
                            .append(p.idleLocksOk == null ? "" : p.idleLocksOk.toString()).append(',')
                            .append(p.acksChecked).append(',').append(p.acksMissing).append(',')
                            .append(p.checkSeconds).append(',').append(p.stall != null);
                    w.println(b);
                }
            }
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String f1(double x) {
        return String.format(Locale.ROOT, "%.1f", x);
    }

    private static long sumFaults(ChaosResult r, ToLongFunction<FaultInjector.Counts> f) {
        return r.periods.stream().filter(p -> p.faults != null).mapToLong(p -> f.applyAsLong(p.faults)).sum();
    }

    private static long aborts(ChaosResult r, String reason) {
        return r.periods.stream().mapToLong(p -> p.aborts.getOrDefault(reason, 0L)).sum();
    }

    private static String duration(int seconds) {
        return seconds % 60 == 0 ? seconds / 60 + " min" : seconds + " s";
    }

    static String markdown(List<ChaosResult> results, Meta meta) {
        StringBuilder md = new StringBuilder();
        boolean ok = meta.failures().isEmpty();
        md.append("# Chaos ").append(meta.runId()).append(": ")
                .append(ok ? "every check held, nothing lost, nothing stalled" : "**FAILED**").append("\n\n");
        md.append("Command: `").append(meta.commandLine()).append("`\n\n");
        md.append("Machine: ").append(meta.machine().oneLine()).append("\n\n");
        md.append("Runner and verify JVM options: ")
                .append(meta.jvmOpts().isBlank() ? "none (JVM defaults)" : "`" + meta.jvmOpts() + "`")
                .append(". Wall time ").append(f1(meta.elapsedSeconds() / 60)).append(" min.\n\n");
        FaultInjector.Settings f = meta.faults();
        md.append("Method: ").append(duration(meta.totalSeconds())).append(" of running split evenly, ")
                .append(duration(meta.secondsPerConfig())).append(" per configuration, one after the other, each on a")
                .append(" file database of its own (`hsqldb.write_delay=false`: a commit is in the log when `commit()`")
                .append(" returns) with ").append(meta.clients()).append(" terminals, ").append(meta.warehouses())
                .append(" warehouse(s) at ").append(meta.scale()).append(" scale, SERIALIZABLE, seed ")
                .append(meta.seed()).append(". Every acknowledged commit goes to a side file after `commit()`")
                .append(" returned. A runner JVM loads the database (the first time), then runs fault periods of ")
                .append(meta.periodSeconds()).append(" s, the mix and order rotating as in the soak; it is killed with")
                .append(" SIGKILL (`Process.destroyForcibly()`) ").append(meta.killEverySeconds())
                .append(" s +-30% (at random) after its terminals started, wherever it is in its transactions (a kill")
                .append(" waits while nothing commits, so that it cannot hide a stall); then a fresh JVM runs")
                .append(" `tpcc verify` on the database (HSQLDB replays its log): all twelve consistency conditions,")
                .append(" every acknowledged commit present, `PERFORM CHECK ALL TABLE INDEX`, SHUTDOWN. The next")
                .append(" runner goes on with the same database. The last segment ends by itself with SHUTDOWN, and its")
                .append(" verify with SHUTDOWN COMPACT. Running time counts from a runner's terminals' start to its")
                .append(" end, checks included; loads and verifies come on top.\n\n");
        md.append("Faults in each period: at its start a terminal is asked to close its connection in the middle of")
                .append(" a transaction (after one of its statements, before its commit), and another about every ")
                .append(f1(f.closeEveryMillis() / 1000.0)).append(" s; the terminal reconnects and goes on (the")
                .append(" transaction was never acknowledged). Once, half of the terminals get a JDBC query timeout of ")
                .append(f.queryTimeoutSeconds()).append(" s and the fault thread holds an exclusive lock on a hot row")
                .append(" for ").append(f1(meta.holdMillis() / 1000.0)).append(" s in a transaction of its own (W_YTD of")
                .append(" a warehouse, D_NEXT_O_ID of a district in turn), cancelling terminals that wait for it")
                .append(" without a timeout; about every ").append(f1(f.cancelEveryMillis() / 1000.0))
                .append(" s `Statement.cancel()` ends the statement of a terminal inside a transaction, four times in")
                .append(" five one that waits (for a lock) if any does; about every ")
                .append(f1(f.schemaChangeEveryMillis() / 1000.0)).append(" s a session of its own adds a column")
                .append(" (`ADD COLUMN ... DEFAULT 0`, which copies the table) or an index to a table the terminals")
                .append(" change, or drops one it added (what a period added is dropped at its end, what a killed")
                .append(" runner left at the next start). Cancelled and timed-out attempts are retried;")
                .append(" all are counted by reason, none is a failure. After each period the fault thread's")
                .append(" transaction ends, the terminals pause at transaction boundaries, and the cheap consistency")
                .append(" conditions (all twelve after a runner's last period), the empty lock table")
                .append(" (`INFORMATION_SCHEMA.SYSTEM_LOCKS`: no lock held or awaited; in the modes whose locks it")
                .append(" shows, the fork's lock manager) and the period's acknowledged")
                .append(" commits (each must be in the database) are checked. A stall is")
                .append(" nothing committed for ").append(meta.stallSeconds()).append(" s while terminals wait: it")
                .append(" fails the configuration with the harness' stall report. The period a kill cuts short is not")
                .append(" recorded.\n\n");

        md.append("## Summary\n\n")
                .append("Faults injected: cancels sent to terminals waiting / running, hot-row holds with the terminals")
                .append(" given a query timeout, connections asked to close mid-transaction, schema changes; the")
                .append(" aborts they caused;")
                .append(" kills (SIGKILL) and reopens (the database opened again after a kill, by the verify JVM and")
                .append(" by the next runner). Consistency: every period's conditions and every verify's twelve.")
                .append(" Idle locks: the lock table empty with every terminal at a transaction boundary, after every")
                .append(" period (\"not visible\": the mode runs upstream's lock manager, whose locks SYSTEM_LOCKS does")
                .append(" not show; a lock it leaked would stop the terminals and show as a stall). Acknowledged")
                .append(" commits: those the last verify looked up, and how many of all looked up were missing.\n\n")
                .append("| config | minutes | kills | reopens | committed/min | cancels (waiting / running) |")
                .append(" holds (terminals timed) | closes asked | schema changes | aborts cancelled / timed out / closed |")
                .append(" engine aborts | consistency | idle locks | acknowledged commits | missing | stalls | verdict |\n")
                .append("|---|---:|---:|---:|---:|---|---|---:|---:|---|---:|---|---|---:|---:|---:|---|\n");
        for (ChaosResult r : results) {
            Row w = Row.of(r);
            md.append("| ").append(w.config()).append(" | ").append(w.minutes()).append(" | ").append(w.kills())
                    .append(" | ").append(w.reopens()).append(" | ")
                    .append(w.periods() == 0 ? "-" : f1(w.committedPerMinute())).append(" | ").append(w.cancels())
                    .append(" (").append(w.cancelsWaiting()).append(" / ").append(w.cancelsRunning()).append(") | ")
                    .append(w.lockHolds()).append(" (").append(w.timeoutTerminals()).append(") | ")
                    .append(w.closeRequests()).append(" | ").append(w.schemaChanges()).append(" | ")
                    .append(w.abortsCancelled()).append(" / ")
                    .append(w.abortsTimedOut()).append(" / ").append(w.abortsClosed()).append(" | ")
                    .append(w.engineAborts()).append(" | ")
                    .append(mark(w.consistencyOk(), (w.consistencyOk() ? "ok" : "VIOLATED") + " (" + w.periodsChecked()
                            + " periods, " + w.verifiesOk() + " of " + w.verifies() + " verifies)")).append(" | ")
                    .append(mark(!w.idleLocks().equals("HELD"), w.idleLocks().equals("ok") ? "ok (" + w.idleLocksChecked()
                            + " periods)" : w.idleLocks())).append(" | ").append(w.acknowledgedChecked()).append(" | ")
                    .append(mark(w.acknowledgedMissing() == 0, "" + w.acknowledgedMissing())).append(" | ")
                    .append(mark(w.stalls() == 0, "" + w.stalls())).append(" | ")
                    .append(mark(w.ok(), w.ok() ? "ok" : "FAILED")).append(" |\n");
        }
        meta.unavailable().forEach((name, reason) -> md.append("| ").append(name).append(" | not available: ")
                .append(reason).append(" |").append(" |".repeat(14)).append(" **did not run** |\n"));
        md.append("\n");
        if (!meta.failures().isEmpty()) {
            md.append("## Failures\n\n");
            for (String x : meta.failures()) md.append("- ").append(firstLine(x)).append("\n");
            md.append("\n");
        }

        for (ChaosResult r : results) {
            md.append("## ").append(r.config).append("\n\n").append(r.configDescription)
                    .append(r.engineProduct == null ? "" : " (" + r.engineProduct + " " + r.engineVersion + ")").append("; ")
                    .append(f1(r.ranSeconds)).append(" s of ").append(r.seconds).append(" s run, ")
                    .append(r.segments.size()).append(" segment(s), ").append(r.kills).append(" kill(s), ")
                    .append(r.reopens).append(" reopen(s).")
                    .append(r.databaseKept ? " The database files are kept in `configs/" + r.config + "/db/`"
                            + " (git-ignored)." : "").append("\n\n");
            md.append("| segment | ended | ran s | kill due s | kill waited s | committed (live count) | verify |")
                    .append(" opened in s | consistency | acknowledged commits checked | missing | index check |")
                    .append(" shutdown |\n|---:|---|---:|---:|---:|---:|---|---:|---|---:|---:|---|---|\n");
            for (ChaosResult.Segment s : r.segments) {
                VerifyResult v = s.verify;
                md.append("| ").append(s.index).append(" | ").append(mark(!List.of("hung", "failed", "stalled")
                                .contains(s.ended), s.ended)).append(" | ").append(s.ranSeconds).append(" | ")
                        .append(s.killAtSeconds == null ? "-" : s.killAtSeconds).append(" | ")
                        .append(s.killPostponedSeconds).append(" | ").append(s.liveCommitted).append(" | ");
                if (v == null) {
                    md.append(mark(false, "no result (exit " + s.verifyExitCode + ")")).append(" |").append(" |".repeat(6));
                } else if (v.openFailure != null) {
                    md.append(mark(false, "could not open: " + v.openFailure)).append(" |").append(" |".repeat(6));
                } else {
                    md.append(mark(v.ok, v.ok ? "ok" : "FAILED")).append(" | ").append(v.openSeconds).append(" | ")
                            .append(mark(v.consistencyOk, v.consistencyOk ? "all " + v.conditions.size() + " hold"
                                    : "VIOLATED")).append(" | ")
                            .append(v.acknowledged == null ? "-" : v.acknowledged
                                    + (v.tornLastLine ? " (+1 torn line)" : "")).append(" | ")
                            .append(mark(v.missing == 0, "" + v.missing)).append(" | ")
                            .append(mark(v.indexOk, v.indexCheck)).append(" | ")
                            .append(mark(v.shutdownOk, v.shutdown)).append(" |");
                }
                md.append("\n");
            }
            md.append("\n| period | segment | mix | order | s | committed | per minute | deadlock | serialization |")
                    .append(" lock timeout | cancelled | timed out | closed | other | cancels w / r / idle |")
                    .append(" lock holds | timed terminals | closes asked | schema changes | consistency | idle locks |")
                    .append(" acknowledged commits | check s |\n")
                    .append("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---|---|---:|\n");
            for (ChaosResult.Period p : r.periods) {
                FaultInjector.Counts x = p.faults != null ? p.faults : new FaultInjector.Counts();
                Map<String, Long> a = p.aborts;
                md.append("| ").append(p.index).append(" | ").append(p.segment).append(" | ").append(nz(p.mix))
                        .append(" | ").append(nz(p.order)).append(" | ").append(p.seconds).append(" | ");
                if (p.stall != null) {
                    md.append("**STALLED** |").append(" |".repeat(17)).append("\n");
                    continue;
                }
                md.append(p.committed).append(" | ").append(f1(p.committedPerMinute)).append(" | ")
                        .append(a.getOrDefault("deadlock", 0L)).append(" | ")
                        .append(a.getOrDefault("serialization_failure", 0L)).append(" | ")
                        .append(a.getOrDefault("lock_timeout", 0L)).append(" | ")
                        .append(a.getOrDefault("cancelled", 0L)).append(" | ")
                        .append(a.getOrDefault("timed_out", 0L)).append(" | ")
                        .append(a.getOrDefault("closed", 0L)).append(" | ")
                        .append(a.getOrDefault("other", 0L)).append(" | ")
                        .append(x.cancelWaiting).append(" / ").append(x.cancelRunning).append(" / ").append(x.cancelIdle)
                        .append(" | ").append(x.lockHolds).append(x.lockHoldsFailed > 0 ? " (" + x.lockHoldsFailed
                                + " failed)" : "").append(" | ").append(x.timeoutTerminals).append(" | ")
                        .append(x.closeRequests).append(" | ").append(x.schemaChanges)
                        .append(x.schemaChangesFailed > 0 ? " (" + x.schemaChangesFailed + " failed)" : "").append(" | ")
                        .append(mark(p.consistencyOk, p.consistencyOk ? "ok (" + p.conditionsChecked + ")" : "VIOLATED"))
                        .append(" | ").append(p.idleLocksOk == null ? "not checked"
                                : mark(p.idleLocksOk, p.idleLocksOk ? "none held" : "HELD")).append(" | ")
                        .append(mark(p.acksMissing == 0, p.acksChecked + (p.acksMissing == 0 ? " present"
                                : ", " + p.acksMissing + " MISSING"))).append(" | ")
                        .append(p.checkSeconds).append(" |\n");
            }
            md.append("\n");
            for (ChaosResult.Period p : r.periods) {
                for (String v : p.violations) md.append("- period ").append(p.index).append(" VIOLATED ").append(v).append("\n");
                for (String v : p.idleLocks) md.append("- period ").append(p.index).append(" LOCK HELD ").append(v).append("\n");
                for (String v : p.acksMissingShown) md.append("- period ").append(p.index).append(" MISSING ").append(v).append("\n");
                for (String e : p.otherErrors) md.append("- period ").append(p.index).append(" other error: ").append(e).append("\n");
                if (p.faults != null) {
                    for (String e : p.faults.errors) md.append("- period ").append(p.index).append(" fault thread: ").append(e).append("\n");
                }
            }
            for (ChaosResult.Segment s : r.segments) {
                if (s.note != null) md.append("- segment ").append(s.index).append(" ").append(s.ended).append(": ")
                        .append(s.note).append("\n");
                if (s.verify == null) continue;
                for (String m : s.verify.missingShown) md.append("- segment ").append(s.index).append(" MISSING ").append(m).append("\n");
                for (String m : s.verify.indexProblems) md.append("- segment ").append(s.index).append(" index PROBLEM ").append(m).append("\n");
                for (var c : s.verify.conditions) {
                    if (!c.ok()) md.append("- segment ").append(s.index).append(" verify VIOLATED ").append(c.id())
                            .append(" ").append(c.rule()).append(": ").append(String.join("; ", c.values())).append("\n");
                }
            }
            for (String stall : r.stalls) {
                md.append("\nStall, as the harness reported it:\n\n```\n").append(stall).append("\n```\n");
            }
            for (ChaosResult.Period p : r.periods) {
                if (p.threadDump != null) md.append("\nEvery thread of the runner that stalled: `configs/").append(r.config)
                        .append("/").append(p.threadDump).append("`.\n");
            }
            for (ChaosResult.Segment s : r.segments) {
                if (s.threadDump != null) md.append("\nEvery thread of the runner that hung: `configs/").append(r.config)
                        .append("/").append(s.threadDump).append("`.\n");
            }
            md.append("\n**").append(r.config).append(": ").append(r.ok ? "every check held, nothing lost, nothing stalled"
                    : "FAILED (" + r.failures.size() + ": " + firstLine(r.failures.get(0)) + ")").append("**\n\n");
        }
        md.append("## Files\n\n- `periods.csv`: one row per configuration and period\n")
                .append("- `chaos.json`: the settings, the summary rows and every configuration's chaos.json\n")
                .append("- `configs/CONFIG/chaos.json`: the configuration's segments, verifies and periods\n")
                .append("- `configs/CONFIG/periods.jsonl`: the periods as the runners appended them, one line each\n")
                .append("- `configs/CONFIG/verify-N.json`: what the verify after segment N found\n")
                .append("- `configs/CONFIG/session.log`: the output of every runner and verify JVM\n")
                .append("- `configs/CONFIG/threads-segment-N-{stall,hung}.txt`: a runner's thread dump, if it stalled or hung\n");
        return md.toString();
    }

    private static String mark(boolean ok, String text) {
        return ok ? text : "**" + text + "**";
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
