package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;

/** Max-min fair fluids: closed forms on small networks, integer picoseconds, and only the touched component. */
class FluidNetworkTest {
    private final Simulator sim = new Simulator();
    private final Map<Integer, Long> ends = new HashMap<>();

    private FluidNetwork network(double... capacities) {
        return new FluidNetwork(sim, capacities, 16, (now, flow) -> ends.put(flow, now));
    }

    @Test
    void shouldEndALoneFlowExactlyAfterItsSerialisationTime() {
        FluidNetwork n = network(400e9, 400e9);
        long bytes = 1_073_741_824L + 12_345;
        n.start(0, 0, new int[] {0, 1}, null, Double.POSITIVE_INFINITY, 8.0 * bytes);
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(ends.get(0)).isEqualTo(Rates.serializationPs(bytes, 400_000_000_000L));
    }

    @Test
    void shouldHonourAFlowsOwnCap() {
        FluidNetwork n = network(400e9);
        n.start(0, 0, new int[] {0}, null, 100e9, 8.0 * 1_000_000);
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(ends.get(0)).isEqualTo(Rates.serializationPs(1_000_000, 100_000_000_000L));
    }

    @Test
    void shouldGiveTheClassicMaxMinAllocation() {
        // Flow 0 crosses both links, flow 1 only the fast one, flow 2 only the slow one: the slow link is the first
        // bottleneck (2 each), and flow 1 takes what the fast link has left (8).
        FluidNetwork n = network(10e9, 4e9);
        n.start(0, 0, new int[] {0, 1}, null, Double.POSITIVE_INFINITY, 1e12);
        n.start(0, 1, new int[] {0}, null, Double.POSITIVE_INFINITY, 1e12);
        n.start(0, 2, new int[] {1}, null, Double.POSITIVE_INFINITY, 1e12);
        sim.run(1, Long.MAX_VALUE);
        assertThat(n.rateBps(0)).isCloseTo(2e9, within(1.0));
        assertThat(n.rateBps(1)).isCloseTo(8e9, within(1.0));
        assertThat(n.rateBps(2)).isCloseTo(2e9, within(1.0));
    }

    @Test
    void shouldGiveTheFreedShareToTheOthersWhenAFlowLeaves() {
        // k equal flows into one link: all at 1/k; a short one leaves and the others speed up.
        FluidNetwork n = network(100e9);
        n.start(0, 0, new int[] {0}, null, Double.POSITIVE_INFINITY, 8e6);
        n.start(0, 1, new int[] {0}, null, Double.POSITIVE_INFINITY, 16e6);
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        // Flow 0: 8 Mbit at 50 Gb/s = 160 us. Flow 1: 8 Mbit by then, 8 Mbit more at 100 Gb/s = 80 us.
        assertThat(ends.get(0)).isEqualTo(160_000_000L);
        assertThat(ends.get(1)).isEqualTo(240_000_000L);
    }

    @Test
    void shouldFinishAnIncastAtTheReceiversRateWhateverTheSenders() {
        // Four senders (resources 0-3) into one receiver (resource 4): k x S at the receiver's rate.
        FluidNetwork n = network(100e9, 100e9, 100e9, 100e9, 100e9);
        for (int f = 0; f < 4; f++) {
            n.start(0, f, new int[] {f, 4}, null, Double.POSITIVE_INFINITY, 8e6);
        }
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        for (int f = 0; f < 4; f++) {
            assertThat(ends.get(f)).isEqualTo(Rates.serializationPs(4 * 1_000_000, 100_000_000_000L));
        }
    }

    @Test
    void shouldSpreadASprayedFlowOverItsBranches() {
        // Half the flow on each of two 50 Gb/s links: it moves at 100 Gb/s.
        FluidNetwork n = network(50e9, 50e9);
        n.start(0, 0, new int[] {0, 1}, new double[] {0.5, 0.5}, Double.POSITIVE_INFINITY, 8e6);
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(ends.get(0)).isEqualTo(80_000_000L);
    }

    @Test
    void shouldRecomputeOnlyTheComponentAnArrivalTouches() {
        FluidNetwork n = network(100e9, 100e9, 100e9);
        for (int f = 0; f < 8; f++) {
            n.start(0, f, new int[] {0}, null, Double.POSITIVE_INFINITY, 1e9);
        }
        sim.run(1, Long.MAX_VALUE);
        long before = n.componentFlowsVisited();
        n.start(sim.nowPs(), 8, new int[] {1}, null, Double.POSITIVE_INFINITY, 1e9);
        n.start(sim.nowPs(), 9, new int[] {1, 2}, null, Double.POSITIVE_INFINITY, 1e9);
        sim.run(2, Long.MAX_VALUE);
        assertThat(n.componentFlowsVisited() - before).as("the eight flows on link 0 are not revisited").isEqualTo(2);
        assertThat(n.rateBps(0)).isCloseTo(12.5e9, within(1.0));
        assertThat(n.rateBps(8)).isCloseTo(50e9, within(1.0));
    }

    @Test
    void shouldKeepWhatAFlowHasSentWhenItIsRerouted() {
        FluidNetwork n = network(100e9, 25e9);
        n.start(0, 0, new int[] {0}, null, Double.POSITIVE_INFINITY, 8e6);
        sim.run(40_000_000L, Long.MAX_VALUE);
        // Half sent at 100 Gb/s in 40 us; the other half at 25 Gb/s takes 160 us more.
        n.reroute(sim.nowPs(), 0, new int[] {1}, null, Double.POSITIVE_INFINITY);
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(ends.get(0)).isEqualTo(200_000_000L);
    }

    @Test
    void shouldWaitAtRateZeroWithoutARoute() {
        FluidNetwork n = network(100e9);
        n.start(0, 0, new int[0], null, 0, 8e6);
        assertThat(sim.run(Long.MAX_VALUE, Long.MAX_VALUE)).isFalse();
        assertThat(ends).isEmpty();
        assertThat(n.running(0)).isTrue();
    }
}
