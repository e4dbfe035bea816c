package org.hsqldb.a2l.tpcc.cli;

import java.util.List;
import org.hsqldb.a2l.tpcc.engine.Dialect;

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

    /**
     * How many times HSQLDB's time an engine takes to load, to copy the loaded tables and to restore them,
     * measured here at 1 warehouse beside upstream (load 12.1 s, copy 1.2 s, restore 3.5 s): H2 19.6, 3.1
     * and 8.0 s; Derby 40.5, 6.5 and 24.5 s (it has no switch for foreign key checks, and fills parents
     * first on one connection); PostgreSQL 21.8, 1.1 and 11.8 s.
     */
    public record EngineFactor(double load, double snapshot, double restore) {
        public static final EngineFactor HSQLDB = new EngineFactor(1, 1, 1);

        public static EngineFactor of(Dialect d) {
            return switch (d) {
                case H2 -> new EngineFactor(1.6, 2.6, 2.3);
                case DERBY -> new EngineFactor(3.4, 5.4, 7.0);
                case POSTGRESQL -> new EngineFactor(1.8, 1.0, 3.4);
                default -> HSQLDB;
            };
        }
    }

    /** The fixed part of one JVM (start, load, saving the copy, the full check after its last point). */
    public double jvmSeconds(int warehouses, PointStart start, EngineFactor f) {
        return jvmStart + loadPerWarehouse * f.load() * warehouses
                + (start == PointStart.RESTORE ? snapshotPerWarehouse * f.snapshot() * warehouses : 0)
                + fullCheckPerWarehouse * warehouses;
    }

    /** One point: warm-up, measured window, its start (restore or reload) and the cheap checks. */
    public double pointSeconds(int warehouses, int warmup, int seconds, PointStart start, EngineFactor f) {
        double setup = switch (start) {
            case RESTORE -> restorePerWarehouse * f.restore() * warehouses;
            case RELOAD -> loadPerWarehouse * f.load() * warehouses;
            case CARRY -> 0;
        };
        return warmup + seconds + setup + pointOverhead;
    }

    /** One JVM's work: a configuration's repetition, its points, what each point starts from, its engine. */
    public record Job(String config, int rep, List<Point> points, PointStart start, Dialect dialect) {
        public Job(String config, int rep, List<Point> points, PointStart start) {
            this(config, rep, points, start, Dialect.HSQLDB);
        }
    }

    /** The fixed part of a job: its JVM, load, copy and last full check. */
    public double fixedSeconds(Job job, int warehouses) {
        return jvmSeconds(warehouses, job.start(), EngineFactor.of(job.dialect()));
    }

    /** A point after a read-only one (100-0) starts without a restore or reload: nothing changed. */
    public double jobSeconds(Job job, int warehouses, int warmup, int seconds) {
        EngineFactor f = EngineFactor.of(job.dialect());
        double total = fixedSeconds(job, warehouses);
        boolean unchanged = false;
        for (Point p : job.points()) {
            total += pointSeconds(warehouses, warmup, seconds, unchanged ? PointStart.CARRY : job.start(), f);
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
