package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time of a local PostgreSQL: the postmaster and all its children, read from /proc. The
 * postmaster is the parent of the backend serving our connection. A child that exits (an autovacuum
 * worker, a backend of a closed connection) keeps its CPU time in the total: the kernel adds it to
 * the postmaster's reaped children's time when it is reaped, so the total only grows.
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

    /** CPU seconds (user + system) used so far by the server's processes, live or reaped. */
    double cpuSeconds() {
        try (Stream<Path> entries = Files.list(PROC)) {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .map(this::usageIfOurs).reduce(ProcUsage.NONE, ProcUsage::plus).cpuSeconds();
        } catch (IOException e) {
            return 0;
        }
    }

    /** A process of ours: its CPU ticks from its one stat line (utime, stime; the postmaster's with cutime, cstime). */
    private ProcUsage usageIfOurs(Path process) {
        long pid = Long.parseLong(process.getFileName().toString());
        try {
            String stat = Files.readString(process.resolve("stat"));
            if (pid != postmaster && ProcUsage.statField(stat, 4) != postmaster) {
                return ProcUsage.NONE;
            }
            long ticks = ProcUsage.statField(stat, 14) + ProcUsage.statField(stat, 15);
            if (pid == postmaster) { // and its reaped children's
                ticks += ProcUsage.statField(stat, 16) + ProcUsage.statField(stat, 17);
            }
            return new ProcUsage(ticks, 0, true);
        } catch (IOException | RuntimeException e) {
            return ProcUsage.NONE; // the process exited while we looked
        }
    }
}
