package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a Linux process has used so far, from /proc: CPU clock ticks (user + system, all its threads,
 * {@code /proc/<pid>/stat}) and bytes it caused to be written to storage ({@code write_bytes} of
 * {@code /proc/<pid>/io}, readable for another user's process only as root). Cumulative: a window's
 * figures are the difference of two readings.
 */
public record ProcUsage(long ticks, long writeBytes) {

    public static final ProcUsage NONE = new ProcUsage(0, 0);
    private static final double CLOCK_TICKS_PER_SECOND = 100.0;
    private static final Path PROC = Path.of("/proc");

    /** The process's usage so far; {@link #NONE} when it is gone or /proc cannot tell. */
    public static ProcUsage of(long pid) {
        try {
            Path dir = PROC.resolve(Long.toString(pid));
            String stat = Files.readString(dir.resolve("stat"));
            long ticks = statField(stat, 14) + statField(stat, 15);
            return new ProcUsage(ticks, writeBytes(Files.readString(dir.resolve("io"))));
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    public ProcUsage plus(ProcUsage other) {
        return new ProcUsage(ticks + other.ticks, writeBytes + other.writeBytes);
    }

    public ProcUsage minus(ProcUsage other) {
        return new ProcUsage(ticks - other.ticks, writeBytes - other.writeBytes);
    }

    public double cpuSeconds() {
        return ticks / CLOCK_TICKS_PER_SECOND;
    }

    /** Field {@code n} (1-based, as in proc(5)) of a /proc/PID/stat line; the command may contain spaces. */
    static long statField(String stat, int n) {
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(rest[n - 3]);
    }

    /** The {@code write_bytes} line of a /proc/PID/io text. */
    static long writeBytes(String io) {
        return io.lines().filter(line -> line.startsWith("write_bytes:"))
                .mapToLong(line -> Long.parseLong(line.substring("write_bytes:".length()).trim())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no write_bytes in " + io));
    }
}
