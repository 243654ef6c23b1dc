package io.dbqueue;

/**
 * One shard's health as {@link ShardedDbQueue#health} saw it.
 *
 * @param shard     the shard's name
 * @param up        whether a connection to it answered
 * @param listening whether its LISTEN connection (waking this door's consumers there) is up; false
 *                  also before any consumer there needs one
 * @param problem   why it is not up, or null
 */
public record ShardHealth(String shard, boolean up, boolean listening, String problem) {
}
