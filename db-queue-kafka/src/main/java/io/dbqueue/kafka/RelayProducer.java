package io.dbqueue.kafka;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The relay's Kafka producer, closed at once when a record fails and replaced for the next send. A record the broker
 * refused is failed by Kafka while the records after it may still wait to be sent; the idempotent producer would send
 * them, and the broker write them ahead of it. With one request in flight ({@link ProducerSettings}) the failed
 * record's callback runs before the next request goes out, and closing the producer from it fails every record not
 * yet sent, as Kafka's own documentation of {@code send} advises where order matters.
 */
final class RelayProducer {

    private final Supplier<Producer<String, String>> factory;
    private Producer<String, String> current; // null after a failure, until the next send; guarded by this
    private boolean closed; // guarded by this

    RelayProducer(Supplier<Producer<String, String>> factory) {
        this.factory = factory;
    }

    /**
     * What the calling thread sends {@code producer}'s records with: a callback that closes it on the first failure
     * heard from Kafka's I/O thread, so that nothing sent after the failed record goes out. A record the producer
     * refuses before sending it (too large, say) fails in the calling thread, which then sends nothing after it
     * ({@link BatchRelay}), and the records before it still go out.
     */
    Callback closingOnFailure(Producer<String, String> producer) {
        Thread sender = Thread.currentThread();
        return (metadata, exception) -> {
            if (exception != null && Thread.currentThread() != sender) {
                failed(producer);
            }
        };
    }

    /** The current producer, made anew after a failure. */
    synchronized Producer<String, String> current() {
        if (closed) {
            throw new IllegalStateException("the relay is closed");
        }
        if (current == null) {
            current = factory.get();
        }
        return current;
    }

    /**
     * Closes {@code producer} without waiting, from Kafka's I/O thread or the sender's: its records not yet sent
     * fail. Outside the lock: a close waiting for the I/O thread must not block a callback that wants it.
     */
    private void failed(Producer<String, String> producer) {
        synchronized (this) {
            if (current == producer) {
                current = null;
            }
        }
        producer.close(Duration.ZERO);
    }

    /** Closes the current producer, waiting up to {@code timeout} for the records it holds. */
    void close(Duration timeout) {
        Producer<String, String> last;
        synchronized (this) {
            closed = true;
            last = current;
            current = null;
        }
        if (last != null) {
            last.close(timeout);
        }
    }
}
