package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
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

    /**
     * After every instant (departures alone, where the slower flows keep their rates without being refilled, and
     * arrivals), every running flow has the max-min fair rate a filling from scratch gives, on random networks.
     */
    @Test
    void shouldKeepTheMaxMinRatesExactAfterEveryDepartureAndArrival() {
        SplittableRandom random = new SplittableRandom(5);
        for (int trial = 0; trial < 40; trial++) {
            Simulator s = new Simulator();
            int resources = random.nextInt(2, 8);
            double[] capacity = new double[resources];
            for (int r = 0; r < resources; r++) {
                capacity[r] = random.nextInt(1, 11) * 1e9;
            }
            Map<Integer, int[]> crossing = new TreeMap<>();
            Map<Integer, Double> cap = new HashMap<>();
            Map<Integer, Integer> slot = new HashMap<>();
            FluidNetwork n = new FluidNetwork(s, capacity, 4, (now, tag) -> crossing.remove(tag));
            int flows = random.nextInt(5, 40);
            for (int f = 0; f < flows; f++) {
                int[] rs = random.ints(0, resources).distinct().limit(random.nextInt(1, Math.min(3, resources) + 1))
                        .sorted().toArray();
                double c = random.nextInt(4) == 0 ? random.nextInt(1, 6) * 1e9 : Double.POSITIVE_INFINITY;
                double bits = random.nextInt(1, 200) * 1e5;
                if (f == flows / 2) {
                    // The second half arrives while the first is leaving.
                    s.run(random.nextLong(1, 20_000_000), Long.MAX_VALUE);
                }
                crossing.put(f, rs);
                cap.put(f, c);
                slot.put(f, n.start(s.nowPs(), f, rs.clone(), null, c, bits));
            }
            while (!s.calendar().isEmpty()) {
                s.run(s.calendar().firstTimePs(), Long.MAX_VALUE);
                Map<Integer, Double> expected = maxMin(capacity, crossing, cap);
                for (var e : expected.entrySet()) {
                    assertThat(n.rateBps(slot.get(e.getKey()))).as("trial %d flow %d at %d ps", trial, e.getKey(),
                            s.nowPs()).isCloseTo(e.getValue(), within(e.getValue() * 1e-9));
                }
            }
            assertThat(crossing).isEmpty();
        }
    }

    /**
     * A flow alone on its resources gets its rate in closed form instead of the filling: the same rates to the bit
     * and the same completions to the picosecond as the filling gives, whatever shares the instant (lone flows beside
     * shared components, sprayed weights, caps above and below the links, departures that leave a flow alone, flows
     * kept after departures), on random networks run both ways in lockstep.
     */
    @Test
    void shouldGiveALoneFlowTheFillingsRateToTheBit() {
        SplittableRandom random = new SplittableRandom(12);
        long alone = 0;
        for (int trial = 0; trial < 60; trial++) {
            Simulator fastSim = new Simulator();
            Simulator fullSim = new Simulator();
            int resources = random.nextInt(4, 40);
            double[] capacity = new double[resources];
            for (int r = 0; r < resources; r++) {
                capacity[r] = random.nextInt(4) == 0 ? random.nextDouble(1e9, 4e11) : random.nextInt(1, 9) * 1e11;
            }
            Map<Integer, Long> fastEnds = new HashMap<>();
            Map<Integer, Long> fullEnds = new HashMap<>();
            FluidNetwork fast = new FluidNetwork(fastSim, capacity, 4, (now, tag) -> fastEnds.put(tag, now));
            FluidNetwork full = new FluidNetwork(fullSim, capacity, 4, (now, tag) -> fullEnds.put(tag, now));
            full.fillAloneDirectly(false);
            List<Integer> fastSlots = new ArrayList<>();
            List<Integer> fullSlots = new ArrayList<>();
            int flows = random.nextInt(5, 80);
            for (int f = 0; f < flows; f++) {
                int[] rs = random.ints(0, resources).distinct().limit(random.nextInt(1, Math.min(4, resources) + 1))
                        .toArray();
                double[] ws = null;
                if (random.nextInt(5) == 0) {
                    ws = new double[rs.length];
                    for (int k = 0; k < rs.length; k++) {
                        ws[k] = 1.0 / random.nextInt(1, 5);
                    }
                }
                int kindOfCap = random.nextInt(4);
                double cap = kindOfCap == 0 ? random.nextDouble(1e9, 9e11)
                        : kindOfCap == 1 ? capacity[rs[0]] : Double.POSITIVE_INFINITY;
                double bits = random.nextInt(4) == 0 ? random.nextDouble(1e3, 1e8) : 8.0 * random.nextInt(1, 1 << 20);
                if (random.nextInt(3) == 0 && !fastSim.calendar().isEmpty()) {
                    // Let some of the earlier flows run, or leave, before the next arrivals.
                    long until = fastSim.calendar().firstTimePs() + random.nextLong(0, 5_000_000);
                    fastSim.run(until, Long.MAX_VALUE);
                    fullSim.run(until, Long.MAX_VALUE);
                }
                fastSlots.add(fast.start(fastSim.nowPs(), f, rs.clone(), ws == null ? null : ws.clone(), cap, bits));
                fullSlots.add(full.start(fullSim.nowPs(), f, rs.clone(), ws == null ? null : ws.clone(), cap, bits));
            }
            while (!fastSim.calendar().isEmpty() || !fullSim.calendar().isEmpty()) {
                assertThat(fastSim.calendar().firstTimePs()).isEqualTo(fullSim.calendar().firstTimePs());
                long t = fastSim.calendar().firstTimePs();
                fastSim.run(t, Long.MAX_VALUE);
                fullSim.run(t, Long.MAX_VALUE);
                for (int f = 0; f < flows; f++) {
                    if (!fastEnds.containsKey(f)) {
                        assertThat(Double.doubleToRawLongBits(fast.rateBps(fastSlots.get(f))))
                                .as("trial %d flow %d at %d ps", trial, f, t)
                                .isEqualTo(Double.doubleToRawLongBits(full.rateBps(fullSlots.get(f))));
                    }
                }
            }
            assertThat(fastEnds).isEqualTo(fullEnds).hasSize(flows);
            assertThat(full.flowsAlone()).isZero();
            alone += fast.flowsAlone();
        }
        assertThat(alone).as("lone flows met").isGreaterThan(100);
    }

    /** Progressive filling from scratch, the textbook way: raise every unfrozen flow until a resource or cap binds. */
    private static Map<Integer, Double> maxMin(double[] capacity, Map<Integer, int[]> crossing,
            Map<Integer, Double> cap) {
        Map<Integer, Double> rate = new TreeMap<>();
        Set<Integer> unfrozen = new TreeSet<>(crossing.keySet());
        double[] left = capacity.clone();
        double level = 0;
        while (!unfrozen.isEmpty()) {
            double step = Double.POSITIVE_INFINITY;
            for (int r = 0; r < capacity.length; r++) {
                int users = 0;
                for (int f : unfrozen) {
                    users += crosses(crossing.get(f), r) ? 1 : 0;
                }
                if (users > 0) {
                    step = Math.min(step, left[r] / users);
                }
            }
            for (int f : unfrozen) {
                step = Math.min(step, cap.get(f) - level);
            }
            level += step;
            for (int r = 0; r < capacity.length; r++) {
                for (int f : unfrozen) {
                    if (crosses(crossing.get(f), r)) {
                        left[r] -= step;
                    }
                }
            }
            List<Integer> frozen = new ArrayList<>();
            for (int f : unfrozen) {
                boolean full = Arrays.stream(crossing.get(f)).anyMatch(r -> left[r] <= capacity[r] * 1e-12);
                if (full || cap.get(f) < Double.POSITIVE_INFINITY && cap.get(f) - level <= cap.get(f) * 1e-12) {
                    frozen.add(f);
                    rate.put(f, level);
                }
            }
            unfrozen.removeAll(frozen);
        }
        return rate;
    }

    private static boolean crosses(int[] resources, int r) {
        for (int x : resources) {
            if (x == r) {
                return true;
            }
        }
        return false;
    }
}
