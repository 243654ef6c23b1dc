package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time and storage writes of a local PostgreSQL: the postmaster and all its children, read from
 * /proc. The postmaster is the parent of the backend serving our connection. Backends that exit
 * during a window take their figures with them; the benchmark's pooled connections live through it.
 */
final class PostgresProcesses {

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
            return new PostgresProcesses(ProcUsage.statField(Files.readString(stat), 4));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** What the server's live processes have used so far. */
    ProcUsage usage() {
        try (Stream<Path> entries = Files.list(PROC)) {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .map(this::usageIfOurs).reduce(ProcUsage.NONE, ProcUsage::plus);
        } catch (IOException e) {
            return ProcUsage.NONE;
        }
    }

    private ProcUsage usageIfOurs(Path process) {
        long pid = Long.parseLong(process.getFileName().toString());
        try {
            if (pid != postmaster && ProcUsage.statField(Files.readString(process.resolve("stat")), 4) != postmaster) {
                return ProcUsage.NONE;
            }
            return ProcUsage.of(pid);
        } catch (IOException | RuntimeException e) {
            return ProcUsage.NONE; // the process exited while we looked
        }
    }
}
