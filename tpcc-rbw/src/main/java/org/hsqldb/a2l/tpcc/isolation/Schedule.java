package org.hsqldb.a2l.tpcc.isolation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One anomaly's schedule: the steps of two sessions (T1, T2) in the order they are issued, on the
 * table {@code iso_acc (id, x, y, oncall)} holding (1, 50, 50, 1) and (2, 50, 50, 1), and the test
 * that says whether what the sessions read and the final rows show the anomaly.
 */
public record Schedule(List<Step> steps, Predicate<Observed> anomalous) {

    public static final String TABLE = "iso_acc";
    public static final String CREATE = "CREATE TABLE " + TABLE
            + " (id INTEGER NOT NULL PRIMARY KEY, x INTEGER, y INTEGER, oncall INTEGER)";
    public static final List<String> ROWS = List.of(
            "INSERT INTO " + TABLE + " VALUES (1, 50, 50, 1)",
            "INSERT INTO " + TABLE + " VALUES (2, 50, 50, 1)");

    public enum Kind { READ, WRITE, COMMIT, ROLLBACK }

    /**
     * {@code session} 1 or 2; a READ stores the first column of its first row (null if none) under
     * {@code key}; a WRITE's SQL may be computed from what was read before it ran.
     */
    public record Step(int session, Kind kind, String key, Function<Map<String, Long>, String> sql, String text) {
        public String describe() {
            return "T" + session + " " + switch (kind) {
                case READ -> text + " -> " + key;
                case WRITE -> text;
                case COMMIT -> "COMMIT";
                case ROLLBACK -> "ROLLBACK";
            };
        }
    }

    /**
     * What a run of the schedule showed: values read (by key), which sessions committed, and the
     * final rows (x1, y1, oncall1, x2 ..., rows) read after both ended.
     */
    public record Observed(Map<String, Long> reads, boolean committed1, boolean committed2,
                           Map<String, Long> finalState) {
        public Long read(String key) {
            return reads.get(key);
        }

        public long fin(String key) {
            Long v = finalState.get(key);
            if (v == null) throw new IllegalStateException("no final value " + key);
            return v;
        }

        public boolean bothCommitted() {
            return committed1 && committed2;
        }

        /** Whether the read {@code key} happened and saw {@code value}. */
        public boolean saw(String key, long value) {
            Long v = reads.get(key);
            return v != null && v == value;
        }
    }

    static Builder builder() {
        return new Builder();
    }

    static final class Builder {
        private final List<Step> steps = new ArrayList<>();

        Builder read(int session, String key, String sql) {
            steps.add(new Step(session, Kind.READ, key, r -> sql, sql));
            return this;
        }

        Builder write(int session, String sql) {
            steps.add(new Step(session, Kind.WRITE, null, r -> sql, sql));
            return this;
        }

        /** A write whose SQL is made from earlier reads; {@code text} shows it in the report. */
        Builder write(int session, String text, Function<Map<String, Long>, String> sql) {
            steps.add(new Step(session, Kind.WRITE, null, sql, text));
            return this;
        }

        Builder commit(int session) {
            steps.add(new Step(session, Kind.COMMIT, null, r -> "COMMIT", "COMMIT"));
            return this;
        }

        Builder rollback(int session) {
            steps.add(new Step(session, Kind.ROLLBACK, null, r -> "ROLLBACK", "ROLLBACK"));
            return this;
        }

        Schedule anomalousIf(Predicate<Observed> anomalous) {
            return new Schedule(List.copyOf(steps), anomalous);
        }
    }
}
