package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.engine.Rates;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.device.NicConfig;

/**
 * The base RTTs of the paths a flow's QP takes, as delay-based controls' rules (TIMELY's L19, Swift's L23) weigh
 * their thresholds against them: an RTT sample is never below the base RTT of its packet's path (the packet and its
 * ACK serialised on every link, propagation, the switches' forwarding latency, and a slower receive pipeline at each
 * end). The smallest is a data packet without payload with the quickest ACK path; the largest a full packet with the
 * slowest.
 */
final class BaseRtts {
    /** One data path of a flow and the least and most base RTT over it. */
    record PathRtt(LintContext.Path path, long minPs, long maxPs) {}

    private final LintContext c;
    private final Map<String, List<LintContext.Path>> data;
    private Map<String, List<LintContext.Path>> acks;

    BaseRtts(LintContext c) {
        this.c = c;
        this.data = byFlow(c.dataPaths(), false);
    }

    /**
     * The data paths of flow {@code f} ({source, destination, DSCP}, as {@link LintContext#flows()}) with their base
     * RTTs; empty when its data or ACK paths are not known (beyond the lint's path budget).
     */
    List<PathRtt> of(int[] f) {
        if (acks == null) {
            acks = byFlow(c.ackPaths(), true);
        }
        String key = f[0] + "/" + f[1] + "/" + f[2];
        List<LintContext.Path> forward = data.getOrDefault(key, List.of());
        List<LintContext.Path> back = acks.getOrDefault(key, List.of());
        if (forward.isEmpty() || back.isEmpty()) {
            return List.of();
        }
        FrameFormat frames = c.frames();
        NicConfig sender = c.nic(f[0]);
        int smallest = frames.dataFrameBytes(0, false);
        int largest = frames.dataFrameBytes(sender.parameters().mtuBytes(), true);
        long ackMin = Long.MAX_VALUE;
        long ackMax = 0;
        for (LintContext.Path a : back) {
            ackMin = Math.min(ackMin, oneWayPs(c, a, frames.ackFrameBytes()));
            ackMax = Math.max(ackMax, oneWayPs(c, a, frames.ackFrameBytes()));
        }
        long ends = receivePs(sender, frames.ackFrameBytes(), frames);
        List<PathRtt> out = new ArrayList<>(forward.size());
        for (LintContext.Path d : forward) {
            long min = oneWayPs(c, d, smallest) + receivePs(c.nic(f[1]), smallest, frames) + ackMin + ends;
            long max = oneWayPs(c, d, largest) + receivePs(c.nic(f[1]), largest, frames) + ackMax + ends;
            out.add(new PathRtt(d, min, max));
        }
        return out;
    }

    /**
     * The time from a frame of {@code frameBytes} starting to leave the first host of {@code p} until the last host
     * of it has all of it, alone on the path: its serialisation on every link, every link's propagation and every
     * switch's forwarding latency (store and forward).
     */
    static long oneWayPs(LintContext c, LintContext.Path p, int frameBytes) {
        Topology t = c.topology();
        int wire = c.frames().onWire(frameBytes);
        LintContext.Hop first = p.hops().get(0);
        var link = t.edgeAt(first.node(), first.inPort()).parameters();
        long ps = Rates.serializationPs(wire, link.rateBps()) + link.delayPs();
        for (LintContext.Hop h : p.hops()) {
            var out = t.edgeAt(h.node(), h.outPort()).parameters();
            ps += c.switchAt(h.switchIndex()).parameters().forwardingLatencyPs()
                    + Rates.serializationPs(wire, out.rateBps()) + out.delayPs();
        }
        return ps;
    }

    /** What an RNIC's receive pipeline (nic.rx) adds to a frame it takes in: nothing at line rate. */
    static long receivePs(NicConfig nic, int frameBytes, FrameFormat frames) {
        return nic.receive().limited() ? Rates.serializationPs(frames.onWire(frameBytes), nic.receive().rateBps()) : 0;
    }

    /** The paths of each flow, by (source, destination, DSCP) of the flow ({@code back}: paths of its ACKs). */
    private static Map<String, List<LintContext.Path>> byFlow(List<LintContext.Path> paths, boolean back) {
        Map<String, List<LintContext.Path>> out = new LinkedHashMap<>();
        for (LintContext.Path p : paths) {
            String key = back ? p.dst() + "/" + p.src() + "/" + p.dscp() : p.src() + "/" + p.dst() + "/" + p.dscp();
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
        }
        return out;
    }

}
