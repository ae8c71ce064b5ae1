package rocelab.scenario.read;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.switching.AdaptiveParameters;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.CustomTopologySpec;
import rocelab.fabric.topology.FatTreeSpec;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkOverridesSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.MultiPlaneSpec;
import rocelab.fabric.topology.RailOptimizedSpec;
import rocelab.fabric.topology.SingleSwitchSpec;
import rocelab.fabric.topology.TopologySpec;
import rocelab.workload.collective.PairSizes;
import rocelab.workload.job.JobSpec;
import rocelab.workload.traffic.AllToAllTraffic;
import rocelab.workload.traffic.CollectiveTraffic;
import rocelab.workload.traffic.DscpTraffic;
import rocelab.workload.traffic.FlowListTraffic;
import rocelab.workload.traffic.FlowSpec;
import rocelab.workload.traffic.IncastTraffic;
import rocelab.workload.traffic.PermutationTraffic;
import rocelab.workload.traffic.PerftestTraffic;
import rocelab.workload.traffic.PoissonTraffic;
import rocelab.workload.traffic.SingleFlowTraffic;
import rocelab.workload.traffic.TrafficSpec;

/**
 * A deterministic rendering of a resolved scenario: every value after defaults and unit conversion, in base units
 * (bytes, bit/s, ps), so that two files meaning the same scenario render alike and any change shows.
 */
final class CanonicalText {
    private final StringBuilder out = new StringBuilder();

    /** Jobs in a stable text form: layout, hosts, runs and every step of the program. */
    static String jobs(List<JobSpec> jobs) {
        StringBuilder b = new StringBuilder();
        for (JobSpec j : jobs) {
            b.append("[job ").append(j.name()).append(" degrees=").append(j.layout().degrees())
                    .append(" order=").append(j.layout().order()).append(" hosts=").append(join(j.layout().hosts()))
                    .append(" iterations=").append(j.iterations()).append(" warmup=").append(j.warmup())
                    .append(" start-ps=").append(j.startPs()).append(" dscp=").append(j.dscp())
                    .append(" program=").append(j.program()).append(']');
        }
        return b.toString();
    }

    static String render(String name, long seed, String mode, boolean vlan, TopologySpec topology,
                         SwitchParameters sw, NicParameters nic, String cc, List<TrafficSpec> traffic, long stopAtPs) {
        CanonicalText c = new CanonicalText();
        c.line("name: " + name);
        c.line("seed: " + seed);
        c.line("fabric: mode=" + mode + " mtu=" + nic.mtuBytes() + " vlan=" + vlan);
        c.line("topology: " + c.topology(topology));
        c.line("switch: buffer=" + sw.bufferBytes() + " forwarding-latency-ps=" + sw.forwardingLatencyPs()
                + " dscp-to-tc=" + join(sw.dscpToTc()) + " scheduler=" + lower(sw.scheduler().name())
                + " weights=" + join(sw.dwrrWeights()) + " strict=" + strict(sw.strictClasses())
                + " ecmp=" + lower(sw.loadBalancing().name()) + " hash=" + lower(sw.ecmpHash().name())
                + " seed=" + (sw.ecmpSeed() == null ? "per-switch" : sw.ecmpSeed())
                + (sw.loadBalancing().loadAware() ? " " + adaptive(sw.adaptive()) : ""));
        c.line("nic: cc=" + cc + " ack-every=" + nic.ackEvery() + " timeout=" + nic.timeoutExponent()
                + " retry-count=" + nic.retryCount() + " dscp=" + nic.dataDscp() + " priority=" + nic.dataPriority()
                + " ecn=" + nic.ecnCapable() + (nic.ooo() ? " ooo=true ooo-window=" + nic.oooWindowPackets()
                        + " ooo-reorder=" + nic.oooReorderPackets() : ""));
        c.line("traffic:");
        for (TrafficSpec t : traffic) {
            c.line("  - " + traffic(t));
        }
        c.line("run: stop-at-ps=" + (stopAtPs == Long.MAX_VALUE ? "never" : String.valueOf(stopAtPs)));
        return c.out.toString();
    }

    /** Only for the load-aware modes, so the text (and the hash) of every other scenario stays what it was. */
    private static String adaptive(AdaptiveParameters a) {
        return "bits=" + a.bits() + " quantum=" + a.queueQuantumBytes() + " utilisation-window-ps="
                + a.utilisationWindowPs() + " tie-break=" + lower(a.tieBreak().name()) + " flowlet-timeout-ps="
                + a.flowletTimeoutPs() + " flowlet-table=" + a.flowletTableSize();
    }

    private String topology(TopologySpec t) {
        if (t instanceof LinkOverridesSpec o) {
            StringBuilder b = new StringBuilder(topology(o.base()));
            for (LinkOverridesSpec.LinkOverride l : o.overrides()) {
                b.append(" override=").append(l.a()).append('-').append(l.b()).append("@rate=").append(l.rateBps())
                        .append(",delay=").append(l.delayPs());
            }
            return b.toString();
        }
        if (t instanceof MultiPlaneSpec m) {
            return "planes=" + m.planes() + " plane-selection=" + m.selection().key() + " " + topology(m.plane());
        }
        if (t instanceof SingleSwitchSpec s) {
            return "single-switch hosts=" + s.hosts() + " link=" + link(s.link());
        }
        if (t instanceof LeafSpineSpec s) {
            return "leaf-spine leaves=" + s.leaves() + " spines=" + s.spines() + " hosts-per-leaf=" + s.hostsPerLeaf()
                    + " parallel-uplinks=" + s.uplinksPerSpine() + " link=" + link(s.link()) + " uplink="
                    + link(s.uplink());
        }
        if (t instanceof FatTreeSpec s) {
            return "fat-tree k=" + s.k() + " link=" + link(s.link()) + " uplink=" + link(s.uplink());
        }
        if (t instanceof RailOptimizedSpec s) {
            return "rail-optimized servers=" + s.servers() + " gpus-per-server=" + s.gpusPerServer() + " spines="
                    + s.spines() + " link=" + link(s.link()) + " uplink=" + link(s.uplink());
        }
        CustomTopologySpec s = (CustomTopologySpec) t;
        StringBuilder b = new StringBuilder("custom hosts=" + s.hosts() + " switches=" + String.join(",", s.switches()));
        for (CustomTopologySpec.CustomLink l : s.links()) {
            b.append(" link=").append(l.a()).append('-').append(l.b()).append('@').append(link(l.parameters()));
        }
        return b.toString();
    }

    /** Every pair size of an AlltoAllv, row by row. */
    private static String pairs(PairSizes p) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < p.rankCount(); i++) {
            for (int j = 0; j < p.rankCount(); j++) {
                b.append(j == 0 ? (i == 0 ? "" : ";") : ",").append(p.bytes(i, j));
            }
        }
        return b.toString();
    }

    private static String traffic(TrafficSpec t) {
        if (t instanceof DscpTraffic d) {
            return traffic(d.inner()) + " dscp=" + d.dscp();
        }
        if (t instanceof CollectiveTraffic a) {
            var c = a.call();
            return c.op().key() + " " + c.algorithm().key() + " ranks=" + join(c.ranks()) + " size=" + c.sizeBytes()
                    + " start-ps=" + a.startPs() + (c.op().rooted() ? " root=" + c.root() : "")
                    + (c.channels() > 1 ? " channels=" + c.channels() : "") + (c.dscp() >= 0 ? " dscp=" + c.dscp() : "")
                    + (a.iterations() > 1 ? " iterations=" + a.iterations() : "")
                    + (c.qpsPerConnection() > 1 ? " qps-per-connection=" + c.qpsPerConnection() : "")
                    + (c.pairs() != null ? " pairs=" + pairs(c.pairs()) : "");
        }
        if (t instanceof SingleFlowTraffic f) {
            return "flow src=" + f.src() + " dst=" + f.dst() + " size=" + f.sizeBytes() + " start-ps=" + f.startPs();
        }
        if (t instanceof IncastTraffic f) {
            return "incast senders=" + join(f.senders()) + " receiver=" + f.receiver() + " size=" + f.sizeBytes()
                    + " start-ps=" + f.startPs();
        }
        if (t instanceof PermutationTraffic f) {
            return "permutation size=" + f.sizeBytes() + " start-ps=" + f.startPs();
        }
        if (t instanceof AllToAllTraffic f) {
            return "all-to-all size=" + f.sizeBytes() + " start-ps=" + f.startPs();
        }
        if (t instanceof PoissonTraffic p) {
            var c = p.sizes();
            return "poisson sizes=" + c.name() + " cdf=" + Arrays.toString(c.sizes()) + Arrays.toString(c.percents())
                    + " load=" + p.load() + " hosts=" + join(p.hosts()) + " start-ps=" + p.startPs() + " duration-ps="
                    + p.durationPs();
        }
        if (t instanceof PerftestTraffic p) {
            return "perftest " + (p.latency() ? "write-lat" : "write-bw") + (p.bidirectional() ? " bidirectional" : "")
                    + " client=" + p.client() + " server="
                    + p.server() + " size=" + p.sizeBytes() + " iterations=" + p.iterations() + " qps="
                    + p.queuePairs() + " tx-depth=" + p.txDepth() + " cq-mod=" + p.cqMod() + " dscp=" + p.dscp();
        }
        FlowListTraffic f = (FlowListTraffic) t;
        StringBuilder rows = new StringBuilder();
        for (FlowSpec s : f.flows()) {
            rows.append(s.src()).append(',').append(s.dst()).append(',').append(s.sizeBytes()).append(',')
                    .append(s.startPs()).append('\n');
        }
        return "flows-csv file=" + f.source() + " flows=" + f.flows().size() + " sha256=" + sha256(rows.toString());
    }

    private static String link(LinkParameters p) {
        return p.rateBps() + "bps/" + p.delayPs() + "ps";
    }

    private static String join(int[] values) {
        return String.join(",", Arrays.stream(values).mapToObj(Integer::toString).toList());
    }

    private static String strict(int mask) {
        StringBuilder b = new StringBuilder();
        for (int tc = 0; tc < SwitchParameters.TRAFFIC_CLASSES; tc++) {
            if ((mask & 1 << tc) != 0) {
                b.append(b.length() == 0 ? "" : ",").append(tc);
            }
        }
        return b.length() == 0 ? "none" : b.toString();
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static String sha256(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private void line(String s) {
        out.append(s).append('\n');
    }
}
