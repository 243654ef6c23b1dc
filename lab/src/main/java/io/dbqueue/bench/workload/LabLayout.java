package io.dbqueue.bench.workload;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;

/**
 * A layout as a workload names it: a preset, or a preset with the suffix {@value #NO_HEADERS}, whose table
 * (named so) is created without the {@code headers} column, as a table from before headers, so that one run
 * compares the column present but unused against it absent.
 */
public final class LabLayout {

    public static final String NO_HEADERS = "_no_headers";

    private LabLayout() {
    }

    /** The table of layout {@code name}; unknown names throw, naming the presets. */
    public static QueueTable table(String name) {
        if (name.endsWith(NO_HEADERS)) {
            return new QueueTable(name, Layout.named(name.substring(0, name.length() - NO_HEADERS.length())));
        }
        return QueueTable.of(Layout.named(name));
    }

    /** The DDL that creates {@code table}: its layout's, without the headers column for a {@value #NO_HEADERS} one. */
    public static String ddl(QueueTable table) {
        String ddl = Schema.ddl(table);
        if (!table.name().endsWith(NO_HEADERS)) {
            return ddl;
        }
        String without = ddl.replace("    headers           jsonb,\n", "")
                .replace(",\n    headers           jsonb\n)", "\n)") // the last column, where no primary key follows
                .replace("    last_error        text,\n    headers           jsonb\n", "    last_error        text\n");
        if (without.contains(" jsonb")) {
            throw new IllegalStateException("the headers column of " + table.name() + " could not be left out of: " + ddl);
        }
        return without;
    }
}
