package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import rocelab.congestion.timely.TimelyParameters;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.device.NicConfig;

/**
 * L19: TIMELY's thresholds against the base RTTs of the paths its QPs take. An RTT sample is never below the base
 * RTT of its packet's path (the packet and its ACK serialised on every link, propagation, the switches' forwarding
 * latency, and a slower receive pipeline at each end), so:
 *
 * <ul>
 *   <li>{@code t-high} below the smallest base RTT: every sample is above it, and every update cuts the rate, even
 *       on an idle fabric;</li>
 *   <li>{@code t-low} above the largest base RTT: every update raises the rate until waits (queues, pauses) add
 *       {@code t-low} minus that base RTT to a sample. Reported when that is more than the base RTT itself: the
 *       queue it takes is more than the path's bandwidth-delay product (the reference thresholds, 50 and 500 us, were
 *       chosen for RTTs of tens of microseconds; a small fabric's are a few).</li>
 * </ul>
 *
 * Both are statements about every sample of the run, whatever the traffic does. Whether queues ever grow as deep as
 * t-low asks is the run's to say (pauses can hold a packet for any time): the rule says how deep, not "never".
 */
final class TimelyThresholdRule implements LintRule {
    @Override
    public String id() {
        return "L19";
    }

    @Override
    public String title() {
        return "TIMELY thresholds out of reach of the fabric's base RTTs";
    }

    /** The base RTTs of the QPs of one setting of the thresholds, and the slowest link they cross. */
    private static final class Range {
        final TreeSet<String> senders = new TreeSet<>(Comparator.comparingInt(s -> Integer.parseInt(
                s.substring(1))));
        long minPs = Long.MAX_VALUE;
        long maxPs;
        /** The slowest link of the paths of the largest base RTT (a queue there adds the most delay per byte). */
        long slowestBps = Long.MAX_VALUE;
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (c.infiniband()) {
            return; // the RNICs' controls there are InfiniBand's (ib-cc)
        }
        BaseRtts rtts = new BaseRtts(c);
        Map<List<Long>, Range> ranges = new LinkedHashMap<>();
        for (int[] f : c.flows()) {
            NicConfig sender = c.nic(f[0]);
            if (!"timely".equals(sender.congestion().name())) {
                continue;
            }
            List<BaseRtts.PathRtt> paths = rtts.of(f);
            if (paths.isEmpty()) {
                continue;
            }
            long lineRate = c.topology().edgeAt(f[0], 0).parameters().rateBps();
            TimelyParameters p = TimelyParameters.resolve(sender.congestion().overrides(), lineRate);
            Range r = ranges.computeIfAbsent(List.of(p.tLowPs(), p.tHighPs()), k -> new Range());
            r.senders.add("h" + f[0]);
            for (BaseRtts.PathRtt d : paths) {
                r.minPs = Math.min(r.minPs, d.minPs());
                if (d.maxPs() >= r.maxPs) {
                    long slowest = slowestBps(c, d.path());
                    r.slowestBps = d.maxPs() > r.maxPs ? slowest : Math.min(r.slowestBps, slowest);
                    r.maxPs = d.maxPs();
                }
            }
        }
        for (Map.Entry<List<Long>, Range> e : ranges.entrySet()) {
            long tLow = e.getKey().get(0);
            long tHigh = e.getKey().get(1);
            Range r = e.getValue();
            List<String> devices = new ArrayList<>(r.senders);
            String range = "the base RTTs of their paths are " + us(r.minPs) + " to " + us(r.maxPs) + " (data packet"
                    + " and ACK serialised on every link, propagation, switch forwarding latency, no queue)";
            String fix = String.format(Locale.ROOT, "scale the thresholds to the fabric: t-low a little above the"
                    + " largest base RTT and t-high a few times it, e.g. nic: {cc: timely, timely: {t-low: %s,"
                    + " t-high: %s, min-rtt: %s}}", key(r.maxPs * 3 / 2), key(r.maxPs * 5), key(r.minPs));
            if (tHigh < r.minPs) {
                out.add(this, Severity.WARNING, devices, List.of(), "TIMELY's t-high of " + us(tHigh) + " is below"
                        + " the smallest base RTT of the paths its QPs take: " + range,
                        "every RTT sample is above t-high, so every update cuts the rate (by beta x (1 - t-high/rtt)),"
                                + " even on an idle fabric: rates fall towards min-rate (rates.csv), flows far slower"
                                + " than the line rate",
                        fix);
            } else if (tLow > 2 * r.maxPs) {
                long wait = tLow - r.maxPs;
                double bytes = wait * (double) r.slowestBps / 8e12;
                out.add(this, Severity.WARNING, devices, List.of(), String.format(Locale.ROOT, "TIMELY's t-low of"
                        + " %s is %.1fx the largest base RTT of the paths its QPs take: %s", us(tLow),
                        tLow / (double) r.maxPs, range),
                        String.format(Locale.ROOT, "below t-low every update raises the rate: TIMELY cuts no rate"
                                + " until waits (queues, pauses) add at least %s to an RTT, %s queued at a %s hop,"
                                + " %.1fx the path's bandwidth-delay product; until then it acts as no congestion"
                                + " control: no rate cuts (rate_cuts), queues that deep (max_queue_bytes), and PFC"
                                + " pauses or drops before any cut where the buffer cannot hold them", us(wait),
                                bytes(bytes), gbps(r.slowestBps), wait / (double) r.maxPs),
                        fix);
            }
        }
    }

    static long slowestBps(LintContext c, LintContext.Path p) {
        Topology t = c.topology();
        LintContext.Hop first = p.hops().get(0);
        long slowest = t.edgeAt(first.node(), first.inPort()).parameters().rateBps();
        for (LintContext.Hop h : p.hops()) {
            slowest = Math.min(slowest, t.edgeAt(h.node(), h.outPort()).parameters().rateBps());
        }
        return slowest;
    }

    static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f us", ps / 1e6);
    }

    /** A time as a scenario value, rounded up to 0.1 us. */
    static String key(long ps) {
        return String.format(Locale.ROOT, "%.1fus", Math.ceil(ps / 1e5) / 10);
    }

    static String gbps(long bps) {
        return String.format(Locale.ROOT, "%.0f Gb/s", bps / 1e9);
    }

    static String bytes(double b) {
        return b >= 1e6 ? String.format(Locale.ROOT, "%.2f MB", b / 1e6)
                : String.format(Locale.ROOT, "%.1f KB", b / 1e3);
    }
}
