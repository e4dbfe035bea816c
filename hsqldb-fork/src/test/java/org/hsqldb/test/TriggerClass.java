package org.hsqldb.test;

import org.hsqldb.trigger.Trigger;

/**
 * The trigger class upstream's TestTriggers.txt names: it counts its calls by
 * trigger type, nothing else. Upstream's own is in its test sources, which are
 * not published; the regression runner reads these counts to make the checks
 * upstream's TestTriggers.java makes. The runner loads it once per engine (in
 * a class loader whose parent is that engine's), so each engine fires its own
 * copy against its own Trigger interface.
 */
public class TriggerClass implements Trigger {

    private static final int[] CALLS = new int[9];
    private static int total;

    @Override
    public void fire(int type, String triggerName, String tableName, Object[] oldRow, Object[] newRow) {
        synchronized (TriggerClass.class) {
            CALLS[type]++;
            total++;
        }
    }

    public static synchronized void reset() {
        java.util.Arrays.fill(CALLS, 0);
        total = 0;
    }

    /** Calls per trigger type (indexes as in {@link Trigger}), then the total as the last element. */
    public static synchronized int[] calls() {
        int[] out = java.util.Arrays.copyOf(CALLS, CALLS.length + 1);
        out[CALLS.length] = total;
        return out;
    }
}
