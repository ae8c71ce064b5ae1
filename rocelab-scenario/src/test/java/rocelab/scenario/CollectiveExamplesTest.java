package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.HeldAlone;
import rocelab.observe.flow.HeldByRate;
import rocelab.observe.pfc.PfcVictims;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.collective.PairSizes;

/** The shipped collective examples run, and land where their comments say. */
class CollectiveExamplesTest {
    /** Payload bytes per second of a 400G link at MTU 4096. */
    private static double payloadRate() {
        return 400e9 / 8 * 4096 / FrameFormat.wireBytes(new FrameFormat(false).dataFrameBytes(4096, false));
    }

    @Test
    void shouldBeBoundByTheHotRanksDownlinkInTheMoeExample() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("moe-alltoall")).run(ProgressListener.NONE);
        assertThat(r.collectives()).hasSize(2).allMatch(CollectiveRecord::completed);
        CollectiveRecord balanced = r.collectives().get(0);
        CollectiveRecord skewed = r.collectives().get(1);
        assertThat(skewed.algorithm()).isEqualTo("alltoallv direct");
        PairSizes pairs = PairSizes.zipf(16, 32_000_000, 1.2, 7);
        assertThat(skewed.sizeBytes()).isEqualTo(pairs.ncclSize());
        // No faster than the hot rank's downlink at the payload rate; not absurdly slower either.
        double bound = pairs.maxOffRank() / payloadRate() * 1e12;
        assertThat((double) skewed.timePs()).isBetween(bound, 1.5 * bound);
        // The balanced AlltoAll moves 15/16 of 32 MB per rank; ECMP on the spines keeps it under the wire rate.
        assertThat(balanced.busbwGBps() * 1e9).isBetween(0.5 * payloadRate(), payloadRate());
        assertThat(skewed.timePs()).isGreaterThan(4 * balanced.timePs());
        assertThat(r.totals().packetsDropped()).isZero();
        // The hot expert's pauses make victims of flows to other ranks; the list is true and bounded.
        assertThat(PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs())).isNotEmpty();
        PfcVictimsTest.assertTrueAndBounded(r);
        // Flow 4319 (h14->h0) was h0's last, alone from 2850 us with 201 Gb/s allowed while h0's link carried 2.3 %
        // of its 400: its rate did not hold it there (its packets were not sent at that rate), and it is not said to.
        var topo = r.network().topology();
        var all = HeldByRate.find(r.flows(), r.simulatedPs(), r.network(), r.series(), r.pfcLog());
        for (HeldAlone h : HeldAlone.find(r.flows(), r.simulatedPs(), r.network(), r.series(), all)) {
            assertThat(h.utilisation() * h.linkBps()).as("flow %d", h.flow())
                    .isGreaterThanOrEqualTo(HeldAlone.SENT_AT_RATE * h.minRateBps());
            assertThat(h.toPs()).isLessThanOrEqualTo(r.flows().get(h.flow()).deliveredPs());
        }
        assertThat(HeldAlone.find(r.flows(), r.simulatedPs(), r.network(), r.series(), all))
                .noneMatch(h -> h.flow() == 4319);
    }

    @Test
    void shouldRunTheNcclTestsFabricAtTheWireRate() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("nccl-tests-8hosts"))
                .run(ProgressListener.NONE);
        CollectiveRecord c = r.collectives().get(0);
        assertThat(c.completed()).isTrue();
        assertThat(c.busbwGBps() * 1e9 / payloadRate()).isBetween(0.98, 1.0);
    }
}
