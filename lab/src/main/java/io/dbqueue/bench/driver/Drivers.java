package io.dbqueue.bench.driver;

import io.dbqueue.bench.driver.kafka.KafkaDriver;
import io.dbqueue.bench.driver.kafka.RelayDriver;
import io.dbqueue.bench.driver.nats.NatsDriver;
import io.dbqueue.bench.driver.pgbench.PgbenchDriver;
import io.dbqueue.bench.driver.postgres.DirectDriver;
import io.dbqueue.bench.driver.postgres.LogDriver;
import io.dbqueue.bench.driver.postgres.RawSqlDriver;
import io.dbqueue.bench.driver.postgres.ShardedDriver;
import io.dbqueue.bench.driver.postgres.StackDriver;
import io.dbqueue.bench.driver.rabbitmq.RabbitMqDriver;
import io.dbqueue.bench.workload.DriverName;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The drivers by name. */
public final class Drivers {

    private Drivers() {
    }

    public static Map<DriverName, Driver> all() {
        Map<DriverName, Driver> drivers = new EnumMap<>(DriverName.class);
        for (Driver driver : List.of(new DirectDriver(), DirectDriver.keepingHistory(), new RawSqlDriver(), PgbenchDriver.library(),
                PgbenchDriver.minimal(), PgbenchDriver.study(), new StackDriver(), RabbitMqDriver.classic(),
                RabbitMqDriver.quorum(), new NatsDriver(), new LogDriver(), KafkaDriver.osFlush(), KafkaDriver.fsync(),
                new RelayDriver())) {
            drivers.put(driver.name(), driver);
        }
        for (int shards = 1; shards <= DriverName.MAX_SHARDS; shards++) {
            drivers.put(DriverName.sharded(shards), new ShardedDriver(shards));
        }
        return drivers;
    }
}
