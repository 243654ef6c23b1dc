package io.dbqueue.bench.enqueue;

import org.postgresql.PGConnection;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The three ways to write a batch of tasks in one round trip. The library uses {@link #UNNEST};
 * {@code bench enqueue-methods} measures the three side by side.
 */
public enum EnqueueMethod {

    /** One fixed statement for any batch size: the payloads travel as one text[] parameter. */
    UNNEST("unnest") {
        @Override
        void write(Connection c, String table, String queue, List<String> payloads) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (queue_name, payload)"
                    + " SELECT ?, p FROM unnest(?::text[]) AS p RETURNING id")) {
                ps.setString(1, queue);
                ps.setArray(2, c.createArrayOf("text", payloads.toArray()));
                drain(ps);
            }
        }
    },
    /** A statement per batch size, two parameters a row. */
    VALUES("multi-row VALUES") {
        @Override
        void write(Connection c, String table, String queue, List<String> payloads) throws SQLException {
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (queue_name, payload) VALUES ");
            for (int i = 0; i < payloads.size(); i++) {
                sql.append(i == 0 ? "(?, ?)" : ", (?, ?)");
            }
            try (PreparedStatement ps = c.prepareStatement(sql.append(" RETURNING id").toString())) {
                for (int i = 0; i < payloads.size(); i++) {
                    ps.setString(2 * i + 1, queue);
                    ps.setString(2 * i + 2, payloads.get(i));
                }
                drain(ps);
            }
        }
    },
    /** COPY FROM STDIN in text format; it cannot return the new ids. */
    COPY("COPY") {
        @Override
        void write(Connection c, String table, String queue, List<String> payloads) throws SQLException {
            StringBuilder rows = new StringBuilder();
            for (String payload : payloads) {
                rows.append(queue).append('\t').append(escapeCopyText(payload)).append('\n');
            }
            try {
                c.unwrap(PGConnection.class).getCopyAPI()
                        .copyIn("COPY " + table + " (queue_name, payload) FROM STDIN", new StringReader(rows.toString()));
            } catch (java.io.IOException e) {
                throw new SQLException("COPY failed: " + e.getMessage(), e);
            }
        }
    };

    private final String label;

    EnqueueMethod(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Writes {@code payloads} to {@code table} in one statement, committed by the connection's autocommit. */
    abstract void write(Connection c, String table, String queue, List<String> payloads) throws SQLException;

    private static void drain(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rs.getLong(1);
            }
        }
    }

    private static String escapeCopyText(String value) {
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }
}
