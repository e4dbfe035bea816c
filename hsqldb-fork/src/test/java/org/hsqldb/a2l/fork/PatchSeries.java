package org.hsqldb.a2l.fork;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The patches of the series and the prefix of it that the build applied, by
 * subject slug (a patch's file name without its {@code NNNN-} number and
 * {@code .patch}). The build passes the two files as system properties
 * {@code fork.series} and {@code fork.appliedSeries}.
 */
public final class PatchSeries {

    private PatchSeries() {}

    /** Slugs of every patch in patches/series. */
    public static List<String> all() {
        return slugs(System.getProperty("fork.series"));
    }

    /** Slugs of the patches the built fork has. */
    public static List<String> applied() {
        return slugs(System.getProperty("fork.appliedSeries"));
    }

    /**
     * Whether the patch whose slug starts with {@code prefix} is applied.
     * Slugs are cut at about 52 characters by git format-patch, so tests
     * name a patch by a distinctive start of its subject; exactly one patch
     * of the series must have it.
     */
    public static boolean isApplied(String prefix) {
        return isApplied(prefix, all(), applied());
    }

    static boolean isApplied(String prefix, List<String> series, List<String> applied) {
        return applied.contains(find(prefix, series));
    }

    static String find(String prefix, List<String> series) {
        List<String> matches = series.stream().filter(s -> s.startsWith(prefix)).collect(Collectors.toList());
        if (matches.size() != 1) {
            throw new IllegalStateException("\"" + prefix + "\" names " + matches.size()
                    + " patches of patches/series, not one: " + matches);
        }
        return matches.get(0);
    }

    /** Patch slugs listed in a series file (comments and blank lines skipped). */
    static List<String> slugs(String file) {
        if (file == null) {
            throw new IllegalStateException("system properties fork.series and fork.appliedSeries are set by "
                    + "hsqldb-fork/pom.xml and scripts/regress; run through one of them");
        }
        try {
            return Files.readAllLines(Path.of(file)).stream()
                    .map(l -> l.replaceFirst("#.*", "").trim())
                    .filter(l -> !l.isEmpty())
                    .map(l -> l.replaceFirst("^\\d{4}-", "").replaceFirst("\\.patch$", ""))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
