package io.dbqueue.bench.cli;

import io.dbqueue.bench.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --shards 2}: two embedded servers, the direct driver and sharded-1, sharded-2 through ShardedDbQueue. */
class ShardsEndToEndTest {

    @Test
    void twoShardsRunTheQueuesOnBothServersAndReportEachShard(@TempDir Path out) throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"run", "--workload", workload.toString(), "--out", out.toString(),
                        "--drivers", "direct", "--layouts", "dbq_seq", "--repeat", "1", "--producers", "2",
                        "--consumers", "2", "--shards", "2"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        var errors = ResultsSchema.errors(out.resolve("results.json"));
        assertTrue(errors.isEmpty(), errors::toString);
        List<String> drivers = new ArrayList<>();
        results.get("runs").forEach(run -> drivers.add(run.get("driver").asString()));
        assertEquals(List.of("direct", "sharded-1", "sharded-2"), drivers, "--shards 2 adds sharded-1 and sharded-2");
        JsonNode sharded = results.get("runs").get(2).at("/samples/0");
        assertEquals(2, sharded.get("shards").size());
        for (JsonNode shard : sharded.get("shards")) {
            assertTrue(shard.get("processed").asLong() > 0, "each shard's queue was consumed: " + shard);
            assertTrue(shard.at("/server/wal_bytes").asLong() > 0, "each shard's server wrote WAL: " + shard);
        }
        assertEquals(results.at("/runs/0/samples/0/shards").size(), 0, "the direct driver has no shards");
        assertEquals("on", results.at("/environment/shards/s2/settings/fsync").asString());
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## Shards") && report.contains("| dbq_seq | 10 | sharded-2 |"), report);
    }
}
