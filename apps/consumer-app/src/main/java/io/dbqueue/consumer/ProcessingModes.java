package io.dbqueue.consumer;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Locale;
import java.util.Map;

/**
 * {@code consumer.processing-mode} (PROCESSING_MODE) in the experiment's words as well as the starter's:
 * separate-transactions is at-least-once and wrap-in-transaction is exactly-once. It becomes the consumer's
 * {@code dbq.queues.<consumer.queue-id>.mode} unless that is set itself; the starter's own words
 * (at-least-once, exactly-once, at-most-once, external-executor) pass as they are, and the starter rejects
 * what it does not know.
 */
final class ProcessingModes implements EnvironmentPostProcessor {

    static final String PROPERTY = "consumer.processing-mode";

    private static final Map<String, String> EXPERIMENT_WORDS = Map.of(
            "separate-transactions", "at-least-once",
            "wrap-in-transaction", "exactly-once");

    /** The starter's mode for a processing mode, e.g. exactly-once for wrap-in-transaction or WRAP_IN_TRANSACTION. */
    static String starterMode(String processingMode) {
        String word = processingMode.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        return EXPERIMENT_WORDS.getOrDefault(word, word);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String key = "dbq.queues." + environment.getRequiredProperty("consumer.queue-id") + ".mode";
        String mode = starterMode(environment.getRequiredProperty(PROPERTY));
        // last: below every other source, so a dbq.queues.<id>.mode set anywhere wins
        environment.getPropertySources().addLast(new MapPropertySource(PROPERTY, Map.of(key, mode)));
    }
}
