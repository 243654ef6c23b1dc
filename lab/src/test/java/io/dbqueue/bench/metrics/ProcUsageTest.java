package io.dbqueue.bench.metrics;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcUsageTest {

    @Test
    void statFieldsAreCountedAfterTheCommandWhateverItsSpaces() {
        String stat = "4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0 1000 0 0";

        assertEquals(1, ProcUsage.statField(stat, 4), "ppid");
        assertEquals(250, ProcUsage.statField(stat, 14), "utime");
        assertEquals(75, ProcUsage.statField(stat, 15), "stime");
    }

    @Test
    void writeBytesComeFromTheirOwnLine() {
        String io = "rchar: 100\nwchar: 200\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\nwrite_bytes: 81920\n"
                + "cancelled_write_bytes: 0\n";

        assertEquals(81920, ProcUsage.writeBytes(io));
    }

    @Test
    void aWindowsFiguresAreTheDifferenceOfTwoReadings() {
        ProcUsage used = new ProcUsage(350, 10_000, true).minus(new ProcUsage(100, 2_000, true));

        assertEquals(new ProcUsage(250, 8_000, true), used);
        assertEquals(2.5, used.cpuSeconds());
        assertEquals(2_500, PerMessage.cpuMicros(used.cpuSeconds(), 1_000));
        assertEquals(8, PerMessage.of(used.writeBytes(), 1_000));
    }

    @Test
    void writesUnknownForOneProcessAreUnknownForTheSum() {
        ProcUsage sum = new ProcUsage(100, 2_000, true).plus(new ProcUsage(50, 0, false));
        assertEquals(150, sum.ticks(), "CPU is read whoever owns the process");
        assertFalse(sum.writesKnown());
    }

    @Test
    void aProcessIsFoundByItsCommandAndItsCpuRead() {
        // this test's JVM: its command is java, and it has used CPU by now
        BrokerProcess jvms = BrokerProcess.named("java");
        assertNotNull(jvms);
        assertTrue(jvms.usage().ticks() > 0);
        assertTrue(BrokerProcess.of("this jvm", ProcessHandle.current().pid()).usage().ticks() > 0);
        assertEquals(null, BrokerProcess.named("no-such-broker"));
        assertEquals(null, BrokerProcess.namedIfLocal("java", "rabbit.example.com"), "a broker on another host");
        assertNotNull(BrokerProcess.namedIfLocal("java", "127.0.0.1"));
        assertTrue(BrokerProcess.isLoopback("localhost") && BrokerProcess.isLoopback("[::1]"));
    }
}
