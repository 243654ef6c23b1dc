package io.dbqueue.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A broker's server process on this machine, whose CPU and storage writes a broker's cell reports
 * as its server figures ({@link BrokerStats}): found by its command name (RabbitMQ's Erlang VM
 * {@code beam.smp}, {@code nats-server}) or by pid (the Kafka broker the lab starts).
 */
public final class BrokerProcess {

    private static final Path PROC = Path.of("/proc");

    private final String name;
    private final List<Long> pids;

    private BrokerProcess(String name, List<Long> pids) {
        this.name = name;
        this.pids = pids;
    }

    /**
     * The processes whose command ({@code /proc/<pid>/comm}) is {@code command}; null when there is
     * none (the broker runs elsewhere). Several (another broker of the same kind) are summed.
     */
    public static BrokerProcess named(String command) {
        try (Stream<Path> entries = Files.list(PROC)) {
            List<Long> pids = entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> command.equals(comm(p))).map(p -> Long.parseLong(p.getFileName().toString()))
                    .toList();
            return pids.isEmpty() ? null : new BrokerProcess(command, pids);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * As {@link #named}, but only for a broker reached on this machine ({@code host} a loopback
     * address or localhost): a local process of that name is not the broker on another host.
     */
    public static BrokerProcess namedIfLocal(String command, String host) {
        return isLoopback(host) ? named(command) : null;
    }

    static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return h.equals("localhost") || h.startsWith("127.") || h.equals("::1");
    }

    /** The process {@code pid}, reported as {@code name}. */
    public static BrokerProcess of(String name, long pid) {
        return new BrokerProcess(name, List.of(pid));
    }

    /** How results.json names the process: its command, with the pids. */
    public String label() {
        return name + " (pid " + String.join(", ", pids.stream().map(String::valueOf).toList()) + ")";
    }

    /** What the processes have used so far. */
    public ProcUsage usage() {
        return pids.stream().map(ProcUsage::of).reduce(ProcUsage.NONE, ProcUsage::plus);
    }

    private static String comm(Path process) {
        try {
            return Files.readString(process.resolve("comm")).trim();
        } catch (IOException e) {
            return ""; // exited while we looked
        }
    }
}
