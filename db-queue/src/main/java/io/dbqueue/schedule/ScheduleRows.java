package io.dbqueue.schedule;

import io.dbqueue.internal.Jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/** The statements on {@code dbq_schedules}, each on a connection the caller holds. */
final class ScheduleRows {

    private static final String COLUMNS = "name, queue_table, queue_name, payload, cron, zone, interval_ms, missed,"
            + " next_due, paused";

    /** A new schedule, or a new definition of one: its next tick moves only when its trigger changed. */
    private static final String UPSERT = "INSERT INTO " + ScheduleSchema.TABLE + " AS s (name, queue_table,"
            + " queue_name, payload, cron, zone, interval_ms, missed, next_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (name) DO UPDATE SET queue_table = EXCLUDED.queue_table,"
            + " queue_name = EXCLUDED.queue_name, payload = EXCLUDED.payload, cron = EXCLUDED.cron,"
            + " zone = EXCLUDED.zone, interval_ms = EXCLUDED.interval_ms, missed = EXCLUDED.missed,"
            + " next_due = CASE WHEN (s.cron, s.zone, s.interval_ms)"
            + " IS NOT DISTINCT FROM (EXCLUDED.cron, EXCLUDED.zone, EXCLUDED.interval_ms)"
            + " THEN s.next_due ELSE EXCLUDED.next_due END, updated_at = now()";
    /** The most overdue of the named schedules that is due and that no other process is taking, locked. */
    private static final String CLAIM = "SELECT " + COLUMNS + " FROM " + ScheduleSchema.TABLE
            + " WHERE name = ANY(?) AND name <> ALL(?) AND NOT paused AND next_due <= ?"
            + " ORDER BY next_due LIMIT 1 FOR UPDATE SKIP LOCKED";
    private static final String ADVANCE = "UPDATE " + ScheduleSchema.TABLE + " SET next_due = ? WHERE name = ?";
    private static final String EARLIEST = "SELECT min(next_due) FROM " + ScheduleSchema.TABLE
            + " WHERE name = ANY(?) AND NOT paused AND next_due > ?";
    private static final String LIST = "SELECT " + COLUMNS + " FROM " + ScheduleSchema.TABLE + " ORDER BY name";
    private static final String LOCK_ONE = "SELECT " + COLUMNS + " FROM " + ScheduleSchema.TABLE
            + " WHERE name = ? FOR SHARE";
    private static final String LOCK_FOR_UPDATE = "SELECT 1 FROM " + ScheduleSchema.TABLE + " WHERE name = ? FOR UPDATE";
    private static final String PAUSE = "UPDATE " + ScheduleSchema.TABLE + " SET paused = ?, updated_at = now()"
            + " WHERE name = ?";
    private static final String DELETE = "DELETE FROM " + ScheduleSchema.TABLE + " WHERE name = ?";

    private ScheduleRows() {
    }

    static void upsert(Connection c, Schedule schedule, Instant firstDue) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
            ps.setString(1, schedule.name());
            ps.setString(2, schedule.queue().table().name());
            ps.setString(3, schedule.queue().queueName());
            ps.setString(4, schedule.payload());
            if (schedule.trigger() instanceof Trigger.Cron cron) {
                ps.setString(5, cron.expression().toString());
                ps.setString(6, cron.zone().getId());
                ps.setNull(7, Types.BIGINT);
            } else {
                ps.setNull(5, Types.VARCHAR);
                ps.setNull(6, Types.VARCHAR);
                ps.setLong(7, ((Trigger.Interval) schedule.trigger()).interval().toMillis());
            }
            ps.setString(8, schedule.missed().name());
            ps.setObject(9, timestamp(firstDue));
            ps.executeUpdate();
        }
    }

    /** Locks and returns the most overdue due schedule among {@code names} but {@code skipped}, or null. */
    static ScheduleState claimDue(Connection c, Set<String> names, Set<String> skipped, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
            ps.setArray(1, Jdbc.texts(c, names.toArray(String[]::new)));
            ps.setArray(2, Jdbc.texts(c, skipped.toArray(String[]::new)));
            ps.setObject(3, timestamp(now));
            return one(ps);
        }
    }

    static void advance(Connection c, String name, Instant nextDue) throws SQLException {
        Jdbc.update(c, ADVANCE, timestamp(nextDue), name);
    }

    /** The earliest next tick after {@code after} of the unpaused schedules among {@code names}, or null. */
    static Instant earliestDueAfter(Connection c, Set<String> names, Instant after) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EARLIEST)) {
            ps.setArray(1, Jdbc.texts(c, names.toArray(String[]::new)));
            ps.setObject(2, timestamp(after));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                OffsetDateTime earliest = rs.getObject(1, OffsetDateTime.class);
                return earliest == null ? null : earliest.toInstant();
            }
        }
    }

    /** Every row that this process can read; each it cannot goes to {@code unreadable}. */
    static List<ScheduleState> list(Connection c, Consumer<UnreadableScheduleException> unreadable)
            throws SQLException {
        List<ScheduleState> states = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(LIST); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                try {
                    states.add(state(rs));
                } catch (UnreadableScheduleException e) {
                    unreadable.accept(e);
                }
            }
        }
        return states;
    }

    /** The schedule's row, locked against changes until the transaction ends; null if there is none. */
    static ScheduleState lock(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOCK_ONE)) {
            ps.setString(1, name);
            return one(ps);
        }
    }

    /** Locks schedule {@code name}'s row, if there is one, for a new definition of it. */
    static void lockForUpdate(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOCK_FOR_UPDATE)) {
            ps.setString(1, name);
            ps.executeQuery().close();
        }
    }

    static boolean setPaused(Connection c, String name, boolean paused) throws SQLException {
        return Jdbc.update(c, PAUSE, paused, name) > 0;
    }

    static boolean delete(Connection c, String name) throws SQLException {
        return Jdbc.update(c, DELETE, name) > 0;
    }

    private static ScheduleState one(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? state(rs) : null;
        }
    }

    /**
     * The row as a schedule. A row another process wrote that this one cannot read (a time zone this JVM does not
     * know, a trigger or policy of a newer version) is an {@link UnreadableScheduleException} naming it.
     */
    private static ScheduleState state(ResultSet rs) throws SQLException {
        String name = rs.getString("name");
        String cron = rs.getString("cron");
        Trigger trigger;
        MissedTicks missed;
        try {
            trigger = cron != null ? Trigger.cron(cron, ZoneId.of(rs.getString("zone")))
                    : Trigger.every(Duration.ofMillis(rs.getLong("interval_ms")));
            missed = MissedTicks.valueOf(rs.getString("missed"));
        } catch (RuntimeException e) {
            throw new UnreadableScheduleException(name, e);
        }
        return new ScheduleState(name, rs.getString("queue_table"), rs.getString("queue_name"),
                rs.getString("payload"), trigger, missed, rs.getObject("next_due", OffsetDateTime.class).toInstant(),
                rs.getBoolean("paused"));
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
