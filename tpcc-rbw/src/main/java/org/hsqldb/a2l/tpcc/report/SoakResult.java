package org.hsqldb.a2l.tpcc.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** soak.json of one configuration's soak (one JVM): settings, one entry per period, the end checks. */
public final class SoakResult {

    /** One period: a mix and order run for about a minute, then checked while the terminals wait. */
    public static final class Period {
        public int index;
        /** Minutes of running (checks excluded) at the end of this period. */
        public double endMinute;
        public String mix;
        public String order;
        public double seconds;
        public long committed;
        public double committedPerMinute;
        public Map<String, Long> committedByType;
        public Map<String, Long> aborts;
        public long retries;
        public List<String> otherErrors;
        public boolean consistencyOk;
        /** The violated conditions with their first values; empty when all hold. */
        public List<String> violations;
        public double checkSeconds;
        public long heapAfterGcBytes;
        /** Rows of ORDERS + ORDER_LINE + NEW_ORDER + HISTORY, the tables the workload grows. */
        public long growingRows;
    }

    public String config;
    public String configDescription;
    public String jdbcUrl;
    public String database;
    public String engineProduct;
    public String engineVersion;
    public int warehouses;
    public String scale;
    public int clients;
    public int seconds;
    public int periodSeconds;
    public long seed;
    public String isolation;
    public int retryBackoffUs;
    public double loadSeconds;
    public long loadRows;
    public long heapBeforeLoadBytes;
    public long heapAfterLoadBytes;
    public double loadBytesPerRow;
    public List<Period> periods = new ArrayList<>();
    public String indexCheck;
    public List<String> indexProblems = List.of();
    public boolean indexOk;
    public HeapTrend.Verdict heap;
    public List<String> failures = new ArrayList<>();
    public boolean ok;
    public MachineFacts machine;
    public String startedAt;

    public void write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, RunSummary.GSON.toJson(this) + "\n");
    }

    public static SoakResult read(Path file) throws IOException {
        return RunSummary.GSON.fromJson(Files.readString(file), SoakResult.class);
    }
}
