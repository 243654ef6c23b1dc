package io.dbqueue.bench.scenario;

import io.dbqueue.bench.workload.DurationText;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.Wakeup;

import java.time.Duration;

/**
 * A wakeup mode as a scenario names it: {@code poll-100ms} (poll every 100 ms when idle),
 * {@code notify} or {@code adaptive} (LISTEN/NOTIFY with a fallback poll every second; adaptive polls
 * every 10 ms while saturated), optionally with the fallback, e.g. {@code notify-5s}.
 */
public record WakeupSetting(String label, Wakeup wakeup, Duration noTaskTimeout, Duration betweenTaskTimeout) {

    static final Duration FALLBACK = Duration.ofSeconds(1);
    static final Duration TIGHT = Duration.ofMillis(10);

    public static WakeupSetting parse(String text) {
        String label = text == null ? "" : text.trim();
        int dash = label.indexOf('-');
        String name = dash < 0 ? label : label.substring(0, dash);
        Wakeup wakeup = switch (name) {
            case "poll" -> Wakeup.POLL;
            case "notify" -> Wakeup.NOTIFY;
            case "adaptive" -> Wakeup.ADAPTIVE;
            default -> throw new IllegalArgumentException("a mode must be poll-<interval>, notify or adaptive"
                    + " (optionally notify-<fallback>), was '" + text + "'");
        };
        if (wakeup == Wakeup.POLL && dash < 0) {
            throw new IllegalArgumentException("a poll mode names its interval, e.g. poll-100ms, was '" + text + "'");
        }
        Duration interval = dash < 0 ? FALLBACK : DurationText.parse("mode " + label, label.substring(dash + 1));
        if (interval.isZero()) {
            throw new IllegalArgumentException("mode " + label + ": the interval must be positive");
        }
        return new WakeupSetting(label, wakeup, interval, TIGHT);
    }

    /** The workers' poll settings at {@code batchSize}. */
    PollSettings poll(int batchSize) {
        return PollSettings.DEFAULT.withBatchSize(batchSize).withTimeouts(betweenTaskTimeout, noTaskTimeout,
                PollSettings.DEFAULT.fatalCrashTimeout());
    }

    boolean notifies() {
        return wakeup != Wakeup.POLL;
    }
}
