package rocelab.scenario.read;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;
import rocelab.congestion.CcSettings;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.engine.Saturating;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.network.NetworkBuilder;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.ReceiveParameters;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;
import rocelab.observe.output.Numbers;
import rocelab.scenario.FabricMode;
import rocelab.scenario.device.Devices;
import rocelab.scenario.device.ImportNote;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;
import rocelab.scenario.device.Trust;

/**
 * Reads the per-device overrides ({@code switches:} and {@code nics:}) and resolves every device's settings. An
 * override is a partial {@code switch} (or {@code nic}) section plus a selector; it is merged key by key into the
 * uniform section (nested mappings such as {@code pfc} or {@code dscp-to-tc} merge too, lists replace), later
 * entries winning, and the result is read by the same readers as the uniform section, so every key means the same
 * in both places and errors point at the line that caused them.
 */
final class DevicesReader {
    private static final String[] SWITCH_SELECTORS = {"name", "role", "ports", "sonic"};
    private static final String[] PORT_KEYS = {"port", "to", "headroom", "mtu", "ecn"};
    private static final Pattern LETTERS = Pattern.compile("[A-Za-z]+");

    private final Doc doc;
    private final FabricMode mode;
    private final FrameFormat frames;
    private final int fabricMtu;
    private final Node mtuNode;
    private final Topology topology;
    private final TrafficReader hosts;
    private final DeviceReader devices;
    private final CongestionReader congestion;
    private final PfcReader pfcReader;
    private final Path baseDir;
    private final List<ImportNote> notes = new ArrayList<>();
    private final PauseLoop loop;

    DevicesReader(Doc doc, FabricMode mode, boolean vlan, int fabricMtu, Node mtuNode, Topology topology,
            TrafficReader hosts, Path baseDir, PauseLoop loop) {
        this.loop = loop;
        this.baseDir = baseDir;
        this.doc = doc;
        this.mode = mode;
        this.frames = new FrameFormat(vlan);
        this.fabricMtu = fabricMtu;
        this.mtuNode = mtuNode;
        this.topology = topology;
        this.hosts = hosts;
        this.devices = new DeviceReader(doc);
        this.congestion = new CongestionReader(doc);
        this.pfcReader = new PfcReader(doc);
    }

    /** The role of a switch: the last run of letters in its name (leaf3: leaf, pod0-agg1: agg, core2: core). */
    static String role(String name) {
        var m = LETTERS.matcher(name);
        String last = name;
        while (m.find()) {
            last = m.group();
        }
        return last;
    }

    Devices read(Node switchSection, Node switchesList, Node nicSection, Node nicsList, PfcParameters basePfc)
            throws ScenarioException {
        List<SwitchConfig> sw = switches(switchSection, switchesList);
        return new Devices(sw, nics(nicSection, nicsList, basePfc), notes);
    }

    // ------------------------------------------------------------------------------------------------ switches

    private List<SwitchConfig> switches(Node base, Node list) throws ScenarioException {
        List<YamlMap> items = new ArrayList<>();
        List<boolean[]> matches = new ArrayList<>();
        List<Node> imported = new ArrayList<>();
        if (list != null && !Doc.isNull(list)) {
            List<String> keys = new ArrayList<>(List.of(SWITCH_SELECTORS));
            for (String k : DeviceReader.SWITCH_KEYS) {
                if (!k.equals("forwarding-latency") && !k.equals("ecmp")) {
                    keys.add(k);
                }
            }
            for (Node n : doc.list(list, "switches", "a list of overrides, each with a name or role")) {
                YamlMap item = YamlMap.of(doc, n, "a switches entry", keys.toArray(new String[0]));
                if (mode == FabricMode.INFINIBAND) {
                    InfinibandReader.refuseEthernetSwitchKeys(doc, item, "a switches entry's ");
                }
                if (item.get("pfc") instanceof org.yaml.snakeyaml.nodes.MappingNode pfcNode) {
                    uniform(YamlMap.of(doc, pfcNode, "pfc", PfcReader.KEYS), "pause-response",
                            "switch.pfc.pause-response");
                }
                items.add(item);
                matches.add(selectSwitches(item));
                imported.add(item.has("sonic") ? sonic(item.get("sonic")) : null);
            }
        }
        Map<String, SwitchConfig> byOverrides = new HashMap<>();
        List<SwitchConfig> out = new ArrayList<>();
        for (int s = 0; s < topology.switchCount(); s++) {
            int node = topology.hostCount() + s;
            StringBuilder key = new StringBuilder();
            Node merged = base;
            List<YamlMap> applied = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                if (matches.get(i)[s]) {
                    key.append(i).append(',');
                    // The imported configuration first, the entry's own keys over it.
                    merged = YamlMerge.merge(merged, imported.get(i));
                    merged = YamlMerge.merge(merged, YamlMerge.without(items.get(i).node(), SWITCH_SELECTORS));
                    applied.add(items.get(i));
                }
            }
            out.add(resolveSwitch(node, merged, applied, byOverrides, key.toString(), base));
        }
        return out;
    }

    /** {@code sonic: path/to/config_db.json}: the file's RoCE QoS subset as an override, its notes kept. */
    private Node sonic(Node value) throws ScenarioException {
        String path = doc.text(value, "sonic", "the path of a SONiC config_db.json");
        SonicImport.Result r = SonicImport.read(doc, value, baseDir, path);
        notes.addAll(r.notes());
        return r.override();
    }

    private boolean[] selectSwitches(YamlMap item) throws ScenarioException {
        if (!item.has("name") && !item.has("role")) {
            throw doc.at(item.node(), "a switches entry needs name or role; expected e.g. {name: leaf1, ...},"
                    + " {name: \"leaf*\", ...} or {role: spine, ...}");
        }
        boolean[] hit = new boolean[topology.switchCount()];
        Arrays.fill(hit, true);
        if (item.has("name")) {
            boolean[] names = new boolean[hit.length];
            for (Node n : scalars(item.get("name"), "name")) {
                String pattern = doc.text(n, "name", "a switch name or a pattern such as leaf*");
                Pattern glob = glob(pattern);
                boolean any = false;
                for (int s = 0; s < hit.length; s++) {
                    if (glob.matcher(topology.nodeName(topology.hostCount() + s)).matches()) {
                        names[s] = true;
                        any = true;
                    }
                }
                if (!any) {
                    throw doc.at(n, "no switch is named '" + pattern + "'; expected one of " + switchNames());
                }
            }
            and(hit, names);
        }
        if (item.has("role")) {
            boolean[] roles = new boolean[hit.length];
            for (Node n : scalars(item.get("role"), "role")) {
                String role = doc.text(n, "role", "a role such as leaf or spine");
                boolean any = false;
                for (int s = 0; s < hit.length; s++) {
                    if (role(topology.nodeName(topology.hostCount() + s)).equals(role)) {
                        roles[s] = true;
                        any = true;
                    }
                }
                if (!any) {
                    throw doc.at(n, "no switch has the role '" + role + "'; expected one of " + roles());
                }
            }
            and(hit, roles);
        }
        return hit;
    }

    private static void and(boolean[] a, boolean[] b) {
        for (int i = 0; i < a.length; i++) {
            a[i] &= b[i];
        }
    }

    private List<Node> scalars(Node n, String label) {
        return n instanceof SequenceNode seq ? seq.getValue() : List.of(n);
    }

    private static Pattern glob(String pattern) {
        StringBuilder re = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString());
    }

    private String switchNames() {
        List<String> names = new ArrayList<>();
        for (int s = 0; s < topology.switchCount() && s < 12; s++) {
            names.add(topology.nodeName(topology.hostCount() + s));
        }
        return String.join(", ", names) + (topology.switchCount() > 12 ? ", ..." : "") + " (or a pattern with *)";
    }

    private String roles() {
        TreeSet<String> r = new TreeSet<>();
        for (int s = 0; s < topology.switchCount(); s++) {
            r.add(role(topology.nodeName(topology.hostCount() + s)));
        }
        return String.join(", ", r);
    }

    private SwitchConfig resolveSwitch(int node, Node merged, List<YamlMap> applied,
            Map<String, SwitchConfig> cache, String key, Node base) throws ScenarioException {
        SwitchConfig shared = cache.get(key);
        SwitchParameters params;
        PfcParameters pfc;
        EcnParameters ecn;
        int mtu;
        if (shared != null && !hasPorts(applied)) {
            params = shared.parameters();
            pfc = shared.pfc();
            ecn = shared.ecn(0);
            mtu = shared.mtu(0);
        } else {
            YamlMap m = merged == null ? null : YamlMap.of(doc, merged, "switch", DeviceReader.SWITCH_KEYS);
            params = devices.switches(merged);
            pfc = pfcReader.read(m == null ? null : m.get("pfc"), mode);
            ecn = congestion.ecn(m == null ? null : m.get("ecn"));
            mtu = m == null ? 0 : mtu(m.get("mtu"));
        }
        int ports = topology.portCount(node);
        EcnParameters[] ecnByPort = new EcnParameters[ports];
        Arrays.fill(ecnByPort, ecn);
        int[] mtuByPort = new int[ports];
        Arrays.fill(mtuByPort, mtu);
        long[] headroom = NetworkBuilder.headroomPerPort(topology, node, pfc, frames, fabricMtu, loop);
        Node ecnBase = merged == null ? null : YamlMap.of(doc, merged, "switch", DeviceReader.SWITCH_KEYS).get("ecn");
        Node[] ecnNodes = new Node[ports];
        Arrays.fill(ecnNodes, ecnBase);
        for (YamlMap item : applied) {
            if (item.has("ports")) {
                ports(item.get("ports"), node, pfc, ecnBase, ecnByPort, ecnNodes, mtuByPort, headroom);
            }
        }
        RedThresholds.check(doc, topology, node, ecnByPort, ecnNodes);
        // Blamed on the last entry that sets what the check weighs (the buffer, PFC, a port's headroom, an import),
        // else on switch.buffer (or the switch mapping), as without entries: an entry that only sets a DSCP map did
        // not make the buffer too small.
        Node baseBuffer = base == null || Doc.isNull(base) ? null
                : YamlMap.of(doc, base, "switch", DeviceReader.SWITCH_KEYS).get("buffer");
        Node blamed = baseBuffer != null ? baseBuffer : base;
        for (YamlMap item : applied) {
            if (item.has("buffer")) {
                blamed = item.get("buffer");
            } else if (item.has("pfc") || item.has("ports") || item.has("sonic")) {
                blamed = item.node();
            }
        }
        checkBuffer(node, params, pfc, headroom, bufferSource(merged, blamed));
        SwitchConfig c = new SwitchConfig(node, topology.nodeName(node), params, pfc, ecnByPort, headroom, mtuByPort,
                !applied.isEmpty());
        cache.putIfAbsent(key, c);
        return c;
    }

    /** Keys that stay the same on every device (the headroom of a port depends on its peer's value). */
    private void uniform(YamlMap item, String key, String where) throws ScenarioException {
        if (item.has(key)) {
            throw doc.at(item.keyNode(key), key + " stays uniform; expected it in " + where + " only");
        }
    }

    private static boolean hasPorts(List<YamlMap> applied) {
        return applied.stream().anyMatch(m -> m.has("ports"));
    }

    /** InfiniBand's MTUs: the largest payload of a packet, headers on top (IBTA: 256 to 4096 bytes). */
    private static final Set<Integer> IB_MTUS = Set.of(256, 512, 1024, 2048, 4096);

    private int mtu(Node n) throws ScenarioException {
        if (n == null) {
            return 0;
        }
        if (mode == FabricMode.INFINIBAND) {
            int v = doc.integer(n, "mtu", 1, 65_536);
            if (!IB_MTUS.contains(v)) {
                throw doc.at(n, "mtu " + v + " is not an InfiniBand MTU; expected one of 256, 512, 1024, 2048, 4096"
                        + " (in infiniband mode a port's MTU is the largest payload it carries, headers on top)");
            }
            return v;
        }
        return doc.integer(n, "mtu", 576, 65_536);
    }

    /** {@code ports: [{port: 3, headroom: 20KB}, {to: spine0, mtu: 1500}]}. */
    private void ports(Node list, int node, PfcParameters pfc, Node ecnBase, EcnParameters[] ecnByPort,
            Node[] ecnNodes, int[] mtuByPort, long[] headroom) throws ScenarioException {
        for (Node n : doc.list(list, "ports", "a list of port overrides, each with port or to")) {
            YamlMap p = YamlMap.of(doc, n, "a ports entry", PORT_KEYS);
            if (mode == FabricMode.INFINIBAND && p.has("ecn")) {
                throw doc.at(p.keyNode("ecn"), "a ports entry's ecn marks IP ECN, which InfiniBand packets do not"
                        + " carry; expected fabric.infiniband.fecn for IB congestion control marking");
            }
            boolean[] hit = selectPorts(p, node);
            Node ecnNode = p.has("ecn") ? YamlMerge.merge(ecnBase, p.get("ecn")) : null;
            EcnParameters ecn = ecnNode != null ? congestion.ecn(ecnNode) : null;
            int mtu = p.has("mtu") ? mtu(p.get("mtu")) : -1;
            long room = -1;
            boolean auto = false;
            if (p.has("headroom")) {
                if (!pfc.enabled()) {
                    throw doc.at(p.keyNode("headroom"), "headroom applies with PFC only; expected fabric: {mode:"
                            + " roce-lossless}, or no headroom");
                }
                String t = doc.text(p.get("headroom"), "headroom", "auto or a size");
                auto = t.equals("auto");
                room = auto ? -1 : doc.size(p.get("headroom"), "headroom", 0);
            }
            for (int port = 0; port < hit.length; port++) {
                if (!hit[port]) {
                    continue;
                }
                if (ecn != null) {
                    ecnByPort[port] = ecn;
                    ecnNodes[port] = ecnNode;
                }
                if (mtu >= 0) {
                    mtuByPort[port] = mtu;
                }
                if (auto) {
                    headroom[port] = loop.headroomBytes(topology, node, port, frames, fabricMtu);
                } else if (room >= 0) {
                    headroom[port] = room;
                }
            }
        }
    }

    private boolean[] selectPorts(YamlMap p, int node) throws ScenarioException {
        int ports = topology.portCount(node);
        boolean[] hit = new boolean[ports];
        if (p.has("port") == p.has("to")) {
            throw doc.at(p.node(), "a ports entry needs either port (an index, 0.." + (ports - 1) + ") or to (the"
                    + " name of the device at the other end); expected one of them");
        }
        if (p.has("port")) {
            for (Node n : scalars(p.get("port"), "port")) {
                hit[doc.integer(n, "port", 0, ports - 1)] = true;
            }
            return hit;
        }
        for (Node n : scalars(p.get("to"), "to")) {
            String pattern = doc.text(n, "to", "a device name such as spine0, h3 or spine*");
            Pattern glob = glob(pattern);
            boolean any = false;
            for (int port = 0; port < ports; port++) {
                if (glob.matcher(topology.nodeName(topology.peer(node, port).node())).matches()) {
                    hit[port] = true;
                    any = true;
                }
            }
            if (!any) {
                throw doc.at(n, topology.nodeName(node) + " has no port to '" + pattern + "'; expected a neighbour"
                        + " of " + topology.nodeName(node) + " such as "
                        + topology.nodeName(topology.peer(node, 0).node()));
            }
        }
        return hit;
    }

    /**
     * Where a too-small buffer is reported: at the buffer's own value when another file set it (a SONiC import's
     * BUFFER_POOL size), so the error names that file's line; else at the switch's entry.
     */
    private Node bufferSource(Node merged, Node entry) throws ScenarioException {
        Node buffer = merged == null ? null : YamlMap.of(doc, merged, "switch", DeviceReader.SWITCH_KEYS).get("buffer");
        String from = buffer == null || buffer.getStartMark() == null ? null : buffer.getStartMark().getName();
        return from != null && from.startsWith(Doc.FILE_MARK) ? buffer : entry;
    }

    /** Every switch must keep some shared buffer after reserving headroom for its lossless priority groups. */
    private void checkBuffer(int node, SwitchParameters params, PfcParameters pfc, long[] headroom, Node where)
            throws ScenarioException {
        long reserved = 0;
        long largest = 0;
        for (long h : headroom) {
            reserved = Saturating.add(reserved,
                    Saturating.multiply(h, Integer.bitCount(pfc.losslessMask())));
            largest = Math.max(largest, h);
        }
        if (pfc.enabled() && reserved >= params.bufferBytes()) {
            throw doc.at(where == null ? mtuNode : where, String.format(Locale.ROOT, "the switch buffer (%,d B) is"
                    + " too small for the PFC headroom that %s reserves (%,d B: %s x %s,"
                    + " up to %,d B each); expected a larger buffer or a smaller pfc.headroom",
                    params.bufferBytes(), topology.nodeName(node), reserved,
                    Numbers.count(headroom.length, "port", "ports"),
                    Numbers.count(Integer.bitCount(pfc.losslessMask()), "lossless priority", "lossless priorities"),
                    largest));
        }
    }

    // ------------------------------------------------------------------------------------------------ RNICs

    private List<NicConfig> nics(Node base, Node list, PfcParameters basePfc) throws ScenarioException {
        List<YamlMap> items = new ArrayList<>();
        List<boolean[]> matches = new ArrayList<>();
        if (list != null && !Doc.isNull(list)) {
            List<String> keys = new ArrayList<>(List.of("hosts"));
            keys.addAll(List.of(DeviceReader.nicKeys()));
            for (Node n : doc.list(list, "nics", "a list of overrides, each with hosts")) {
                YamlMap item = YamlMap.of(doc, n, "a nics entry", keys.toArray(new String[0]));
                uniform(item, "pause-response", "nic.pause-response");
                boolean[] hit = new boolean[topology.hostCount()];
                for (int h : hosts.hostSet(item.require("hosts", "host indices such as 3, 0-7 or [1, 5]"), "hosts")) {
                    hit[h] = true;
                }
                items.add(item);
                matches.add(hit);
            }
        }
        Map<String, NicConfig> cache = new HashMap<>();
        Set<String> checked = new HashSet<>();
        List<NicConfig> out = new ArrayList<>();
        for (int h = 0; h < topology.hostCount(); h++) {
            StringBuilder key = new StringBuilder();
            Node merged = base;
            for (int i = 0; i < items.size(); i++) {
                if (matches.get(i)[h]) {
                    key.append(i).append(',');
                    merged = YamlMerge.merge(merged, YamlMerge.without(items.get(i).node(), "hosts"));
                }
            }
            NicConfig shared = cache.get(key.toString());
            NicConfig c = shared != null ? withHost(shared, h) : nic(h, merged, basePfc);
            cache.putIfAbsent(key.toString(), c);
            // Its congestion control's values must hold at its own line rate (each QP resolves them there when it is
            // created): checked once per settings and rate, at the RNIC it first fails for.
            long rate = queuePairLineRateBps(h);
            if (checked.add(key + "@" + rate)) {
                congestion.checkAtLineRate(merged == null ? null : YamlMap.of(doc, merged, "nic",
                        DeviceReader.nicKeys()), c.congestion(), rate, "h" + h);
            }
            out.add(c);
        }
        return out;
    }

    /**
     * The rate host {@code h}'s QPs run at, their congestion control's line rate: the RNIC's, or one plane's when each
     * QP keeps to one plane of a multi-plane fabric (as the RNIC's {@code queuePairLineRateBps}).
     */
    private long queuePairLineRateBps(int h) {
        long rate = topology.hostRateBps(h);
        return topology.planes() == 1 || topology.planeSelection() == PlaneSelection.SPRAY
                ? rate : rate / topology.planes();
    }

    private static NicConfig withHost(NicConfig c, int host) {
        return new NicConfig(host, c.parameters(), c.trust(), c.dscpToPriority(), c.pfcMask(), c.congestion(),
                c.notificationPoint(), c.reactionPoint(), c.cnpDscp(), c.cnpPriority(), c.receive());
    }

    private NicConfig nic(int host, Node merged, PfcParameters basePfc) throws ScenarioException {
        YamlMap m = merged == null ? null : YamlMap.of(doc, merged, "nic", DeviceReader.nicKeys());
        NicParameters params = devices.nic(m, fabricMtu, mtuNode);
        if (mode == FabricMode.INFINIBAND) {
            InfinibandReader.refuseRoceNicKeys(doc, m);
        }
        CcSettings cc = congestion.congestionControl(m);
        int[] cnp = congestion.cnpQos(m);
        ReceiveParameters rx = devices.receive(m);
        Trust trust = Trust.DSCP;
        int[] dscpToPriority = NicConfig.defaultDscpToPriority();
        int pfcMask = basePfc.losslessMask();
        boolean np = true;
        boolean rp = true;
        if (m != null) {
            trust = Trust.valueOf(m.optionalChoice("trust", "dscp", "a trust mode", "dscp", "pcp")
                    .toUpperCase(Locale.ROOT));
            if (m.has("dscp-to-priority")) {
                devices.dscpMap(m.get("dscp-to-priority"), dscpToPriority, "nic.dscp-to-priority", "priority");
            }
            if (m.has("pfc")) {
                pfcMask = 0;
                for (Node n : m.requiredList("pfc", "a list of priorities 0..7 with PFC enabled, e.g. [3]")) {
                    pfcMask = DeviceReader.addPriority(doc, n, pfcMask);
                }
            }
            np = m.optionalBool("np", true);
            rp = m.optionalBool("rp", true);
        }
        return new NicConfig(host, params, trust, dscpToPriority, pfcMask, cc, np, rp, cnp[0], cnp[1], rx);
    }
}
