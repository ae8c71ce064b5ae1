package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Open-loop background traffic as the congestion-control literature runs it: every host starts flows at the times of
 * a Poisson process, each to another host, with a size drawn from a flow-size distribution ({@link FlowSizeCdf}); the
 * arrival rate makes each host offer {@code load} of its own link's rate on average (mean inter-arrival = mean size x
 * 8 / (load x rate)). Arrivals fall in {@code [start, start + duration)}.
 *
 * <p>Destinations are drawn uniformly from the other hosts when every host has the same rate (as the ns-3 RDMA model's
 * generator, which knows one rate), else in proportion to their rates, so that a slower host's link does not receive
 * more than its share: with uniform destinations, 25 Gb/s hosts among 100 Gb/s ones received 1.5-2x their link at a
 * load of one half.
 *
 * <p>Each host draws from a stream of its own (split from the item's stream in host order), so a host's start times
 * and sizes do not depend on how many flows the others drew. The flows are listed by start time, then by source host.
 *
 * @param hosts the hosts that send and receive, in ascending order
 * @param rateBps each of those hosts' link rate (the sum of its ports), in the same order
 */
public record PoissonTraffic(FlowSizeCdf sizes, double load, int[] hosts, long[] rateBps, long startPs,
        long durationPs) implements TrafficSpec {

    public PoissonTraffic {
        if (!(load > 0 && load <= 1)) {
            throw new IllegalArgumentException("load must be in (0, 1], got " + load);
        }
        if (hosts.length < 2 || hosts.length != rateBps.length) {
            throw new IllegalArgumentException("Poisson traffic needs at least 2 hosts, each with its rate");
        }
        if (durationPs <= 0 || startPs < 0) {
            throw new IllegalArgumentException("Poisson traffic needs a positive duration and a start of 0 or later");
        }
        hosts = hosts.clone();
        rateBps = rateBps.clone();
    }

    /** The mean time between two of host index {@code i}'s arrivals, in picoseconds. */
    public double meanInterArrivalPs(int i) {
        return sizes.meanBytes() * 8 / (load * rateBps[i]) * 1e12;
    }

    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        int n = hosts.length;
        long end = startPs + durationPs;
        List<FlowSpec> flows = new ArrayList<>((int) Math.min(Integer.MAX_VALUE - 8, flowCount(hostCount)));
        long[] cumulative = sameRates() ? null : cumulativeRates();
        for (int i = 0; i < n; i++) {
            SplittableRandom own = random.split();
            double mean = meanInterArrivalPs(i);
            long t = startPs;
            while (true) {
                // Exponential inter-arrival: -ln(1 - U) x mean, U in [0, 1).
                t += Math.round(-Math.log(1 - own.nextDouble()) * mean);
                if (t >= end) {
                    break;
                }
                int dst = hosts[cumulative == null ? uniformOther(own, i) : weightedOther(own, i, cumulative)];
                flows.add(new FlowSpec(hosts[i], dst, sizes.sample(own), t));
            }
        }
        flows.sort(Comparator.comparingLong(FlowSpec::startPs).thenComparingInt(FlowSpec::src));
        return flows;
    }

    private boolean sameRates() {
        for (long r : rateBps) {
            if (r != rateBps[0]) {
                return false;
            }
        }
        return true;
    }

    /** The running sums of the hosts' rates: host index i spans [cumulative[i], cumulative[i + 1]). */
    private long[] cumulativeRates() {
        long[] c = new long[rateBps.length + 1];
        for (int i = 0; i < rateBps.length; i++) {
            c[i + 1] = c[i] + rateBps[i];
        }
        return c;
    }

    /** A host index other than {@code i}, every other one alike. */
    private int uniformOther(SplittableRandom random, int i) {
        int k = random.nextInt(hosts.length - 1);
        return k >= i ? k + 1 : k;
    }

    /** A host index other than {@code i}, each in proportion to its rate (drawn over the others' rates only). */
    private static int weightedOther(SplittableRandom random, int i, long[] cumulative) {
        long others = cumulative[cumulative.length - 1] - (cumulative[i + 1] - cumulative[i]);
        long x = random.nextLong(others);
        // Skip host i's span: the draw is over the line of rates with it cut out.
        if (x >= cumulative[i]) {
            x += cumulative[i + 1] - cumulative[i];
        }
        int k = Arrays.binarySearch(cumulative, x);
        return k >= 0 ? k : -k - 2;
    }

    /** The expected number of flows: each host's duration over its mean inter-arrival, summed. */
    public double expectedFlows() {
        double sum = 0;
        for (int i = 0; i < hosts.length; i++) {
            sum += durationPs / meanInterArrivalPs(i);
        }
        return sum;
    }

    /** The expected number of flows, and one per host (a run is sized by it before it is built). */
    @Override
    public long flowCount(int hostCount) {
        double sum = expectedFlows() + hosts.length;
        return sum >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(sum);
    }

    @Override
    public int maxHostIndex() {
        return hosts[hosts.length - 1];
    }

    @Override
    public long earliestStartPs() {
        return startPs;
    }

    @Override
    public int[] hosts() {
        return hosts.clone();
    }

    @Override
    public long[] rateBps() {
        return rateBps.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PoissonTraffic p && p.sizes.equals(sizes) && p.load == load && Arrays.equals(p.hosts, hosts)
                && Arrays.equals(p.rateBps, rateBps) && p.startPs == startPs && p.durationPs == durationPs;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(hosts) * 31 + sizes.hashCode() + Double.hashCode(load) + Long.hashCode(durationPs);
    }

    @Override
    public String toString() {
        return "poisson " + sizes + " load " + load + " over " + hosts.length + " hosts";
    }
}
