package io.dbqueue.producer;

import io.dbqueue.queue.QueueProducer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProducerPropertiesTest {

    /** A limit above the library's largest batch would answer every larger batch 503 "retry later", forever. */
    @Test
    void theBatchLimitIsAtMostTheLibrarysLargestBatch() {
        int largest = QueueProducer.MAX_BATCH_SIZE;
        assertThat(new ProducerProperties("messages", 1024, largest).maxBatchMessages()).isEqualTo(largest);
        assertThatThrownBy(() -> new ProducerProperties("messages", 1024, largest + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("producer.max-batch-messages must be at most 100000 (the largest batch one enqueue writes),"
                        + " was 100001");
        assertThatThrownBy(() -> new ProducerProperties("messages", 1024, 0))
                .hasMessage("producer.max-batch-messages must be at least 1, was 0");
    }
}
