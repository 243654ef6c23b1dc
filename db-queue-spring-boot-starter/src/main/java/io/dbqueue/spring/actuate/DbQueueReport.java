package io.dbqueue.spring.actuate;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the endpoint {@code dbqueue} reads, as JSON. Counts of tasks come from the database and so cover every
 * instance; {@code workers} and {@code recent} are this instance's ({@code instance}). A field that could not be
 * read is null, and {@code error} says why.
 *
 * @param instance     this process, as {@code pid@host}
 * @param writeEnabled whether the write operations run ({@code dbq.endpoint.write-enabled})
 * @param queues       the configured queues by id ({@code dbq.queues.<id>})
 * @param topics       the configured topics by name ({@code dbq.log.topics.<name>})
 */
public record DbQueueReport(String instance, boolean writeEnabled, Map<String, Queue> queues,
                            Map<String, Topic> topics) {

    /**
     * One queue.
     *
     * @param location                 table/queue name
     * @param waiting                  tasks due and unclaimed
     * @param oldestWaitingAgeSeconds  age of the oldest waiting task since its enqueue; 0 when none waits
     * @param leased                   tasks claimed under a lease, or waiting out a retry's backoff
     * @param scheduled                tasks due later, never claimed (delayed, rescheduled, re-enqueued)
     * @param deadLetters              tasks that ran out of attempts
     * @param paused                   whether an operator paused the queue (all instances stop claiming)
     * @param workers                  this instance's workers on the queue; null when none consume it here
     * @param recent                   what this instance's workers did with the queue over the last minutes
     * @param error                    why the counts could not be read; null when they were
     */
    public record Queue(String location, Long waiting, Double oldestWaitingAgeSeconds, Long leased, Long scheduled,
                        Long deadLetters, Boolean paused, Workers workers, Recent recent, String error) {
    }

    /**
     * @param state   running, paused (paused here through QueueWorkers#pause), held (the queue is paused for all
     *                instances and these workers have seen it) or stopped
     * @param threads worker threads
     * @param busy    workers claiming, handling or acknowledging a batch now
     * @param wakeup  poll, notify or adaptive
     * @param queues  the queues these workers take in turn: this one, or those of its group
     */
    public record Workers(String state, int threads, int busy, String wakeup, List<String> queues) {
    }

    public record Recent(int minutes, long finished, long failed, long deadLettered) {
    }

    /**
     * One topic.
     *
     * @param partitions the topic's partitions
     * @param groups     each consumer group's lag by group name
     * @param error      why the topic could not be read; null when it was
     */
    public record Topic(Integer partitions, Map<String, Group> groups, String error) {
    }

    /** @param lag records appended and not yet committed by the group, over all partitions */
    public record Group(long lag, List<PartitionLag> partitions) {
    }

    /** @param owner the member holding the partition; null when none does */
    public record PartitionLag(int partition, long lag, long committedOffset, long nextOffset, String owner) {
    }

    /**
     * A page of a queue's dead letters, oldest first ({@code GET /actuator/dbqueue/{queue}/dead-letters}).
     *
     * @param next the {@code after} of the next page; null on the last page
     */
    public record DeadLetterPage(List<DeadLetter> deadLetters, Long next) {
    }

    /**
     * @param payload     the payload's first {@value DbQueueEndpoint#PREVIEW} characters
     * @param payloadSize the payload's length in characters
     */
    public record DeadLetter(long id, String payload, int payloadSize, Instant createdAt, Instant failedAt,
                             int attempt, int totalAttempt, String lastError) {
    }

    /**
     * A task looked up by id or idempotency key ({@code GET /actuator/dbqueue/{queue}/task?id=} or {@code ?key=}).
     *
     * @param state     WAITING, SCHEDULED, LEASED, DEAD, DONE: finished and kept in the queue's history
     *                  (dbq.queues.ID.history), or GONE: no longer in the queue (finished or cancelled)
     * @param since     when it becomes due, its lease or backoff ends, it was dead-lettered or it finished; null when
     *                  GONE
     * @param payload   the payload's first {@value DbQueueEndpoint#PREVIEW} characters; null when GONE
     * @param lastError its error when DEAD
     */
    public record TaskLookup(long id, String state, String payload, Instant createdAt, Instant since,
                             Integer attempt, String lastError) {
    }

    /**
     * The answer of a write operation.
     *
     * @param queue    the queue's id
     * @param action   what was done
     * @param affected how many tasks (or, for pause and resume, queues) it changed: 0 when there was nothing to do
     */
    public record WriteResult(String queue, String action, long affected) {
    }
}
