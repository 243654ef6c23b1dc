package io.dbqueue.producer;

import io.dbqueue.postgres.PostgresServer;
import org.springframework.test.context.DynamicPropertyRegistry;

/** What the producer tests share: the suite's PostgreSQL as the app's database. */
final class ProducerTestSupport {

    private ProducerTestSupport() {
    }

    static void sharedDatabase(DynamicPropertyRegistry registry) {
        PostgresServer db = PostgresServer.shared();
        registry.add("spring.datasource.url", db::jdbcUrl);
        registry.add("spring.datasource.username", db::user);
        registry.add("spring.datasource.password", db::password);
    }
}
