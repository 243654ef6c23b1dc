package io.dbqueue.common;

import java.util.regex.Pattern;

/**
 * Validates names before they reach SQL text. Table names are spliced into statements, so only
 * lower-case unquoted identifiers are accepted; queue names are always bound parameters but are
 * checked too, so that a typo fails at configuration time rather than as an empty queue.
 */
public final class Identifiers {

    /** Leaves room for the {@code _p<n>} partition and {@code _dead} suffixes within 63 bytes. */
    public static final int MAX_TABLE_NAME_LENGTH = 50;
    public static final int MAX_QUEUE_NAME_LENGTH = 128;
    /** Leaves room for the {@code _p<partition>_s<segment>} suffix of a log segment's table within 63 bytes. */
    public static final int MAX_TOPIC_NAME_LENGTH = 40;

    private static final Pattern TABLE = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9_.:-]+");

    private Identifiers() {
    }

    public static String tableName(String name) {
        return identifier("table name", name, MAX_TABLE_NAME_LENGTH);
    }

    /** A log topic's name, the prefix of its tables. */
    public static String topicName(String name) {
        return identifier("topic name", name, MAX_TOPIC_NAME_LENGTH);
    }

    public static String queueName(String name) {
        return label("queue name", name);
    }

    /** A log consumer group's name, or a group member's id; always a bound parameter. */
    public static String groupName(String name) {
        return label("group name", name);
    }

    private static String identifier(String what, String name, int maxLength) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        if (name.length() > maxLength || !TABLE.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " '" + name + "' is not a valid identifier: use 1 to "
                    + maxLength + " characters from a-z, 0-9 and _, not starting with a digit");
        }
        return name;
    }

    private static String label(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        if (name.length() > MAX_QUEUE_NAME_LENGTH || !QUEUE.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " '" + name + "' is not valid: use 1 to "
                    + MAX_QUEUE_NAME_LENGTH + " characters from A-Z, a-z, 0-9 and _ . : -");
        }
        return name;
    }
}
