package org.hsqldb.a2l.tpcc.report;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the numbers were measured on: recorded with every summary. */
public record MachineFacts(int cores, String cpuModel, String os, String jvmName, String jvmVersion,
                           String jvmVendor, long maxHeapMb, List<String> jvmFlags, List<String> gc, long pid) {

    public static MachineFacts current() {
        return new MachineFacts(
                Runtime.getRuntime().availableProcessors(),
                readCpuModel(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version", System.getProperty("java.version")),
                System.getProperty("java.vm.vendor"),
                Runtime.getRuntime().maxMemory() / (1024 * 1024),
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
                ProcessHandle.current().pid());
    }

    private static String readCpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    public String oneLine() {
        return cores + " cores (" + cpuModel + "), " + os + ", " + jvmName + " " + jvmVersion + " (" + jvmVendor
                + "), max heap " + maxHeapMb + " MB, GC " + String.join("+", gc)
                + ", flags " + (jvmFlags.isEmpty() ? "none" : String.join(" ", jvmFlags));
    }
}
