package io.dbqueue.log;

import java.util.Set;

/** Observes a group member, for metrics and logs. Calls come from the member's thread; keep them quick. */
public interface LogListener {

    LogListener NONE = new LogListener() {
    };

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
