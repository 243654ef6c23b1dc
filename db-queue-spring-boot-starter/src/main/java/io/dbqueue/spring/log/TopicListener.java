package io.dbqueue.spring.log;

import io.dbqueue.log.RecordBatch;
import io.dbqueue.log.RecordHandler;

/**
 * A bean that reads a topic as a member of a consumer group, as a {@code @KafkaListener} method
 * does in spring-kafka. The starter runs {@code dbq.log.topics.<topic>.groups.<group>.members}
 * members with this bean as their handler and stops them when the application stops. Returning
 * commits the group's offset past the batch; throwing reads the batch again after a back-off (at
 * least once, exactly once).
 */
public interface TopicListener extends RecordHandler {

    /** The topic, configured under {@code dbq.log.topics}. */
    String topic();

    /** The consumer group this bean reads in; each group reads every record. */
    String group();

    @Override
    void handle(RecordBatch batch) throws Exception;
}
