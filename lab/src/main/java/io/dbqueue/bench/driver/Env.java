package io.dbqueue.bench.driver;

/** Broker settings from the environment. */
public final class Env {

    private Env() {
    }

    /** The variable's value, or {@code fallback} when it is unset or blank. */
    public static String or(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
