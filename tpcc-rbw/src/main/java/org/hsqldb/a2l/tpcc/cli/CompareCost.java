package org.hsqldb.a2l.tpcc.cli;

import java.util.List;

/**
 * What compare's parts cost in seconds on this 2-core machine, for the plan printed before a run starts,
 * the progress estimate while it runs, and the presets' budget: a JVM's start (and its engine's probe),
 * the load (per warehouse, 2 loader threads), copying the loaded tables (LoadedCopy.save) and restoring
 * them before a point (per warehouse), what a point costs beyond its warm-up and measured window (stopping
 * the terminals, the cheap consistency conditions, the summary), and the full conditions after a JVM's last
 * point (per warehouse). Measured at 4 warehouses with other work on the machine (tpcc-rbw/README.md,
 * "compare"): the load 27-42 s, the copy 3.2-3.6 s, a restore 11-14 s, the full check 7 s.
 */
public record CompareCost(double jvmStart, double loadPerWarehouse, double snapshotPerWarehouse,
                          double restorePerWarehouse, double pointOverhead, double fullCheckPerWarehouse) {

    public static final CompareCost DEFAULT = new CompareCost(3, 8, 1, 3, 2, 2.5);

    /** The fixed part of one JVM (start, load, saving the copy, the full check after its last point). */
    public double jvmSeconds(int warehouses, PointStart start) {
        return jvmStart + loadPerWarehouse * warehouses
                + (start == PointStart.RESTORE ? snapshotPerWarehouse * warehouses : 0)
                + fullCheckPerWarehouse * warehouses;
    }

    /** One point: warm-up, measured window, its start (restore or reload) and the cheap checks. */
    public double pointSeconds(int warehouses, int warmup, int seconds, PointStart start) {
        double setup = switch (start) {
            case RESTORE -> restorePerWarehouse * warehouses;
            case RELOAD -> loadPerWarehouse * warehouses;
            case CARRY -> 0;
        };
        return warmup + seconds + setup + pointOverhead;
    }

    /** One JVM's work: a configuration's repetition, its points, and what each point starts from. */
    public record Job(String config, int rep, List<Point> points, PointStart start) {}

    /** A point after a read-only one (100-0) starts without a restore or reload: nothing changed. */
    public double jobSeconds(Job job, int warehouses, int warmup, int seconds) {
        double total = jvmSeconds(warehouses, job.start());
        boolean unchanged = false;
        for (Point p : job.points()) {
            total += unchanged ? pointSeconds(warehouses, warmup, seconds, PointStart.CARRY)
                    : pointSeconds(warehouses, warmup, seconds, job.start());
            unchanged = p.mix().readOnly();
        }
        return total;
    }

    public double totalSeconds(List<Job> jobs, int warehouses, int warmup, int seconds) {
        return jobs.stream().mapToDouble(j -> jobSeconds(j, warehouses, warmup, seconds)).sum();
    }

    /** 5400 -> "1 h 30 min", 190 -> "3 min 10 s", 42 -> "42 s". */
    public static String duration(double secondsValue) {
        return org.hsqldb.a2l.tpcc.report.CompareReport.duration(secondsValue);
    }
}
