package io.dbqueue.stack.fault;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * The messages of one run that consumers reported processed, as test-app stored them in the
 * results database: each once ({@code test_stat}), with how often it was reported.
 *
 * @param ids        the processed messages' task ids
 * @param duplicates reports beyond the first of each message
 */
record ProcessedMessages(Set<Long> ids, long duplicates) {

    static ProcessedMessages read(Connection results, long runId) throws SQLException {
        Set<Long> ids = new HashSet<>();
        long duplicates = 0;
        try (PreparedStatement ps = results.prepareStatement("SELECT task_id, reports FROM test_stat WHERE run_id = ?")) {
            ps.setLong(1, runId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                    duplicates += rs.getInt(2) - 1;
                }
            }
        }
        return new ProcessedMessages(ids, duplicates);
    }

    /** How many messages of the run were processed so far. */
    static long count(Connection results, long runId) throws SQLException {
        try (PreparedStatement ps = results.prepareStatement("SELECT count(*) FROM test_stat WHERE run_id = ?")) {
            ps.setLong(1, runId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Acknowledged messages that were never processed. */
    long lostOf(Set<Long> acknowledged) {
        return acknowledged.stream().filter(id -> !ids.contains(id)).count();
    }
}
