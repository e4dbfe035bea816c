package org.hsqldb.a2l.tpcc.cli;

import org.hsqldb.a2l.tpcc.Isolation;
import org.hsqldb.a2l.tpcc.Scale;
import picocli.CommandLine.Option;

/** Options shared by every command that loads and measures. */
public final class WorkloadOptions {

    @Option(names = "--warehouses", paramLabel = "N", description = "warehouses to load (default: ${DEFAULT-VALUE})")
    int warehouses = 4;

    @Option(names = "--seconds", paramLabel = "N", description = "measured seconds per point (default: ${DEFAULT-VALUE})")
    int seconds = 30;

    @Option(names = "--warmup", paramLabel = "N", description = "warm-up seconds before each measurement (default: ${DEFAULT-VALUE})")
    int warmup = 20;

    @Option(names = "--seed", paramLabel = "N", description = "seed for load and inputs (default: random, recorded)")
    Long seed;

    @Option(names = "--isolation", paramLabel = "LEVEL",
            description = "serializable, repeatable-read, read-committed or read-uncommitted (default: ${DEFAULT-VALUE})")
    Isolation isolation = Isolation.SERIALIZABLE;

    @Option(names = "--progress", paramLabel = "N", description = "progress line every N seconds, 0 for none (default: ${DEFAULT-VALUE})")
    int progress = 5;

    @Option(names = "--retry-backoff-us", paramLabel = "N",
            description = "before retrying an aborted attempt, sleep a random time up to attempts x N microseconds,"
                    + " 0 retries at once (default: ${DEFAULT-VALUE})")
    int retryBackoffMicros = 500;

    @Option(names = "--loader-threads", paramLabel = "N", description = "loader threads (default: max(2, cores))")
    Integer loaderThreads;

    // the tests' Scale.tiny, so that whole runs in child JVMs stay short; NOT TPC-C, hence hidden
    @Option(names = "--tiny-scale", hidden = true)
    boolean tinyScale;

    Scale scale() {
        return tinyScale ? Scale.tiny(warehouses) : Scale.standard(warehouses);
    }

    void validate() {
        if (warehouses < 1) throw new UsageException("--warehouses must be at least 1");
        if (seconds < 1) throw new UsageException("--seconds must be at least 1");
        if (warmup < 0) throw new UsageException("--warmup must not be negative");
        if (retryBackoffMicros < 0) throw new UsageException("--retry-backoff-us must not be negative");
        if (progress < 0) throw new UsageException("--progress must not be negative");
        if (loaderThreads != null && loaderThreads < 1) throw new UsageException("--loader-threads must be at least 1");
    }

    int loaderThreads() {
        return loaderThreads != null ? loaderThreads : Math.max(2, Runtime.getRuntime().availableProcessors());
    }
}
