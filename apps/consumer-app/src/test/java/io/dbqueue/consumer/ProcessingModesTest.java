package io.dbqueue.consumer;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.spring.DbQueueProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The experiment's PROCESSING_MODE words reach the starter as its delivery modes. */
@SpringBootTest(properties = {"consumer.processing-mode=wrap-in-transaction", "dbq.auto-startup=false"})
class ProcessingModesTest {

    @Autowired
    DbQueueProperties properties;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ConsumerTestSupport.database(registry);
    }

    @ParameterizedTest
    @CsvSource({"separate-transactions, at-least-once", "wrap-in-transaction, exactly-once",
            "WRAP_IN_TRANSACTION, exactly-once", "at-most-once, at-most-once", "exactly-once, exactly-once",
            "external-executor, external-executor"})
    void anExperimentsWordBecomesTheStartersMode(String processingMode, String starterMode) {
        assertThat(ProcessingModes.starterMode(processingMode)).isEqualTo(starterMode);
    }

    @Test
    void aModeSetOnTheQueueItselfWins() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of("consumer.queue-id", "messages",
                ProcessingModes.PROPERTY, "wrap-in-transaction", "dbq.queues.messages.mode", "at-most-once")));
        new ProcessingModes().postProcessEnvironment(environment, null);
        assertThat(environment.getProperty("dbq.queues.messages.mode")).isEqualTo("at-most-once");
    }

    @Test
    void theConsumerAppliesItToItsQueue() {
        assertThat(properties.configs().get("messages").mode()).isEqualTo(DeliveryMode.EXACTLY_ONCE);
    }
}
