package io.dbqueue.testapp;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * @param producersUrls       base URLs of the producers; requests are spread over them round robin
 * @param concurrency         requests in flight at once, over all producers
 * @param messagesPerRequest  1 sends {@code POST /} per message as the experiment did; more sends arrays to {@code POST /batch}
 * @param stallTimeout        a run without progress (nothing sent, nothing processed) for this long is marked failed
 * @param latencyBucketSize   messages per bucket of the per-run latency series (the experiment charted every 10,000)
 */
@ConfigurationProperties("test-app")
public record TestAppProperties(List<URI> producersUrls, int concurrency, int messagesPerRequest,
                                Duration stallTimeout, int latencyBucketSize) {

    public TestAppProperties {
        if (producersUrls == null || producersUrls.isEmpty()) {
            throw new IllegalArgumentException("test-app.producers-urls (PRODUCERS_URLS) must name at least one producer");
        }
        positive("test-app.concurrency", concurrency);
        positive("test-app.messages-per-request", messagesPerRequest);
        positive("test-app.latency-bucket-size", latencyBucketSize);
        if (stallTimeout == null || stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("test-app.stall-timeout must be positive, was " + stallTimeout);
        }
    }

    private static void positive(String property, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, was " + value);
        }
    }
}
