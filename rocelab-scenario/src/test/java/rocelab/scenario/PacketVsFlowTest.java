package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;

/**
 * The cross-check of the two models on small collectives and a job (the large table is bench/cross-check.sh, in
 * BENCHMARKS.md): the flow level lies between the ideal network and the packet level, and close to the packet level
 * where congestion control and PFC have little to do (a ring: one sender per receiver). An AlltoAll's incasts are
 * where DCQCN and PFC cost time the flow level does not see.
 */
class PacketVsFlowTest {
    private static final String FABRIC = """
            name: cross
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            """;

    private static List<RunResult> both(String yaml) {
        ScenarioConfig c = Scenarios.parse(yaml);
        return List.of(Simulation.assemble(c).run(ProgressListener.NONE),
                Simulation.assemble(c, Simulation.Model.FLOW).run(ProgressListener.NONE));
    }

    private static double ratio(String traffic) {
        List<RunResult> r = both(FABRIC + "traffic:\n  - " + traffic + "\n");
        CollectiveRecord packet = r.get(0).collectives().get(0);
        CollectiveRecord flow = r.get(1).collectives().get(0);
        assertThat(flow.idealTimePs()).isEqualTo(packet.idealTimePs());
        assertThat(flow.timePs()).as("flow level no faster than the ideal network").isGreaterThanOrEqualTo(
                flow.idealTimePs());
        return (double) flow.timePs() / packet.timePs();
    }

    @Test
    void shouldAgreeWithThePacketLevelOnARing() {
        assertThat(ratio("{kind: allreduce, ranks: 0-7, size: 16MB}")).isBetween(0.85, 1.02);
    }

    @Test
    void shouldAgreeWithThePacketLevelOnATree() {
        assertThat(ratio("{kind: allreduce, ranks: 0-7, size: 16MB, algorithm: tree}")).isBetween(0.7, 1.02);
    }

    @Test
    void shouldBeOptimisticWhereIncastsMakeCongestionControlWork() {
        assertThat(ratio("{kind: alltoall, ranks: 0-7, size: 16MB}")).isBetween(0.4, 1.02);
    }

    @Test
    void shouldGiveAJobTheSameShapeOfResult() {
        List<RunResult> r = both(FABRIC + """
                jobs:
                  - {name: dp, hosts: 0-7, parallelism: {dp: 8}, iterations: 2,
                     program: [{op: compute, duration: 100us}, {op: allreduce, group: dp, size-total: 8MB}]}
                """);
        var packet = r.get(0).jobs().get(0);
        var flow = r.get(1).jobs().get(0);
        assertThat(flow.idealJctPs()).isEqualTo(packet.idealJctPs());
        assertThat(flow.jctPs()).isBetween(flow.idealJctPs(), packet.jctPs() + packet.jctPs() / 50);
        assertThat(r.get(1).ranks()).hasSameSizeAs(r.get(0).ranks());
        assertThat(r.get(1).ranks()).allSatisfy(rank -> assertThat(rank.computeUs()).isEqualTo(100.0));
    }
}
