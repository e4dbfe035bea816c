package org.hsqldb.a2l.tpcc.cli;

/** A request the harness cannot carry out as given: reported in one line with exit code 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
