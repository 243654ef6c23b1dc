package io.dbqueue.bench.metrics;

/**
 * A broker's server process over one measured window, as {@link ServerStats} is PostgreSQL's: CPU
 * seconds, percent of one core and microseconds per message, and bytes it wrote to storage in all
 * and per message (messages processed: for a topic, reads summed over the groups).
 */
public record BrokerStats(String process, double cpuSeconds, double cpuPercent, double cpuMicrosPerMessage,
                          long writeBytes, double writeBytesPerMessage) {

    /** The figures of {@code process} between {@code start} and now, over {@code seconds} with {@code processed} messages. */
    public static BrokerStats since(BrokerProcess process, ProcUsage start, double seconds, long processed) {
        ProcUsage used = process.usage().minus(start);
        return new BrokerStats(process.label(), Math.round(used.cpuSeconds() * 100) / 100.0,
                PerMessage.cpuPercent(used.cpuSeconds(), seconds), PerMessage.cpuMicros(used.cpuSeconds(), processed),
                used.writeBytes(), PerMessage.of(used.writeBytes(), processed));
    }
}
