package io.dbqueue.kafka;

import io.dbqueue.log.LogRecord;
import io.dbqueue.log.RecordBatch;
import io.dbqueue.log.RecordHandler;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.InterruptException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The relay's handler: sends a batch and returns only once Kafka acknowledged every record, so
 * that the group member commits the offset after the acknowledgements. A record Kafka refused
 * fails the batch: nothing is committed and the member reads it again after its back-off. The
 * records of the batch before it are then sent again (duplicates stay within the uncommitted
 * batch); none after it goes ahead of it: the producer refused it before sending them, or, where the
 * broker refused it, its failure closed the producer before they went out ({@link RelayProducer}).
 */
final class BatchRelay implements RecordHandler {

    private final RelayProducer producers;
    private final String kafkaTopic;
    private final RelayListener listener;

    BatchRelay(RelayProducer producers, String kafkaTopic, RelayListener listener) {
        this.producers = producers;
        this.kafkaTopic = kafkaTopic;
        this.listener = listener;
    }

    @Override
    public void handle(RecordBatch batch) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>(batch.records().size());
        Producer<String, String> producer = producers.current();
        Callback closeOnFailure = producers.closingOnFailure(producer);
        try {
            for (LogRecord record : batch.records()) {
                Future<RecordMetadata> ack = producer.send(KafkaRecords.of(kafkaTopic, record), closeOnFailure);
                acks.add(ack);
                if (refused(ack)) {
                    break; // refused before it was sent (too large, say): the records after it must not go ahead of it
                }
            }
            producer.flush(); // sends at once instead of after linger.ms, and waits for every ack
        } catch (InterruptException e) { // Kafka's unchecked form: the member stops on the checked one
            InterruptedException interrupted = new InterruptedException("interrupted while relaying " + describe(batch));
            interrupted.initCause(e);
            throw interrupted;
        }
        for (int i = 0; i < acks.size(); i++) {
            try {
                acks.get(i).get();
            } catch (ExecutionException e) {
                LogRecord record = batch.records().get(i);
                throw new RelayException("Kafka did not acknowledge offset " + record.offset() + " of "
                        + describe(batch) + "; the batch is relayed again", e.getCause());
            }
        }
        listener.relayed(batch);
    }

    /** Whether the producer failed the record already: its checks before sending (size, partition) fail the future at once. */
    private static boolean refused(Future<RecordMetadata> ack) throws InterruptedException {
        if (!ack.isDone()) {
            return false;
        }
        try {
            ack.get();
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    private String describe(RecordBatch batch) {
        return batch.topic() + " partition " + batch.partition() + " to Kafka topic " + kafkaTopic;
    }
}
