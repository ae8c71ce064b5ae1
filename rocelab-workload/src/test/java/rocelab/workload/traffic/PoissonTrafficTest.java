package rocelab.workload.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PoissonTrafficTest {
    private static final long GBPS = 1_000_000_000L;
    private static final long MS = 1_000_000_000L;

    private static PoissonTraffic traffic(FlowSizeCdf sizes, double load, int hosts, long rateBps, long durationPs) {
        int[] h = new int[hosts];
        long[] r = new long[hosts];
        Arrays.setAll(h, i -> i);
        Arrays.fill(r, rateBps);
        return new PoissonTraffic(sizes, load, h, r, 0, durationPs);
    }

    @Test
    void shouldOfferTheLoadAskedOfEveryHost() {
        // 64 hosts at 100 Gb/s, AliStorage at 40 % for 20 ms: about 156,600 flows. Their count is a Poisson draw
        // (standard deviation about 0.25 %) and their bytes the load's (the sizes' coefficient of variation is
        // about 4.8, so the mean of 156,600 is within 1.2 % at one standard deviation): both checked at 3.
        PoissonTraffic t = traffic(FlowSizeCdf.ALI_STORAGE, 0.4, 64, 100 * GBPS, 20 * MS);
        List<FlowSpec> flows = t.expand(64, new SplittableRandom(11));
        double expectedFlows = 0.4 * 100e9 / 8 * 20e-3 / FlowSizeCdf.ALI_STORAGE.meanBytes() * 64;
        assertThat(flows.size() / expectedFlows).isCloseTo(1.0, within(0.0075));
        double bytes = flows.stream().mapToLong(FlowSpec::sizeBytes).sum();
        double expected = 0.4 * 100e9 / 8 * 20e-3 * 64;
        assertThat(bytes / expected).isCloseTo(1.0, within(0.036));
        // The estimate that sizes a run before it is built: the expected count and one per host.
        assertThat(t.flowCount(64)).isEqualTo((long) Math.ceil(expectedFlows + 64));
    }

    @Test
    void shouldSpaceAHostsArrivalsExponentially() {
        PoissonTraffic t = traffic(FlowSizeCdf.ALI_STORAGE, 0.5, 4, 25 * GBPS, 200 * MS);
        List<FlowSpec> flows = t.expand(4, new SplittableRandom(3));
        long[] starts = flows.stream().filter(f -> f.src() == 2).mapToLong(FlowSpec::startPs).toArray();
        double mean = 0;
        double sq = 0;
        int n = starts.length - 1;
        for (int i = 1; i < starts.length; i++) {
            double gap = starts[i] - starts[i - 1];
            mean += gap;
            sq += gap * gap;
        }
        mean /= n;
        double cv = Math.sqrt(sq / n - mean * mean) / mean;
        // An exponential's coefficient of variation is 1; its mean here is 40,869.8 B x 8 / 12.5 Gb/s = 26.16 us.
        assertThat(n).isGreaterThan(5_000);
        assertThat(cv).isCloseTo(1.0, within(0.05));
        assertThat(mean / t.meanInterArrivalPs(2)).isCloseTo(1.0, within(0.05));
    }

    @Test
    void shouldSendToEveryOtherHostAlikeAndNeverToItself() {
        PoissonTraffic t = traffic(FlowSizeCdf.ALI_STORAGE, 0.3, 8, 100 * GBPS, 10 * MS);
        List<FlowSpec> flows = t.expand(8, new SplittableRandom(5));
        int[][] pairs = new int[8][8];
        for (FlowSpec f : flows) {
            assertThat(f.dst()).isNotEqualTo(f.src());
            pairs[f.src()][f.dst()]++;
        }
        int perPair = flows.size() / 56;
        for (int s = 0; s < 8; s++) {
            for (int d = 0; d < 8; d++) {
                if (s != d) {
                    assertThat(pairs[s][d]).isBetween((int) (perPair * 0.8), (int) (perPair * 1.2));
                }
            }
        }
    }

    @Test
    void shouldListItsFlowsByStartWithinItsWindowAndOnlyAmongItsHosts() {
        PoissonTraffic t = new PoissonTraffic(FlowSizeCdf.WEBSEARCH, 0.8, new int[] {1, 4, 6}, new long[] {
            100 * GBPS, 100 * GBPS, 400 * GBPS}, 3 * MS, 5 * MS);
        List<FlowSpec> flows = t.expand(10, new SplittableRandom(9));
        assertThat(flows).isNotEmpty();
        for (int i = 0; i < flows.size(); i++) {
            FlowSpec f = flows.get(i);
            assertThat(f.startPs()).isBetween(3 * MS, 8 * MS - 1);
            assertThat(List.of(1, 4, 6)).contains(f.src(), f.dst());
            if (i > 0) {
                assertThat(f.startPs()).isGreaterThanOrEqualTo(flows.get(i - 1).startPs());
            }
        }
        // A host's rate sets its own arrival rate: host 6 (400 Gb/s) starts about four times host 1's flows.
        long from6 = flows.stream().filter(f -> f.src() == 6).count();
        long from1 = flows.stream().filter(f -> f.src() == 1).count();
        assertThat(t.meanInterArrivalPs(0) / t.meanInterArrivalPs(2)).isCloseTo(4.0, within(1e-9));
        assertThat(from6).isGreaterThan(from1);
        assertThat(t.maxHostIndex()).isEqualTo(6);
    }

    @Test
    void shouldDrawTheSameFlowsFromTheSameSeed() {
        PoissonTraffic t = traffic(FlowSizeCdf.WEBSEARCH, 0.5, 16, 100 * GBPS, 2 * MS);
        assertThat(t.expand(16, new SplittableRandom(42))).isEqualTo(t.expand(16, new SplittableRandom(42)))
                .isNotEqualTo(t.expand(16, new SplittableRandom(43)));
    }

    @Test
    void shouldSendToSlowerHostsNoMoreThanTheirLinksShare() {
        // Two 25 Gb/s hosts among six of 100 Gb/s at a load of one half: destinations in proportion to the rates
        // give every host's link about half its rate to receive (0.566 and 0.495 expected, host i left out of its
        // own draw), where uniform destinations gave the slow hosts 1.5-2x their link.
        int[] h = {0, 1, 2, 3, 4, 5, 6, 7};
        long[] r = {25 * GBPS, 25 * GBPS, 100 * GBPS, 100 * GBPS, 100 * GBPS, 100 * GBPS, 100 * GBPS, 100 * GBPS};
        // Sizes uniform in 0-64 KB (a light tail: each host's received bytes within about 1 % of their mean).
        FlowSizeCdf uniform = new FlowSizeCdf("uniform", new double[] {0, 64_000}, new double[] {0, 100});
        PoissonTraffic t = new PoissonTraffic(uniform, 0.5, h, r, 0, 100 * MS);
        double[] received = new double[8];
        for (FlowSpec f : t.expand(8, new SplittableRandom(17))) {
            received[f.dst()] += f.sizeBytes() * 8.0;
        }
        for (int i = 0; i < 8; i++) {
            double load = received[i] / (r[i] * 0.1);
            assertThat(load).as("host %d's receive load", i).isCloseTo(i < 2 ? 0.566 : 0.495, within(0.03));
        }
    }
}
