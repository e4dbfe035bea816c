/**
 * The A2L lock manager: S and X locks on tables and on attributes (table, column), held
 * by engine sessions for a statement or a transaction, with wait queues in arrival order
 * (a new request may pass a waiter a bounded number of times), wait-for graph deadlock
 * detection and counters.
 *
 * <p>Entry point: {@link org.hsqldb.a2l.lockmgr.LockManager#create()}. Names
 * ({@link org.hsqldb.a2l.lockmgr.TableLock}, {@link org.hsqldb.a2l.lockmgr.AttributeLock})
 * are made once per table and column and reused; a statement's lock set is a
 * {@code LockRequest[]} computed once; sessions are
 * {@link org.hsqldb.a2l.lockmgr.Owner}s. Plain Java, no dependencies; the fork compiles
 * these sources into its {@code hsqldb.jar}.
 */
package org.hsqldb.a2l.lockmgr;
