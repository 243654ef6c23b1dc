package io.dbqueue.bench.scenario;

/** How a scenario's tenants share the queue. */
public enum Fairness {

    /** One queue for every tenant, first in first out: the library without its fairness option. */
    OFF("off", "one shared queue"),
    /** A queue per tenant, taken in turn by one group of workers with a cap per queue ({@link io.dbqueue.queue.QueueGroup}). */
    ON("on", "a queue per tenant, taken in turn"),
    /** As {@link #ON}, without the noisy tenant's tasks: the quiet tenants' baseline. */
    QUIET_ONLY("quiet-only", "quiet tenants alone");

    private final String label;
    private final String description;

    Fairness(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /** Also takes true and false, which YAML makes of an unquoted on and off. */
    public static Fairness parse(String text) {
        if ("true".equals(text)) {
            return ON;
        }
        if ("false".equals(text)) {
            return OFF;
        }
        for (Fairness f : values()) {
            if (f.label.equals(text)) {
                return f;
            }
        }
        throw new IllegalArgumentException("fairness must be off, on or quiet-only, was '" + text + "'");
    }

    boolean perTenantQueues() {
        return this != OFF;
    }
}
