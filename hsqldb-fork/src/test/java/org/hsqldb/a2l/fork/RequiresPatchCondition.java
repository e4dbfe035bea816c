package org.hsqldb.a2l.fork;

import java.util.Optional;

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
        if (PatchSeries.isApplied(slug)) {
            return ConditionEvaluationResult.enabled("patch " + slug + " is applied");
        }
        return ConditionEvaluationResult.disabled("patch " + slug + " is not in the applied prefix of the series");
    }
}
