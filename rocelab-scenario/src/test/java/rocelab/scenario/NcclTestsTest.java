package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import rocelab.scenario.nccl.NcclTests;

/** nccl-tests figures from the simulator against the ring's closed forms. */
class NcclTestsTest {
    private static final ScenarioConfig FABRIC = Scenarios.parse("""
            name: eight
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: flow, src: 0, dst: 1, size: 1MB}
            """);

    @Test
    void shouldFollowThePerStepLatencyForSmallMessages() {
        // 8 bytes: every step is one tiny frame, so the time is 2(N-1) one-way latencies (two 1 us links, two
        // serialisations of a minimum frame, the switch's forwarding latency) and nothing else.
        NcclTests.Row r = NcclTests.measure(FABRIC, NcclTests.Op.ALL_REDUCE, 8, 0, 1);
        assertThat(r.timeUs()).isBetween(14 * 2.0, 14 * 2.2);
        NcclTests.Row ag = NcclTests.measure(FABRIC, NcclTests.Op.ALL_GATHER, 32, 0, 1);
        assertThat(ag.timeUs()).isBetween(7 * 2.0, 7 * 2.2);
    }

    @Test
    void shouldTimeOnlyTheTimedIterationsAndAgreeWithOneRun() {
        NcclTests.Row one = NcclTests.measure(FABRIC, NcclTests.Op.ALL_REDUCE, 4 << 20, 0, 1);
        NcclTests.Row many = NcclTests.measure(FABRIC, NcclTests.Op.ALL_REDUCE, 4 << 20, 2, 5);
        assertThat(many.completed()).isTrue();
        assertThat(many.timeUs()).isCloseTo(one.timeUs(), within(one.timeUs() * 0.02));
        assertThat(many.busbwGBps()).isCloseTo(many.algbwGBps() * 14 / 8, within(1e-9));
    }

    @Test
    void shouldAlignSizesToWholeElementsPerRank() {
        assertThat(NcclTests.alignedSize(NcclTests.Op.ALL_REDUCE, 1001, 8)).isEqualTo(1000);
        assertThat(NcclTests.alignedSize(NcclTests.Op.ALL_GATHER, 1001, 8)).isEqualTo(992);
        assertThat(NcclTests.alignedSize(NcclTests.Op.REDUCE_SCATTER, 16, 8)).isZero();
        assertThat(NcclTests.alignedSize(NcclTests.Op.ALL_REDUCE, 4, 8)).isZero();
    }
}
