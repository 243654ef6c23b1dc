package io.dbqueue.bench.driver;

import io.dbqueue.bench.metrics.ClientProbe;
import io.dbqueue.bench.metrics.ServerProbe;
import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.QueueLocation;

import javax.sql.DataSource;
import java.util.List;

/**
 * Everything a driver needs for one repetition of a cell.
 *
 * @param workload the workload with this cell's producers and consumers ({@link Workload#forCell})
 * @param location the queue, in a table freshly created with the cell's layout; null for a broker's cell
 * @param admin    a small pool for the probes, apart from the load's connections
 * @param shards   the servers a sharded driver's cell spreads its queues over, each with the table freshly
 *                 created; empty for every other cell
 */
public record CellContext(Cell cell, Workload workload, QueueLocation location, PostgresServer server,
                          DataSource admin, ServerProbe serverProbe, ClientProbe clientProbe, StopSignal stop,
                          List<Shard> shards) {

    public CellContext(Cell cell, Workload workload, QueueLocation location, PostgresServer server,
                       DataSource admin, ServerProbe serverProbe, ClientProbe clientProbe, StopSignal stop) {
        this(cell, workload, location, server, admin, serverProbe, clientProbe, stop, List.of());
    }
}
