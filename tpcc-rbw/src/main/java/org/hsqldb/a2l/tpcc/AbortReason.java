package org.hsqldb.a2l.tpcc;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;

/**
 * Why a transaction attempt did not commit. Engine aborts that a retry can cure (deadlock
 * victim, serialization failure, lock timeout) are retried with the same input; the spec's
 * New-Order rollback and anything unexpected are not. The {@link #injected} reasons are the
 * chaos run's faults ({@link FaultInjector}): {@link #classify} never returns them, the terminal
 * that knows the fault does.
 */
public enum AbortReason {
    SPEC_ROLLBACK("spec_rollback", false),
    /** SQLSTATE 40P01, or any abort whose message says deadlock (H2, Derby report these as 40001). */
    DEADLOCK("deadlock", true),
    /**
     * SQLSTATE 40001 without "deadlock" in the message, HSQLDB's 40501 (MVCC row conflict) and H2's
     * 90131 (concurrent update). HSQLDB's LOCKS/MVLOCKS deadlock victims arrive here: HSQLDB reports
     * them as 40001 "transaction rollback: serialization failure".
     */
    SERIALIZATION_FAILURE("serialization_failure", true),
    /** HYT00 (H2), 40XL1/40XL2 (Derby), 55P03 (PostgreSQL), 40502 (HSQLDB statement timeout). */
    LOCK_TIMEOUT("lock_timeout", true),
    OTHER("other", false),
    /** A statement of the attempt was ended by Statement.cancel() from another thread (HSQLDB: 40502). */
    CANCELLED("cancelled", true, true),
    /** A statement of the attempt ran with a JDBC query timeout and was ended by it (HSQLDB: 40502). */
    TIMED_OUT("timed_out", true, true),
    /**
     * The terminal closed its connection in the middle of the attempt; it reconnects and goes on
     * with its next input (the transaction was never acknowledged, so it is not retried).
     */
    CLOSED("closed", false, true);

    public final String label;
    public final boolean retried;
    /** A fault the harness injected, not something the engine decided; zero outside chaos runs. */
    public final boolean injected;

    AbortReason(String label, boolean retried) {
        this(label, retried, false);
    }

    AbortReason(String label, boolean retried, boolean injected) {
        this.label = label;
        this.retried = retried;
        this.injected = injected;
    }

    private static final Set<String> SERIALIZATION = Set.of("40001", "40501", "90131");
    private static final Set<String> TIMEOUT = Set.of("HYT00", "40XL1", "40XL2", "55P03", "40502");

    public static AbortReason classify(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState().toUpperCase(Locale.ROOT);
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        if (state.equals("40P01") || (state.startsWith("40") && message.contains("deadlock"))) return DEADLOCK;
        if (TIMEOUT.contains(state)) return LOCK_TIMEOUT;
        if (SERIALIZATION.contains(state)) return SERIALIZATION_FAILURE;
        return OTHER;
    }
}
