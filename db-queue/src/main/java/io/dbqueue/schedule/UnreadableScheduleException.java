package io.dbqueue.schedule;

/**
 * A schedule's row that this process cannot read: another process, on a newer time-zone database or a newer
 * version, defined it with a zone, trigger or policy unknown here.
 */
public final class UnreadableScheduleException extends IllegalStateException {

    private final String name;

    UnreadableScheduleException(String name, RuntimeException cause) {
        super("schedule '" + name + "' cannot be read here: " + cause.getMessage(), cause);
        this.name = name;
    }

    /** The schedule's name. */
    public String name() {
        return name;
    }
}
