package org.hsqldb.a2l.tpcc;

/**
 * The constants C of NURand (clause 2.1.6): chosen at load, and again for the run so that
 * the run's C for C_LAST differs from the load's by a delta in [65, 119], not 96 or 112
 * (clause 2.1.6.1). The loader's values must be kept for the run's to be valid.
 */
public record NURandConstants(int cLast, int cId, int olIId) {

    public static NURandConstants forLoad(TpccRandom r) {
        return new NURandConstants(r.uniform(0, 255), r.uniform(0, 1023), r.uniform(0, 8191));
    }

    public NURandConstants forRun(TpccRandom r) {
        int c;
        do {
            c = r.uniform(0, 255);
        } while (!validRunDelta(Math.abs(c - cLast)));
        return new NURandConstants(c, r.uniform(0, 1023), r.uniform(0, 8191));
    }

    public static boolean validRunDelta(int delta) {
        return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }
}
