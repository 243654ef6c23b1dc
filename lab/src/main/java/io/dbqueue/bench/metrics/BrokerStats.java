package io.dbqueue.bench.metrics;

/**
 * A broker's server process over one measured window, as {@link ServerStats} is PostgreSQL's: CPU
 * seconds, percent of one core and microseconds per message, and bytes it wrote to storage in all
 * and per message (messages processed: for a topic, reads summed over the groups); the writes are null
 * when /proc would not tell them (another user's process, read without root).
 */
public record BrokerStats(String process, double cpuSeconds, double cpuPercent, double cpuMicrosPerMessage,
                          Long writeBytes, Double writeBytesPerMessage) {

    /** The figures of {@code process} between {@code start} and now, over {@code seconds} with {@code processed} messages. */
    public static BrokerStats since(BrokerProcess process, ProcUsage start, double seconds, long processed) {
        ProcUsage used = process.usage().minus(start);
        return new BrokerStats(process.label(), Math.round(used.cpuSeconds() * 100) / 100.0,
                PerMessage.cpuPercent(used.cpuSeconds(), seconds), PerMessage.cpuMicros(used.cpuSeconds(), processed),
                used.writesKnown() ? used.writeBytes() : null,
                used.writesKnown() ? PerMessage.of(used.writeBytes(), processed) : null);
    }
}
