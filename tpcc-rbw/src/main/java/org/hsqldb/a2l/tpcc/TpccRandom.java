package org.hsqldb.a2l.tpcc;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/** The random functions of TPC-C 5.11 clause 2.1 and 4.3.2, over one seeded generator. */
public final class TpccRandom {

    private static final String[] SYLLABLES = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    private static final char[] ALPHANUMERIC =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    private final SplittableRandom random;

    public TpccRandom(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A generator for a named sub-stream, independent of how many values others draw. */
    public static TpccRandom derived(long seed, String stream, long index) {
        long h = seed * 0x9E3779B97F4A7C15L + stream.hashCode() * 0xC2B2AE3D27D4EB4FL + index;
        return new TpccRandom(new SplittableRandom(h).nextLong());
    }

    /** Uniform in [lo, hi], both inclusive. */
    public int uniform(int lo, int hi) {
        return lo + random.nextInt(hi - lo + 1);
    }

    /** NURand(A, x, y) of clause 2.1.6 with the constant C. */
    public int nurand(int a, int x, int y, int c) {
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** A random a-string (clause 4.3.2.2) of length in [min, max]. */
    public String astring(int min, int max) {
        int len = uniform(min, max);
        char[] s = new char[len];
        for (int i = 0; i < len; i++) s[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        return new String(s);
    }

    /** A random n-string (digits) of length in [min, max]. */
    public String nstring(int min, int max) {
        int len = uniform(min, max);
        char[] s = new char[len];
        for (int i = 0; i < len; i++) s[i] = (char) ('0' + random.nextInt(10));
        return new String(s);
    }

    /** Clause 4.3.2.7: 4 random digits followed by "11111". */
    public String zip() {
        return nstring(4, 4) + "11111";
    }

    /** I_DATA / S_DATA: a-string [26, 50], in 10% of rows with "ORIGINAL" at a random position. */
    public String dataWithOriginal() {
        String s = astring(26, 50);
        if (uniform(1, 100) > 10) return s;
        int at = uniform(0, s.length() - 8);
        return s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
    }

    /** A random decimal with the given scale, in [lo, hi] expressed in units of 10^-scale. */
    public BigDecimal decimal(int lo, int hi, int scale) {
        return BigDecimal.valueOf(uniform(lo, hi), scale);
    }

    /** C_LAST of clause 4.3.2.3: three syllables indexed by the digits of n (0..999). */
    public static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[(n / 10) % 10] + SYLLABLES[n % 10];
    }

    /** A random permutation of 1..n (O_C_ID at load). */
    public int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i + 1;
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i]; p[i] = p[j]; p[j] = t;
        }
        return p;
    }

    public long nextLong() {
        return random.nextLong();
    }
}
