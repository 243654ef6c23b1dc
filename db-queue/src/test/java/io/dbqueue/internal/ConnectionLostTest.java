package io.dbqueue.internal;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which failures say the session ended, so that a commit sent on it has an unknown outcome. */
class ConnectionLostTest {

    @Test
    void aConnectionFailureOrTheServerEndingTheSessionIsALostConnection() {
        assertTrue(Jdbc.connectionLost(new SQLException("I/O error", "08006")));
        assertTrue(Jdbc.connectionLost(new SQLException("terminating connection due to administrator command", "57P01")));
        assertTrue(Jdbc.connectionLost(new SQLException("crash shutdown", "57P02")));
    }

    /** HikariCP's timeout waiting for a server that drops packets carries no state until an attempt failed. */
    @Test
    void aConnectionExceptionWithoutAStateIsALostConnection() {
        assertTrue(Jdbc.connectionLost(new SQLTransientConnectionException("pool - Connection is not available")));
        assertTrue(Jdbc.connectionLost(new SQLNonTransientConnectionException("refused")));
    }

    @Test
    void aLostConnectionChainedBehindAnotherErrorCounts() {
        SQLException first = new SQLException("some error", "XX000");
        first.setNextException(new SQLException("I/O error", "08006"));
        assertTrue(Jdbc.connectionLost(first));
        assertTrue(Jdbc.connectionLost(new SQLException("wrapped", "XX000", new SQLException("gone", "08003"))));
    }

    @Test
    void anErrorOfTheStatementIsNot() {
        assertFalse(Jdbc.connectionLost(new SQLException("duplicate key", "23505")));
        assertFalse(Jdbc.connectionLost(new SQLException("canceled", "57014")));
        assertFalse(Jdbc.connectionLost(new SQLException("no state")));
    }
}
