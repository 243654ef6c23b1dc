package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time of a local PostgreSQL: the postmaster and all its children, read from /proc. The
 * postmaster is the parent of the backend serving our connection. Backends that exit during a
 * window take their CPU time with them; the benchmark's pooled connections live through it.
 * Storage writes are left out: the kernel adds every reaped backend's to the postmaster's, and on
 * ext4 it counts 1 MiB for an fdatasync of a block rewritten in place, which WAL pages are at every
 * commit; the WAL's own position measures PostgreSQL's writes instead.
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

    /** CPU seconds (user + system) used so far by the server's live processes. */
    double cpuSeconds() {
        try (Stream<Path> entries = Files.list(PROC)) {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .map(this::usageIfOurs).reduce(ProcUsage.NONE, ProcUsage::plus).cpuSeconds();
        } catch (IOException e) {
            return 0;
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
