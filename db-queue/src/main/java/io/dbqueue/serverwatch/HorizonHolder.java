package io.dbqueue.serverwatch;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What holds the database's xmin horizon back: the oldest transaction whose view of the data VACUUM
 * must preserve, so that rows deleted after it began cannot be removed from any table in the
 * database. A queue deletes every row it finishes, so a held horizon makes its tables and indexes
 * fill with dead rows that each claim has to step over.
 *
 * @param kind            a session, a replication slot or a prepared transaction
 * @param name            the session's pid, the slot's name or the prepared transaction's gid
 * @param pid             the session's pid; 0 for slots and prepared transactions
 * @param user            the session's or the prepared transaction's role; null for slots
 * @param state           the session's state (e.g. {@code idle in transaction}), {@code active} or
 *                        {@code inactive} for a slot, {@code prepared}; null when the checking role may
 *                        not see another role's session (grant it {@code pg_read_all_stats} or
 *                        {@code pg_monitor})
 * @param applicationName the session's {@code application_name}; null when unknown
 * @param since           when the session's transaction began, or the transaction was prepared;
 *                        null for slots and for sessions the checking role may not see
 * @param queryStart      when the session's latest statement began; null when unknown
 * @param ageTransactions how many transactions ago the horizon was: {@code age(xid)}
 * @param age             how long ago, when known: since {@code since}. Slots record no time. For a
 *                        READ COMMITTED session that has not written, each statement takes a newer
 *                        snapshot, so this is an upper bound; {@code ageTransactions} is exact.
 */
public record HorizonHolder(Kind kind, String name, int pid, String user, String state, String applicationName,
                            Instant since, Instant queryStart, long ageTransactions, Optional<Duration> age) {

    /** The three things that can hold the horizon of a database's tables. */
    public enum Kind {
        /** A backend with an open snapshot or transaction ({@code pg_stat_activity}), a standby's feedback included. */
        SESSION,
        /** A replication slot's {@code xmin} ({@code pg_replication_slots}), e.g. an abandoned standby's. */
        REPLICATION_SLOT,
        /** A transaction prepared for two-phase commit and neither committed nor rolled back ({@code pg_prepared_xacts}). */
        PREPARED_TRANSACTION
    }

    public HorizonHolder {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(age, "age");
    }

    /** Tells one holding apart from another: a new transaction of the same session is another holding. */
    String identity() {
        return kind + ":" + name + ":" + since;
    }

    /**
     * Who holds the horizon, for a log line: {@code session pid 4711 (user app, application 'psql',
     * idle in transaction, transaction since 2024-05-01T10:00:00Z, last query since ...)}.
     */
    public String describe() {
        StringBuilder text = new StringBuilder(switch (kind) {
            case SESSION -> "session pid " + name;
            case REPLICATION_SLOT -> "replication slot '" + name + "'";
            case PREPARED_TRANSACTION -> "prepared transaction '" + name + "'";
        });
        StringBuilder details = new StringBuilder();
        append(details, "user ", user);
        append(details, "application '", applicationName == null || applicationName.isEmpty() ? null
                : applicationName + "'");
        append(details, "", state);
        append(details, kind == Kind.PREPARED_TRANSACTION ? "prepared at " : "transaction since ", since);
        append(details, "last query since ", queryStart);
        if (!details.isEmpty()) {
            text.append(" (").append(details).append(')');
        }
        return text.toString();
    }

    private static void append(StringBuilder details, String label, Object value) {
        if (value != null) {
            if (!details.isEmpty()) {
                details.append(", ");
            }
            details.append(label).append(value);
        }
    }
}
