package io.dbqueue.stack.fault;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pure parts of the fault scenarios: their names, their settings' validation, their one line and table. */
class FaultResultTest {

    private static FaultResult result(List<String> problems, long bound, long effects) {
        return new FaultResult("crash_consumer", "at-least-once", 1000, 1000, 3, 1, 1000, 7, bound, effects,
                problems.isEmpty() ? 0 : 2, 5, 61.2, 9.84, 31.5, problems);
    }

    @Test
    void theLineSaysPassOrFailAndEveryCount() {
        assertEquals("crash_consumer at-least-once PASS: 61 s of load, sent 1000, acknowledged 1000 (3 requests"
                + " unanswered at first, 1 of them stored), processed 1000, duplicates 7 (bound 40), lost 0; 5 faults,"
                + " recovered within 9.8 s, drained 31.5 s after the load", result(List.of(), 40, -1).line());
        String failed = result(List.of("2 acknowledged messages never processed"), -1, 0).line();
        assertTrue(failed.startsWith("crash_consumer at-least-once FAIL"), failed);
        assertTrue(failed.contains("duplicates 7, duplicate effects 0, lost 2"), failed);
        assertTrue(failed.endsWith("-- 2 acknowledged messages never processed"), failed);
        assertFalse(result(List.of("x"), -1, -1).passed());
    }

    @Test
    void theTableHasARowPerScenarioAndTheEnvironment() {
        FaultSettings settings = new FaultSettings("at-least-once", Duration.ofSeconds(60), 1000, Duration.ofSeconds(30),
                false, "dbq_seq", null, "postgres", "", Path.of("logs"));
        String md = FaultReport.markdown(Map.of("server_version", "18.1"), settings, List.of(result(List.of(), 40, -1)),
                Map.of());
        assertTrue(md.contains("| crash_consumer | PASS | 61 s | 1000 | 1000 | 3 (1) | 1000 | 7 (40) | n/a | 0 | 5 | 9.8 s | 31.5 s |"), md);
        assertTrue(md.contains("- server_version: 18.1"), md);
        assertTrue(md.contains("full variant"), md);
    }

    @Test
    void scenariosAreNamedAndSettingsChecked() {
        assertEquals(List.of(FaultScenario.CRASH_PRODUCER), FaultScenario.named("crash_producer"));
        assertEquals(5, FaultScenario.named("all").size());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> FaultScenario.named("crash"));
        assertTrue(unknown.getMessage().contains("unknown fault scenario 'crash'"), unknown.getMessage());
        IllegalArgumentException mode = assertThrows(IllegalArgumentException.class, () -> new FaultSettings(
                "at-most-once", Duration.ofSeconds(60), 1000, Duration.ofSeconds(30), false, "dbq_seq", null, "", "",
                Path.of("x")));
        assertTrue(mode.getMessage().startsWith("mode must be one of"), mode.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FaultSettings("at-least-once", Duration.ofSeconds(1),
                1000, Duration.ofSeconds(30), false, "dbq_seq", null, "", "", Path.of("x")));
    }
}
