package org.hsqldb.a2l.fork;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** Evaluates {@link RequiresPatch} against the patches the build applied. */
public final class RequiresPatchCondition implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<RequiresPatch> required = context.getElement()
                .flatMap(e -> AnnotationSupport.findAnnotation(e, RequiresPatch.class));
        if (required.isEmpty()) {
            return ConditionEvaluationResult.enabled("no patch required");
        }
        String slug = required.get().value();
        if (!slugs(System.getProperty("fork.series")).contains(slug)) {
            throw new IllegalStateException("@RequiresPatch(\"" + slug + "\"): no patch in patches/series has that name");
        }
        if (slugs(System.getProperty("fork.appliedSeries")).contains(slug)) {
            return ConditionEvaluationResult.enabled("patch " + slug + " is applied");
        }
        return ConditionEvaluationResult.disabled("patch " + slug + " is not in the applied prefix of the series");
    }

    /** Patch slugs listed in a series file (comments and blank lines skipped). */
    static List<String> slugs(String file) {
        if (file == null) {
            throw new IllegalStateException("system properties fork.series and fork.appliedSeries are set by hsqldb-fork/pom.xml; run the tests through Maven");
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
