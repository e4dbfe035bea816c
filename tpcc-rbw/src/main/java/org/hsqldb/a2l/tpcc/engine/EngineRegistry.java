package org.hsqldb.a2l.tpcc.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hsqldb.a2l.tpcc.ReadsForUpdate;
import org.hsqldb.a2l.tpcc.TransactionHooks;

/** The named engine configurations, read from {@code engine-configs.txt} (one line per configuration). */
public final class EngineRegistry {

    public static final String RESOURCE = "engine-configs.txt";

    private final Map<String, EngineConfig> configs;

    private EngineRegistry(Map<String, EngineConfig> configs) {
        this.configs = configs;
    }

    public static EngineRegistry load() {
        try (InputStream in = EngineRegistry.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException(RESOURCE + " is missing from the harness jar");
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static EngineRegistry parse(List<String> lines) {
        Map<String, EngineConfig> configs = new LinkedHashMap<>();
        int n = 0;
        for (String line : lines) {
            n++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) continue;
            String[] f = Arrays.stream(trimmed.split("\\|", -1)).map(String::strip).toArray(String[]::new);
            if (f.length < 3 || f.length > 6 || f[0].isEmpty()) {
                throw new IllegalArgumentException(RESOURCE + " line " + n + ": expected name | jar | URL properties"
                        + " [| setup SQL [| hook [| options]]]: " + line);
            }
            EngineConfig.JarKind jar;
            try {
                jar = EngineConfig.JarKind.parse(f[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(RESOURCE + " line " + n + ": " + e.getMessage());
            }
            List<String> setup = f.length > 3 ? splitStatements(f[3]) : List.of();
            String hook = f.length > 4 && !f[4].isEmpty() ? f[4] : "none";
            try {
                TransactionHooks.check(hook);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(RESOURCE + " line " + n + ": " + e.getMessage());
            }
            EngineConfig config = EngineConfig.of(f[0], jar, f[2], setup, hook);
            if (f.length > 5) {
                try {
                    config = withOptions(config, f[5]);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(RESOURCE + " line " + n + ": " + e.getMessage());
                }
            }
            if (configs.put(f[0], config) != null) {
                throw new IllegalArgumentException(RESOURCE + " line " + n + ": duplicate name " + f[0]);
            }
        }
        return new EngineRegistry(configs);
    }

    /** Applies the options field: space-separated {@code reads=FORM} and {@code property=KEY=VALUE}. */
    static EngineConfig withOptions(EngineConfig config, String options) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String option : options.split("\\s+")) {
            if (option.isEmpty()) continue;
            int eq = option.indexOf('=');
            String key = eq < 0 ? option : option.substring(0, eq);
            String value = eq < 0 ? "" : option.substring(eq + 1);
            switch (key) {
                case "reads" -> config = config.withReads(ReadsForUpdate.parse(value));
                case "property" -> {
                    int at = value.indexOf('=');
                    if (at <= 0) throw new IllegalArgumentException("property needs KEY=VALUE: " + option);
                    properties.put(value.substring(0, at), value.substring(at + 1));
                }
                default -> throw new IllegalArgumentException("unknown option '" + option
                        + "' (known: reads=plain|for-update|for-update-of, property=KEY=VALUE)");
            }
        }
        return properties.isEmpty() ? config : config.withSystemProperties(properties);
    }

    private static List<String> splitStatements(String sql) {
        List<String> out = new ArrayList<>();
        for (String s : sql.split(";")) if (!s.isBlank()) out.add(s.strip());
        return out;
    }

    /** A configuration by name; {@code NAME@baseline} is fork configuration NAME on the baseline jar. */
    public Optional<EngineConfig> find(String name) {
        if (name.endsWith(EngineConfig.DURABLE)) {
            return find(name.substring(0, name.length() - EngineConfig.DURABLE.length()))
                    .filter(c -> (c.isHsqldb() || c.isPeer()) && !c.isDurable()).map(EngineConfig::onDurableFiles);
        }
        if (name.endsWith(EngineConfig.BASELINE)) {
            EngineConfig base = configs.get(name.substring(0, name.length() - EngineConfig.BASELINE.length()));
            return base != null && base.jar() == EngineConfig.JarKind.FORK ? Optional.of(base.onBaseline())
                    : Optional.empty();
        }
        return Optional.ofNullable(configs.get(name));
    }

    public List<EngineConfig> all() {
        return List.copyOf(configs.values());
    }

    public List<String> names() {
        return List.copyOf(configs.keySet());
    }
}
