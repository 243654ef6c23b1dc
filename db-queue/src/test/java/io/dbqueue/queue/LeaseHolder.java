package io.dbqueue.queue;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A consumer process for {@link LongHandlersTest}: claims from a queue with heartbeats on, prints
 * {@code HANDLING <id>} and runs its task until the process is killed.
 * Arguments: JDBC URL, user, password, table layout, queue name, lease in milliseconds.
 */
public final class LeaseHolder {

    private LeaseHolder() {
    }

    public static void main(String[] args) throws Exception {
        HikariDataSource ds = PostgresServer.external(args[0], args[1], args[2]).dataSource(4);
        QueueLocation queue = QueueTable.of(Layout.named(args[3])).queue(args[4]);
        QueueConfig config = QueueConfig.of(queue).withLeaseTimeout(Duration.ofMillis(Long.parseLong(args[5])));
        CountDownLatch never = new CountDownLatch(1);
        QueueWorkers.start(ds, config, batch -> {
            System.out.println("HANDLING " + batch.tasks().get(0).id());
            System.out.flush();
            never.await();
        });
        never.await();
    }
}
