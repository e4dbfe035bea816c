package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.hsqldb.map.ValuePool;
import org.junit.jupiter.api.Test;

/** The pool runs without a monitor: racing threads must still get exactly the value they ask for. */
@RequiresPatch("Let-concurrent-sessions-share-the-ValuePool")
class ValuePoolTest {

    @Test
    void racingThreadsAlwaysGetAnEqualValue() throws InterruptedException {
        AtomicLong wrong = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            long seed = t;
            Thread thread = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                for (int i = 0; i < 300_000; i++) {
                    // a small key range makes slots collide and change hands constantly
                    int v = random.nextInt(-20_000, 20_000);
                    if (ValuePool.getInt(v) != v
                            || ValuePool.getLong(v * 31L) != v * 31L
                            || ValuePool.getDouble(Double.doubleToLongBits(v / 7.0)) != v / 7.0
                            || !ValuePool.getString("s" + v).equals("s" + v)
                            || ValuePool.getBigDecimal(BigDecimal.valueOf(v, 2)).compareTo(BigDecimal.valueOf(v, 2)) != 0
                            || ValuePool.getBigDecimal(BigDecimal.valueOf(v, 2)).scale() != 2) {
                        wrong.incrementAndGet();
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(0, wrong.get());
    }

    @Test
    void repeatedValuesAreShared() {
        Integer first = ValuePool.getInt(123_456_789);
        assertSame(first, ValuePool.getInt(123_456_789));
        String s = ValuePool.getString(new String("pooled"));
        assertSame(s, ValuePool.getString(new String("pooled")));
    }
}
