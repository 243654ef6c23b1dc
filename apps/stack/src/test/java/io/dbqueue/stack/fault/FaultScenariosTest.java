package io.dbqueue.stack.fault;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shortened fault scenarios, as processes on an embedded PostgreSQL (or DBQ_JDBC_URL's): nothing
 * acknowledged is lost, and each fault was really injected and recovered from. Needs the services'
 * jars, as {@link io.dbqueue.stack.StackEndToEndTest} does.
 */
class FaultScenariosTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"crash_consumer, at-least-once", "crash_consumer, exactly-once", "crash_producer, at-least-once",
            "connection_kill, at-least-once", "crash_database, at-least-once", "lock_wait, at-least-once"})
    void shortenedScenarioLosesNothingAcknowledged(String name, String mode) throws Exception {
        FaultScenario scenario = FaultScenario.named(name).get(0);
        Assumptions.assumeFalse(scenario.needsOwnServer() && System.getenv("DBQ_JDBC_URL") != null,
                name + " stops the database: it runs on the embedded PostgreSQL only, not on DBQ_JDBC_URL's");
        FaultSettings settings = settings(mode);
        Map<String, Object> environment = new LinkedHashMap<>();

        FaultResult result = FaultRun.run(scenario, settings, environment);

        assertTrue(result.passed(), result::line);
        assertEquals(0, result.lost(), result::line);
        assertEquals(result.sent(), result.acknowledged(), result::line);
        assertEquals(result.acknowledged(), result.processed(), result::line);
        assertEquals(scenario.faults(true), result.faults());
        assertTrue(result.sent() > 0 && result.recoverySeconds() > 0, result::line);
        if (mode.equals("exactly-once")) {
            assertEquals(0, result.duplicateEffects(), result::line);
        }
        assertTrue(environment.containsKey("server_version"), environment::toString);
    }

    @Test
    void badRequestsGetA4xxNamingTheProblemAndNothingOfThemIsStored() throws Exception {
        BadInputResult result = BadInputRun.run(settings("at-least-once"));

        assertTrue(result.passed(), result::line);
        assertEquals(0, result.serverErrors(), result::line);
        assertEquals(result.expected(), result.processed(), result::line);
        assertEquals(BadInputRun.FLOOD, result.flood().values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void aHeldHorizonIsWarnedAboutAndLosesNothing() throws Exception {
        HeldXminResult result = HeldXminRun.run(settings("at-least-once"), Duration.ofSeconds(12));

        assertTrue(result.passed(), result::line);
        assertTrue(result.warning().contains("vacuum blocked"), result::line);
        HeldXminResult.Phase held = result.phases().get(1);
        assertTrue(held.deadTuples() > result.phases().get(2).deadTuples(),
                () -> "dead tuples pile up while the horizon is held and go once it is not: " + result.line());
    }

    private static FaultSettings settings(String mode) {
        return new FaultSettings(mode, Duration.ofSeconds(10), 500, Duration.ofSeconds(5), true, "dbq_seq",
                System.getenv("DBQ_JDBC_URL"), envOr("DBQ_JDBC_USER", "postgres"), envOr("DBQ_JDBC_PASSWORD", ""),
                Path.of("target", "fault-logs", mode));
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
