package org.hsqldb.a2l.lockmgr;

/**
 * How long a granted lock is kept (thesis table 5.1: short read locks for the weaker
 * isolation levels, long ones for REPEATABLE READ and SERIALIZABLE). Named so as not to
 * clash with {@code java.time.Duration}.
 */
public enum LockDuration {
    /** Until {@link LockManager#releaseStatementLocks}, unless the owner also holds it for the transaction. */
    STATEMENT,
    /** Until {@link LockManager#releaseAll} (commit or rollback). X locks are always of this duration. */
    TRANSACTION
}
