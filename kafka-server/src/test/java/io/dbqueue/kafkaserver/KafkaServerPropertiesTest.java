package io.dbqueue.kafkaserver;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The broker's server.properties. */
class KafkaServerPropertiesTest {

    private final KafkaServerProperties server = new KafkaServerProperties(19092, 19093, Path.of("/tmp/k/data"));

    @Test
    void oneNodeInKraftCombinedModeOnLoopback() throws IOException {
        Properties p = parse(server.text());
        assertEquals("broker,controller", p.getProperty("process.roles"));
        assertEquals("1", p.getProperty("node.id"));
        assertEquals("1@127.0.0.1:19093", p.getProperty("controller.quorum.voters"));
        assertEquals("PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093", p.getProperty("listeners"));
        assertEquals("PLAINTEXT://127.0.0.1:19092", p.getProperty("advertised.listeners"));
        assertEquals("CONTROLLER", p.getProperty("controller.listener.names"));
        assertEquals("/tmp/k/data", p.getProperty("log.dirs"));
        assertEquals("127.0.0.1:19092", server.bootstrapServers());
    }

    @Test
    void aSingleNodeCanTakeAcksAllAndGroupsFormAtOnce() throws IOException {
        Properties p = parse(server.text());
        assertEquals("1", p.getProperty("offsets.topic.replication.factor"));
        assertEquals("1", p.getProperty("transaction.state.log.replication.factor"));
        assertEquals("1", p.getProperty("transaction.state.log.min.isr"));
        assertEquals("0", p.getProperty("group.initial.rebalance.delay.ms"));
        assertEquals("false", p.getProperty("auto.create.topics.enable"));
    }

    @Test
    void theBrokerKeepsKafkasFlushPolicy() throws IOException {
        Properties p = parse(server.text());
        assertFalse(p.stringPropertyNames().stream().anyMatch(name -> name.startsWith("log.flush.")),
                "the broker leaves the write-back to the OS");
    }

    private static Properties parse(String text) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        return properties;
    }
}
