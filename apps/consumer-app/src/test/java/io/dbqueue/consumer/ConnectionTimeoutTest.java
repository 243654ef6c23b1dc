package io.dbqueue.consumer;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database that does not answer fails a connection request within DB_CONNECTION_TIMEOUT_MS (2 s),
 * so the probes answer DOWN soon, instead of hanging for the pool's 30 s default.
 */
@SpringBootTest(properties = "dbq.auto-startup=false")
class ConnectionTimeoutTest {

    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ConsumerTestSupport.database(registry);
    }

    @Test
    void thePoolWaitsTwoSecondsForAConnection() {
        assertThat(dataSource).isInstanceOfSatisfying(HikariDataSource.class,
                pool -> assertThat(pool.getConnectionTimeout()).isEqualTo(2000));
    }
}
