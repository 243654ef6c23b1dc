package io.dbqueue.bench.report;

import io.dbqueue.bench.metrics.LatencySummary;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.Sample;
import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShardScalingTest {

    @Test
    void efficiencyIsTheCombinedRateOverOneShardsWithThePerRoundRatios() {
        CellResult one = cell(DriverName.SHARDED_1, 100, 1000, 1100, 900);
        CellResult three = cell(DriverName.SHARDED_3, 100, 950, 990, 1000);

        List<ShardScaling.Ratio> ratios = ShardScaling.efficiency(List.of(one, three));

        assertEquals(2, ratios.size(), "one shard against itself, and three shards");
        ShardScaling.Ratio ratio = ratios.get(1);
        assertEquals(three, ratio.cell());
        assertEquals(99.0, ratio.ratioPct(), "medians 990 / 1000");
        assertEquals(new Range(95.0, 90.0, 111.1), ratio.roundsPct(), "950/1000, 990/1100, 1000/900");
    }

    @Test
    void theRoutersOverheadIsOneShardAgainstDirectOfTheSameBatchSize() {
        CellResult direct100 = cell(DriverName.DIRECT, 100, 1000, 1000, 1000);
        CellResult direct1 = cell(DriverName.DIRECT, 1, 10, 10, 10);
        CellResult one100 = cell(DriverName.SHARDED_1, 100, 980, 970, 990);
        CellResult two100 = cell(DriverName.SHARDED_2, 100, 2000, 2000, 2000);

        List<ShardScaling.Ratio> routing = ShardScaling.routing(List.of(direct1, direct100, one100, two100));

        assertEquals(1, routing.size());
        assertEquals(direct100, routing.get(0).reference());
        assertEquals(2.0, routing.get(0).overheadPct());
    }

    private static CellResult cell(DriverName driver, int batch, double... perRound) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < perRound.length; i++) {
            samples.add(new Sample(i + 1, 1, (long) perRound[i], (long) perRound[i], perRound[i], perRound[i], false,
                    LatencySummary.NONE, LatencySummary.NONE, LatencySummary.NONE, null, null, List.of(), List.of(),
                    List.of(), null));
        }
        return CellResult.fromSamples(new Cell(driver, "dbq_seq", batch, 6, 6), samples);
    }
}
