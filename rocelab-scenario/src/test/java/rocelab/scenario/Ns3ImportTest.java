package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioReader;

/**
 * A scenario on an ns-3 RDMA model's topology and flow files runs their flows between the nodes they name, at the
 * rates and delays the topology file spells: each flow, alone on the fabric, takes its closed form.
 */
class Ns3ImportTest {
    private static final long RATE_BPS = 100_000_000_000L;
    private static final int MTU = 1000;
    private static final FrameFormat FRAMES = new FrameFormat(false);

    @TempDir
    Path dir;

    /** Picoseconds the wire needs for {@code bytes} at 100 Gb/s (80 ps a byte). */
    private static long wirePs(long bytes) {
        return bytes * 8 * 1_000_000_000_000L / RATE_BPS;
    }

    /**
     * A lone WRITE's completion through one switch: the sender serialises every frame; the switch, a frame behind,
     * forwards them back to back, as late as the largest (the first, with its RETH) took to arrive whole; the last
     * crosses both links, and its ACK is serialised by the receiver and the switch and crosses both links back.
     */
    private static long closedFormPs(long size, long srcDelayPs, long dstDelayPs) {
        long packets = (size + MTU - 1) / MTU;
        long frames = 0;
        for (long i = 0; i < packets; i++) {
            frames += FrameFormat.wireBytes(FRAMES.dataFrameBytes((int) Math.min(MTU, size - i * MTU), i == 0));
        }
        int first = FrameFormat.wireBytes(FRAMES.dataFrameBytes((int) Math.min(MTU, size), true));
        int ack = FrameFormat.wireBytes(FRAMES.ackFrameBytes());
        return wirePs(frames + first + 2L * ack) + 2 * (srcDelayPs + dstDelayPs);
    }

    @Test
    void shouldRunTheFlowFilesFlowsBetweenItsNodesInTheirClosedFormsWhenEachIsAlone() throws Exception {
        // HPCC's numbering of a single switch: the switch is node 0, the hosts nodes 1-3 (h0-h2). The three links
        // spell 100 Gb/s and their delays (1, 1.5 and 2 us) each in another of ns-3's ways.
        Files.writeString(dir.resolve("topology.txt"), "4 1 3\n0\n0 1 100Gbps 0.001ms 0\n2 0 100Gb/s 1500ns 0\n"
                + "3 0 12.5GBps 0.000002 0.000000\n");
        // Far enough apart that each flow is alone; the last two start at 1 ms and 2.000000005 ms exactly.
        Files.writeString(dir.resolve("flow.txt"), "3 \n1 2 3 100 1000000 0.000010\n3 1 3 100 2500 0.001\n"
                + "2 3 3 100 300000 0.002000000005\n");
        RunResult r = Simulation.assemble(new ScenarioReader().read("""
                name: ns3
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: ns3, file: topology.txt}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: ns3-flows, file: flow.txt}
                """, "ns3.yaml", dir)).run(ProgressListener.NONE);
        assertThat(r.flows()).hasSize(3).allMatch(FlowRecord::completed);
        assertThat(r.totals().packetsDropped()).isZero();
        FlowRecord a = r.flows().get(0);
        FlowRecord b = r.flows().get(1);
        FlowRecord c = r.flows().get(2);
        assertThat(new int[] {a.src(), a.dst(), b.src(), b.dst(), c.src(), c.dst()}).containsExactly(0, 1, 2, 0, 1, 2);
        assertThat(new long[] {a.startPs(), b.startPs(), c.startPs()}).containsExactly(10_000_000L,
                1_000_000_000L, 2_000_000_005L);
        assertThat(a.fctPs()).isEqualTo(closedFormPs(1_000_000, 1_000_000, 1_500_000));
        assertThat(b.fctPs()).isEqualTo(closedFormPs(2500, 2_000_000, 1_000_000));
        assertThat(c.fctPs()).isEqualTo(closedFormPs(300_000, 1_500_000, 2_000_000));
    }
}
