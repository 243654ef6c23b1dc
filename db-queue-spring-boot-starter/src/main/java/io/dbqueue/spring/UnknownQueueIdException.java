package io.dbqueue.spring;

import java.util.List;
import java.util.Set;

/** A queue id that {@code dbq.queues} (nor {@code dbq.groups}, where a consumer names it) does not configure. */
public class UnknownQueueIdException extends IllegalArgumentException {

    private final String id;
    private final List<String> configured;

    /** @param configured the ids that are configured, in configuration order */
    public UnknownQueueIdException(String message, String id, Set<String> configured) {
        super(message);
        this.id = id;
        this.configured = List.copyOf(configured);
    }

    public String id() {
        return id;
    }

    public List<String> configured() {
        return configured;
    }
}
