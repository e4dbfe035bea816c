package org.hsqldb.a2l.fork;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test that needs a given patch of the series. In a normal build the
 * whole series is applied and the test always runs; under
 * {@code scripts/fork bisect-check}, which builds every prefix of the series,
 * it runs only on prefixes that contain the patch. The value is the start of
 * the patch's subject slug (its file name without the {@code NNNN-} number
 * and {@code .patch}), long enough to name exactly one patch; naming none,
 * or several, is an error, not a skip.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresPatchCondition.class)
public @interface RequiresPatch {
    String value();
}
