package io.dbqueue.common;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates names before they reach SQL text. Table names are spliced into statements, so only
 * lower-case unquoted identifiers are accepted; queue names are always bound parameters but are
 * checked too, so that a typo fails at configuration time rather than as an empty queue.
 *
 * <p>A name that is part of a configuration is checked with its field's name and fails with an
 * {@link InvalidValueException}; a name given to an operation ({@link #tableName(String)},
 * {@link #topicName(String)}, {@link #groupName(String)}) fails with a plain
 * {@link IllegalArgumentException} that says what kind of name it is.
 */
public final class Identifiers {

    /** Leaves room for the longest suffix of a table's own tables and indexes, {@code _dead_queue_idx}, within 63 bytes. */
    public static final int MAX_TABLE_NAME_LENGTH = 48;
    public static final int MAX_QUEUE_NAME_LENGTH = 128;
    /** Leaves room for the {@code _p<partition>_s<segment>} suffix of a log segment's table within 63 bytes. */
    public static final int MAX_TOPIC_NAME_LENGTH = 40;

    /**
     * PostgreSQL's reserved key words, those that cannot name a table unquoted ("reserved" and "reserved (can be
     * function or type)" in the key words appendix of its manual).
     */
    private static final Set<String> RESERVED = Set.of("all", "analyse", "analyze", "and", "any", "array", "as", "asc",
            "asymmetric", "authorization", "binary", "both", "case", "cast", "check", "collate", "collation", "column",
            "concurrently", "constraint", "create", "cross", "current_catalog", "current_date", "current_role",
            "current_schema", "current_time", "current_timestamp", "current_user", "default", "deferrable", "desc",
            "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "freeze", "from", "full",
            "grant", "group", "having", "ilike", "in", "initially", "inner", "intersect", "into", "is", "isnull", "join",
            "lateral", "leading", "left", "like", "limit", "localtime", "localtimestamp", "natural", "not", "notnull",
            "null", "offset", "on", "only", "or", "order", "outer", "overlaps", "placing", "primary", "references",
            "returning", "right", "select", "session_user", "similar", "some", "symmetric", "system_user", "table",
            "tablesample", "then", "to", "trailing", "true", "union", "unique", "user", "using", "variadic", "verbose",
            "when", "where", "window", "with");

    private static final Kind TABLE = Kind.identifier("table name", MAX_TABLE_NAME_LENGTH);
    private static final Kind TOPIC = Kind.identifier("topic name", MAX_TOPIC_NAME_LENGTH);
    private static final Kind QUEUE = Kind.label("queue name");
    private static final Kind GROUP = Kind.label("group name");
    private static final Kind SCHEDULE = Kind.label("schedule name");

    private Identifiers() {
    }

    /** {@code name}, a table name given to an operation. */
    public static String tableName(String name) {
        return TABLE.argument(name);
    }

    /** {@code name}, the table name in configuration field {@code field}. */
    public static String tableName(String field, String name) {
        return TABLE.value(field, name);
    }

    /** {@code name}, a log topic's name (the prefix of its tables) given to an operation. */
    public static String topicName(String name) {
        return TOPIC.argument(name);
    }

    /** {@code name}, the log topic's name in configuration field {@code field}. */
    public static String topicName(String field, String name) {
        return TOPIC.value(field, name);
    }

    /** {@code name}, the queue name in configuration field {@code field}; always a bound parameter. */
    public static String queueName(String field, String name) {
        return QUEUE.value(field, name);
    }

    /** {@code name}, a log consumer group's name given to an operation; always a bound parameter. */
    public static String groupName(String name) {
        return GROUP.argument(name);
    }

    /** {@code name}, a log consumer group's name or a member's id in configuration field {@code field}. */
    public static String groupName(String field, String name) {
        return GROUP.value(field, name);
    }

    /** {@code name}, a schedule's name in configuration field {@code field}; always a bound parameter. */
    public static String scheduleName(String field, String name) {
        return SCHEDULE.value(field, name);
    }

    /** {@code name}, a schedule's name given to an operation; always a bound parameter. */
    public static String scheduleName(String name) {
        return SCHEDULE.argument(name);
    }

    /**
     * One kind of name: what it is called, the pattern and length it must fit, what to use instead,
     * and how a name that does not fit is described.
     */
    private record Kind(String what, Pattern pattern, int maxLength, String use, String invalid, boolean inSql) {

        /** A name spliced into SQL text, unquoted. */
        static Kind identifier(String what, int maxLength) {
            return new Kind(what, Pattern.compile("[a-z_][a-z0-9_]*"), maxLength, "1 to " + maxLength
                    + " characters from a-z, 0-9 and _, not starting with a digit", "is not a valid identifier", true);
        }

        /** A name that is only ever a bound value. */
        static Kind label(String what) {
            return new Kind(what, Pattern.compile("[A-Za-z0-9_.:-]+"), MAX_QUEUE_NAME_LENGTH, "1 to "
                    + MAX_QUEUE_NAME_LENGTH + " characters from A-Z, a-z, 0-9 and _ . : -", "is not valid", false);
        }

        boolean reserved(String name) {
            return inSql && RESERVED.contains(name);
        }

        boolean fits(String name) {
            return name != null && !name.isEmpty() && name.length() <= maxLength && pattern.matcher(name).matches();
        }

        String value(String field, String name) {
            if (!fits(name)) {
                throw new InvalidValueException(field, "must be a " + what + " of " + use, name);
            }
            if (reserved(name)) {
                throw new InvalidValueException(field, "must be a " + what + " other than a reserved SQL key word", name);
            }
            return name;
        }

        String argument(String name) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException(what + " must not be empty");
            }
            if (!fits(name)) {
                throw new IllegalArgumentException(what + " '" + name + "' " + invalid + ": use " + use);
            }
            if (reserved(name)) {
                throw new IllegalArgumentException(what + " '" + name + "' is a reserved SQL key word: use another");
            }
            return name;
        }
    }
}
