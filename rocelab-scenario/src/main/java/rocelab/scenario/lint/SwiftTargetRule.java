package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import rocelab.congestion.swift.SwiftParameters;
import rocelab.scenario.device.NicConfig;

/**
 * L23 (beyond the reference list): Swift's target delay against the base RTTs of the paths its QPs take. Swift shrinks
 * a window only when an RTT sample is above its target, {@code base-delay + hops x hop-delay + fs} with the flow
 * scaling {@code fs} at least 0, so the target is at least {@code base-delay + hops x hop-delay} on a path of that
 * many switches:
 *
 * <ul>
 *   <li>below the smallest base RTT: every sample is above it, and the window shrinks even on an idle fabric;</li>
 *   <li>more than twice the largest base RTT: no window shrinks until waits add the difference to an RTT, a queue
 *       deeper than the path's bandwidth-delay product (htsim's 20 us default suits larger fabrics than a few
 *       microseconds of RTT: on the example websearch-load, base-delay 10us halved the short flows' p99).</li>
 * </ul>
 */
final class SwiftTargetRule implements LintRule {
    @Override
    public String id() {
        return "L23";
    }

    @Override
    public String title() {
        return "Swift's target delay out of scale with the fabric's base RTTs";
    }

    /** The base RTTs and least targets of the QPs of one setting. */
    private static final class Range {
        final TreeSet<String> senders = new TreeSet<>(Comparator.comparingInt(s -> Integer.parseInt(s.substring(1))));
        long minRttPs = Long.MAX_VALUE;
        long maxRttPs;
        long minTargetPs = Long.MAX_VALUE;
        long maxTargetPs;
        long slowestBps = Long.MAX_VALUE;
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (c.infiniband()) {
            return;
        }
        BaseRtts rtts = new BaseRtts(c);
        Map<List<Long>, Range> ranges = new LinkedHashMap<>();
        for (int[] f : c.flows()) {
            NicConfig sender = c.nic(f[0]);
            if (!"swift".equals(sender.congestion().name())) {
                continue;
            }
            List<BaseRtts.PathRtt> paths = rtts.of(f);
            if (paths.isEmpty()) {
                continue;
            }
            long lineRate = c.topology().edgeAt(f[0], 0).parameters().rateBps();
            SwiftParameters p = SwiftParameters.resolve(sender.congestion().overrides(), lineRate);
            Range r = ranges.computeIfAbsent(List.of(p.baseDelayPs(), p.hopDelayPs()), k -> new Range());
            r.senders.add("h" + f[0]);
            for (BaseRtts.PathRtt d : paths) {
                long target = p.baseDelayPs() + d.path().hops().size() * p.hopDelayPs();
                r.minRttPs = Math.min(r.minRttPs, d.minPs());
                r.maxRttPs = Math.max(r.maxRttPs, d.maxPs());
                r.minTargetPs = Math.min(r.minTargetPs, target);
                r.maxTargetPs = Math.max(r.maxTargetPs, target);
                r.slowestBps = Math.min(r.slowestBps, TimelyThresholdRule.slowestBps(c, d.path()));
            }
        }
        for (Range r : ranges.values()) {
            List<String> devices = new ArrayList<>(r.senders);
            String range = "the base RTTs of their paths are " + TimelyThresholdRule.us(r.minRttPs) + " to "
                    + TimelyThresholdRule.us(r.maxRttPs) + " (data packet and ACK serialised on every link,"
                    + " propagation, switch forwarding latency, no queue)";
            String fix = "scale the target to the fabric: base-delay about the largest base RTT, e.g. nic: {cc: swift,"
                    + " swift: {base-delay: " + TimelyThresholdRule.key(r.maxRttPs) + "}}";
            String target = TimelyThresholdRule.us(r.minTargetPs) + (r.maxTargetPs == r.minTargetPs ? ""
                    : " to " + TimelyThresholdRule.us(r.maxTargetPs));
            if (r.maxTargetPs < r.minRttPs) {
                out.add(this, Severity.WARNING, devices, List.of(), "Swift's target delay (base-delay + hops x"
                        + " hop-delay, at least " + target + ") is below the smallest base RTT of the paths its QPs"
                        + " take: " + range,
                        "every RTT sample is above the target, so the window shrinks on every RTT even on an idle"
                                + " fabric: flows far slower than the line rate",
                        fix);
            } else if (r.minTargetPs > 2 * r.maxRttPs) {
                long wait = r.minTargetPs - r.maxRttPs;
                double bytes = wait * (double) r.slowestBps / 8e12;
                out.add(this, Severity.WARNING, devices, List.of(), String.format(Locale.ROOT, "Swift's target"
                        + " delay (base-delay + hops x hop-delay, at least %s) is %.1fx the largest base RTT of the"
                        + " paths its QPs take: %s", target, r.minTargetPs / (double) r.maxRttPs, range),
                        String.format(Locale.ROOT, "no window shrinks until waits add at least %s to an RTT, %s"
                                + " queued at a %s hop, %.1fx the path's bandwidth-delay product: deep queues"
                                + " (max_queue_bytes) and long tails for short flows behind them",
                                TimelyThresholdRule.us(wait), TimelyThresholdRule.bytes(bytes),
                                TimelyThresholdRule.gbps(r.slowestBps), wait / (double) r.maxRttPs),
                        fix);
            }
        }
    }
}
