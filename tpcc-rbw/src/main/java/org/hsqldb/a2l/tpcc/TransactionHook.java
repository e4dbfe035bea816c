package org.hsqldb.a2l.tpcc;

import java.sql.SQLException;

/**
 * Extra SQL a transaction issues at its start, before its first statement (and again at the
 * start of every retry): the RbW-RL write-set declarations of {@link DeclaredWriteSets}. The
 * input says which transaction and rows follow.
 */
@FunctionalInterface
public interface TransactionHook {

    TransactionHook NONE = (statements, input, order) -> { };

    void atStart(Statements statements, TxnInput input, StatementOrder order) throws SQLException;
}
