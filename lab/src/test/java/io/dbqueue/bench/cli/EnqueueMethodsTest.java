package io.dbqueue.bench.cli;

import io.dbqueue.bench.report.ReportWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnqueueMethodsTest {

    @Test
    void measuresEveryMethodAndWritesTheReport(@TempDir Path dir) throws Exception {
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"enqueue-methods", "--rows", "200", "--repeat", "1",
                "--batch-sizes", "10,100", "--out", dir.toString()}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        JsonNode json = ReportWriter.JSON.readTree(dir.resolve("enqueue-methods.json").toFile());
        assertTrue(json.at("/environment/postgres/settings/fsync").isString(), "environment recorded");
        Set<String> cells = new HashSet<>();
        for (JsonNode sample : json.get("samples")) {
            assertTrue(sample.at("/rows_per_second/median").asDouble() > 0, sample.toString());
            cells.add(sample.get("method").asString() + "/" + sample.get("batch_size").asInt());
        }
        assertEquals(Set.of("unnest/10", "multi-row VALUES/10", "COPY/10", "unnest/100", "multi-row VALUES/100",
                "COPY/100"), cells);
        assertTrue(Files.readString(dir.resolve("enqueue-methods.md")).contains("| unnest | 10 |"));
    }
}
