package io.dbqueue.schedule;

import io.dbqueue.common.InvalidValueException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Intervals tick at multiples of themselves since the epoch; and {@link DueTicks}, what a due schedule enqueues. */
class TriggerTest {

    private static final Instant T0 = Instant.parse("2026-05-04T10:00:00Z");

    @Test
    void anIntervalTicksAtMultiplesOfItselfSinceTheEpoch() {
        Trigger quarter = Trigger.every(Duration.ofMinutes(15));
        assertEquals(Instant.parse("2026-05-04T10:15:00Z"), quarter.next(T0));
        assertEquals(Instant.parse("2026-05-04T10:15:00Z"), quarter.next(Instant.parse("2026-05-04T10:14:59.999Z")));
        Trigger quarterSecond = Trigger.every(Duration.ofMillis(250));
        assertEquals(T0, quarterSecond.next(Instant.parse("2026-05-04T09:59:59.999999Z")));
        assertEquals(Instant.parse("2026-05-04T10:00:00.250Z"), quarterSecond.next(T0.plusNanos(1)));
    }

    @Test
    void anIntervalMustBePositiveWholeMilliseconds() {
        assertEquals("interval", assertThrows(InvalidValueException.class,
                () -> Trigger.every(Duration.ZERO)).field());
        assertEquals("interval", assertThrows(InvalidValueException.class,
                () -> Trigger.every(Duration.ofNanos(1_500_000))).field());
    }

    @Test
    void aCronTriggerNeedsAZone() {
        assertEquals("zone", assertThrows(InvalidValueException.class, () -> Trigger.cron("* * * * *", null)).field());
        assertEquals(T0.plusSeconds(60), Trigger.cron("* * * * *", ZoneId.of("UTC")).next(T0));
    }

    @Test
    void nothingIsDueBeforeTheNextTick() {
        DueTicks due = DueTicks.at(T0, T0.plusSeconds(1), Trigger.every(Duration.ofSeconds(1)), MissedTicks.RUN_ALL, 10);
        assertEquals(new DueTicks(List.of(), T0.plusSeconds(1)), due);
    }

    @Test
    void runOnceEnqueuesOneTaskForAllMissedTicksThenTheTickAfterNow() {
        DueTicks due = DueTicks.at(T0.plusMillis(9500), T0, Trigger.every(Duration.ofSeconds(1)), MissedTicks.RUN_ONCE, 10);
        assertEquals(new DueTicks(List.of(T0), T0.plusSeconds(10)), due);
    }

    @Test
    void runAllEnqueuesEveryMissedTickInOrder() {
        DueTicks due = DueTicks.at(T0.plusSeconds(3), T0, Trigger.every(Duration.ofSeconds(1)), MissedTicks.RUN_ALL, 10);
        assertEquals(new DueTicks(List.of(T0, T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3)),
                T0.plusSeconds(4)), due);
    }

    @Test
    void runAllTakesAtMostMaxTicksAndLeavesTheRestDue() {
        DueTicks due = DueTicks.at(T0.plusSeconds(100), T0, Trigger.every(Duration.ofSeconds(1)), MissedTicks.RUN_ALL, 2);
        assertEquals(new DueTicks(List.of(T0, T0.plusSeconds(1)), T0.plusSeconds(2)), due);
    }
}
