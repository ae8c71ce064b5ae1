package rocelab.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.engine.Rates;
import rocelab.engine.Time;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.network.LinkEvent;
import rocelab.fabric.network.LinkEventDriver;
import rocelab.fabric.nic.Nic;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.MultiPlaneSpec;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;

/**
 * Multi-plane RNICs against closed forms: spraying over P planes of rate R reaches P x R for one QP, one QP per
 * plane gets R, P QPs get P x R; a plane that fails mid-flow leaves the flow the survivors' rate; a pause on one
 * plane's port holds that port only.
 */
class MultiPlaneTest {
    private static final long PLANE_RATE = 100_000_000_000L;
    private static final long DELAY = Time.us(1);
    private static final int MTU = 1000;
    private static final long SIZE = 2_000_000;

    private static Topology planes(int p, PlaneSelection selection) {
        LinkParameters link = new LinkParameters(PLANE_RATE, DELAY);
        return new MultiPlaneSpec(new LeafSpineSpec(2, 2, 2, 1, link, link), p, selection).build();
    }

    private static TestFabric fabric(Topology t, boolean ooo) {
        return new TestFabric(t, NicParameters.defaults(MTU).withOoo(ooo), SwitchParameters.defaults());
    }

    /** Wire bytes of a message of {@code size} in MTU packets (with RETH on every packet when {@code ooo}). */
    private static long wireBytes(long size, boolean ooo) {
        FrameFormat f = new FrameFormat(false);
        long total = 0;
        for (long off = 0; off < size; off += MTU) {
            int payload = (int) Math.min(MTU, size - off);
            total += FrameFormat.wireBytes(f.dataFrameBytes(payload, ooo || off == 0));
        }
        return total;
    }

    /**
     * Serialisation of every byte at {@code rateBps} plus the path's fixed part: 4 links of propagation each way,
     * and store-and-forward of a frame at the plane rate on the 3 switch hops.
     */
    private static long closedForm(long size, boolean ooo, long rateBps) {
        return Rates.serializationPs(wireBytes(size, ooo), rateBps) + 3 * framePs() + 8 * DELAY;
    }

    private static long framePs() {
        return Rates.serializationPs(FrameFormat.wireBytes(new FrameFormat(false).dataFrameBytes(MTU, true)),
                PLANE_RATE);
    }

    @Test
    void shouldGiveOneSprayedQueuePairTheWholeRnicRate() {
        for (int p : new int[] {2, 4}) {
            TestFabric f = fabric(planes(p, PlaneSelection.SPRAY), true);
            assertThat(f.network.nic(0).lineRateBps()).isEqualTo(p * PLANE_RATE);
            f.connect(0, 2).postWrite(0, SIZE, 1);
            f.sim.runUntil(Time.ms(10));
            assertThat(f.completions).hasSize(1);
            long fct = f.completions.get(0)[0];
            // within one frame per hop of serialisation at P x R plus the path's latency
            assertThat(fct).isCloseTo(closedForm(SIZE, true, p * PLANE_RATE),
                    org.assertj.core.api.Assertions.within(4 * framePs()));
            Nic nic = f.network.nic(0);
            for (int plane = 0; plane < p; plane++) {
                assertThat(nic.portDataBytes(plane)).isCloseTo(SIZE / p,
                        org.assertj.core.api.Assertions.within((long) MTU));
            }
            assertThat(f.network.nic(2).counter(NicCounter.RX_DELIVERED_BYTES)).isEqualTo(SIZE);
            assertThat(f.network.packetsHeld()).isZero();
        }
    }

    @Test
    void shouldHoldOneQueuePairToOnePlaneAndGivePQueuePairsTheWholeRate() {
        for (int p : new int[] {2, 4}) {
            TestFabric one = fabric(planes(p, PlaneSelection.PER_QP), false);
            one.connect(0, 2).postWrite(0, SIZE, 1);
            one.sim.runUntil(Time.ms(10));
            assertThat(one.completions.get(0)[0]).isCloseTo(closedForm(SIZE, false, PLANE_RATE),
                    org.assertj.core.api.Assertions.within(4 * framePs()));
            assertThat(one.network.nic(0).portDataBytes(0)).isEqualTo(SIZE);

            TestFabric many = fabric(planes(p, PlaneSelection.PER_QP), false);
            for (int q = 0; q < p; q++) {
                many.connect(0, 2).postWrite(0, SIZE / p, q);
            }
            many.sim.runUntil(Time.ms(10));
            assertThat(many.completions).hasSize(p);
            for (long[] c : many.completions) {
                assertThat(c[0]).isCloseTo(closedForm(SIZE / p, false, PLANE_RATE),
                        org.assertj.core.api.Assertions.within(4 * framePs()));
            }
            for (int plane = 0; plane < p; plane++) {
                assertThat(many.network.nic(0).portDataBytes(plane)).isEqualTo(SIZE / p);
            }
        }
    }

    @Test
    void shouldFinishAtTheSurvivorsRateWhenASprayedPlaneFails() {
        TestFabric f = fabric(planes(2, PlaneSelection.SPRAY), true);
        Topology t = f.network.topology();
        long failAt = Time.us(40);
        // plane 1's link from the sender's leaf to spine 0 and spine 1: plane 1 loses every path from h0 to h2
        int leaf = t.nodeByName("p1.leaf0");
        List<LinkEvent> events = new ArrayList<>();
        for (int port = 0; port < t.portCount(leaf); port++) {
            if (!t.isHost(t.peer(leaf, port).node())) {
                events.add(new LinkEvent(t.edgeAt(leaf, port).index(), failAt, false));
            }
        }
        new LinkEventDriver(f.network, events);
        f.connect(0, 2).postWrite(0, SIZE, 1);
        f.sim.runUntil(Time.ms(50));
        assertThat(f.completions).hasSize(1);
        assertThat(f.network.nic(2).counter(NicCounter.RX_DELIVERED_BYTES)).isEqualTo(SIZE);
        assertThat(f.network.packetsHeld()).isZero();
        // 40 us at 200G, the rest at 100G (plus what plane 1 had in flight, resent)
        long sentBefore = failAt * 2 * PLANE_RATE / 8_000_000_000_000L;
        long expected = failAt + Rates.serializationPs(wireBytes(SIZE, true) - sentBefore, PLANE_RATE)
                + 3 * framePs() + 8 * DELAY;
        long fct = f.completions.get(0)[0];
        // later by the recovery of what plane 1 lost: the receiver waits for ooo-reorder (256) packets past the gap
        // before it NAKs, about 20 us at 100G, and the lost packets go again
        assertThat(fct).isBetween(expected, expected + Time.us(25));
        assertThat(f.network.linkLosses()).isPositive();
    }

    @Test
    void shouldMoveAQueuePairToASurvivingPlane() {
        TestFabric f = fabric(planes(2, PlaneSelection.PER_QP), true);
        Topology t = f.network.topology();
        // QP 0 lives on plane 0; its sender's plane-0 port goes down mid-flow
        new LinkEventDriver(f.network, List.of(new LinkEvent(t.edgeAt(0, 0).index(), Time.us(40), false)));
        var qp = f.connect(0, 2);
        qp.postWrite(0, SIZE, 1);
        f.sim.runUntil(Time.ms(50));
        assertThat(f.completions).hasSize(1);
        assertThat(qp.plane()).isEqualTo(1);
        assertThat(f.network.nic(0).portDataBytes(1)).isPositive();
        assertThat(f.network.nic(2).counter(NicCounter.RX_DELIVERED_BYTES)).isEqualTo(SIZE);
        long fct = f.completions.get(0)[0];
        assertThat(fct).isBetween(closedForm(SIZE, true, PLANE_RATE), closedForm(SIZE, true, PLANE_RATE) + Time.us(30));
    }

    @Test
    void shouldPauseOnlyThePortOfThePlaneWhoseSwitchSentThePause() {
        TestFabric f = new TestFabric(planes(2, PlaneSelection.SPRAY), NicParameters.defaults(MTU).withOoo(true),
                SwitchParameters.defaults(), TestFabric.LINE_RATE, PfcParameters.defaults());
        f.connect(0, 2).postWrite(0, SIZE, 1);
        Nic nic = f.network.nic(0);
        long[] at = new long[3];
        f.sim.runUntil(Time.us(20));
        // an XOFF from plane 0's leaf on the data priority, for the longest pause
        Packet xoff = f.network.pool().acquire().initPfc(f.sim.nowPs(), 3, 0xFFFF,
                f.network.frames().pfcFrameBytes());
        nic.port(0).receive(f.sim.nowPs(), xoff);
        f.sim.runUntil(Time.us(25)); // past the RNIC's 802.3 response time (about 2 us at 100G)
        assertThat(nic.counter(NicCounter.RX_PAUSE)).as("rx pause").isEqualTo(1);
        assertThat(nic.isPaused(0, 3)).isTrue();
        assertThat(nic.isPaused(1, 3)).isFalse();
        at[0] = nic.portDataBytes(0);
        at[1] = nic.portDataBytes(1);
        f.sim.runUntil(Time.us(45));
        assertThat(nic.portDataBytes(0)).isEqualTo(at[0]);
        // plane 1 carries on at its full rate: 20 us at 100G is 250 KB of wire bytes, 229 KB of payload
        assertThat(nic.portDataBytes(1) - at[1]).isGreaterThan(220_000);
        f.sim.runUntil(Time.ms(50));
        assertThat(f.completions).hasSize(1);
    }
}
