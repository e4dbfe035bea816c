package org.hsqldb.a2l.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JvmWorkTest {

    @Test
    void whatWasSpentIsTheDifferenceAndUncountedStaysUncounted() {
        assertEquals(new JvmWork(70, 5), new JvmWork(100, 25).since(new JvmWork(30, 20)));
        assertEquals(new JvmWork(-1, 5), new JvmWork(-1, 25).since(new JvmWork(30, 20)));
        assertEquals(new JvmWork(70, -1), new JvmWork(100, 25).since(new JvmWork(30, -1)));
    }

    @Test
    void theJvmsCompilingIsCountedAndNeverGoesBack() {
        JvmWork before = JvmWork.now();
        long sink = 0;
        for (int i = 0; i < 2_000_000; i++) sink += Integer.toString(i).hashCode();
        JvmWork after = JvmWork.now();
        assertTrue(sink != 1);
        // HotSpot has compiled something by now: the test runner's start-up alone makes methods hot
        assertTrue(after.jitMillis() > 0, after.toString());
        JvmWork spent = after.since(before);
        assertTrue(spent.jitMillis() >= 0 && spent.gcMillis() >= 0, spent.toString());
    }
}
