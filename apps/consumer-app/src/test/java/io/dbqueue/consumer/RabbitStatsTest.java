package io.dbqueue.consumer;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.ObjectMapper;

import javax.sql.DataSource;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/** Statistics over the machine's RabbitMQ (127.0.0.1:5672, guest/guest); skipped when there is none. */
@SpringBootTest(properties = {"rabbit.host=127.0.0.1", "rabbit.stats-queue=" + RabbitStatsTest.QUEUE})
class RabbitStatsTest {

    static final String QUEUE = "dbq.stats.consumer-test";

    private static Connection rabbit;

    @Autowired
    DataSource dataSource;

    @Autowired
    ObjectMapper json;

    @BeforeAll
    static void rabbitIsThere() throws Exception {
        assumeThat(reachable()).as("RabbitMQ is not reachable at 127.0.0.1:5672: skipping the RabbitMQ statistics test")
                .isTrue();
        rabbit = new ConnectionFactory().newConnection("consumer-test");
        try (Channel channel = rabbit.createChannel()) {
            channel.queueDeclare(QUEUE, true, false, false, null);
            channel.queuePurge(QUEUE);
        }
    }

    @AfterAll
    static void closeRabbit() throws Exception {
        if (rabbit != null) {
            try (Channel channel = rabbit.createChannel()) {
                channel.queueDelete(QUEUE);
            }
            rabbit.close();
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ConsumerTestSupport.database(registry);
    }

    @Test
    void statisticsArriveAsOneAmqpMessagePerBatch() throws Exception {
        List<Long> ids = ConsumerTestSupport.enqueue(dataSource, 43, 300);
        Queue<byte[]> received = new ConcurrentLinkedQueue<>();
        try (Channel channel = rabbit.createChannel()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (GetResponse message = channel.basicGet(QUEUE, true); message != null;
                     message = channel.basicGet(QUEUE, true)) {
                    received.add(message.getBody());
                }
                return ConsumerTestSupport.parse(json, received).size() >= ids.size();
            });
        }
        ConsumerTestSupport.assertTimings(ConsumerTestSupport.parse(json, received), 43, ids);
        // A report leaves as soon as a stat waits and no report is in flight, so how many depends on scheduling.
        assertThat(received.size()).as("AMQP messages, not one per task").isLessThan(ids.size() / 2);
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
