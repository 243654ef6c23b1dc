package io.dbqueue.bench.scenario;

import io.dbqueue.queue.Wakeup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scenario files are validated like the workload files: every error names the file, the key and the rule. */
class ScenarioFileTest {

    @Test
    void everyShippedScenarioLoads() {
        for (String name : ScenarioFile.NAMES) {
            Scenario s = ScenarioFile.load(name);
            assertEquals(name, s.name());
            assertTrue(s.taskCount() > 0, name);
            assertTrue(s.modes().stream().anyMatch(m -> m.wakeup() == Wakeup.NOTIFY), name + " runs notify");
        }
        Scenario noisy = ScenarioFile.load("noisy_neighbor_saturated");
        assertEquals(List.of(Fairness.QUIET_ONLY, Fairness.OFF, Fairness.ON), noisy.fairness());
        assertEquals(6, noisy.fairnessCap());
        assertEquals(3, ScenarioFile.load("multi_process").processes());
        assertEquals(java.util.Optional.of(new Scenario.RateLimit(60, 10)),
                ScenarioFile.load("rate_limit_pressure").rateLimit());
    }

    @Test
    void aUsersFileTakesTheDefaultsForWhatItLeavesOut(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mine.yaml");
        Files.writeString(file, "name: mine\nrate: 5\nworkers: 2\nfairness: [on]\ntenants: 2\nmodes: [poll-250ms]\n"
                + "saturated: yes\n");
        Scenario s = ScenarioFile.load(file.toString());
        assertEquals(Duration.ofSeconds(12), s.duration());
        assertEquals(3, s.repeat());
        assertEquals(List.of(Fairness.ON), s.fairness(), "an unquoted on is YAML's true");
        assertEquals(Duration.ofMillis(250), s.modes().get(0).noTaskTimeout());
        assertTrue(s.saturated(), "an unquoted yes is YAML 1.1's true");
    }

    @Test
    void mistakesAreNamed(@TempDir Path dir) throws Exception {
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nspeed: 3\n", "unknown key 'speed'");
        assertError(dir, "name: x\nrate: 0\nworkers: 2\n", "'rate' must be between 0 and 100,000");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nmodes: [push]\n", "a mode must be poll-<interval>");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nmodes: [poll]\n", "a poll mode names its interval");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nprocesses: 3\n", "'processes' must be between 1 and 8");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\ntenants: 3\nfairness: [quiet-only]\n",
                "quiet-only only with a noisy_share");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nnoisy_share: 0.5\n", "needs 2 tenants or more");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nfailures: {share: 2, attempts: 3, backoff: 1s}\n",
                "failures: 'share' must be between 0 and 1");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nspike: {start: 1s, length: 1s, factor: 0}\n",
                "spike: 'factor' must be between 1 and 100");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nrate_limit: {per_second: 10, burst: 0}\n",
                "rate_limit: 'burst' must be between 1 and 100,000");
        assertError(dir, "name: x\nworkers: 2\n", "bad.yaml: 'rate' is missing");
        assertError(dir, "name: x\nrate: fast\nworkers: 2\n", "bad.yaml: 'rate' must be a number, was 'fast'");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nsaturated: maybe\n",
                "bad.yaml: 'saturated' must be true or false");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nspike: {start: 1s, factor: 2}\n",
                "bad.yaml, spike: 'length' is missing");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nspike: {start: 1s, length: 1s, factor: 2, peak: 3}\n",
                "bad.yaml, spike: unknown key 'peak'; known keys: [factor, length, start]");
        assertError(dir, "name: x\nrate: 5\nworkers: 2\nspike: {start: soon, length: 1s, factor: 2}\n",
                "bad.yaml, spike: start must be a number with a unit");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ScenarioFile.load("nope"));
        assertTrue(unknown.getMessage().contains("unknown scenario 'nope'"), unknown.getMessage());
    }

    private static void assertError(Path dir, String yaml, String expected) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, yaml);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScenarioFile.load(file.toString()));
        assertTrue(e.getMessage().contains(expected) && e.getMessage().contains("bad.yaml"), e.getMessage());
    }
}
