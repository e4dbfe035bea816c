package org.hsqldb.a2l.tpcc;

/** New-Order met its unused item id (clause 2.4.2.3): the business rollback, never retried. */
public final class SpecRollback extends Exception {
    public SpecRollback(int itemId) {
        super("item " + itemId + " not found", null, false, false);
    }
}
