package io.dbqueue;

import io.dbqueue.log.LogSchema;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** README.md's Java example is {@link ReadmeExample}, which compiles and runs. */
class ReadmeExampleTest {

    private static final Pattern REGION = Pattern.compile(
            "\\n( *)// README: (\\w+)\\n(.*?)\\n\\1// README: end\\n", Pattern.DOTALL);

    private final DataSource dataSource = TestDatabase.dataSource();

    @Test
    void theReadmesJavaBlocksAreTheExamplesRegions() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        Map<String, String> regions = regions(Files.readString(Path.of("src/test/java/io/dbqueue/ReadmeExample.java")));
        assertEquals(2, regions.size(), "the example's regions: " + regions.keySet());
        regions.forEach((name, block) -> assertTrue(readme.contains("```java\n" + block + "\n```\n"),
                "README.md has no java block equal to ReadmeExample's region '" + name + "':\n" + block));
    }

    @Test
    void theExampleRuns() throws Exception {
        Schema.drop(dataSource, QueueTable.of(Layout.DBQ_SEQ)); // its delayed task from an earlier run
        LogSchema.drop(dataSource, "events");
        ReadmeExample example = new ReadmeExample(dataSource);
        example.queue();
        assertEquals(ReadmeExample.DUE_TASKS, example.processed.size());
        try (DbQueue dbq = DbQueue.builder(dataSource).build()) {
            example.log(dbq);
        }
        assertEquals(1, example.billed.size());
    }

    /** Each region by name, its lines without the region's indent. */
    private static Map<String, String> regions(String source) {
        Map<String, String> regions = new LinkedHashMap<>();
        Matcher m = REGION.matcher(source);
        while (m.find()) {
            String indent = m.group(1);
            regions.put(m.group(2), m.group(3).lines()
                    .map(line -> line.startsWith(indent) ? line.substring(indent.length()) : line)
                    .reduce((a, b) -> a + "\n" + b).orElse(""));
        }
        return regions;
    }
}
