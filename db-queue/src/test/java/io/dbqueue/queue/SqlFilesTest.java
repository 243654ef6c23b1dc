package io.dbqueue.queue;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code sql/} holds the DDL of every preset as {@link Schema} renders it, for people who read or
 * apply it by hand. This test keeps the two the same: run with {@code -Ddbq.writeSql=true} to rewrite the files.
 */
class SqlFilesTest {

    private static final Path SQL_DIR = Path.of("..", "sql");

    @Test
    void sqlFolderMatchesTheRenderedLayouts() throws IOException {
        boolean write = Boolean.getBoolean("dbq.writeSql");
        List<String> stale = new ArrayList<>();
        for (Layout layout : Layout.presets()) {
            Path file = SQL_DIR.resolve(layout.name() + ".sql");
            String expected = Schema.ddl(QueueTable.of(layout));
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
