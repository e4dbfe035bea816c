package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.maven.artifact.versioning.ComparableVersion;
import org.junit.jupiter.api.Test;

/**
 * The coordinates the fork jar is installed under (hsqldb-fork/pom.xml): a build that resolves
 * versions (a version range, the versions plugin, a dependency convergence rule) must see the fork
 * as newer than the 2.7.4 it patches and older than the next upstream release, by Maven's own
 * ordering; and the groupId must be one the project can publish under, never upstream's.
 */
class ForkCoordinatesTest {

    private static String property(String name) {
        String value = System.getProperty(name);
        assertNotNull(value, name + " (set by hsqldb-fork/pom.xml for surefire) is missing");
        return value;
    }

    private static int compare(String a, String b) {
        return new ComparableVersion(a).compareTo(new ComparableVersion(b));
    }

    @Test
    void mavenOrdersTheVersionAfterUpstreamsAndBeforeTheNextRelease() {
        String version = property("fork.version");
        assertTrue(compare(version, "2.7.4") > 0, version + " sorts before 2.7.4: "
                + new ComparableVersion(version).getCanonical());
        assertTrue(compare(version, "2.7.5") < 0, version + " sorts after 2.7.5");
        assertTrue(compare(version, "2.7.4.1") < 0, version + " sorts after a 2.7.4.1 of upstream's");
    }

    @Test
    void theCheckRefusesAVersionThatReadsAsAPreRelease() {
        // the coordinates before this test: "a2" reads as alpha-2, which sorts before the release
        assertTrue(compare("2.7.4-a2l", "2.7.4") < 0, new ComparableVersion("2.7.4-a2l").getCanonical());
    }

    @Test
    void theGroupIdIsNotUpstreams() {
        String group = property("fork.groupId");
        assertFalse(group.equals("org.hsqldb") || group.startsWith("org.hsqldb."), group
                + " is in hsqldb.org's namespace, which only upstream can publish under");
    }
}
