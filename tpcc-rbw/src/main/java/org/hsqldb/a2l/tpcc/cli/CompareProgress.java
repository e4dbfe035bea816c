package org.hsqldb.a2l.tpcc.cli;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * Where a compare run is: points done of the total, time elapsed, and an estimate of the time left.
 * The estimate is the plan's ({@link CompareCost}) for what is left, scaled by how the plan has fared
 * so far (elapsed over the planned cost of what is done): a machine that runs everything 20% slower
 * than planned gets 20% more time left. A JVM that fails gives up its remaining points; they leave the
 * total. Deterministic for a given clock, so tests drive it with a fake one.
 */
public final class CompareProgress {

    private final double[] fixed;
    private final double[] perPoint;
    private final int[] points;
    private final int[] done;
    private final boolean[] started;
    private final boolean[] ended;
    private final LongSupplier nanoClock;
    private final long startNanos;

    /** {@code fixedSeconds[j]}, {@code pointSeconds[j]}, {@code points[j]}: job j's planned costs and point count. */
    public CompareProgress(double[] fixedSeconds, double[] pointSeconds, int[] points, LongSupplier nanoClock) {
        this.fixed = fixedSeconds.clone();
        this.perPoint = pointSeconds.clone();
        this.points = points.clone();
        this.done = new int[points.length];
        this.started = new boolean[points.length];
        this.ended = new boolean[points.length];
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    public static CompareProgress of(List<CompareCost.Job> jobs, CompareCost cost, int warehouses, int warmup,
                                     int seconds, LongSupplier nanoClock) {
        int n = jobs.size();
        double[] f = new double[n], p = new double[n];
        int[] k = new int[n];
        for (int j = 0; j < n; j++) {
            CompareCost.Job job = jobs.get(j);
            f[j] = cost.fixedSeconds(job, warehouses);
            k[j] = job.points().size();
            p[j] = k[j] == 0 ? 0 : (cost.jobSeconds(job, warehouses, warmup, seconds) - f[j]) / k[j];
        }
        return new CompareProgress(f, p, k, nanoClock);
    }

    public synchronized void jobStarted(int job) {
        started[job] = true;
    }

    public synchronized void pointDone(int job) {
        started[job] = true;
        if (done[job] < points[job]) done[job]++;
    }

    /** The JVM ended; points it did not measure are given up. */
    public synchronized void jobEnded(int job) {
        started[job] = true;
        ended[job] = true;
    }

    public synchronized int pointsDone() {
        int n = 0;
        for (int d : done) n += d;
        return n;
    }

    /** Points still planned: those measured plus those of JVMs that have not ended. */
    public synchronized int pointsTotal() {
        int n = 0;
        for (int j = 0; j < points.length; j++) n += ended[j] ? done[j] : points[j];
        return n;
    }

    public double elapsedSeconds() {
        return (nanoClock.getAsLong() - startNanos) / 1e9;
    }

    /** The planned seconds of what is done: ended JVMs whole (as far as they got), started ones in part. */
    synchronized double plannedDone() {
        double s = 0;
        for (int j = 0; j < points.length; j++) {
            if (!started[j]) continue;
            // a started JVM's load and checks count as done once its first point is
            double fixedShare = ended[j] || done[j] > 0 ? fixed[j] : 0;
            s += fixedShare + done[j] * perPoint[j];
        }
        return s;
    }

    synchronized double plannedLeft() {
        double s = 0;
        for (int j = 0; j < points.length; j++) {
            if (ended[j]) continue;
            s += (done[j] > 0 ? 0 : fixed[j]) + (points[j] - done[j]) * perPoint[j];
        }
        return s;
    }

    /** Seconds left: the plan's, scaled by elapsed / planned-done once anything is done. */
    public synchronized double secondsLeft() {
        double left = plannedLeft();
        double doneSoFar = plannedDone();
        double elapsed = elapsedSeconds();
        if (doneSoFar <= 0) return Math.max(0, left - elapsed);
        return left * (elapsed / doneSoFar);
    }

    /** e.g. {@code compare: 5/24 points done, 1 min 23 s elapsed, about 4 min 10 s left}. */
    public synchronized String line() {
        return "compare: " + pointsDone() + "/" + pointsTotal() + " points done, "
                + CompareCost.duration(elapsedSeconds()) + " elapsed, about " + CompareCost.duration(secondsLeft())
                + " left";
    }
}
