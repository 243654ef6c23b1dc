package io.dbqueue.stack.fault;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the bad-input scenario counted.
 *
 * @param requests      corpus requests sent
 * @param refused       of those, bad ones answered as the corpus expects (a 4xx naming the problem)
 * @param validStored   hostile-looking but valid requests answered 2xx
 * @param serverErrors  answers of 5xx: never acceptable for a client's mistake
 * @param hangs         requests not answered within the timeout
 * @param processed     messages of the valid corpus requests processed by a consumer
 * @param expected      messages those requests carried
 * @param runsStarted   test-app runs the corpus started: must be 0
 * @param ratesBefore   messages per second of valid traffic right before the corpus
 * @param ratesAfter    the same right after it
 * @param flood         answers to {@value BadInputRun#FLOOD} requests sent to producer-app at once, by kind:
 *                      {@code 200}, {@code 503} (with a problem detail: the pool was exhausted), {@code other}
 * @param failures      every answer that differed from the corpus, with its line
 */
public record BadInputResult(int requests, int refused, int validStored, int serverErrors, int hangs, long processed,
                             long expected, long runsStarted, double ratesBefore, double ratesAfter,
                             Map<String, Integer> flood, List<String> failures) implements ScenarioOutcome {

    public BadInputResult {
        flood = Map.copyOf(flood);
        failures = List.copyOf(failures);
    }

    public boolean passed() {
        return failures.isEmpty() && serverErrors == 0 && hangs == 0 && processed == expected && runsStarted == 0
                && flood.getOrDefault("other", 0) == 0;
    }

    public String line() {
        String line = String.format(Locale.ROOT, "bad_input %s: %d requests, %d refused as expected, %d hostile but valid"
                        + " stored (%d of %d messages processed), %d 5xx, %d hangs, %d runs started; valid traffic"
                        + " %.0f messages/s before, %.0f after; %d requests at once: %d answered 200, %d a 503 naming the"
                        + " cause, %d otherwise", passed() ? "PASS" : "FAIL", requests, refused,
                validStored, processed, expected, serverErrors, hangs, runsStarted, ratesBefore, ratesAfter,
                BadInputRun.FLOOD, flood.getOrDefault("200", 0), flood.getOrDefault("503", 0),
                flood.getOrDefault("other", 0));
        return failures.isEmpty() ? line : line + " -- " + String.join("; ", failures);
    }
}
