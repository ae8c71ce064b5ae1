package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Open-loop background traffic as the congestion-control literature runs it: every host starts flows at the times of
 * a Poisson process, each to a destination drawn uniformly from the other hosts, with a size drawn from a flow-size
 * distribution ({@link FlowSizeCdf}); the arrival rate makes each host offer {@code load} of its own link's rate on
 * average (mean inter-arrival = mean size x 8 / (load x rate)). Arrivals fall in {@code [start, start + duration)}.
 *
 * <p>Each host draws from a stream of its own (split from the item's stream in host order), so a host's flows do not
 * depend on how many the others drew. The flows are listed by start time, then by source host.
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
                int k = own.nextInt(n - 1);
                int dst = hosts[k >= i ? k + 1 : k];
                flows.add(new FlowSpec(hosts[i], dst, sizes.sample(own), t));
            }
        }
        flows.sort(Comparator.comparingLong(FlowSpec::startPs).thenComparingInt(FlowSpec::src));
        return flows;
    }

    /** The expected number of flows (each host's duration over its mean inter-arrival), at least one per host. */
    @Override
    public long flowCount(int hostCount) {
        double sum = 0;
        for (int i = 0; i < hosts.length; i++) {
            sum += durationPs / meanInterArrivalPs(i) + 1;
        }
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
