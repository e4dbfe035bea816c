package org.hsqldb.a2l.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar is a drop-in hsqldb.jar: checked on the jar itself, in a fresh JVM, and
 * against upstream's hsqldb-2.7.4.jar (class file versions, manifest).
 */
class DropInJarIT {

    /** Upstream 2.7.4's classes are Java 11's; the fork's must be too. */
    private static final int JAVA_11 = 55;

    /** Upstream's build provenance (Ant on JDK 11.0.21), which the fork's build does not claim. */
    private static final Set<String> PROVENANCE = Set.of("Ant-Version", "Created-By", "Originally-Created-By");

    /** Upstream's entries that say 2.7.4 of the build, which say the fork's version in the fork. */
    private static final Set<String> VERSION_FIELDS = Set.of("Bundle-Version", "Implementation-Version");

    /** An OSGi version: major.minor.micro[.qualifier] (OSGi Core, 3.2.5). */
    private static final Pattern OSGI_VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+(\\.[A-Za-z0-9_-]+)?");

    private static Path upstreamJar() {
        Path jar = Path.of(System.getProperty("upstream.jar", ""));
        assertTrue(Files.isRegularFile(jar), "upstream.jar (set by hsqldb-fork/pom.xml) is not a file: " + jar);
        return jar;
    }

    /** The jar's Maven version (fork.version in the root pom), which Implementation-Version carries. */
    private static String forkVersion() {
        return System.getProperty("fork.version", "2.7.4-fork-a2l");
    }

    /** What the engine reports as its version (DATABASE_VERSION(), getDatabaseProductVersion()). */
    private static final String ENGINE_VERSION = "2.7.4-a2l";

    private static Path forkJar() {
        Path jar = Path.of(System.getProperty("fork.jar", ""));
        assertTrue(Files.isRegularFile(jar), "fork.jar (set by hsqldb-fork/pom.xml) is not a file: " + jar);
        return jar;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "failed: " + command + "\n" + out);
        return out;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Test
    @RequiresPatch("Identify-the-fork-in-the-product-version-and-the-ser")
    void aloneOnTheClassPathTheJarAnswersAndNamesTheFork() throws Exception {
        Path probe = Path.of(getClass().getResource("/probe/DropInProbe.java").toURI());
        String out = run(List.of(java(), "-cp", forkJar().toString(), probe.toString()));
        assertTrue(out.contains("answer=1"), out);
        assertTrue(out.contains("driver=org.hsqldb.jdbc.JDBCDriver"), out);
        assertTrue(out.contains("version=" + ENGINE_VERSION), out);
    }

    @Test
    void theJarIsTheOrgHsqldbModuleProvidingTheDriver() throws Exception {
        String out = run(List.of(java(), "--module-path", forkJar().toString(),
                "--describe-module", "org.hsqldb"));
        assertTrue(out.contains("provides java.sql.Driver with org.hsqldb.jdbc.JDBCDriver"), out);
        assertTrue(out.contains("exports org.hsqldb.jdbc"), out);
    }

    @Test
    void theJarCarriesUpstreamLicensesAndTheLockManager() throws Exception {
        try (ZipFile z = new ZipFile(forkJar().toFile())) {
            for (String entry : List.of("META-INF/hsqldb_lic.txt", "META-INF/hypersonic_lic.txt",
                    "META-INF/services/java.sql.Driver", "org/hsqldb/jdbc/JDBCDriver.class",
                    "org/hsqldb/server/Server.class", "org/hsqldb/resources/sql-state-messages.properties",
                    "org/hsqldb/a2l/lockmgr/package-info.class")) {
                assertTrue(z.getEntry(entry) != null, "missing from the jar: " + entry);
            }
            assertTrue(z.stream().noneMatch(e -> e.getName().startsWith("org/hsqldb/cmdline/")),
                    "SqlTool is not part of hsqldb.jar");
        }
    }

    @Test
    void everyClassFileHasUpstreamsVersion() throws IOException {
        // upstream's classes are 55, but for nine package-info.class files at 49 (Java 5), which
        // javac writes at 55 in the fork: the highest version is what decides where a jar runs
        Map<Integer, Integer> upstream = classFileVersions(upstreamJar(), new ArrayList<>());
        assertEquals(JAVA_11, ((TreeMap<Integer, Integer>) upstream).lastKey(),
                "upstream 2.7.4's highest class file version: " + upstream);

        List<String> names = new ArrayList<>();
        Map<Integer, Integer> fork = classFileVersions(forkJar(), names);
        List<String> off = new ArrayList<>();
        try (ZipFile z = new ZipFile(forkJar().toFile())) {
            for (String name : names) {
                int major = major(z, z.getEntry(name));
                if (major != JAVA_11) {
                    off.add(name + " (" + major + ")");
                }
            }
        }
        assertTrue(off.isEmpty(), off.size() + " of " + names.size() + " class files are not version " + JAVA_11
                + " (Java 11), as upstream's are: " + off.subList(0, Math.min(10, off.size())) + " versions: " + fork);
        assertTrue(names.contains("module-info.class"), "the jar is the org.hsqldb module");
        assertTrue(names.stream().filter(n -> n.startsWith("org/hsqldb/a2l/lockmgr/")).count() > 10,
                "the lock manager's classes are in the jar, and were checked: " + fork);
    }

    @Test
    void theManifestIsUpstreamsWithTheForksVersion() throws IOException {
        Manifest upstreamManifest = manifest(upstreamJar());
        Manifest forkManifest = manifest(forkJar());
        Attributes upstream = upstreamManifest.getMainAttributes();
        Attributes fork = forkManifest.getMainAttributes();

        List<String> problems = new ArrayList<>();
        for (Object key : upstream.keySet()) {
            String name = key.toString();
            if (PROVENANCE.contains(name)) {
                continue;
            }
            if (VERSION_FIELDS.contains(name)) {
                assertEquals(System.getProperty("upstream.version", "2.7.4"), upstream.getValue(name),
                        "upstream's " + name + " (the test's idea of upstream's version fields)");
                continue;
            }
            if (!Objects.equals(upstream.getValue(name), fork.getValue(name))) {
                problems.add(name + ": upstream " + shorten(upstream.getValue(name)) + ", fork " + shorten(fork.getValue(name)));
            }
        }
        String version = forkVersion();
        if (!version.equals(fork.getValue("Implementation-Version"))) {
            problems.add("Implementation-Version: " + fork.getValue("Implementation-Version") + ", not " + version);
        }
        String bundleVersion = fork.getValue("Bundle-Version");
        if (bundleVersion == null || !OSGI_VERSION.matcher(bundleVersion).matches()
                || !bundleVersion.equals(version.replaceFirst("-", "."))) {
            problems.add("Bundle-Version: " + bundleVersion + ", not the OSGi form of " + version + ": "
                    + version.replaceFirst("-", "."));
        }
        assertTrue(problems.isEmpty(), "the fork's manifest differs from upstream's:\n  " + String.join("\n  ", problems));
        assertEquals(upstreamManifest.getEntries().keySet(), forkManifest.getEntries().keySet(), "per-entry sections");
    }

    /**
     * The OSGi headers, upstream's, still describe the fork's content: every exported package is
     * in the jar, and every package its classes use outside java.* is in the jar or imported
     * (org.hsqldb.a2l.lockmgr is in the jar, not exported: a private package of the bundle).
     */
    @Test
    void theOsgiHeadersFitTheForksClasses() throws IOException {
        Attributes fork = manifest(forkJar()).getMainAttributes();
        Set<String> inside = packages(forkJar());
        Set<String> exported = headerPackages(fork.getValue("Export-Package"));
        Set<String> imported = headerPackages(fork.getValue("Import-Package"));
        assertTrue(inside.containsAll(exported), "exported but not in the jar: " + minus(exported, inside));

        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElse(null);
        assumeTrue(jdeps != null, "no jdeps in this JDK: which packages the classes use is not checked");
        StringWriter out = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", "-filter:none",
                forkJar().toString());
        assertEquals(0, rc, "jdeps failed:\n" + out);
        Set<String> used = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s+\\S+\\s+->\\s+(\\S+)").matcher(out.toString());
        while (m.find()) {
            used.add(m.group(1));
        }
        assertTrue(used.contains("org.hsqldb.a2l.lockmgr"), "jdeps output not understood:\n" + out);
        Set<String> missing = new TreeSet<>();
        for (String p : used) {
            if (!p.startsWith("java.") && !inside.contains(p) && !imported.contains(p)) {
                missing.add(p);
            }
        }
        assertTrue(missing.isEmpty(), "used by the fork's classes, neither in the jar nor in Import-Package: " + missing);
    }

    /** examples/embedded-app on a Java 11 runtime, when this machine has one. */
    @Test
    @RequiresPatch("Show-locks-lock-counters") // the example resets and reads the lock counters under A2L
    void theExampleRunsOnJava11(@TempDir Path dir) throws Exception {
        Path java11 = java11();
        assumeTrue(java11 != null, "no Java 11 runtime (JAVA11_HOME unset, none under /usr/lib/jvm; Debian bookworm has no "
                + "openjdk-11 package): the example runs on this JVM instead, in theExampleRunsFromJava11ClassFiles");
        String out = run(List.of(java11.toString(), "-cp", compileExample(dir), "com.example.a2l.EmbeddedApp"));
        assertTrue(out.contains("java.version=11"), out);
        assertTrue(out.lines().anyMatch("OK"::equals), out);
    }

    /** examples/embedded-app, compiled with --release 11, on this JVM: its classes and the fork's are Java 11's. */
    @Test
    @RequiresPatch("Show-locks-lock-counters")
    void theExampleRunsFromJava11ClassFiles(@TempDir Path dir) throws Exception {
        String out = run(List.of(java(), "-cp", compileExample(dir), "com.example.a2l.EmbeddedApp"));
        assertTrue(out.contains("classfile com.example.a2l.EmbeddedApp=" + JAVA_11), out);
        assertTrue(out.contains("classfile org.hsqldb.jdbc.JDBCDriver=" + JAVA_11), out);
        assertTrue(out.contains("database=" + ENGINE_VERSION + " transaction control=A2L"), out);
        assertTrue(out.lines().anyMatch("OK"::equals), out);
    }

    /** Compiles examples/embedded-app against the fork jar alone; returns the class path to run it. */
    private static String compileExample(Path dir) throws IOException, InterruptedException {
        Path source = Path.of(System.getProperty("example.src", ""));
        assertTrue(Files.isRegularFile(source), "example.src (set by hsqldb-fork/pom.xml) is not a file: " + source);
        String javac = Path.of(System.getProperty("java.home"), "bin", "javac").toString();
        run(List.of(javac, "--release", "11", "-d", dir.toString(), "-cp", forkJar().toString(), source.toString()));
        return dir + java.io.File.pathSeparator + forkJar();
    }

    /** JAVA11_HOME's java, or a Java 11 under /usr/lib/jvm, or null. */
    private static Path java11() throws IOException {
        List<Path> homes = new ArrayList<>();
        String env = System.getenv("JAVA11_HOME");
        if (env != null && !env.isEmpty()) {
            homes.add(Path.of(env));
        } else if (Files.isDirectory(Path.of("/usr/lib/jvm"))) {
            try (var list = Files.list(Path.of("/usr/lib/jvm"))) {
                list.sorted().forEach(homes::add);
            }
        }
        for (Path home : homes) {
            Path release = home.resolve("release");
            Path java = home.resolve("bin").resolve("java");
            if (Files.isRegularFile(release) && Files.isExecutable(java)
                    && Files.readString(release).contains("JAVA_VERSION=\"11")) {
                return java;
            }
        }
        return null;
    }

    private static Manifest manifest(Path jar) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            Manifest m = j.getManifest();
            assertNotNull(m, "no manifest in " + jar);
            return m;
        }
    }

    /** Class file major version -> how many; {@code names} gets every class file's entry name. */
    private static Map<Integer, Integer> classFileVersions(Path jar, List<String> names) throws IOException {
        Map<Integer, Integer> versions = new TreeMap<>();
        try (ZipFile z = new ZipFile(jar.toFile())) {
            for (ZipEntry e : z.stream().filter(e -> e.getName().endsWith(".class")).collect(Collectors.toList())) {
                names.add(e.getName());
                versions.merge(major(z, e), 1, Integer::sum);
            }
        }
        return versions;
    }

    private static int major(ZipFile z, ZipEntry e) throws IOException {
        try (InputStream in = z.getInputStream(e); DataInputStream data = new DataInputStream(in)) {
            assertEquals(0xCAFEBABE, data.readInt(), "not a class file: " + e.getName());
            data.readUnsignedShort();
            return data.readUnsignedShort();
        }
    }

    /** The packages of the jar: folders that hold a class or a resource (org.hsqldb.lib.tar.rb holds only text). */
    private static Set<String> packages(Path jar) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            return z.stream().map(ZipEntry::getName)
                    .filter(n -> !n.endsWith("/") && n.contains("/") && !n.startsWith("META-INF/"))
                    .map(n -> n.substring(0, n.lastIndexOf('/')).replace('/', '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The package names of an OSGi Export-Package / Import-Package header (clauses split outside quotes). */
    private static Set<String> headerPackages(String header) {
        assertNotNull(header, "OSGi header missing");
        Set<String> names = new TreeSet<>();
        StringBuilder clause = new StringBuilder();
        boolean quoted = false;
        for (char c : (header + ",").toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                names.add(clause.toString().split(";", 2)[0].trim());
                clause.setLength(0);
            } else {
                clause.append(c);
            }
        }
        return names;
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    private static String shorten(String value) {
        return value == null ? "(absent)" : value.length() <= 80 ? value : value.substring(0, 77) + "...";
    }
}
