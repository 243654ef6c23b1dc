package io.dbqueue.kafka;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.DbQueue;
import io.dbqueue.log.LogAdmin;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.postgres.PostgresServer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/log.md's relay example is {@link DocsExample}'s region, which runs. */
class DocsExampleTest {

    private static final Pattern REGION = Pattern.compile("\\n( *)// docs: relay\\n(.*?)\\n\\1// docs: end\\n",
            Pattern.DOTALL);

    @Test
    void theDocsJavaBlockIsTheExamplesRegion() throws Exception {
        Matcher region = REGION.matcher(Files.readString(Path.of("src/test/java/io/dbqueue/kafka/DocsExample.java")));
        assertTrue(region.find(), "DocsExample has its region");
        String block = region.group(2).replaceAll("(?m)^" + region.group(1), "");
        assertTrue(Files.readString(Path.of("..", "docs", "log.md")).contains("```java\n" + block + "\n```\n"),
                "docs/log.md has no java block equal to DocsExample's region:\n" + block);
    }

    @Test
    void theExampleRelaysTheRecordToKafka() throws Exception {
        try (HikariDataSource dataSource = PostgresServer.shared().dataSource(4)) {
            LogSchema.recreate(dataSource, Topic.of("orders", 4));
            TestKafka.createTopic("orders", 4);
            try (DbQueue dbq = DbQueue.builder(dataSource).build();
                 KafkaRelay relay = DocsExample.relayOrders(dbq, TestKafka.bootstrapServers())) {
                Map<Integer, List<ConsumerRecord<String, String>>> read = TestKafka.readUntil("orders",
                        Set.of(0, 1, 2, 3), Duration.ofSeconds(60), "reading the example's record",
                        records -> !records.isEmpty());
                int partition = LogAdmin.of(dataSource, "orders").lag().stream().filter(lag -> lag.nextOffset() == 1)
                        .findFirst().orElseThrow().partition();
                assertEquals(Set.of(partition), read.keySet(), "the log's partition");
                ConsumerRecord<String, String> record = read.get(partition).get(0);
                assertEquals("customer-42", record.key());
                assertEquals("{\"order\": 42}", record.value());
            }
        }
    }
}
