package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time of a local PostgreSQL: the postmaster and all its children, read from /proc. The
 * postmaster is the parent of the backend serving our connection. Backends that exit during a
 * window take their CPU time with them; the benchmark's pooled connections live through it.
 */
final class PostgresProcesses {

    private static final double CLOCK_TICKS_PER_SECOND = 100.0;
    private static final Path PROC = Path.of("/proc");

    private final long postmaster;

    private PostgresProcesses(long postmaster) {
        this.postmaster = postmaster;
    }

    /** The server of the backend {@code backendPid}, or null when that process is not on this machine. */
    static PostgresProcesses ofBackend(long backendPid) {
        try {
            Path stat = PROC.resolve(Long.toString(backendPid)).resolve("stat");
            if (!Files.isReadable(stat) || !Files.readString(stat).contains("(postgres)")) {
                return null;
            }
            return new PostgresProcesses(field(Files.readString(stat), 4));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** CPU seconds (user + system) used so far by the server's live processes. */
    double cpuSeconds() {
        try (Stream<Path> entries = Files.list(PROC)) {
            long ticks = entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .mapToLong(this::ticksIfOurs).sum();
            return ticks / CLOCK_TICKS_PER_SECOND;
        } catch (IOException e) {
            return 0;
        }
    }

    private long ticksIfOurs(Path process) {
        long pid = Long.parseLong(process.getFileName().toString());
        try {
            String stat = Files.readString(process.resolve("stat"));
            if (pid != postmaster && field(stat, 4) != postmaster) {
                return 0;
            }
            return field(stat, 14) + field(stat, 15);
        } catch (IOException | RuntimeException e) {
            return 0; // the process exited while we looked
        }
    }

    /** Field {@code n} (1-based, as in proc(5)) of a /proc/PID/stat line; the command may contain spaces. */
    private static long field(String stat, int n) {
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(rest[n - 3]);
    }
}
