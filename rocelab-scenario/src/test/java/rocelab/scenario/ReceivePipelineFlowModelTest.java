package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/**
 * A receiver whose pipeline is slower than its link ({@code nic.rx}) in the flow-level model ({@code --model flow})
 * and in the per-flow closed form behind flows.csv's {@code ideal_fct_us} and {@code slowdown}. Both ignored it: the
 * flow model took a 3 MB write into a 40 Gb/s pipeline behind 100 Gb/s links at 100 Gb/s, 2.5 times faster than any
 * run can, and four such writes into one receiver shared only the 100 Gb/s link; the closed form did too, so the
 * packet level's flow, which takes exactly the pipeline's time, showed a slowdown of 2.5 on an idle fabric.
 */
class ReceivePipelineFlowModelTest {
    private static final String FABRIC = """
            name: rx
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            """;

    private static final String ALONE = FABRIC + """
            nics:
              - {hosts: 1-2, rx: {rate: 40Gbps, buffer: 16MB}}
            traffic:
              - {kind: flow, src: 1, dst: 2, size: 3000017B}
            """;

    private static RunResult run(String yaml, Simulation.Model model) {
        return Simulation.assemble(Scenarios.parse(yaml), model).run(ProgressListener.NONE);
    }

    /**
     * The closed form of the lone 3 MB write (as IdealNetworkTest has it): its wire bytes at 40 Gb/s (200 ps a byte)
     * after its first frame has crossed both 100 Gb/s links (80 ps a byte) and their 1 us each; the ACK back over
     * both links and through the sender's pipeline.
     */
    private static long[] closedForm() {
        FrameFormat frames = new FrameFormat(false);
        long wire = new PathTiming(frames, 1000, 0).wireBytes(3_000_017);
        long firstFrame = frames.onWire(frames.dataFrameBytes(1000, true));
        long ackFrame = frames.onWire(frames.ackFrameBytes());
        long delivery = wire * 200 + 2 * firstFrame * 80 + 2_000_000;
        long ack = 2 * ackFrame * 80 + 2_000_000 + ackFrame * 200;
        return new long[] {delivery, delivery + ack};
    }

    @Test
    void shouldTakeALoneFlowAtTheReceivePipelinesRateInTheFlowModel() {
        FlowRecord f = run(ALONE, Simulation.Model.FLOW).flows().get(0);
        long[] closed = closedForm();
        // About 3 MB x 8 / 40 Gb/s (its wire bytes: 3,000 frames of 1,000 B with their headers, 648 us) plus the
        // links' latency both ways, not the wire bytes at 100 Gb/s (259 us).
        long wire = new PathTiming(new FrameFormat(false), 1000, 0).wireBytes(3_000_017);
        assertThat((f.finishPs() - f.startPs()) / 1e6).isCloseTo(wire * 8 / 40e3 + 4, within(0.5));
        assertThat(f.deliveredPs() - f.startPs()).isCloseTo(closed[0], within(1_000L));
        assertThat(f.finishPs() - f.startPs()).isCloseTo(closed[1], within(1_000L));
        assertThat(f.idealFctPs()).isEqualTo(closed[1]);
        assertThat(f.slowdown()).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void shouldGiveThePacketLevelsFlowItsClosedFormWithTheReceivePipeline() {
        FlowRecord f = run(ALONE, Simulation.Model.PACKET).flows().get(0);
        long[] closed = closedForm();
        // The packet level takes exactly the closed form; flows.csv's ideal was the 100 Gb/s one (slowdown 2.5).
        assertThat(f.finishPs() - f.startPs()).isEqualTo(closed[1]);
        assertThat(f.idealFctPs()).isEqualTo(closed[1]);
        assertThat(f.slowdown()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void shouldShareTheReceivePipelineAmongTheFlowsIntoItInTheFlowModel() {
        String yaml = FABRIC + """
                nics:
                  - {hosts: 0, rx: {rate: 40Gbps, buffer: 16MB}}
                traffic:
                  - {kind: incast, senders: 1-4, receiver: 0, size: 1000000B}
                """;
        long wire = new PathTiming(new FrameFormat(false), 1000, 0).wireBytes(1_000_000);
        RunResult flow = run(yaml, Simulation.Model.FLOW);
        // Four messages' wire bytes through one 40 Gb/s pipeline, each at a quarter of it (not the 100 Gb/s link's).
        assertThat(flow.simulatedPs()).isGreaterThan(4 * wire * 200).isLessThan(4 * wire * 200 + 10_000_000);
        for (FlowRecord f : flow.flows()) {
            assertThat((double) (f.deliveredPs() - f.startPs())).isCloseTo(4 * wire * 200.0, within(5e6));
        }
        // The ideal network (a lower bound) is no later, the packet level no earlier.
        RunResult ideal = run(yaml, Simulation.Model.IDEAL);
        assertThat(ideal.simulatedPs()).isLessThanOrEqualTo(flow.simulatedPs());
    }

    @Test
    void shouldShareTheReceivePipelineWhenTheSwitchesSprayToo() {
        String yaml = """
                name: rx-spray
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {load-balancing: {mode: spray}}
                nic: {cc: none, ooo: true}
                nics:
                  - {hosts: 4, rx: {rate: 40Gbps, buffer: 16MB}}
                traffic:
                  - {kind: incast, senders: 0-1, receiver: 4, size: 1000000B}
                """;
        // Out-of-order placement (nic.ooo) puts a RETH in every packet.
        long wire = new PathTiming(new FrameFormat(false), 1000, 0, true).wireBytes(1_000_000);
        RunResult flow = run(yaml, Simulation.Model.FLOW);
        // Two messages through one 40 Gb/s pipeline, each spread over both spines.
        assertThat(flow.simulatedPs()).isGreaterThan(2 * wire * 200).isLessThan(2 * wire * 200 + 10_000_000);
    }
}
