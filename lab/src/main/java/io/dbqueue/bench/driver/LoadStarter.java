package io.dbqueue.bench.driver;

import io.dbqueue.bench.metrics.Meter;

/** Starts a driver's producers and consumers, which report to {@code meter}. */
@FunctionalInterface
public interface LoadStarter {

    Load start(Meter meter) throws Exception;
}
