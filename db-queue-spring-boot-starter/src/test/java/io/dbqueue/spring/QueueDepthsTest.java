package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class QueueDepthsTest {

    @Test
    void readsTheDatabaseAtMostOncePerMaxAge() {
        String table = StarterTestSupport.createTable(Layout.DBQ_SEQ);
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(StarterTestSupport.jdbcUrl());
        dataSource.setUser(PostgresServer.shared().user());
        dataSource.setPassword(PostgresServer.shared().password());
        QueueDefinition main = new QueueDefinition("main",
                io.dbqueue.queue.QueueConfig.of(new QueueTable(table, Layout.DBQ_SEQ).queue("main")),
                io.dbqueue.maintenance.VacuumPolicy.DEFAULT, false,
                Optional.empty(), new CoalescingProducer.Settings(Duration.ofMillis(5), 100));
        AtomicLong clock = new AtomicLong();
        QueueDepths depths = new QueueDepths(dataSource, new QueueDefinitions(List.of(main)), Duration.ofSeconds(5),
                clock::get);
        QueueProducer producer = new QueueProducer(dataSource, main.location());

        producer.enqueueAll(List.of("a", "b"));
        assertThat(depths.read("main").depth().tasks()).isEqualTo(2);
        producer.enqueue("c");
        clock.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(depths.read("main").depth().tasks()).as("cached").isEqualTo(2);
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(depths.read("main").depth().tasks()).as("refreshed").isEqualTo(3);

        StarterTestSupport.execute("DROP TABLE " + table);
        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        QueueDepths.Reading failed = depths.read("main");
        assertThat(failed.depth()).isNull();
        assertThat(failed.failure()).hasMessageContaining(table);
    }
}
