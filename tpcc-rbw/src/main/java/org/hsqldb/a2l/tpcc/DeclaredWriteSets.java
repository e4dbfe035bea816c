package org.hsqldb.a2l.tpcc;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;

/**
 * The RbW-RL hook: before each RbW transaction that writes, {@code DECLARE WRITE SET} with the
 * write set {@link LockSetAnalysis} found for its type, so the fork (with SET SESSION EARLY
 * RELEASE TRUE) releases the transaction's read locks at its first write. Original-order
 * transactions read after writing, so they run undeclared.
 */
public final class DeclaredWriteSets implements TransactionHook {

    /** Sample transactions per type: enough to take every path (by name or id, bad credit ...). */
    static final int SAMPLES = 200;

    private final Map<TxnType, String> declarations;

    DeclaredWriteSets(Map<TxnType, String> declarations) {
        this.declarations = Map.copyOf(declarations);
    }

    /**
     * Analyses the RbW transactions on the loaded database and returns the hook; fails when a
     * transaction would break early release (an RbW violation), as every such transaction
     * would then be rolled back.
     */
    static DeclaredWriteSets analyze(TransactionHooks.Context context) throws SQLException {
        Map<TxnType, LockSetAnalysis.Result> results;
        try (Connection c = context.connections().open()) {
            results = LockSetAnalysis.analyze(c, context.scale(), context.constants(), context.seed(),
                    StatementOrder.RBW, SAMPLES);
            c.rollback();
        }
        Map<TxnType, String> declarations = new EnumMap<>(TxnType.class);
        PrintStream log = context.log();
        StringBuilder violations = new StringBuilder();
        for (LockSetAnalysis.Result r : results.values()) {
            String declaration = r.declaration();
            if (declaration != null) declarations.put(r.type(), declaration);
            log.printf("write set %-11s %s%n", r.type().label, declaration == null ? "(reads only)" : declaration);
            for (String v : r.violations()) violations.append("\n  ").append(r.type().label).append(": ").append(v);
        }
        if (violations.length() > 0) {
            throw new SQLException("RbW violations: early release would roll these transactions back:" + violations);
        }
        return new DeclaredWriteSets(declarations);
    }

    public String declaration(TxnType type) {
        return declarations.get(type);
    }

    @Override
    public void atStart(Statements statements, TxnInput input, StatementOrder order) throws SQLException {
        String declaration = order == StatementOrder.RBW ? declarations.get(input.type()) : null;
        if (declaration != null) statements.update(declaration);
    }
}
