package io.dbqueue.log;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A partition's lowest offset retention has kept and its next offset to append. */
record PartitionBounds(long low, long next) {

    static PartitionBounds read(Connection c, LogSql sql, int partition) throws SQLException {
        return read(c, sql.partitionBounds, partition);
    }

    /**
     * As {@link #read}, and keeps retention from raising the low offset until the caller's
     * transaction ends, so that a position set from these bounds is not dropped under it.
     */
    static PartitionBounds readLocked(Connection c, LogSql sql, int partition) throws SQLException {
        return read(c, sql.partitionBoundsLocked, partition);
    }

    private static PartitionBounds read(Connection c, String query, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(query)) {
            ps.setInt(1, partition);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new PartitionBounds(rs.getLong(1), rs.getLong(2));
            }
        }
    }
}
