package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a Linux process has used so far, from /proc: CPU clock ticks (user + system, all its threads,
 * {@code /proc/<pid>/stat}) and bytes it caused to be written to storage ({@code write_bytes} of
 * {@code /proc/<pid>/io}, readable for another user's process only as root: {@code writesKnown} is false
 * when it could not be read). Cumulative: a window's figures are the difference of two readings.
 */
public record ProcUsage(long ticks, long writeBytes, boolean writesKnown) {

    public static final ProcUsage NONE = new ProcUsage(0, 0, true);
    private static final double CLOCK_TICKS_PER_SECOND = 100.0;
    private static final Path PROC = Path.of("/proc");

    /**
     * The process's usage so far; {@link #NONE} when it is gone or /proc cannot tell. Its CPU is read
     * whoever owns it; its writes only where /proc lets us (another user's, as root).
     */
    public static ProcUsage of(long pid) {
        Path dir = PROC.resolve(Long.toString(pid));
        long ticks;
        try {
            String stat = Files.readString(dir.resolve("stat"));
            ticks = statField(stat, 14) + statField(stat, 15);
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
        try {
            return new ProcUsage(ticks, writeBytes(Files.readString(dir.resolve("io"))), true);
        } catch (IOException | RuntimeException e) {
            return new ProcUsage(ticks, 0, false);
        }
    }

    public ProcUsage plus(ProcUsage other) {
        return new ProcUsage(ticks + other.ticks, writeBytes + other.writeBytes, writesKnown && other.writesKnown);
    }

    public ProcUsage minus(ProcUsage other) {
        return new ProcUsage(ticks - other.ticks, writeBytes - other.writeBytes, writesKnown && other.writesKnown);
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
