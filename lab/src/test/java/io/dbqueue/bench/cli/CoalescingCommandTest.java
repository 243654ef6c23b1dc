package io.dbqueue.bench.cli;

import io.dbqueue.bench.report.ReportWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoalescingCommandTest {

    @Test
    void measuresBothWaysAndWritesTheReport(@TempDir Path dir) throws Exception {
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"coalescing", "--threads", "8", "--pool", "4", "--phase-seconds", "1",
                "--repeat", "1", "--out", dir.toString()}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        JsonNode json = ReportWriter.JSON.readTree(dir.resolve("coalescing.json").toFile());
        assertTrue(json.at("/environment/postgres/settings/fsync").isString(), "environment recorded");
        List<String> ways = new ArrayList<>();
        for (JsonNode sample : json.get("samples")) {
            assertTrue(sample.at("/messages_per_second/median").asDouble() > 0, sample.toString());
            assertTrue(sample.at("/p99_ms/median").asDouble() > 0, sample.toString());
            ways.add(sample.get("way").asString());
        }
        assertEquals(List.of("single enqueue", "coalescing producer (linger 0 ms, max batch 100)"), ways);
        assertTrue(Files.readString(dir.resolve("coalescing.md")).contains("| single enqueue |"));
    }
}
