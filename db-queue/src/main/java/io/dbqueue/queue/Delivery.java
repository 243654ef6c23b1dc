package io.dbqueue.queue;

import io.dbqueue.common.DeliveryMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Where the delivery modes part ways in a queue's claim-handle-acknowledge cycle: the claim
 * statement and its parameters ({@link QueueSql}, {@link TaskStore}), and how a claimed batch is
 * handled and acknowledged ({@link BatchProcessor}). One implementation per {@link DeliveryMode},
 * chosen once by {@link #of} where a queue's workers or claim statement are built.
 */
interface Delivery {

    static Delivery of(DeliveryMode mode) {
        return switch (mode) {
            case AT_LEAST_ONCE -> AtLeastOnce.INSTANCE;
            case AT_MOST_ONCE -> AtMostOnce.INSTANCE;
            case EXACTLY_ONCE -> ExactlyOnce.INSTANCE;
        };
    }

    /** The claim of up to {@code limit} due tasks of {@code sql}'s table, as {@link QueueSql#claim} describes. */
    String claim(QueueSql sql, int limit);

    /** The settings that run before the claim in its transaction ({@link QueueSql#claimSettings}); null: none. */
    String claimSettings(QueueSql sql);

    /** What runs after the claim in its statement ({@link QueueSql#claimComposite}); null: nothing. */
    default String afterClaim(QueueSql sql) {
        return null;
    }

    /**
     * Binds the claim's parameters that precede the queue name (at least once, the lease in
     * microseconds) and returns the index of the next parameter.
     */
    default int bindLease(PreparedStatement claim, long leaseMicros) throws SQLException {
        return 1;
    }

    /** Whether the claim takes the queue name again after the floor: its update or delete of the picked rows does. */
    default boolean claimNamesQueueAgain(QueueSql sql) {
        return sql.byIdNamesQueue;
    }

    /**
     * One claim-handle-acknowledge cycle of {@code processor}; returns the number of tasks claimed.
     * By default the claim commits on its own, and the batch is then {@link #process processed}.
     */
    default int runOnce(BatchProcessor processor) throws SQLException, InterruptedException {
        return processor.claimAndProcess();
    }

    /**
     * The claimed tasks to hand to the handler: where a claim counts attempts, a task claimed more
     * often than the retry policy allows is dead-lettered on {@code c} instead.
     */
    List<Task> toHandle(BatchProcessor processor, Connection c, List<Task> claimed) throws SQLException;

    /** The retry of failed tasks ({@link QueueSql#retry}): it writes the counters each task was claimed with. */
    default String retry(QueueSql sql) {
        return sql.retry;
    }

    /** Handles and acknowledges a batch that was claimed in a transaction of its own. */
    void process(BatchProcessor processor, BatchProcessor.Claim claim) throws SQLException, InterruptedException;

    /**
     * The claim leases the tasks and counts the attempt, committing without waiting for a WAL flush;
     * the handler runs outside any transaction of ours, and its answers are written afterwards.
     */
    final class AtLeastOnce implements Delivery {

        static final AtLeastOnce INSTANCE = new AtLeastOnce();

        private AtLeastOnce() {
        }

        @Override
        public String claim(QueueSql sql, int limit) {
            return sql.leasingClaim(limit);
        }

        @Override
        public String claimSettings(QueueSql sql) {
            return sql.plannerSettings(false, QueueSql.NO_FLUSH);
        }

        @Override
        public int bindLease(PreparedStatement claim, long leaseMicros) throws SQLException {
            claim.setLong(1, leaseMicros);
            return 2;
        }

        @Override
        public List<Task> toHandle(BatchProcessor processor, Connection c, List<Task> claimed) throws SQLException {
            return processor.deadLetterExpired(c, claimed);
        }

        @Override
        public void process(BatchProcessor processor, BatchProcessor.Claim claim)
                throws SQLException, InterruptedException {
            processor.handleLeasedAndAcknowledge(claim);
        }
    }

    /** The claim deletes the tasks, durably, before the handler has them: nothing is retried or dead-lettered. */
    final class AtMostOnce implements Delivery {

        static final AtMostOnce INSTANCE = new AtMostOnce();

        private AtMostOnce() {
        }

        @Override
        public String claim(QueueSql sql, int limit) {
            return sql.deletingClaim(limit);
        }

        @Override
        public String claimSettings(QueueSql sql) {
            return sql.plannerSettings(false);
        }

        @Override
        public List<Task> toHandle(BatchProcessor processor, Connection c, List<Task> claimed) {
            return claimed;
        }

        @Override
        public void process(BatchProcessor processor, BatchProcessor.Claim claim) throws InterruptedException {
            processor.handleDeleted(claim);
        }
    }

    /**
     * The claim locks the tasks for the transaction that also runs the handler's SQL and writes the
     * answers; the caller's planner settings are saved before the claim and put back after it.
     */
    final class ExactlyOnce implements Delivery {

        static final ExactlyOnce INSTANCE = new ExactlyOnce();

        private ExactlyOnce() {
        }

        /**
         * Counts on the row ({@link QueueSql#retryCounting}): the claim wrote nothing, and a failed batch's rollback
         * lets another worker claim its tasks, with the same attempt, before the failure is recorded in a transaction
         * of its own. Written as claimed, two failures of one attempt counted once.
         */
        @Override
        public String retry(QueueSql sql) {
            return sql.retryCounting;
        }

        @Override
        public String claim(QueueSql sql, int limit) {
            return sql.lockingClaim(limit);
        }

        @Override
        public String claimSettings(QueueSql sql) {
            return sql.plannerSettings(true);
        }

        @Override
        public String afterClaim(QueueSql sql) {
            return sql.restoreSettings();
        }

        @Override
        public boolean claimNamesQueueAgain(QueueSql sql) {
            return false;
        }

        @Override
        public int runOnce(BatchProcessor processor) throws SQLException, InterruptedException {
            return processor.exactlyOnce();
        }

        @Override
        public List<Task> toHandle(BatchProcessor processor, Connection c, List<Task> claimed) throws SQLException {
            return processor.deadLetterExpired(c, claimed);
        }

        /** Never called: an exactly-once batch is claimed, handled and acknowledged in one transaction. */
        @Override
        public void process(BatchProcessor processor, BatchProcessor.Claim claim) {
            throw new UnsupportedOperationException("an exactly-once batch is handled in its claim's transaction");
        }
    }
}
