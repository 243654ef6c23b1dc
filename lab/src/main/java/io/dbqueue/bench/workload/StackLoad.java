package io.dbqueue.bench.workload;

/**
 * The {@code stack} driver's own settings: how test-app sends the load. The other drivers ignore them.
 *
 * @param messagesPerRequest 1 = one message per {@code POST /}, as in the experiment; more = arrays to {@code POST /batch}
 * @param concurrency        test-app's requests in flight
 */
public record StackLoad(int messagesPerRequest, int concurrency) {

    public StackLoad {
        if (messagesPerRequest < 1) {
            throw new IllegalArgumentException("stack.messages_per_request must be at least 1, was " + messagesPerRequest);
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("stack.concurrency must be at least 1, was " + concurrency);
        }
    }
}
