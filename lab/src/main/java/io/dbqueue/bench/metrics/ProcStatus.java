package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Figures from a Linux process's {@code /proc/<pid>/status}: resident memory and threads. */
public final class ProcStatus {

    private ProcStatus() {
    }

    /** Resident memory in bytes, or -1 where /proc cannot tell. */
    public static long rssBytes(long pid) {
        long kb = field(pid, "VmRSS:");
        return kb < 0 ? -1 : kb * 1024;
    }

    /** Live threads, or -1 where /proc cannot tell. */
    public static long threads(long pid) {
        return field(pid, "Threads:");
    }

    private static long field(long pid, String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
