package io.dbqueue.consumer;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.ObjectMapper;

@Configuration(proxyBeanMethods = false)
class ConsumerConfiguration {

    @Bean
    MessagePayload messagePayload(ObjectMapper json) {
        return new MessagePayload(json);
    }

    @Bean
    MessageConsumer messageConsumer(ConsumerProperties properties, MessagePayload payloads, MessageTimings timings,
                                    StatsReporter reporter, JdbcClient jdbc) {
        if (properties.effects()) {
            EffectsTable.create(jdbc);
        }
        return new MessageConsumer(properties.queueId(), payloads, timings, reporter, properties.effects());
    }

    /** Over RabbitMQ when {@code RABBIT_HOST} is set, as the experiment did; else over HTTP to test-app. */
    @Bean(destroyMethod = "close")
    StatsSender statsSender(Environment env, ConsumerProperties properties, ObjectMapper json,
                            RestClient.Builder http, ObjectProvider<RabbitTemplate> rabbit,
                            ObjectProvider<AmqpAdmin> admin) {
        if (env.getProperty("rabbit.host", "").isBlank()) {
            return new HttpStatsSender(http.build(), properties.stats().testAppUrl());
        }
        return new RabbitStatsSender(rabbit.getObject(), admin.getObject(),
                env.getProperty("rabbit.stats-queue", "dbq.stats"), json);
    }

    /** Closed after the workers stopped (they depend on it), so the last handlers' reports go out too. */
    @Bean(destroyMethod = "close")
    StatsReporter statsReporter(StatsSender sender, ConsumerProperties properties, MeterRegistry meters) {
        return new StatsReporter(sender, properties.stats().batchSize(), meters);
    }

    @Bean
    MessageTimings messageTimings() {
        return new MessageTimings();
    }
}
