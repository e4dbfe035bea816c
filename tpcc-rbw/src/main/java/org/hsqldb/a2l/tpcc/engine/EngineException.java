package org.hsqldb.a2l.tpcc.engine;

/** An engine that cannot be used as asked: missing jar, no driver, unreachable, or a feature it lacks. */
public final class EngineException extends Exception {
    public EngineException(String message) {
        super(message);
    }

    public EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
