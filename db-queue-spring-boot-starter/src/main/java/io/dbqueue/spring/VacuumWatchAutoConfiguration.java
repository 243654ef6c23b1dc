package io.dbqueue.spring;

import io.dbqueue.queue.QueueTable;
import io.dbqueue.serverwatch.VacuumListener;
import io.dbqueue.serverwatch.VacuumThresholds;
import io.dbqueue.serverwatch.VacuumWatch;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import java.util.List;

import static io.dbqueue.spring.InvalidQueuePropertyException.check;

/**
 * Watches the configured queue tables for vacuum blocked by an old xmin horizon ({@link VacuumWatch}):
 * logs a WARN naming the table and the holder, and tells the application's {@link VacuumListener}
 * beans; the starter's metrics read its latest report.
 */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnBean({QueueDataSource.class, DbQueues.class})
@ConditionalOnBooleanProperty(name = "dbq.vacuum-watch.enabled", matchIfMissing = true)
@EnableConfigurationProperties(VacuumWatchProperties.class)
public class VacuumWatchAutoConfiguration {

    /** Checks every {@code dbq.vacuum-watch.interval} on a daemon thread, from start-up on. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public VacuumWatch dbQueueVacuumWatch(QueueDataSource queues, DbQueueProperties queueProperties,
                                          VacuumWatchProperties properties, ObjectProvider<VacuumListener> listeners) {
        String prefix = "dbq.vacuum-watch";
        VacuumThresholds thresholds = check(prefix, () -> new VacuumThresholds(properties.horizonAge(),
                properties.horizonTransactions(), properties.deadTuples()));
        List<QueueTable> tables = queueProperties.configs().values().stream().map(c -> c.location().table()).toList();
        VacuumWatch watch = new VacuumWatch(queues.dataSource(), tables, thresholds, listeners.orderedStream().toList());
        if (!tables.isEmpty()) {
            check(prefix, () -> watch.start(properties.interval()));
        }
        return watch;
    }
}
