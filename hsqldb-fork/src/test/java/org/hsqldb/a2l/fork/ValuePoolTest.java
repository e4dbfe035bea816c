package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
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

    /**
     * Arithmetic boxes its results itself: a miss in the pool writes a slot that every
     * session reads, and a computed value (a counter plus one) is seldom asked for again.
     * The values here are far from anything else the tests pool.
     */
    @Test
    @RequiresPatch("Box-integer-arithmetic-results-without")
    void arithmeticLeavesThePoolAlone() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:hsqldb:mem:valuepoolarithmetic;shutdown=true", "SA", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER, b BIGINT)");
            s.execute("INSERT INTO counter VALUES (1, 1234560001, 0)");
            // n + 2: an INTEGER sum, computed as BIGINT; n * 3: a BIGINT product, and
            // - 4 on it a DECIMAL difference that the BIGINT column converts to a Long
            s.execute("UPDATE counter SET n = n + 2, b = n * 3 - 4");
            try (PreparedStatement p = c.prepareStatement("VALUES (CAST(? AS INTEGER) - 5,"
                    + " -CAST(? AS BIGINT), CAST(? AS INTEGER) / 7, CAST(CAST(? AS DOUBLE) AS BIGINT))")) {
                p.setInt(1, 1234560011);
                p.setLong(2, 123456789000000011L);
                p.setInt(3, 1234567897);
                p.setDouble(4, 9876543210.0);
                try (ResultSet r = p.executeQuery()) {
                    r.next();
                    assertEquals(1234560006L, r.getLong(1));
                    assertEquals(-123456789000000011L, r.getLong(2));
                    assertEquals(176366842, r.getInt(3));
                    assertEquals(9876543210L, r.getLong(4));
                }
            }
            try (ResultSet r = s.executeQuery("SELECT n, b FROM counter")) {
                r.next();
                assertEquals(1234560003, r.getInt(1));
                assertEquals(3703679999L, r.getLong(2));
            }
            // (before the database closes: closing the last one clears the pool)
            for (long v : new long[] {1234560003L, 3703680003L, 3703679999L, 1234560006L,
                    -123456789000000011L, 176366842L, 9876543210L}) {
                assertFalse(pooled("intPool", v) || pooled("longPool", v), v + " was pooled");
            }
        }
    }

    private static boolean pooled(String pool, long v) throws ReflectiveOperationException {
        Field f = ValuePool.class.getDeclaredField(pool);
        f.setAccessible(true);
        for (Object o : (Object[]) f.get(null)) {
            if (o != null && ((Number) o).longValue() == v) {
                return true;
            }
        }
        return false;
    }
}
