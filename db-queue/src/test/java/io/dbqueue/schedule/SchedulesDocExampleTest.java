package io.dbqueue.schedule;

import io.dbqueue.Await;
import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.queue.Layout;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/schedules.md's Java example is {@link SchedulesDocExample}'s region, which compiles and runs. */
class SchedulesDocExampleTest {

    private static final Pattern REGION = Pattern.compile("\\n( *)// DOCS: example\\n(.*?)\\n\\1// DOCS: end\\n",
            Pattern.DOTALL);

    @Test
    void thePagesJavaBlockIsTheExamplesRegion() throws Exception {
        Matcher region = REGION.matcher(Files.readString(
                Path.of("src/test/java/io/dbqueue/schedule/SchedulesDocExample.java")));
        assertTrue(region.find(), "the example has a region");
        String indent = region.group(1);
        String block = region.group(2).lines().map(line -> line.startsWith(indent) ? line.substring(indent.length())
                : line).collect(Collectors.joining("\n"));
        String page = Files.readString(Path.of("..", "docs", "schedules.md"));
        assertTrue(page.contains("```java\n" + block + "\n```\n"), "docs/schedules.md has no java block equal to:\n"
                + block);
    }

    @Test
    void theExampleRuns() throws Exception {
        TestDatabase.freshTable(Layout.DBQ_SEQ);
        ScheduleSchema.createIfMissing(TestDatabase.dataSource());
        TestDatabase.execute("DELETE FROM dbq_schedules WHERE name IN ('nightly-report', 'heartbeat')");
        SchedulesDocExample example = new SchedulesDocExample();
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).build()) {
            example.run(dbq);
            Await.until(Duration.ofSeconds(30), "the triggered report and a heartbeat handled",
                    () -> example.handled.contains("{\"report\":\"daily\"}")
                            && example.handled.contains("{\"ping\":true}"));
        }
    }
}
