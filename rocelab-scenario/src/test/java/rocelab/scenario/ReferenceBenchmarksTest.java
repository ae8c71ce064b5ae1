package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import rocelab.congestion.dcqcn.DcqcnParameters;
import rocelab.congestion.dcqcn.DcqcnProfile;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.SingleSwitchSpec;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.traffic.FlowSpec;
import rocelab.workload.traffic.TrafficSpec;

/**
 * The benchmark scenarios are the reference's (../shared/benchmarks/README.md) as written there, so that their
 * figures compare with other simulators run on the same input: every setting the reference names, and the data
 * packets it counts. The two short ones are run to check what their headers say they show.
 */
class ReferenceBenchmarksTest {
    private static final long GBPS = 1_000_000_000L;
    private static final long US = 1_000_000L;

    private static ScenarioConfig read(String id) throws Exception {
        return new ScenarioReader().read(Path.of("../scenarios/bench/bench-" + id + ".yaml"));
    }

    @ParameterizedTest
    @CsvSource({"A, 16000", "B, 128000", "B2, 1072896", "B3, 16256000"})
    void eachIsTheReferenceScenario(String id, long dataPackets) throws Exception {
        ScenarioConfig c = read(id);

        // Common to all: RoCEv2, lossless (PFC on the RoCE priority, dynamic shared-buffer threshold), 32 MB per switch.
        assertThat(c.mode()).isEqualTo(FabricMode.ROCE_LOSSLESS);
        assertThat(c.pfc().losslessMask()).isEqualTo(1 << c.nic().dataPriority());
        assertThat(c.pfc().dynamic()).isTrue();
        assertThat(c.pfc().alpha()).isEqualTo(0.125);
        assertThat(c.switches().bufferBytes()).isEqualTo(32_000_000L);
        // The reference names no PFC watchdog (the headers say why lint warns of it).
        assertThat(c.pfc().watchdog().enabled()).isFalse();
        // ECN on the RoCE queue: Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 (KB = 1000 B).
        assertThat(c.ecn().scheme()).isEqualTo(EcnParameters.Scheme.RED);
        assertThat(c.ecn().kminBytes()).isEqualTo(400_000L);
        assertThat(c.ecn().kmaxBytes()).isEqualTo(1_600_000L);
        assertThat(c.ecn().pmax()).isEqualTo(0.2);
        assertThat(c.ecn().classMask() & 1 << c.nic().dataPriority()).isNotZero();
        // DCQCN with the ns-3 reference profile, nothing overridden.
        assertThat(c.congestion().name()).isEqualTo("dcqcn");
        assertThat(c.congestion().profile()).isEqualTo(DcqcnProfile.HPCC_NS3.key());
        assertThat(c.congestion().overrides()).isEmpty();
        DcqcnParameters d = DcqcnParameters.of(DcqcnProfile.HPCC_NS3, 100 * GBPS);
        assertThat(d.alphaPeriodPs()).isEqualTo(US);
        assertThat(d.g()).isEqualTo(1.0 / 256);
        assertThat(d.decreasePeriodPs()).isEqualTo(4 * US);
        assertThat(d.increaseTimerPs()).isEqualTo(300 * US);
        assertThat(d.fastRecoverySteps()).isEqualTo(1);
        assertThat(d.aiRateBps()).isEqualTo(20_000_000L);
        assertThat(d.haiRateBps()).isEqualTo(200_000_000L);
        assertThat(d.minRateBps()).isEqualTo(GBPS);
        assertThat(d.byteCounterBytes()).isZero();
        // 1000 B of payload per data packet, per-flow ECMP, forwarding latency 0, every link 100 Gb/s with 1 us.
        assertThat(c.nic().mtuBytes()).isEqualTo(1000);
        assertThat(c.switches().loadBalancing()).isEqualTo(LoadBalancing.ECMP);
        assertThat(c.switches().forwardingLatencyPs()).isZero();
        LinkParameters link = new LinkParameters(100 * GBPS, US);
        if (id.equals("A")) {
            assertThat(c.topology()).isEqualTo(new SingleSwitchSpec(17, link));
        } else {
            assertThat(c.topology()).isInstanceOfSatisfying(LeafSpineSpec.class, t -> {
                assertThat(t.leaves()).isEqualTo(16);
                assertThat(t.hostsPerLeaf()).isEqualTo(8);
                assertThat(t.spines()).isEqualTo(8);
                assertThat(t.uplinksPerSpine()).isEqualTo(1);
                assertThat(t.link()).isEqualTo(link);
                assertThat(t.uplink()).isIn(null, link);
            });
        }
        // Flows start together at t = 0; the data packets the reference counts.
        long packets = 0;
        for (TrafficSpec t : c.traffic()) {
            for (FlowSpec f : t.expand(c.topology().hostCount(), new SplittableRandom(c.seed()))) {
                assertThat(f.startPs()).isZero();
                packets += (f.sizeBytes() + 999) / 1000;
            }
        }
        assertThat(packets).isEqualTo(dataPackets);
    }

    /** A's header: DCQCN holds the 16:1 incast's queue at about 5.7 MB, no pause, no drop. */
    @Test
    void incastAPausesNothing() throws Exception {
        RunResult r = Simulation.assemble(read("A")).run(ProgressListener.NONE);
        assertThat(r.flows()).hasSize(16).allMatch(FlowRecord::completed);
        assertThat(r.totals().dataPacketsSent()).isEqualTo(16_000);
        assertThat(r.totals().pfcPauseSent()).isZero();
        assertThat(r.totals().packetsDropped()).isZero();
        assertThat(r.totals().maxQueueBytes()).isBetween(5_000_000L, 6_500_000L);
    }

    /** B's header: per-flow ECMP puts flows of the permutation on shared uplinks; no pause, no drop. */
    @Test
    void permutationBCollidesOnUplinksAndPausesNothing() throws Exception {
        RunResult r = Simulation.assemble(read("B")).run(ProgressListener.NONE);
        assertThat(r.flows()).hasSize(128).allMatch(FlowRecord::completed);
        assertThat(r.totals().dataPacketsSent()).isEqualTo(128_000);
        assertThat(r.totals().pfcPauseSent()).isZero();
        assertThat(r.totals().packetsDropped()).isZero();
        assertThat(r.ecmpLog().collisions(r.flows())).isNotEmpty();
    }
}
