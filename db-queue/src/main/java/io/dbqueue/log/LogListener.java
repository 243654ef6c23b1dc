package io.dbqueue.log;

import java.util.List;
import java.util.Set;

/** Observes a group member, for metrics and logs. Calls come from the member's thread; keep them quick. */
public interface LogListener {

    LogListener NONE = new LogListener() {
    };

    /** One listener that passes every call to each of {@code listeners}, in order. */
    static LogListener composite(List<LogListener> listeners) {
        List<LogListener> all = List.copyOf(listeners);
        return new LogListener() {
            @Override
            public void consumed(String topic, String group, int partition, int records, long lag) {
                all.forEach(l -> l.consumed(topic, group, partition, records, lag));
            }

            @Override
            public void assigned(String topic, String group, Set<Integer> partitions) {
                all.forEach(l -> l.assigned(topic, group, partitions));
            }

            @Override
            public void behindRetention(String topic, String group, int partition, GroupBehindRetentionException e) {
                all.forEach(l -> l.behindRetention(topic, group, partition, e));
            }

            @Override
            public void crashed(String topic, String group, Exception e) {
                all.forEach(l -> l.crashed(topic, group, e));
            }
        };
    }

    /** A batch was handled and its offset committed; {@code lag} is what remained on the partition. */
    default void consumed(String topic, String group, int partition, int records, long lag) {
    }

    /** The member's partitions changed (a member joined, left or died). */
    default void assigned(String topic, String group, Set<Integer> partitions) {
    }

    /** The group cannot read a partition: retention removed records it had not read. */
    default void behindRetention(String topic, String group, int partition, GroupBehindRetentionException e) {
    }

    /** A read, handler or commit failed; the member backs off and goes on. */
    default void crashed(String topic, String group, Exception e) {
    }
}
