package rocelab.scenario.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;
import rocelab.congestion.CcSettings;
import rocelab.congestion.ibcc.FecnParameters;
import rocelab.congestion.ibcc.IbCcAlgorithm;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters.ArbitrationEntry;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.packet.FrameFormat;
import rocelab.scenario.FabricMode;
import rocelab.scenario.InfinibandSettings;

/**
 * Reads {@code fabric.infiniband}: {@code vl-buffer}, {@code hca-buffer}, {@code sl-to-vl},
 * {@code vl-arbitration: {high, low, high-limit}} and {@code fecn: {threshold, marking-rate, packet-size}}.
 */
final class InfinibandReader {
    /** The largest InfiniBand path MTU. */
    static final int MAX_MTU = 4096;
    /** RNIC settings of RoCE alone (besides ack and ecn), each with what it sets, refused in infiniband mode. */
    private static final List<String> ROCE_NIC_KEYS = List.of("priority", "trust", "dscp-to-priority", "pfc",
            "pause-response");
    private static final Map<String, String> ROCE_NIC_WHAT = Map.of(
            "priority", "802.1p priority for its data (the class PFC pauses)",
            "trust", "classification of received frames (PCP or DSCP)",
            "dscp-to-priority", "DSCP to priority map",
            "pfc", "PFC priorities",
            "pause-response", "time to act on a PFC frame");

    private final Doc doc;

    InfinibandReader(Doc doc) {
        this.doc = doc;
    }

    /**
     * {@code fabric.infiniband} in infiniband mode (defaults when absent); refuses it in the RoCE modes, and refuses
     * what has no meaning on InfiniBand (a VLAN tag, IP ECN marking).
     */
    static InfinibandSettings forMode(Doc doc, YamlMap top, YamlMap fabric, FabricMode mode, int mtu)
            throws ScenarioException {
        if (mode != FabricMode.INFINIBAND) {
            if (fabric.has("infiniband")) {
                throw doc.at(fabric.keyNode("infiniband"), "fabric.infiniband applies to fabric mode infiniband only;"
                        + " expected fabric: {mode: infiniband, ...} or no infiniband block");
            }
            return null;
        }
        if (mtu > MAX_MTU) {
            throw doc.at(fabric.get("mtu"), "mtu of " + mtu + " bytes is above the largest InfiniBand path MTU;"
                    + " expected at most 4096 bytes in infiniband mode");
        }
        if (fabric.has("vlan")) {
            throw doc.at(fabric.keyNode("vlan"), "an InfiniBand fabric has no VLAN tag; expected no vlan key in"
                    + " infiniband mode");
        }
        Node switchNode = top.get("switch");
        if (switchNode != null && !Doc.isNull(switchNode)) {
            refuseEthernetSwitchKeys(doc, YamlMap.of(doc, switchNode, "switch", DeviceReader.SWITCH_KEYS), "switch.");
        }
        return new InfinibandReader(doc).read(fabric.get("infiniband"), mtu);
    }

    /**
     * The Ethernet switch settings that have no meaning on InfiniBand, in {@code sw} ({@code switch}, or a
     * {@code switches} entry, whose {@code dscp-to-tc} would be ignored too: the service levels are one map, the
     * same at every switch); {@code label} names where, as {@code "switch."}.
     */
    static void refuseEthernetSwitchKeys(Doc doc, YamlMap sw, String label) throws ScenarioException {
        if (sw.has("ecn")) {
            throw doc.at(sw.keyNode("ecn"), label + "ecn marks IP ECN, which InfiniBand packets do not carry;"
                    + " expected fabric.infiniband.fecn for IB congestion control marking");
        }
        if (sw.has("buffer")) {
            throw doc.at(sw.keyNode("buffer"), label + "buffer is an Ethernet switch's shared buffer; expected"
                    + " fabric.infiniband.vl-buffer (input buffer per port and lane) in infiniband mode");
        }
        if (sw.has("scheduler")) {
            throw doc.at(sw.keyNode("scheduler"), label + "scheduler schedules Ethernet traffic classes; expected"
                    + " fabric.infiniband.vl-arbitration in infiniband mode");
        }
        if (label.equals("switch.")) {
            return; // the fabric's one dscp-to-tc, and no sonic key there
        }
        if (sw.has("dscp-to-tc")) {
            throw doc.at(sw.keyNode("dscp-to-tc"), label + "dscp-to-tc would give this switch service levels of"
                    + " its own, but an InfiniBand packet keeps the one its HCA set; expected switch.dscp-to-tc (one"
                    + " map for the fabric) in infiniband mode");
        }
        if (sw.has("sonic")) {
            throw doc.at(sw.keyNode("sonic"), label + "sonic imports an Ethernet switch's configuration; expected no"
                    + " sonic in infiniband mode");
        }
    }

    /**
     * The RNIC settings that only RoCE has, refused in infiniband mode rather than read and ignored: an HCA sends on
     * the service level of its DSCP's class (no priority, trust or DSCP-to-priority map), its lanes are lossless by
     * credits (no PFC, so no pause response), its ACKs travel on their QP's service level, and its packets have no IP
     * ECN field. {@code nic} may be null (no block).
     */
    static void refuseRoceNicKeys(Doc doc, YamlMap nic) throws ScenarioException {
        if (nic == null) {
            return;
        }
        if (nic.has("ack")) {
            throw doc.at(nic.keyNode("ack"), ScenarioReader.ACK_ON_INFINIBAND);
        }
        if (nic.has("ecn")) {
            throw doc.at(nic.keyNode("ecn"), ScenarioReader.ECN_ON_INFINIBAND);
        }
        for (String key : ROCE_NIC_KEYS) {
            if (nic.has(key)) {
                throw doc.at(nic.keyNode(key), "nic." + key + " is a RoCE RNIC's " + ROCE_NIC_WHAT.get(key)
                        + "; expected no " + key + " in infiniband mode, where an HCA sends on the service level of"
                        + " its DSCP's class (switch.dscp-to-tc) and credits keep every lane lossless");
            }
        }
    }

    /** In infiniband mode the congestion control is none or ib-cc; ib-cc needs an InfiniBand fabric. */
    static void checkCongestionControl(Doc doc, YamlMap nic, FabricMode mode, CcSettings cc)
            throws ScenarioException {
        boolean ib = mode == FabricMode.INFINIBAND;
        boolean ibcc = cc.name().equals(IbCcAlgorithm.NAME);
        if (ib && !ibcc && !cc.name().equals("none")) {
            throw doc.at(nic.get("cc"), "cc '" + cc.name() + "' is a RoCE congestion control; expected none or ib-cc"
                    + " in infiniband mode");
        }
        if (!ib && ibcc) {
            throw doc.at(nic.get("cc"), "ib-cc is InfiniBand congestion control (FECN/BECN); expected fabric: {mode:"
                    + " infiniband}, or a RoCE control such as dcqcn");
        }
    }

    /** @param node the block, or null for the defaults; {@code mtu} checks that a lane buffer holds a packet */
    InfinibandSettings read(Node node, int mtu) throws ScenarioException {
        InfinibandParameters d = InfinibandParameters.defaults();
        if (node == null || Doc.isNull(node)) {
            return InfinibandSettings.defaults();
        }
        YamlMap m = YamlMap.of(doc, node, "fabric.infiniband", "vl-buffer", "hca-buffer", "sl-to-vl",
                "vl-arbitration", "fecn", "sm-sweep");
        long vlBuffer = buffer(m, "vl-buffer", d.vlBufferBytes(), mtu);
        long hcaBuffer = buffer(m, "hca-buffer", d.hcaBufferBytes(), mtu);
        int[] slToVl = d.slToVl();
        if (m.has("sl-to-vl")) {
            List<Node> items = m.requiredList("sl-to-vl", "a list of up to 16 virtual lanes 0..7, one per SL");
            if (items.isEmpty() || items.size() > InfinibandParameters.SERVICE_LEVELS) {
                throw doc.at(m.get("sl-to-vl"), items.size() + " entries; expected 1 to 16 virtual lanes (SL 0"
                        + " first)");
            }
            for (int sl = 0; sl < items.size(); sl++) {
                slToVl[sl] = doc.integer(items.get(sl), "virtual lane", 0, InfinibandParameters.DATA_VLS - 1);
            }
        }
        List<ArbitrationEntry> high = d.high();
        List<ArbitrationEntry> low = d.low();
        int highLimit = d.highLimit();
        Node arbitration = m.get("vl-arbitration");
        if (arbitration != null) {
            YamlMap a = YamlMap.of(doc, arbitration, "fabric.infiniband.vl-arbitration", "high", "low", "high-limit");
            high = a.has("high") ? table(a, "high") : high;
            low = a.has("low") ? table(a, "low") : low;
            highLimit = a.optionalInt("high-limit", highLimit, 0, 255);
        }
        List<ArbitrationEntry> h = high;
        List<ArbitrationEntry> l = low;
        int limit = highLimit;
        InfinibandParameters params = doc.build(node, "fabric.infiniband",
                () -> new InfinibandParameters(vlBuffer, hcaBuffer, slToVl, h, l, limit));
        int served = params.servedMask();
        for (int sl = 0; sl < InfinibandParameters.DATA_VLS; sl++) {
            int vl = slToVl[sl];
            if ((served & (1 << vl)) == 0) {
                throw doc.at(arbitration != null ? arbitration : node, "VL" + vl + " (SL " + sl + ") has no weight in"
                        + " the VL arbitration tables, so it could never send; expected every lane that sl-to-vl uses"
                        + " in high or low with a weight above 0");
            }
        }
        FecnParameters fecn = null;
        if (m.has("fecn")) {
            YamlMap f = YamlMap.of(doc, m.get("fecn"), "fabric.infiniband.fecn", "threshold", "marking-rate",
                    "packet-size", "victim-mask");
            FecnParameters fd = FecnParameters.defaults();
            long threshold = f.optionalSize("threshold", fd.thresholdBytes(), 0);
            int rate = f.optionalInt("marking-rate", fd.markingRate(), 0, 65_535);
            long size = f.optionalSize("packet-size", fd.minPacketBytes(), 0);
            boolean victims = f.optionalBool("victim-mask", fd.victimMask());
            fecn = doc.build(m.get("fecn"), "fabric.infiniband.fecn",
                    () -> new FecnParameters(threshold, rate, (int) Math.min(size, Integer.MAX_VALUE), victims));
        }
        long sweep = m.optionalTime("sm-sweep", 0);
        return new InfinibandSettings(params, fecn, sweep);
    }

    private long buffer(YamlMap m, String key, long defaultValue, int mtu) throws ScenarioException {
        long bytes = m.optionalSize(key, defaultValue, CreditGate.BLOCK_BYTES);
        if (bytes > InfinibandParameters.MAX_BUFFER_BYTES) {
            throw doc.at(m.get(key), key + " of " + bytes + " B is above 128 KiB; expected at most 2048 credits of"
                    + " 64 B per lane (IBA credit counters are 12 bits, modulo 4096)");
        }
        int largest = FrameFormat.infiniband().dataFrameBytes(mtu, true);
        if (bytes / CreditGate.BLOCK_BYTES < CreditGate.blocks(largest)) {
            throw doc.at(m.get(key), key + " of " + bytes + " B cannot hold one " + largest + " B packet at mtu "
                    + mtu + "; expected at least " + CreditGate.blocks(largest) * CreditGate.BLOCK_BYTES + " B");
        }
        return bytes;
    }

    private List<ArbitrationEntry> table(YamlMap a, String key) throws ScenarioException {
        List<ArbitrationEntry> out = new ArrayList<>();
        for (Node item : a.requiredList(key, "a list of {vl: 0..7, weight: 0..255}")) {
            YamlMap e = YamlMap.of(doc, item, "a VL arbitration entry", "vl", "weight");
            int vl = doc.integer(e.require("vl", "a virtual lane 0..7"), "vl", 0, InfinibandParameters.DATA_VLS - 1);
            int weight = doc.integer(e.require("weight", "a weight 0..255 (units of 64 bytes)"), "weight", 0, 255);
            out.add(new ArbitrationEntry(vl, weight));
        }
        if (out.size() > 64) {
            throw doc.at(a.get(key), out.size() + " entries; expected at most 64");
        }
        return out;
    }
}
