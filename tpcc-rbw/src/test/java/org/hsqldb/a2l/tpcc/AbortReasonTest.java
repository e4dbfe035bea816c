package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class AbortReasonTest {

    static AbortReason of(String state, String message) {
        return AbortReason.classify(new SQLException(message, state));
    }

    @Test
    void engineAbortsAreClassified() {
        assertEquals(AbortReason.SERIALIZATION_FAILURE, of("40001", "transaction rollback: serialization failure"));
        assertEquals(AbortReason.SERIALIZATION_FAILURE, of("40501", "transaction rollback: row change by multiple transactions"));
        assertEquals(AbortReason.SERIALIZATION_FAILURE, of("90131", "Concurrent update in table \"STOCK\""));
        assertEquals(AbortReason.DEADLOCK, of("40P01", "deadlock detected"));
        assertEquals(AbortReason.DEADLOCK, of("40001", "Deadlock detected. The current transaction was rolled back."));
        assertEquals(AbortReason.DEADLOCK, of("40001", "A lock could not be obtained due to a deadlock"));
        assertEquals(AbortReason.LOCK_TIMEOUT, of("HYT00", "Timeout trying to lock table"));
        assertEquals(AbortReason.LOCK_TIMEOUT, of("40XL1", "A lock could not be obtained within the time requested"));
        assertEquals(AbortReason.LOCK_TIMEOUT, of("55P03", "could not obtain lock"));
        assertEquals(AbortReason.OTHER, of("23505", "unique constraint"));
        assertEquals(AbortReason.OTHER, of(null, null));
    }
}
