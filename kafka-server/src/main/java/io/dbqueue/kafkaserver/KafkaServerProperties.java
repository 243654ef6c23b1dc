package io.dbqueue.kafkaserver;

import java.nio.file.Path;

/**
 * The server.properties of the {@link KafkaBroker}: one node in KRaft combined mode (broker and
 * controller in one process, {@code node.id} 1, a static quorum of itself) on loopback ports, with
 * replication factor 1 everywhere so that a single node can take acks=all, and no initial rebalance
 * delay so that consumer groups form at once. The flush settings ({@code log.flush.interval.*})
 * stay Kafka's defaults: the broker never fsyncs on its own, the OS writes its pages back; a topic
 * that needs an fsync per append asks for it with a topic config (the lab's {@code kafka-fsync} cells).
 *
 * @param brokerPort     the clients' listener (PLAINTEXT)
 * @param controllerPort the KRaft controller's listener
 * @param dataDir        the broker's log.dirs, with the formatted metadata log
 */
public record KafkaServerProperties(int brokerPort, int controllerPort, Path dataDir) {

    private static final String HOST = "127.0.0.1";

    public String bootstrapServers() {
        return HOST + ":" + brokerPort;
    }

    /** The file's text. */
    public String text() {
        return String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@" + HOST + ":" + controllerPort,
                "listeners=PLAINTEXT://" + bootstrapServers() + ",CONTROLLER://" + HOST + ":" + controllerPort,
                "advertised.listeners=PLAINTEXT://" + bootstrapServers(),
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "log.dirs=" + dataDir,
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "");
    }
}
