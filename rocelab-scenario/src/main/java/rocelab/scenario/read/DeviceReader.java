package rocelab.scenario.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import rocelab.congestion.CongestionControls;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.ReceiveParameters;
import rocelab.fabric.port.SchedulerKind;
import rocelab.fabric.switching.AdaptiveParameters;
import rocelab.fabric.switching.EcmpHash;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.switching.SwitchParameters;

/** Reads the {@code switch} and {@code nic} sections into {@link SwitchParameters} and {@link NicParameters}. */
final class DeviceReader {
    /** Keys of the {@code switch} section. */
    static final String[] SWITCH_KEYS = {"buffer", "forwarding-latency", "dscp-to-tc", "scheduler", "ecmp",
        "load-balancing", "ecn", "pfc", "mtu"};

    /** Keys of {@code switch.load-balancing}. */
    static final String[] LOAD_BALANCING_KEYS = {"mode", "bits", "quantum", "utilisation-window", "tie-break",
        "flowlet-timeout", "flowlet-table"};

    /** Keys of the {@code nic} section: its own, plus one settings block per congestion control. */
    static String[] nicKeys() {
        List<String> keys = new ArrayList<>(List.of("cc", "ack-every", "timeout", "retry-count", "dscp",
                "priority", "ecn", "cnp", "ack", "rx", "trust", "dscp-to-priority", "pfc", "np", "rp", "pause-response",
                "ooo", "ooo-window", "ooo-reorder"));
        keys.addAll(CongestionControls.names());
        return keys.toArray(new String[0]);
    }

    private final Doc doc;

    DeviceReader(Doc doc) {
        this.doc = doc;
    }

    /** The switch settings; an absent section ({@code node == null}) gives the defaults. */
    SwitchParameters switches(Node node) throws ScenarioException {
        SwitchParameters d = SwitchParameters.defaults();
        if (node == null) {
            return d;
        }
        YamlMap m = YamlMap.of(doc, node, "switch", SWITCH_KEYS);
        long buffer = m.optionalSize("buffer", d.bufferBytes(), 1);
        long latency = m.optionalTime("forwarding-latency", d.forwardingLatencyPs());
        int[] dscpToTc = d.dscpToTc();
        if (m.has("dscp-to-tc")) {
            dscpMap(m.get("dscp-to-tc"), dscpToTc, "switch.dscp-to-tc", "traffic class");
        }
        SchedulerKind kind = d.scheduler();
        int[] weights = d.dwrrWeights();
        int strict = d.strictClasses();
        if (m.has("scheduler")) {
            YamlMap s = YamlMap.of(doc, m.get("scheduler"), "switch.scheduler", "kind", "weights", "strict");
            kind = SchedulerKind.valueOf(s.optionalChoice("kind", kind.name().toLowerCase(Locale.ROOT),
                    "a scheduler kind", "strict", "dwrr").toUpperCase(Locale.ROOT));
            if (s.has("weights")) {
                weights = weights(s);
            }
            if (s.has("strict")) {
                strict = strictMask(s);
            }
        }
        LoadBalancing lb = d.loadBalancing();
        EcmpHash hash = d.ecmpHash();
        Long seed = d.ecmpSeed();
        if (m.has("ecmp")) {
            YamlMap e = YamlMap.of(doc, m.get("ecmp"), "switch.ecmp", "mode", "hash", "seed");
            lb = LoadBalancing.valueOf(e.optionalChoice("mode", lb.name().toLowerCase(Locale.ROOT),
                    "a load-balancing mode", "ecmp", "spray").toUpperCase(Locale.ROOT));
            hash = EcmpHash.valueOf(e.optionalChoice("hash", hash.name().toLowerCase(Locale.ROOT),
                    "an ECMP hash", "crc32", "xor", "murmur3").toUpperCase(Locale.ROOT));
            Node seedNode = e.get("seed");
            String expected = "a whole number (the same seed on every switch) or per-switch";
            if (seedNode != null && !"per-switch".equals(doc.text(seedNode, "seed", expected))) {
                seed = doc.longValue(seedNode, "seed", expected);
            }
        }
        AdaptiveParameters adaptive = d.adaptive();
        if (m.has("load-balancing")) {
            YamlMap b = YamlMap.of(doc, m.get("load-balancing"), "switch.load-balancing", LOAD_BALANCING_KEYS);
            lb = LoadBalancing.valueOf(b.optionalChoice("mode", lb.name().toLowerCase(Locale.ROOT),
                    "a load-balancing mode", "ecmp", "spray", "adaptive", "flowlet").toUpperCase(Locale.ROOT));
            adaptive = adaptive(b, adaptive);
        }
        SchedulerKind k = kind;
        int[] w = weights;
        int sc = strict;
        LoadBalancing l = lb;
        EcmpHash h = hash;
        Long sd = seed;
        AdaptiveParameters a = adaptive;
        return doc.build(node, "switch", () -> new SwitchParameters(buffer, latency, dscpToTc, k, w, sc, l, h, sd,
                a));
    }

    /** The parameters of adaptive routing and flowlets in {@code switch.load-balancing}, over {@code d}. */
    private AdaptiveParameters adaptive(YamlMap b, AdaptiveParameters d) throws ScenarioException {
        int bits = b.optionalInt("bits", d.bits(), 1, 8);
        long quantum = b.optionalSize("quantum", d.queueQuantumBytes(), 1);
        long window = b.optionalTime("utilisation-window", d.utilisationWindowPs());
        AdaptiveParameters.TieBreak tie = AdaptiveParameters.TieBreak.valueOf(b.optionalChoice("tie-break",
                d.tieBreak().name().toLowerCase(Locale.ROOT).replace('_', '-'), "a tie-break", "random", "hash",
                "round-robin").toUpperCase(Locale.ROOT).replace('-', '_'));
        long timeout = b.optionalTime("flowlet-timeout", d.flowletTimeoutPs());
        if (timeout <= 0) {
            throw doc.at(b.get("flowlet-timeout"), "flowlet-timeout must be positive; expected a time such as 50us");
        }
        int table = b.optionalInt("flowlet-table", d.flowletTableSize(), 1, 1 << 24);
        if (Integer.bitCount(table) != 1) {
            throw doc.at(b.get("flowlet-table"), "flowlet-table is " + table + "; expected a power of two"
                    + " (1, 2, 4, ..., 16777216 entries)");
        }
        return new AdaptiveParameters(bits, quantum, window, tie, timeout, table);
    }

    /** Overrides of a DSCP map ({@code {26: 3, 48: 6}}) written into {@code map}. */
    void dscpMap(Node node, int[] map, String where, String valueName) throws ScenarioException {
        Map<Integer, Node> seen = new HashMap<>();
        String expected = "a mapping of DSCP (0..63) to " + valueName + " (0..7), e.g. {26: 3}";
        for (NodeTuple t : YamlMap.entries(doc, node, where, expected).values()) {
            int dscp = doc.integer(t.getKeyNode(), "DSCP", 0, 63);
            Node first = seen.putIfAbsent(dscp, t.getKeyNode());
            if (first != null) {
                throw doc.at(t.getKeyNode(), "DSCP " + dscp + " is mapped twice (first on line "
                        + (first.getStartMark().getLine() + 1) + "); expected each DSCP at most once");
            }
            map[dscp] = doc.integer(t.getValueNode(), valueName, 0, 7);
        }
    }

    private int[] weights(YamlMap s) throws ScenarioException {
        List<Node> items = s.requiredList("weights", "8 weights, one per traffic class 0..7");
        if (items.size() != SwitchParameters.TRAFFIC_CLASSES) {
            throw doc.at(s.get("weights"), "weights has " + items.size() + (items.size() == 1 ? " entry" : " entries")
                    + "; expected 8 weights, one per traffic class 0..7");
        }
        int[] w = new int[items.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = doc.integer(items.get(i), "weight", 1, 1000);
        }
        return w;
    }

    /**
     * A PFC priority list's next entry added to its mask: a priority listed twice is refused, as a class listed twice
     * among the strict ones is (a duplicate is a typo for another priority more often than a harmless repeat).
     */
    static int addPriority(Doc doc, Node n, int mask) throws ScenarioException {
        int p = doc.integer(n, "priority", 0, 7);
        if ((mask & 1 << p) != 0) {
            throw doc.at(n, "priority " + p + " is listed twice; expected each priority at most once");
        }
        return mask | 1 << p;
    }

    private int strictMask(YamlMap s) throws ScenarioException {
        int mask = 0;
        for (Node n : s.requiredList("strict", "a list of traffic classes 0..7, e.g. [6, 7]")) {
            int tc = doc.integer(n, "traffic class", 0, 7);
            if ((mask & 1 << tc) != 0) {
                throw doc.at(n, "traffic class " + tc + " is listed twice; expected each class at most once");
            }
            mask |= 1 << tc;
        }
        return mask;
    }

    /** {@code nic.rx: {rate: 50Gbps, buffer: 1MB, xoff: 512KB, xon: 256KB}}; absent: receive at line rate. */
    ReceiveParameters receive(YamlMap nic) throws ScenarioException {
        if (nic == null || !nic.has("rx")) {
            return ReceiveParameters.unlimited();
        }
        YamlMap m = YamlMap.of(doc, nic.get("rx"), "nic.rx", "rate", "buffer", "xoff", "xon");
        long rate = m.requiredRate("rate");
        long buffer = m.optionalSize("buffer", 1_000_000, 1);
        long xoff = m.optionalSize("xoff", buffer / 2, 1);
        long xon = m.optionalSize("xon", xoff / 2, 0);
        return doc.build(nic.get("rx"), "nic.rx", () -> new ReceiveParameters(rate, buffer, xoff, xon));
    }

    /** The RNIC settings; {@code nic} may be {@code null} for all defaults. */
    NicParameters nic(YamlMap nic, int mtu, Node mtuNode) throws ScenarioException {
        if (nic == null) {
            return doc.build(mtuNode, "fabric", () -> NicParameters.defaults(mtu));
        }
        NicParameters d = NicParameters.defaults(4096);
        int ackEvery = nic.optionalInt("ack-every", d.ackEvery(), 1, Integer.MAX_VALUE);
        int timeout = nic.optionalInt("timeout", d.timeoutExponent(), 0, 31);
        int retry = nic.optionalInt("retry-count", d.retryCount(), 0, 7);
        int dscp = nic.optionalInt("dscp", d.dataDscp(), 0, 63);
        int prio = nic.optionalInt("priority", d.dataPriority(), 0, 7);
        boolean ecn = nic.optionalBool("ecn", d.ecnCapable());
        long response = nic.optionalTimeOrAuto("pause-response");
        boolean ooo = nic.optionalBool("ooo", d.ooo());
        int window = nic.optionalInt("ooo-window", d.oooWindowPackets(), 64, 1 << 20);
        int reorder = nic.optionalInt("ooo-reorder", d.oooReorderPackets(), 1, window - 1);
        if (Integer.bitCount(window) != 1) {
            throw doc.at(nic.get("ooo-window"), "ooo-window is " + window + "; expected a power of two (64, 128, ..."
                    + " 1048576), the size of the RNIC's arrival bitmap");
        }
        int[] ack = {-1, -1};
        if (nic.has("ack")) {
            // Both given: an ACK class is a choice of where ACKs queue, which a default half would hide.
            YamlMap a = YamlMap.of(doc, nic.get("ack"), "nic.ack", "dscp", "priority");
            ack[0] = a.requiredInt("dscp", 0, 63);
            ack[1] = a.requiredInt("priority", 0, 7);
        }
        return doc.build(nic.node(), "nic", () -> new NicParameters(mtu, ackEvery, timeout, retry, dscp, prio, ecn,
                response, ooo, window, reorder, ack[0], ack[1]));
    }
}
