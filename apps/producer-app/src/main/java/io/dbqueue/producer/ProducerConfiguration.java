package io.dbqueue.producer;

import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.spring.DbQueues;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ProducerConfiguration {

    @Bean
    QueueProducer messageProducer(DbQueues queues, ProducerProperties properties) {
        return queues.producer(properties.queueId());
    }

    /** Closed with DbQueues, after the web server stopped taking requests: the tail is written, not lost. */
    @Bean
    CoalescingProducer messageCoalescingProducer(DbQueues queues, ProducerProperties properties) {
        return queues.coalescingProducer(properties.queueId());
    }
}
