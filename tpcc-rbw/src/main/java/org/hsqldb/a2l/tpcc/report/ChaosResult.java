package org.hsqldb.a2l.tpcc.report;

import com.google.gson.FieldNamingPolicy;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsqldb.a2l.tpcc.FaultInjector;

/**
 * One configuration's chaos run (configs/CONFIG/chaos.json): its segments (a runner JVM each, killed
 * or ended by SHUTDOWN, then verified in a fresh JVM) and the periods the runners recorded
 * (configs/CONFIG/periods.jsonl, one line appended per period).
 */
public final class ChaosResult {

    /** One JSON object per line, for periods.jsonl. */
    public static final Gson LINE = new GsonBuilder()
            .setFieldNamingPolicy(FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES).create();

    /** A fault period: the terminals ran with faults, then paused at transaction boundaries and were checked. */
    public static final class Period {
        public int segment;
        /** Across the configuration's segments, from 1. */
        public int index;
        public String mix;
        public String order;
        public double seconds;
        public long committed;
        public double committedPerMinute;
        public Map<String, Long> committedByType = new LinkedHashMap<>();
        /** Aborted attempts by reason, the injected ones (cancelled, timed_out, closed) included. */
        public Map<String, Long> aborts = new LinkedHashMap<>();
        public long retries;
        public List<String> otherErrors = List.of();
        public FaultInjector.Counts faults;
        public boolean consistencyOk;
        /** All twelve conditions, or only the cheap ones (see Consistency). */
        public boolean consistencyFull;
        public int conditionsChecked;
        public List<String> violations = List.of();
        /** Null when the engine shows no locks (not checked). */
        public Boolean idleLocksOk;
        public List<String> idleLocks = List.of();
        /** The period's acknowledged commits, looked up while the terminals pause (no crash in between). */
        public long acksChecked;
        public long acksMissing;
        public List<String> acksMissingShown = List.of();
        public double checkSeconds;
        /** The harness' stall report when the terminals could not reach their transaction boundaries. */
        public String stall;
        /** With a stall: the runner's full thread dump, a file beside periods.jsonl. */
        public String threadDump;
        public String endedAt;

        public boolean ok() {
            return stall == null && consistencyOk && !Boolean.FALSE.equals(idleLocksOk) && acksMissing == 0;
        }
    }

    /** One runner JVM on the configuration's database and the verify that followed it. */
    public static final class Segment {
        public int index;
        public long seed;
        /** When the kill was due (seconds after the terminals started), null for the last segment. */
        public Double killAtSeconds;
        /** How long the kill waited because nothing was committing (it must not hide a stall). */
        public double killPostponedSeconds;
        /** Seconds from the terminals' start to the end (kill or exit). */
        public double ranSeconds;
        /** killed, shutdown (ended normally), stalled, hung (no progress and no stall report), failed. */
        public String ended;
        public Integer exitCode;
        /** What the runner was doing when it ended (its last heartbeat). */
        public String phase;
        /** Why a segment that hung or failed is counted so. */
        public String note;
        /** A runner that hung: its thread dump (jcmd) before the kill, a file in the configuration's folder. */
        public String threadDump;
        /** The runner reopened the database an earlier segment's kill left behind (its log replayed). */
        public boolean reopened;
        public long liveCommitted;
        public long liveAborts;
        public VerifyResult verify;
        public Integer verifyExitCode;
        /** A last side-file line the kill cut short, removed before the next segment appends. */
        public boolean tornAckLineDropped;
    }

    public String config;
    public String configDescription;
    public String engineProduct;
    public String engineVersion;
    public String scale;
    public int warehouses;
    public int clients;
    /** This configuration's share of the run (seconds). */
    public int seconds;
    public double ranSeconds;
    public int kills;
    /**
     * How often the database was opened again after a kill and came back: by the verify JVM that
     * follows each kill, and by the next runner.
     */
    public int reopens;
    public List<Segment> segments = new ArrayList<>();
    public List<Period> periods = new ArrayList<>();
    public List<String> failures = new ArrayList<>();
    public List<String> stalls = new ArrayList<>();
    public boolean ok;
    /** Whether the database files were kept (a failed configuration keeps them for inspection). */
    public boolean databaseKept;

    public void write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, RunSummary.GSON.toJson(this) + "\n");
    }

    public static ChaosResult read(Path file) throws IOException {
        return RunSummary.GSON.fromJson(Files.readString(file), ChaosResult.class);
    }

    /** Appends one period to a periods.jsonl file in a single write (a kill leaves whole lines, or a torn last one). */
    public static void append(Path file, Period p) throws IOException {
        byte[] line = (LINE.toJson(p) + "\n").getBytes(StandardCharsets.UTF_8);
        try (var out = new java.io.FileOutputStream(file.toFile(), true)) {
            out.write(line);
        }
    }

    /** The periods of a periods.jsonl file; a torn last line (a kill in the middle of the write) is skipped. */
    public static List<Period> readPeriods(Path file) throws IOException {
        List<Period> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) return out;
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) break;
            String line = text.substring(start, nl);
            start = nl + 1;
            if (line.isBlank()) continue;
            try {
                out.add(LINE.fromJson(line, Period.class));
            } catch (JsonParseException e) {
                throw new IOException(file + ": not a period: " + line, e);
            }
        }
        return out;
    }
}
