package io.dbqueue;

import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import io.dbqueue.schedule.ScheduleSchema;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code sql/} holds the DDL of every queue layout preset as {@link Schema} renders it, and of an
 * example log topic as {@link LogSchema} does, and of the schedules table, and the distribution of dbq_seq_pk on Citus, for people who read or apply it by hand. This test keeps the two the same: run with {@code -Ddbq.writeSql=true} to rewrite the files.
 */
class SqlFilesTest {

    private static final Path SQL_DIR = Path.of("..", "sql");

    @Test
    void sqlFolderMatchesTheRenderedLayouts() throws IOException {
        boolean write = Boolean.getBoolean("dbq.writeSql");
        Map<String, String> files = new LinkedHashMap<>();
        for (Layout layout : Layout.presets()) {
            files.put(layout.name() + ".sql", Schema.ddl(QueueTable.of(layout)));
        }
        files.put("citus_dbq_seq_pk.sql", Schema.citusDistribution(QueueTable.of(Layout.DBQ_SEQ_PK)));
        files.put("log_topic_events.sql", LogSchema.ddl(Topic.of("events", 4)));
        files.put("dbq_schedules.sql", ScheduleSchema.ddl());
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path file = SQL_DIR.resolve(e.getKey());
            String expected = e.getValue();
            if (write) {
                Files.writeString(file, expected);
            } else if (!Files.exists(file) || !Files.readString(file).equals(expected)) {
                stale.add(file.toString());
            }
        }
        assertEquals(List.of(), stale, "sql/ is out of date; regenerate with ./mvnw -pl db-queue test "
                + "-Dtest=SqlFilesTest -Ddbq.writeSql=true");
    }
}
