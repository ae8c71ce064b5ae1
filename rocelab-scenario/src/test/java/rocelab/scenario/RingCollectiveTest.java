package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioReader;

/** Ring collectives against their closed form: 2(N-1) or N-1 steps, each moving S/N bytes over every ring link. */
class RingCollectiveTest {
    private static final double RATE = 100e9;
    private static final int N = 8;
    private static final long SIZE = 16_000_000;
    private static final int MTU = 4096;

    private static RunResult run(String topology) {
        return run(topology, "allreduce");
    }

    private static RunResult run(String topology, String kind) {
        return Scenarios.assemble("""
                name: ring
                fabric: {mode: roce-lossless, mtu: %d}
                topology: %s
                nic: {cc: dcqcn}
                traffic:
                  - {kind: %s, ranks: 0-7, size: %d}
                """.formatted(MTU, topology, kind, SIZE)).run(ProgressListener.NONE);
    }

    /** Seconds for one step on one link: the chunk's data frames plus the ACKs of the chunk coming the other way. */
    private static double[] stepBounds() {
        FrameFormat f = new FrameFormat(false);
        long chunk = SIZE / N;
        long packets = (chunk + MTU - 1) / MTU;
        long data = 0;
        for (long i = 0; i < packets; i++) {
            data += FrameFormat.wireBytes(f.dataFrameBytes((int) Math.min(MTU, chunk - i * MTU), i == 0));
        }
        long acks = packets * FrameFormat.wireBytes(f.ackFrameBytes());
        // Lower bound: data alone at line rate. Upper: data and one ACK per packet share the uplink, plus the
        // step's latency (two links of 1 us, one store-and-forward of a full frame at each hop).
        double latency = 2 * 1e-6 + 2 * FrameFormat.wireBytes(f.dataFrameBytes(MTU, false)) * 8 / RATE;
        return new double[] {data * 8 / RATE, (data + acks) * 8 / RATE + latency};
    }

    @Test
    void shouldMatchTheRingClosedFormOnOneSwitch() {
        RunResult r = run("{kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}");
        assertThat(r.collectives()).hasSize(1);
        CollectiveRecord c = r.collectives().get(0);
        assertThat(c.completed()).isTrue();
        assertThat(c.ranks()).isEqualTo(N);
        double[] step = stepBounds();
        int steps = 2 * (N - 1);
        double seconds = c.timePs() / 1e12;
        assertThat(seconds).isBetween(steps * step[0], steps * step[1]);
        // nccl-tests: algbw = S / t, busbw = algbw x 2(N-1)/N, close to the payload rate of one link.
        assertThat(c.algbwGBps()).isCloseTo(SIZE / seconds / 1e9, within(1e-9));
        assertThat(c.busbwGBps()).isCloseTo(c.algbwGBps() * 2 * (N - 1) / N, within(1e-9));
        double payloadRate = RATE / 8 / 1e9 * MTU / FrameFormat.wireBytes(new FrameFormat(false).dataFrameBytes(MTU, false));
        assertThat(c.busbwGBps()).isBetween(0.95 * payloadRate, payloadRate);
    }

    @Test
    void shouldSendEachChunkOnlyAfterItsPredecessorArrived() {
        RunResult r = run("{kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}");
        List<FlowRecord> flows = r.flows();
        assertThat(flows).hasSize(N * 2 * (N - 1));
        for (int s = 1; s < 2 * (N - 1); s++) {
            for (int i = 0; i < N; i++) {
                FlowRecord mine = flows.get(s * N + i);
                FlowRecord before = flows.get((s - 1) * N + Math.floorMod(i - 1, N));
                assertThat(before.dst()).isEqualTo(mine.src());
                assertThat(mine.startPs()).as("step %d rank %d", s, i).isGreaterThanOrEqualTo(before.deliveredPs());
            }
        }
        // Every rank sends 2(N-1)/N of the buffer and all of it arrives; one QP per ring connection.
        for (int i = 0; i < N; i++) {
            int rank = i;
            long sent = flows.stream().filter(f -> f.src() == rank).mapToLong(FlowRecord::sizeBytes).sum();
            assertThat(sent).isEqualTo(2L * (N - 1) * SIZE / N);
            assertThat(flows.stream().filter(f -> f.src() == rank).mapToInt(FlowRecord::queuePair).distinct().count())
                    .isEqualTo(1);
        }
        assertThat(r.totals().packetsDropped()).isZero();
    }

    @Test
    void shouldRunAcrossALeafSpineAndBeNoFasterThanOneSwitch() {
        RunResult flat = run("{kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}");
        RunResult ls = run("{kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}");
        CollectiveRecord c = ls.collectives().get(0);
        assertThat(c.completed()).isTrue();
        assertThat(c.timePs()).isGreaterThanOrEqualTo(flat.collectives().get(0).timePs());
        assertThat(ls.totals().packetsDropped()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"allgather", "reduce-scatter"})
    void shouldTakeHalfTheAllReduceStepsForAllGatherAndReduceScatter(String kind) {
        RunResult r = run("{kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}", kind);
        CollectiveRecord c = r.collectives().get(0);
        assertThat(c.completed()).isTrue();
        assertThat(c.algorithm()).isEqualTo(kind + " ring");
        assertThat(r.flows()).hasSize(N * (N - 1));
        double[] step = stepBounds();
        double seconds = c.timePs() / 1e12;
        assertThat(seconds).isBetween((N - 1) * step[0], (N - 1) * step[1]);
        // nccl-tests: busbw = algbw x (N-1)/N for both, so it lands where the AllReduce's does.
        assertThat(c.busbwGBps()).isCloseTo(c.algbwGBps() * (N - 1) / N, within(1e-9));
        double allReduceBusbw = run("{kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}")
                .collectives().get(0).busbwGBps();
        assertThat(c.busbwGBps()).isCloseTo(allReduceBusbw, within(allReduceBusbw * 0.01));
    }

    @Test
    void shouldRunTheShippedExampleWithBothCollectivesSlowedWhereTheyShareRnicsAndLinks() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("ring-allreduce"))
                .run(ProgressListener.NONE);
        assertThat(r.collectives()).hasSize(2).allMatch(CollectiveRecord::completed);
        CollectiveRecord allReduce = r.collectives().get(0);
        assertThat(allReduce.algorithm()).isEqualTo("allreduce ring");
        // Alone it would reach about 12 GB/s busbw; the AllGather through hosts 0 and 4 takes part of two links.
        assertThat(allReduce.busbwGBps()).isLessThan(11.5).isGreaterThan(5.0);
        assertThat(r.totals().packetsDropped()).isZero();
        // Each names the other beside it, on its RNICs and on the links between switches (the header says so).
        CollectiveRecord allGather = r.collectives().get(1);
        assertThat(allReduce.beside().longest()).isEqualTo("traffic item 2");
        assertThat(allReduce.onLinks().longest()).isEqualTo("traffic item 2");
        assertThat(allGather.beside().longest()).isEqualTo("traffic item 1");
        assertThat(allGather.onLinks().longest()).isEqualTo("traffic item 1");
        assertThat(allGather.onLinks().at()).startsWith("leaf").contains("(towards spine");
    }
}
