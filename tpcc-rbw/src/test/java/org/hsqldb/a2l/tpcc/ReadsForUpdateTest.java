package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReadsForUpdateTest {

    private static final String SELECT = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";

    @Test
    void eachFormWritesItsClause() {
        assertEquals(SELECT, ReadsForUpdate.PLAIN.apply(SELECT, "d_next_o_id"));
        assertEquals(SELECT + " FOR UPDATE", ReadsForUpdate.FOR_UPDATE.apply(SELECT, "d_next_o_id"));
        assertEquals(SELECT + " FOR UPDATE OF s_quantity, s_ytd",
                ReadsForUpdate.FOR_UPDATE_OF.apply(SELECT, "s_quantity", "s_ytd"));
    }

    @Test
    void aQueueHeadIsReadForUpdateOnlyInHsqldbsForm() {
        String head = DeliveryTxn.OLDEST_NEW_ORDER;
        assertEquals(head + " FOR UPDATE", ReadsForUpdate.FOR_UPDATE_OF.applyToHead(head));
        assertEquals(head, ReadsForUpdate.FOR_UPDATE.applyToHead(head));
        assertEquals(head, ReadsForUpdate.PLAIN.applyToHead(head));
    }

    @Test
    void labelsParseBack() {
        for (ReadsForUpdate r : ReadsForUpdate.values()) assertEquals(r, ReadsForUpdate.parse(r.label));
        assertThrows(IllegalArgumentException.class, () -> ReadsForUpdate.parse("sometimes"));
    }
}
