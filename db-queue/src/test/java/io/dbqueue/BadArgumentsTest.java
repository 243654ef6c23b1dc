package io.dbqueue;

import io.dbqueue.common.InvalidValueException;
import io.dbqueue.log.Topic;
import io.dbqueue.queue.IdempotencyKeys;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The corpus of bad arguments to the library (src/test/resources/bad-arguments.tsv): each call must
 * throw an IllegalArgumentException whose message names the field, before anything is written; a bad
 * configuration value an {@link InvalidValueException} with that field.
 */
class BadArgumentsTest {

    /** The corpus's field for an argument of an operation, which fails with a plain IllegalArgumentException. */
    private static final String AN_OPERATIONS_ARGUMENT = "-";

    private static QueueTable table;
    private static QueueProducer producer;

    @BeforeAll
    static void freshTable() throws SQLException {
        table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        producer = new QueueProducer(TestDatabase.dataSource(), table.queue("bad"));
    }

    @AfterAll
    static void nothingWasStored() throws SQLException {
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.name()), "nothing stored");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.keysTable()), "no key stored");
    }

    @TestFactory
    Stream<DynamicTest> everyBadArgumentIsRefusedByName() throws IOException {
        return corpus().stream().map(line -> {
            String[] f = line.split("\t", -1);
            String argument = argument(f[1]);
            String field = f[2];
            String message = f[3];
            return DynamicTest.dynamicTest(f[0] + " " + f[1], () -> {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call(f[0], argument));
                assertTrue(e.getMessage() != null && e.getMessage().contains(message),
                        "expected '" + message + "' in: " + e.getMessage());
                if (field.equals(AN_OPERATIONS_ARGUMENT)) {
                    assertFalse(e instanceof InvalidValueException, "an operation's argument, not configuration: " + e);
                } else {
                    assertEquals(field, assertInstanceOf(InvalidValueException.class, e).field(), e.getMessage());
                }
            });
        });
    }

    private static Executable call(String what, String argument) {
        QueueLocation queue = table.queue("bad");
        return switch (what) {
            case "table-name" -> () -> new QueueTable(argument, Layout.DBQ_SEQ);
            case "queue-name" -> () -> table.queue(argument);
            case "topic-name" -> () -> Topic.of(argument, 1);
            case "layout" -> () -> Layout.named(argument);
            case "storage-option" -> () -> Layout.DBQ_SEQ.withTableOptions(Map.of("fillfactor", argument));
            case "partitions" -> () -> Layout.DBQ_SEQ.withPartitions(Integer.parseInt(argument));
            case "payload" -> () -> producer.enqueue(argument);
            case "batch-payload" -> () -> producer.enqueueAll(Arrays.asList("fine", argument));
            case "batch-size" -> () -> producer.enqueueAll(Collections.nCopies(Integer.parseInt(argument), "x"));
            case "delay-ms" -> () -> producer.enqueue("x", Duration.ofMillis(Long.parseLong(argument)));
            case "key" -> () -> producer.enqueueOnce(argument, "x");
            case "threads" -> () -> QueueConfig.of(queue).withThreads(Integer.parseInt(argument));
            case "claim-batch" -> () -> PollSettings.DEFAULT.withBatchSize(Integer.parseInt(argument));
            case "lease-ms" -> () -> QueueConfig.of(queue).withLeaseTimeout(Duration.ofMillis(Long.parseLong(argument)));
            case "key-retention-ms" -> () -> IdempotencyKeys.purge(TestDatabase.dataSource(), table,
                    Duration.ofMillis(Long.parseLong(argument)));
            default -> throw new IllegalArgumentException("the corpus names an unknown call '" + what + "'");
        };
    }

    private static String argument(String spec) {
        if (spec.equals("@null")) {
            return null;
        }
        if (spec.equals("@empty")) {
            return "";
        }
        if (spec.equals("@nul")) {
            return "before\0after";
        }
        if (spec.equals("@surrogate")) {
            return "before\uD800after";
        }
        if (spec.startsWith("@repeat:")) {
            String[] parts = spec.split(":", 3);
            return parts[2].repeat(Integer.parseInt(parts[1]));
        }
        return spec;
    }

    private static List<String> corpus() throws IOException {
        try (InputStream in = BadArgumentsTest.class.getResourceAsStream("/bad-arguments.tsv")) {
            List<String> lines = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    lines.add(line);
                }
            }
            return lines;
        }
    }
}
