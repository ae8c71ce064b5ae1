package rocelab.scenario.read;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.CongestionControls;
import rocelab.congestion.ecn.EcnParameters;

/** Reads ECN marking ({@code switch.ecn}), the congestion control ({@code nic.cc} and its block) and CNP QoS. */
final class CongestionReader {
    private final Doc doc;

    CongestionReader(Doc doc) {
        this.doc = doc;
    }

    /** {@code switch.ecn}; absent: RED with thresholds scaled to each port's rate, on class 3, at dequeue. */
    EcnParameters ecn(Node node) throws ScenarioException {
        EcnParameters d = EcnParameters.defaults();
        if (node == null) {
            return d;
        }
        YamlMap m = YamlMap.of(doc, node, "switch.ecn", "marking", "kmin", "kmax", "pmax", "k", "at", "classes");
        String scheme = m.optionalChoice("marking", d.scheme().key(), "an ECN marking scheme", "red", "step", "none");
        EcnParameters.Scheme s = EcnParameters.Scheme.valueOf(scheme.toUpperCase(Locale.ROOT));
        if (s != EcnParameters.Scheme.RED) {
            for (String k : new String[] {"kmin", "kmax", "pmax"}) {
                if (m.has(k)) {
                    throw doc.at(m.keyNode(k), k + " applies to RED marking only; expected marking: red, or k for"
                            + " step marking");
                }
            }
        }
        if (s != EcnParameters.Scheme.STEP && m.has("k")) {
            throw doc.at(m.keyNode("k"), "k applies to step marking only; expected marking: step, or kmin/kmax/pmax"
                    + " for RED");
        }
        long kmin = m.optionalSize("kmin", -1, 0);
        long kmax = m.optionalSize("kmax", -1, 0);
        if (kmin >= 0 && kmax >= 0 && kmax < kmin) {
            // Said at kmax's own value (it was said at the switch.ecn mapping, a line above where the fix goes).
            throw doc.at(m.get("kmax"), "kmax (" + kmax + " B) must not be below kmin (" + kmin + " B); expected"
                    + " kmax >= kmin (RED marks with a probability rising from kmin to kmax)");
        }
        double pmax = m.has("pmax") ? doc.number(m.get("pmax"), "pmax", 0, 1) : d.pmax();
        long k = m.optionalSize("k", -1, 0);
        boolean atEnqueue = "enqueue".equals(m.optionalChoice("at", "dequeue", "a marking point", "dequeue",
                "enqueue"));
        int classes = d.classMask();
        if (m.has("classes")) {
            classes = 0;
            for (Node n : m.requiredList("classes", "a list of traffic classes 0..7, e.g. [3]")) {
                classes |= 1 << doc.integer(n, "traffic class", 0, 7);
            }
        }
        int c = classes;
        return doc.build(node, "switch.ecn", () -> new EcnParameters(s, kmin, kmax, pmax, k, atEnqueue, c));
    }

    /** {@code nic.cc} plus the block named after it (e.g. {@code dcqcn: {profile: hpcc-ns3, g: 1/256}}). */
    CcSettings congestionControl(YamlMap nic) throws ScenarioException {
        String names = String.join(", ", CongestionControls.names());
        String name = nic == null ? "none" : nic.optionalChoice("cc", "none", "a congestion control",
                CongestionControls.names().toArray(new String[0]));
        if (nic == null) {
            return CcSettings.of(name);
        }
        for (String other : CongestionControls.names()) {
            if (!other.equals(name) && nic.has(other)) {
                throw doc.at(nic.keyNode(other), "settings for '" + other + "' but cc is '" + name + "'; expected"
                        + " settings for the chosen congestion control only (cc: one of " + names + ")");
            }
        }
        CongestionAlgorithm algorithm = CongestionControls.byName(name).orElseThrow();
        Node block = nic.get(name);
        if (block == null) {
            return CcSettings.of(name);
        }
        List<String> keys = new ArrayList<>(algorithm.parameters().keySet());
        if (!algorithm.profiles().isEmpty()) {
            keys.add("profile");
        }
        keys.sort(null);
        YamlMap m = YamlMap.of(doc, block, "nic." + name, keys.toArray(new String[0]));
        String profile = null;
        if (!algorithm.profiles().isEmpty() && m.has("profile")) {
            profile = m.optionalChoice("profile", algorithm.defaultProfile(), "a " + name + " profile",
                    algorithm.profiles().toArray(new String[0]));
        }
        Map<String, Double> overrides = new TreeMap<>();
        Map<String, NodeTuple> entries = YamlMap.entries(doc, block, "nic." + name, "a mapping");
        for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            if (e.getKey().equals("profile")) {
                continue;
            }
            Node v = e.getValue().getValueNode();
            CongestionAlgorithm.Unit unit = algorithm.parameters().get(e.getKey());
            if (unit == CongestionAlgorithm.Unit.FRACTION) {
                ownRange(algorithm, name, profile, v, e.getKey());
            }
            overrides.put(e.getKey(), value(v, e.getKey(), unit));
        }
        String p = profile;
        try {
            algorithm.factory(new CcSettings(name, p, overrides));
        } catch (IllegalArgumentException e) {
            // Said at the key whose value alone breaks it (ccti-limit: 20000 was said at the ib-cc mapping's start);
            // at the block when only a combination does.
            for (Map.Entry<String, Double> o : overrides.entrySet()) {
                try {
                    algorithm.factory(new CcSettings(name, p, Map.of(o.getKey(), o.getValue())));
                } catch (IllegalArgumentException alone) {
                    throw doc.at(entries.get(o.getKey()).getValueNode(), alone.getMessage()
                            + "; expected valid values for nic." + name);
                }
            }
        }
        return doc.build(block, "nic." + name, () -> {
            CcSettings s = new CcSettings(name, p, overrides);
            algorithm.factory(s);
            return s;
        });
    }

    /**
     * A fraction outside 0..1 told in the words of the parameter's own range when it has one ({@code g} in (0, 1)):
     * the generic "0..1" would admit the 1 that the parameter then refuses, two messages that disagree.
     */
    private void ownRange(CongestionAlgorithm algorithm, String name, String profile, Node v, String key)
            throws ScenarioException {
        double x = doc.number(v, key, -1e18, 1e18);
        if (x >= 0 && x <= 1) {
            return;
        }
        try {
            algorithm.check(new CcSettings(name, profile, Map.of(key, x)), REFERENCE_RATES_BPS[3]);
        } catch (IllegalArgumentException e) {
            throw doc.at(v, e.getMessage() + "; expected valid values for nic." + name);
        }
    }

    /** Line rates a value is tried at to tell whether its limit depends on the rate (1 Gb/s to 1.6 Tb/s). */
    private static final long[] REFERENCE_RATES_BPS = {1_000_000_000L, 10_000_000_000L, 25_000_000_000L,
        100_000_000_000L, 400_000_000_000L, 800_000_000_000L, 1_600_000_000_000L};

    /** Whether {@code cc} fails its check at every reference line rate: then its limit does not depend on the rate. */
    private static boolean failsAtEveryRate(CongestionAlgorithm algorithm, CcSettings cc) {
        for (long rate : REFERENCE_RATES_BPS) {
            try {
                algorithm.check(cc, rate);
                return false;
            } catch (IllegalArgumentException e) {
                // fails here too
            }
        }
        return true;
    }

    /**
     * Checks {@code cc} (read from {@code nic}) for an RNIC whose QPs run at {@code lineRateBps}, as they will resolve
     * it when they are created: a value that does not hold there (a {@code min-rate} above that line rate, a
     * {@code max-cut} of 0) is an error at the key whose value alone breaks it (at the block when only a combination
     * does), naming the RNIC and its rate.
     */
    void checkAtLineRate(YamlMap nic, CcSettings cc, long lineRateBps, String rnic) throws ScenarioException {
        CongestionAlgorithm algorithm = CongestionControls.byName(cc.name()).orElseThrow();
        try {
            algorithm.check(cc, lineRateBps);
            return;
        } catch (IllegalArgumentException e) {
            Node block = nic == null ? null : nic.get(cc.name());
            Node at = block != null ? block : nic != null ? nic.node() : null;
            if (block != null) {
                Map<String, NodeTuple> entries = YamlMap.entries(doc, block, "nic." + cc.name(), "a mapping");
                for (Map.Entry<String, Double> o : cc.overrides().entrySet()) {
                    try {
                        algorithm.check(new CcSettings(cc.name(), cc.profile(), Map.of(o.getKey(), o.getValue())),
                                lineRateBps);
                    } catch (IllegalArgumentException alone) {
                        if (entries.containsKey(o.getKey())) {
                            at = entries.get(o.getKey()).getValueNode();
                        }
                        break;
                    }
                }
            }
            // The RNIC and its rate are named only when the limit depends on the line rate (a min-rate above it); a
            // range of its own (g in (0, 1), max-cut above 0) holds at every rate and names no host.
            String where = failsAtEveryRate(algorithm, cc) ? "" : " (" + rnic + "'s QPs run at " + BigDecimal.valueOf(
                    lineRateBps, 9).stripTrailingZeros().toPlainString() + " Gb/s)";
            throw doc.at(at, e.getMessage() + where + "; expected valid values for nic." + cc.name());
        }
    }

    private double value(Node v, String key, CongestionAlgorithm.Unit unit) throws ScenarioException {
        switch (unit) {
            case TIME:
                return doc.time(v, key);
            case RATE:
                return doc.rate(v, key);
            case SIZE:
                return doc.size(v, key, 0);
            case COUNT:
                return doc.integer(v, key, 0, 1_000_000);
            case FLAG:
                return doc.bool(v, key) ? 1 : 0;
            case FRACTION:
                return doc.number(v, key, 0, 1);
            default:
                return doc.number(v, key, -1e18, 1e18);
        }
    }

    /** {@code nic.cnp: {dscp: 48, priority: 6}}: the QoS marking of congestion notifications. */
    int[] cnpQos(YamlMap nic) throws ScenarioException {
        int[] qos = {48, 6};
        if (nic == null || !nic.has("cnp")) {
            return qos;
        }
        YamlMap m = YamlMap.of(doc, nic.get("cnp"), "nic.cnp", "dscp", "priority");
        qos[0] = m.optionalInt("dscp", qos[0], 0, 63);
        qos[1] = m.optionalInt("priority", qos[1], 0, 7);
        return qos;
    }
}
