package org.hsqldb.a2l.tpcc.engine;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the engine jars are: the unmodified 2.7.4 jar that the build copies next to the harness
 * ({@code target/engines/}), and the fork jar that {@code scripts/fork jar} builds.
 */
public record EngineJars(Path upstream, Path fork) {

    public static final String UPSTREAM_JAR = "hsqldb-2.7.4.jar";
    public static final String FORK_JAR = "hsqldb-2.7.4-a2l.jar";

    /** Explicit paths win, then the system properties tpcc.upstream.jar / fork.jar, then the build layout. */
    public static EngineJars locate(Path upstreamOverride, Path forkOverride) {
        Path target = harnessTargetDir();
        Path upstream = upstreamOverride != null ? upstreamOverride
                : property("tpcc.upstream.jar", target.resolve("engines").resolve(UPSTREAM_JAR));
        Path fork = forkOverride != null ? forkOverride
                : property("fork.jar", target.getParent().resolveSibling("hsqldb-fork").resolve("target").resolve(FORK_JAR));
        return new EngineJars(upstream.toAbsolutePath(), fork.toAbsolutePath());
    }

    public Path jarFor(EngineConfig.JarKind kind) {
        return switch (kind) {
            case UPSTREAM -> upstream;
            case FORK -> fork;
            case CUSTOM -> throw new IllegalArgumentException("a custom engine names its own jars");
        };
    }

    public String missingMessage(EngineConfig.JarKind kind) {
        Path p = jarFor(kind);
        if (Files.isRegularFile(p)) return null;
        return kind == EngineConfig.JarKind.FORK
                ? "fork jar not found at " + p + " (build it with scripts/fork jar)"
                : "upstream jar not found at " + p + " (build the harness: mvn -pl tpcc-rbw package)";
    }

    private static Path property(String name, Path fallback) {
        String v = System.getProperty(name);
        return v == null || v.isBlank() ? fallback : Path.of(v);
    }

    /** tpcc-rbw/target, whether we run from target/tpcc-rbw.jar or from target/classes. */
    static Path harnessTargetDir() {
        try {
            Path code = Path.of(EngineJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code.getParent().toAbsolutePath();
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return Path.of("tpcc-rbw", "target").toAbsolutePath();
        }
    }
}
