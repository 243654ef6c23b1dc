package io.dbqueue.consumer;

import com.rabbitmq.client.ConnectionFactory;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
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
    StatsSender statsSender(Environment env, ConsumerProperties properties, ObjectMapper json) throws Exception {
        String host = env.getProperty("rabbit.host", "");
        if (host.isBlank()) {
            return new HttpStatsSender(properties.stats().testAppUrl(), json);
        }
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(env.getProperty("rabbit.port", Integer.class, 5672));
        factory.setUsername(env.getProperty("rabbit.user", "guest"));
        factory.setPassword(env.getProperty("rabbit.pass", "guest"));
        return new RabbitStatsSender(factory, env.getProperty("rabbit.stats-queue", "dbq.stats"), json);
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
