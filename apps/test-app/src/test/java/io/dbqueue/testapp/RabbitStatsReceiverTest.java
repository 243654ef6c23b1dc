package io.dbqueue.testapp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.ObjectMapper;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/** Statistics over the machine's RabbitMQ (127.0.0.1:5672, guest/guest); skipped when there is none. */
@SpringBootTest(properties = {"rabbit.host=127.0.0.1", "rabbit.stats-queue=" + RabbitStatsReceiverTest.QUEUE})
class RabbitStatsReceiverTest {

    static final String QUEUE = "dbq.stats.test-app-test";
    private static final FakeProducers PRODUCERS = new FakeProducers();
    private static Connection rabbit;

    @Autowired
    Runs runs;

    @Autowired
    ObjectMapper json;

    @BeforeAll
    static void rabbitIsThere() throws Exception {
        assumeThat(reachable()).as("RabbitMQ is not reachable at 127.0.0.1:5672: skipping the RabbitMQ statistics test")
                .isTrue();
        rabbit = new ConnectionFactory().newConnection("test-app-test");
    }

    @AfterAll
    static void stop() throws Exception {
        PRODUCERS.close();
        if (rabbit != null) {
            try (Channel channel = rabbit.createChannel()) {
                channel.queueDelete(QUEUE);
            }
            rabbit.close();
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        PostgresServer db = PostgresServer.shared();
        registry.add("spring.datasource.url", () -> db.createDatabase("test_app_rabbit_test"));
        registry.add("spring.datasource.username", db::user);
        registry.add("spring.datasource.password", db::password);
        registry.add("test-app.producers-urls", PRODUCERS::url);
    }

    @Test
    void runCompletesFromStatisticsReceivedOverRabbitMq() throws Exception {
        long id = runs.start(20);
        List<Stat> stats = new ArrayList<>();
        long t0 = System.currentTimeMillis() * 1000;
        for (int i = 0; i < 20; i++) {
            stats.add(new Stat(id, i + 1, t0, t0 + 100, t0 + 1000 + i));
        }
        try (Channel channel = rabbit.createChannel()) {
            for (List<Stat> half : List.of(stats.subList(0, 10), stats.subList(10, 20))) {
                channel.basicPublish("", QUEUE, MessageProperties.PERSISTENT_BASIC, json.writeValueAsBytes(half));
            }
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> runs.find(id).orElseThrow().status() == RunStatus.COMPLETE);
        assertThat(runs.find(id).orElseThrow().processedCount()).isEqualTo(20);
    }

    private static boolean reachable() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 5672), 1000);
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
