package io.dbqueue.log;

/**
 * A group's committed offset on a partition is below the lowest offset retention has kept: the
 * records in between are gone. The group does not skip them silently; it stays where it is on that
 * partition until it is reset ({@link LogAdmin#resetGroup}).
 */
public final class GroupBehindRetentionException extends IllegalStateException {

    private final long committedOffset;
    private final long lowOffset;

    public GroupBehindRetentionException(String topic, String group, int partition, long committedOffset,
                                         long lowOffset) {
        super("group " + group + " on " + topic + " partition " + partition + " is at offset " + committedOffset
                + " but retention has removed everything below " + lowOffset + " (" + (lowOffset - committedOffset)
                + " records never read); reset the group to go on");
        this.committedOffset = committedOffset;
        this.lowOffset = lowOffset;
    }

    public long committedOffset() {
        return committedOffset;
    }

    public long lowOffset() {
        return lowOffset;
    }
}
