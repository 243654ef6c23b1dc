package io.dbqueue.log;

/**
 * A group's position on one partition: the next offset it will read, the partition's next offset
 * to append and lowest kept offset, and the member holding it (null if none).
 */
public record GroupLag(String group, int partition, long committedOffset, long nextOffset, long lowOffset,
                       String owner) {

    /** Records appended and not yet committed by the group. */
    public long lag() {
        return nextOffset - committedOffset;
    }

    /** Whether retention has removed records the group has not read. */
    public boolean behindRetention() {
        return committedOffset < lowOffset;
    }
}
