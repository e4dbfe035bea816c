package org.hsqldb.a2l.tpcc.engine;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the engine jars are: the unmodified 2.7.4 jar and the peers' drivers (H2, Derby, PostgreSQL)
 * that the build copies next to the harness ({@code target/engines/}), and the fork jar that
 * {@code scripts/fork jar} builds.
 */
public record EngineJars(Path upstream, Path fork, Path engines, Path baseline) {

    public static final String UPSTREAM_JAR = "hsqldb-2.7.4.jar";
    public static final String FORK_JAR = "hsqldb-2.7.4-fork-a2l.jar";

    public EngineJars(Path upstream, Path fork) {
        this(upstream, fork, property("tpcc.engines.dir", upstream.toAbsolutePath().getParent()).toAbsolutePath(),
                null);
    }

    public EngineJars(Path upstream, Path fork, Path engines) {
        this(upstream, fork, engines, null);
    }

    /** The same jars, with {@code baseline} (may be null) as the jar of the {@code @baseline} configurations. */
    public EngineJars withBaseline(Path baseline) {
        return new EngineJars(upstream, fork, engines, baseline == null ? null : baseline.toAbsolutePath());
    }

    /**
     * Explicit paths win, then the system properties tpcc.upstream.jar / fork.jar / tpcc.engines.dir,
     * then the build layout.
     */
    public static EngineJars locate(Path upstreamOverride, Path forkOverride) {
        Path target = harnessTargetDir();
        Path engines = property("tpcc.engines.dir", target.resolve("engines"));
        Path upstream = upstreamOverride != null ? upstreamOverride
                : property("tpcc.upstream.jar", engines.resolve(UPSTREAM_JAR));
        Path fork = forkOverride != null ? forkOverride
                : property("fork.jar", target.getParent().resolveSibling("hsqldb-fork").resolve("target").resolve(FORK_JAR));
        return new EngineJars(upstream.toAbsolutePath(), fork.toAbsolutePath(), engines.toAbsolutePath());
    }

    public Path jarFor(EngineConfig.JarKind kind) {
        return switch (kind) {
            case UPSTREAM -> upstream;
            case FORK -> fork;
            default -> throw new IllegalArgumentException(kind + " has jars of its own: see jarsFor");
        };
    }

    /** The jars a configuration's driver needs, in class path order. */
    public List<Path> jarsFor(EngineConfig config) throws EngineException {
        if (config.isBaseline()) {
            if (baseline == null) throw new EngineException(config.name() + " needs --baseline-jar");
            if (!Files.isRegularFile(baseline)) throw new EngineException("baseline jar not found at " + baseline);
            return List.of(baseline);
        }
        if (config.isHsqldb()) {
            String missing = missingMessage(config.jar());
            if (missing != null) throw new EngineException(missing);
            return List.of(jarFor(config.jar()));
        }
        List<Path> out = new ArrayList<>();
        if (config.isCustom()) {
            for (String j : config.customJars()) {
                Path p = Path.of(j).toAbsolutePath();
                if (!Files.isRegularFile(p)) throw new EngineException("engine jar not found: " + p);
                out.add(p);
            }
            return out;
        }
        for (String artifact : config.dialect().jars) out.add(peerJar(artifact));
        return out;
    }

    /** target/engines/ARTIFACT-VERSION.jar (the newest if there are several). */
    private Path peerJar(String artifact) throws EngineException {
        Pattern name = Pattern.compile(Pattern.quote(artifact) + "-\\d[^-]*(-\\d[^-]*)?\\.jar");
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(engines)) {
            try (Stream<Path> files = Files.list(engines)) {
                files.filter(p -> name.matcher(p.getFileName().toString()).matches()).forEach(found::add);
            } catch (IOException e) {
                throw new EngineException("cannot list " + engines + ": " + e.getMessage());
            }
        }
        return found.stream().max(Comparator.comparing(p -> p.getFileName().toString()))
                .orElseThrow(() -> new EngineException(artifact + " jar not found in " + engines
                        + " (build the harness: mvn -pl tpcc-rbw package)"));
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
    public static Path harnessTargetDir() {
        try {
            Path code = Path.of(EngineJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code.getParent().toAbsolutePath();
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return Path.of("tpcc-rbw", "target").toAbsolutePath();
        }
    }
}
