package rocelab.scenario.read;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import rocelab.scenario.device.ImportNote;

/**
 * Imports the RoCE-relevant subset of a SONiC {@code config_db.json} as a switch override: DSCP_TO_TC_MAP and
 * PORT_QOS_MAP (classification, PFC priorities, watchdog-enabled priorities), TC_TO_PRIORITY_GROUP_MAP and
 * TC_TO_QUEUE_MAP (checked: the model uses the class as priority group and queue), WRED_PROFILE with its QUEUE
 * binding (ECN), BUFFER_POOL, BUFFER_PROFILE and BUFFER_PG (buffer, headroom, dynamic or static threshold), PFC_WD
 * (watchdog) and PORT (MTU). Both shapes are read: nested ({@code TABLE -> key -> fields}) and flat
 * ({@code "TABLE|key"}). Everything that is not applied is reported as a note, not ignored.
 */
final class SonicImport {
    /** What the import produced: an override mapping (switch keys) and what it could not apply. */
    record Result(Node override, List<ImportNote> notes) {}

    private static final List<String> SUPPORTED = List.of("DSCP_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP",
            "TC_TO_QUEUE_MAP", "PORT_QOS_MAP", "WRED_PROFILE", "QUEUE", "BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG",
            "PFC_WD", "PORT", "SCHEDULER", "DEFAULT_LOSSLESS_BUFFER_PARAMETER");
    private static final List<String> QOS_NOT_APPLIED = List.of("BUFFER_QUEUE", "CABLE_LENGTH",
            "MAP_PFC_PRIORITY_TO_QUEUE", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "BUFFER_PORT_INGRESS_PROFILE_LIST",
            "BUFFER_PORT_EGRESS_PROFILE_LIST", "LOSSLESS_TRAFFIC_PATTERN",
            "DOT1P_TO_TC_MAP", "DSCP_TO_FC_MAP", "EXP_TO_FC_MAP", "TC_TO_DSCP_MAP", "BUFFER_MAX_PARAM");

    /** The ecn modes of sonic-wred-profile.yang, and those that mark green packets (the only colour modelled). */
    private static final List<String> ECN_MODES = List.of("ecn_none", "ecn_green", "ecn_yellow", "ecn_red",
            "ecn_green_yellow", "ecn_green_red", "ecn_yellow_red", "ecn_all");
    private static final List<String> GREEN_MARKING = List.of("ecn_green", "ecn_green_yellow", "ecn_green_red",
            "ecn_all");

    private final Doc doc;
    private final String file;
    private final Map<String, Map<String, MappingNode>> tables = new TreeMap<>();
    private final List<ImportNote> notes = new ArrayList<>();
    private boolean defaultThresholdApplied;

    private SonicImport(Doc doc, String file) {
        this.doc = doc;
        this.file = file;
    }

    /** Reads {@code path} (relative to {@code baseDir}); the override's nodes carry the position of {@code where}. */
    static Result read(Doc scenario, Node where, Path baseDir, String path) throws ScenarioException {
        Path resolved = below(scenario, where, baseDir, path);
        String text;
        try {
            text = new String(YamlBounds.readBounded(resolved), StandardCharsets.UTF_8);
        } catch (YamlBounds.TooLarge e) {
            throw scenario.at(where, "the SONiC config " + resolved.toAbsolutePath().normalize() + " has more than "
                    + YamlBounds.MAX_BYTES / (1 << 20) + " MiB; expected a config_db.json");
        } catch (IOException e) {
            throw scenario.at(where, "cannot read the SONiC config " + resolved.toAbsolutePath().normalize()
                    + "; expected a readable config_db.json");
        }
        SonicImport i = new SonicImport(new Doc(path), path);
        i.tables(i.compose(text));
        Map<String, Object> override = i.override();
        return new Result(Nodes.rebase(Nodes.of(override), where.getStartMark()), List.copyOf(i.notes));
    }

    /**
     * The file a {@code sonic:} path names. A relative path must stay below the scenario's folder (after {@code ..}
     * and symbolic links), so a scenario from elsewhere cannot make rocelab read, and quote in its errors, files
     * beside it; a file anywhere else needs an absolute path, which the scenario's author writes on purpose.
     */
    private static Path below(Doc scenario, Node where, Path baseDir, String path) throws ScenarioException {
        Path given;
        try {
            given = Path.of(path);
        } catch (InvalidPathException e) {
            throw scenario.at(where, "'" + path + "' is not a file path; expected the path of a config_db.json");
        }
        Path resolved = baseDir.resolve(given);
        if (given.isAbsolute()) {
            return resolved;
        }
        Path base = baseDir.toAbsolutePath().normalize();
        boolean inside = resolved.toAbsolutePath().normalize().startsWith(base);
        if (inside && Files.exists(resolved)) {
            try {
                inside = resolved.toRealPath().startsWith(base.toRealPath());
            } catch (IOException e) {
                inside = false;
            }
        }
        if (!inside) {
            throw scenario.at(where, "sonic: " + path + " leads outside the scenario's folder " + base
                    + "; expected a path below it, or an absolute path");
        }
        return resolved;
    }

    /** A parser of strict JSON: what SONiC's loaders accept (no comments, no trailing commas, quoted strings). */
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /**
     * Refuses what is not JSON, at its line and column. The tree is read as YAML (a superset of JSON, and what gives
     * every node its position), which would take a trailing comma, a comment or an unquoted string that SONiC's
     * loaders refuse: an import of a file the switch would not load is no import of its configuration.
     */
    private void strictJson(String text) throws ScenarioException {
        try (JsonParser p = JSON.createParser(text)) {
            while (p.nextToken() != null) {
                // every token read is checked
            }
        } catch (StreamReadException e) {
            JsonLocation at = e.getLocation();
            String why = e.getOriginalMessage().lines().findFirst().orElse("unreadable").strip();
            throw new ScenarioException(file, at == null ? 1 : Math.max(1, at.getLineNr()),
                    at == null ? 1 : Math.max(1, at.getColumnNr()), "malformed JSON: " + why
                    + "; expected a SONiC config_db.json (strict JSON, as SONiC loads it)");
        } catch (IOException e) {
            throw new ScenarioException(file, 1, 1, "malformed JSON: " + e.getMessage()
                    + "; expected a SONiC config_db.json");
        }
    }

    private Node compose(String text) throws ScenarioException {
        strictJson(text);
        try {
            Node root = YamlBounds.compose(new StringReader(text), YamlBounds.options());
            if (!(root instanceof MappingNode)) {
                throw doc.at(root == null ? null : root.getStartMark(), "the file is not a JSON object; expected a"
                        + " SONiC config_db.json");
            }
            return root;
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw doc.at(mark, "malformed JSON: " + (e.getProblem() == null ? "unreadable" : e.getProblem().strip())
                    + "; expected a SONiC config_db.json");
        } catch (YAMLException e) {
            throw doc.at((Mark) null, "malformed JSON: " + e.getMessage() + "; expected a SONiC config_db.json");
        }
    }

    /** Both shapes into TABLE -> key -> fields. */
    private void tables(Node root) throws ScenarioException {
        List<String> other = new ArrayList<>();
        for (NodeTuple t : ((MappingNode) root).getValue()) {
            String name = doc.text(t.getKeyNode(), "table", "a table name");
            String table = name.contains("|") ? name.substring(0, name.indexOf('|')) : name;
            if (!SUPPORTED.contains(table)) {
                if (QOS_NOT_APPLIED.contains(table)) {
                    note("table " + table + " is not applied (not modelled: "
                            + notModelled(table) + ")");
                } else if (!other.contains(table)) {
                    other.add(table);
                }
                continue;
            }
            Map<String, MappingNode> rows = tables.computeIfAbsent(table, k -> new LinkedHashMap<>());
            if (name.contains("|")) {
                rows.put(name.substring(name.indexOf('|') + 1), mapping(t.getValueNode(), name));
            } else {
                for (NodeTuple r : mapping(t.getValueNode(), name).getValue()) {
                    rows.put(doc.text(r.getKeyNode(), "key", "a key"), mapping(r.getValueNode(), name));
                }
            }
        }
        if (!other.isEmpty()) {
            notes.add(new ImportNote(file, "tables ignored as not about RoCE QoS: "
                    + String.join(", ", other), true));
        }
    }

    private void note(String text) {
        notes.add(new ImportNote(file, text, false));
    }

    private static String notModelled(String table) {
        return switch (table) {
            case "CABLE_LENGTH" -> "cable length comes from each link's delay";
            case "BUFFER_QUEUE", "BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST",
                    "BUFFER_MAX_PARAM" -> "one shared buffer per switch, no per-queue or per-port pool limits";
            case "LOSSLESS_TRAFFIC_PATTERN" -> "headroom: auto is the worst case over the frames the simulation sends,"
                    + " not this table's traffic mix (mtu, small_packet_percentage)";
            case "DOT1P_TO_TC_MAP" -> "switches classify by DSCP (dscp-to-tc), not by the 802.1Q priority";
            case "TC_TO_DSCP_MAP" -> "switches do not rewrite the DSCP of the packets they forward";
            case "DSCP_TO_FC_MAP", "EXP_TO_FC_MAP" -> "no forwarding classes (VOQ chassis) in the model";
            default -> "the model maps traffic class, priority group, queue and PFC priority one to one";
        };
    }

    private MappingNode mapping(Node n, String where) throws ScenarioException {
        if (!(n instanceof MappingNode m)) {
            throw doc.at(n, where + " " + Doc.describe(n) + "; expected a JSON object");
        }
        return m;
    }

    private static Map<String, Node> fields(MappingNode m) {
        Map<String, Node> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k) {
                out.put(k.getValue(), t.getValueNode());
            }
        }
        return out;
    }

    private Map<String, MappingNode> table(String name) {
        return tables.getOrDefault(name, Map.of());
    }

    // ------------------------------------------------------------------------------------------------ mapping

    private Map<String, Object> override() throws ScenarioException {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Node> qos = portQos();
        int[] dscpToTc = dscpMap(qos.get("dscp_to_tc_map"));
        if (dscpToTc != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int d = 0; d < 64; d++) {
                m.put(String.valueOf(d), dscpToTc[d]);
            }
            out.put("dscp-to-tc", m);
        }
        List<Integer> lossless = priorities(qos.get("pfc_enable"), "pfc_enable");
        List<Integer> pfcOn = lossless == null ? List.of(3, 4) : lossless;
        checkIdentity("TC_TO_PRIORITY_GROUP_MAP", qos.get("tc_to_pg_map"), "priority group", pfcOn);
        checkIdentity("TC_TO_QUEUE_MAP", qos.get("tc_to_queue_map"), "queue", pfcOn);
        Map<String, Object> pfc = new LinkedHashMap<>();
        if (lossless != null) {
            pfc.put("priorities", lossless);
        }
        buffers(out, pfc, lossless == null ? List.of(3, 4) : lossless);
        defaultLosslessParameters();
        watchdog(pfc, qos, pfcOn);
        if (!pfc.isEmpty()) {
            out.put("pfc", pfc);
        }
        Map<String, Object> ecn = wred(lossless == null ? List.of(3, 4) : lossless);
        if (ecn != null) {
            out.put("ecn", ecn);
        }
        scheduler(out);
        mtu(out);
        return out;
    }

    /**
     * PORT_QOS_MAP: the ports' rows, which must agree (one setting per switch here). The {@code global} row is the
     * switch-level DSCP_TO_TC_MAP, which a port's own map overrides (sonic-swss orchagent/qosorch.cpp,
     * handleGlobalQosMap: only dscp_to_tc_map is read there), so it is applied only when no port row names one.
     */
    private Map<String, Node> portQos() throws ScenarioException {
        Map<String, Node> merged = new LinkedHashMap<>();
        Map<String, String> firstPort = new LinkedHashMap<>();
        Node globalDscp = null;
        List<String> ports = new ArrayList<>();
        for (Map.Entry<String, MappingNode> row : table("PORT_QOS_MAP").entrySet()) {
            boolean global = row.getKey().equalsIgnoreCase("global");
            if (!global) {
                ports.add(row.getKey());
            }
            for (Map.Entry<String, Node> f : fields(row.getValue()).entrySet()) {
                String field = f.getKey();
                if (!List.of("dscp_to_tc_map", "tc_to_pg_map", "tc_to_queue_map", "pfc_enable", "pfcwd_sw_enable",
                        "pfc_to_queue_map", "pfc_to_pg_map").contains(field)) {
                    note("PORT_QOS_MAP|" + row.getKey() + " field " + field + " is not applied");
                    continue;
                }
                String value = doc.text(f.getValue(), field, "a value");
                if (global) {
                    if (field.equals("dscp_to_tc_map")) {
                        globalDscp = f.getValue();
                    } else {
                        note("PORT_QOS_MAP|" + row.getKey() + " field " + field + " is not applied (SONiC reads only"
                                + " dscp_to_tc_map in the global row)");
                    }
                    continue;
                }
                Node before = merged.get(field);
                if (before == null) {
                    merged.put(field, f.getValue());
                    firstPort.put(field, row.getKey());
                } else if (!((ScalarNode) before).getValue().equals(value)) {
                    note("PORT_QOS_MAP " + field + " differs between " + firstPort.get(field) + " ("
                            + ((ScalarNode) before).getValue() + ") and " + row.getKey() + " (" + value
                            + "); one value per switch is applied: " + ((ScalarNode) before).getValue()
                            + " (use a switches entry per port group to differ)");
                }
            }
        }
        for (String field : List.of("pfc_enable", "pfcwd_sw_enable")) {
            if (merged.containsKey(field)) {
                for (String port : ports) {
                    if (!fields(table("PORT_QOS_MAP").get(port)).containsKey(field)) {
                        note("PORT_QOS_MAP|" + port + " has no " + field + " (on the real switch "
                                + (field.equals("pfc_enable") ? "PFC is off on that port" : "its PFC watchdog watches"
                                        + " no priority") + "); one value per switch is applied: "
                                + ((ScalarNode) merged.get(field)).getValue());
                    }
                }
            }
        }
        if (globalDscp != null) {
            Node port = merged.get("dscp_to_tc_map");
            if (port == null) {
                merged.put("dscp_to_tc_map", globalDscp);
            } else if (!((ScalarNode) port).getValue().equals(((ScalarNode) globalDscp).getValue())) {
                note(where(globalDscp) + ": PORT_QOS_MAP|global dscp_to_tc_map " + ((ScalarNode) globalDscp).getValue()
                        + " is the switch-level map, which SONiC uses only on ports without a map of their own; not"
                        + " applied: the ports' " + ((ScalarNode) port).getValue() + " is");
            }
        }
        return merged;
    }

    private int[] dscpMap(Node name) throws ScenarioException {
        Map<String, MappingNode> maps = table("DSCP_TO_TC_MAP");
        if (maps.isEmpty()) {
            return null;
        }
        MappingNode map;
        if (name != null) {
            map = maps.get(doc.text(name, "dscp_to_tc_map", "a map name"));
            if (map == null) {
                throw doc.at(name, "DSCP_TO_TC_MAP has no map named '" + ((ScalarNode) name).getValue()
                        + "'; expected one of " + String.join(", ", maps.keySet()));
            }
        } else {
            if (maps.size() > 1) {
                note("several DSCP_TO_TC_MAPs and no PORT_QOS_MAP naming one; applied the first, "
                        + maps.keySet().iterator().next());
            }
            map = maps.values().iterator().next();
        }
        // DSCPs a SONiC map leaves out go to class 0, as the ASIC default.
        int[] out = new int[64];
        for (NodeTuple t : map.getValue()) {
            int dscp = integer(t.getKeyNode(), "DSCP", 0, 63);
            out[dscp] = integer(t.getValueNode(), "traffic class", 0, 7);
        }
        return out;
    }

    /**
     * The model uses each class as its own priority group and queue. Lossy classes sharing a lossy group (the usual
     * SONiC map) behave the same; a lossless class or group mapped elsewhere does not, and is reported.
     */
    private void checkIdentity(String table, Node name, String what, List<Integer> lossless)
            throws ScenarioException {
        Map<String, MappingNode> maps = table(table);
        MappingNode map = name != null ? maps.get(doc.text(name, table, "a map name"))
                : maps.isEmpty() ? null : maps.values().iterator().next();
        if (name != null && map == null) {
            throw doc.at(name, table + " has no map named '" + ((ScalarNode) name).getValue() + "'; expected one of "
                    + String.join(", ", maps.keySet()));
        }
        if (map == null) {
            return;
        }
        for (NodeTuple t : map.getValue()) {
            int tc = integer(t.getKeyNode(), "traffic class", 0, 7);
            int to = integer(t.getValueNode(), what, 0, 7);
            if (tc != to && (lossless.contains(tc) || lossless.contains(to))) {
                note(where(t.getValueNode()) + ": " + table + " maps traffic class " + tc + " to " + what + " " + to
                        + ". " + consequence(what.equals("queue"), tc, to, lossless) + "; the simulation does not"
                        + " model it: it keeps class " + tc + " in " + what + " " + tc
                        + (lossless.contains(tc) ? ", lossless" : "") + ", so its run differs from the real switch");
            }
        }
    }

    /** What a real switch does with class {@code tc} in another priority group or queue, said plainly. */
    private static String consequence(boolean queue, int tc, int to, List<Integer> lossless) {
        if (queue) {
            return "On a real switch class " + tc + " leaves by queue " + to + ": queue " + to + "'s scheduling and"
                    + " ECN apply to it, and a pause of priority " + tc + " from the next hop does not hold it";
        }
        if (lossless.contains(tc) && !lossless.contains(to)) {
            return "On a real switch class " + tc + "'s traffic is admitted to lossy priority group " + to + ": the"
                    + " switch sends no PFC for it and drops it when the buffer fills (RoCE loss, go-back-N"
                    + " retransmissions), although priority " + tc + " is lossless on the port";
        }
        if (lossless.contains(tc)) {
            return "On a real switch class " + tc + " shares priority group " + to + "'s headroom and thresholds with"
                    + " class " + to + ": their pauses and headroom are sized for one group";
        }
        return "On a real switch lossy class " + tc + "'s traffic fills lossless priority group " + to + ": it"
                + " triggers that group's pauses and uses its headroom";
    }

    /** {@code "3,4"} or {@code "3-4"}: the priorities, groups or queues of {@code label}. */
    private List<Integer> priorities(Node node, String label) throws ScenarioException {
        if (node == null) {
            return null;
        }
        String text = doc.text(node, label, "priorities such as 3,4");
        List<Integer> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            String[] range = p.split("-");
            try {
                int lo = Integer.parseInt(range[0].strip());
                int hi = range.length > 1 ? Integer.parseInt(range[1].strip()) : lo;
                for (int i = lo; i <= hi; i++) {
                    if (i < 0 || i > 7) {
                        throw doc.at(node, label + " holds " + i + ", out of range; expected 0..7");
                    }
                    if (!out.contains(i)) {
                        out.add(i);
                    }
                }
            } catch (NumberFormatException e) {
                throw doc.at(node, label + " '" + text + "' is not a list such as 3,4 or 3-4; expected e.g. 3,4");
            }
        }
        return out;
    }

    /** BUFFER_POOL, BUFFER_PROFILE and BUFFER_PG of the lossless priority groups. */
    private void buffers(Map<String, Object> out, Map<String, Object> pfc, List<Integer> lossless)
            throws ScenarioException {
        Map<String, MappingNode> pools = table("BUFFER_POOL");
        MappingNode pool = pools.get("ingress_lossless_pool");
        if (pool != null) {
            Map<String, Node> f = fields(pool);
            if (f.containsKey("size")) {
                out.put("buffer", from(f.get("size"), bytes(f.get("size"), "size") + "B"));
            } else {
                note("BUFFER_POOL|ingress_lossless_pool has no size (the dynamic buffer model computes it on the"
                        + " switch); not applied: the switch keeps the scenario's buffer");
            }
            if (f.containsKey("xoff")) {
                note("BUFFER_POOL|ingress_lossless_pool xoff (a shared headroom pool) is not applied:"
                        + " headroom is reserved per lossless priority group");
            }
        }
        for (String other : pools.keySet()) {
            if (!other.equals("ingress_lossless_pool")) {
                note("BUFFER_POOL|" + other + " is not applied: one shared buffer per switch, sized by"
                        + " ingress_lossless_pool");
            }
        }
        String chosen = null;
        for (Map.Entry<String, MappingNode> pg : table("BUFFER_PG").entrySet()) {
            String key = pg.getKey();
            List<Integer> groups = queues(key, pg.getValue());
            boolean losslessGroup = groups.stream().anyMatch(lossless::contains);
            Node profileName = fields(pg.getValue()).get("profile");
            if (profileName == null) {
                throw doc.at(pg.getValue(), "BUFFER_PG|" + key + " has no profile; expected \"profile\": a"
                        + " BUFFER_PROFILE name");
            }
            String name = doc.text(profileName, "profile", "a BUFFER_PROFILE name");
            if (!losslessGroup) {
                lossyProfile(key, groups, name, profileName);
                continue;
            }
            if (chosen == null) {
                chosen = name;
                profile(name, profileName, out, pfc);
            } else if (!chosen.equals(name)) {
                note("BUFFER_PG|" + key + " uses profile " + name + " but " + chosen + " was applied"
                        + " to the switch (one profile per switch; use ports: headroom to differ per port)");
            }
        }
    }

    /**
     * A lossy priority group's profile caps what that group may take of the pool (dynamic_th or static_th, a
     * reserved size). The model has no such cap: lossy traffic takes the shared buffer until it is full. Reported,
     * with what the real switch does instead.
     */
    private void lossyProfile(String key, List<Integer> groups, String name, Node at) throws ScenarioException {
        MappingNode p = table("BUFFER_PROFILE").get(name);
        Map<String, Node> f = p == null ? Map.of() : fields(p);
        String limit = "";
        if (f.containsKey("dynamic_th")) {
            int n = integer(f.get("dynamic_th"), "dynamic_th", -8, 7);
            limit = " (dynamic_th " + n + ": the group may hold " + (n >= 0 ? String.valueOf(1L << n)
                    : "1/" + (1L << -n)) + " x the free pool";
        } else if (f.containsKey("static_th")) {
            limit = " (static_th: the group may hold " + bytes(f.get("static_th"), "static_th") + " B";
        }
        if (f.containsKey("size")) {
            limit += (limit.isEmpty() ? " (" : ", ") + "size " + bytes(f.get("size"), "size") + " B reserved";
        }
        limit += limit.isEmpty() ? "" : ")";
        note(where(at) + ": BUFFER_PG|" + key + " gives lossy priority group" + (groups.size() > 1 ? "s " : " ")
                + groups + " profile " + name + limit + "; not applied: the model has no limit per lossy priority"
                + " group, so where the real switch drops this group's traffic once it holds its share, the"
                + " simulation drops it only when the shared buffer is full");
    }

    private void profile(String name, Node at, Map<String, Object> out, Map<String, Object> pfc)
            throws ScenarioException {
        if (name.equals("NULL")) {
            pfc.put("headroom", "auto");
            note("lossless BUFFER_PG profile NULL (dynamic buffer model): headroom computed per port"
                    + " (headroom: auto)");
            // buffermgrd gives the lossless profiles it creates DEFAULT_LOSSLESS_BUFFER_PARAMETER's
            // default_dynamic_th (sonic-swss cfgmgr/buffermgrdyn.cpp).
            for (MappingNode row : table("DEFAULT_LOSSLESS_BUFFER_PARAMETER").values()) {
                Node th = fields(row).get("default_dynamic_th");
                if (th != null) {
                    pfc.put("threshold", "dynamic");
                    pfc.put("alpha", from(th, alpha("DEFAULT_LOSSLESS_BUFFER_PARAMETER",
                            integer(th, "default_dynamic_th", -8, 7))));
                    defaultThresholdApplied = true;
                    break;
                }
            }
            return;
        }
        MappingNode p = table("BUFFER_PROFILE").get(name);
        if (p == null) {
            throw doc.at(at, "BUFFER_PROFILE has no profile named '" + name + "'; expected one of "
                    + String.join(", ", table("BUFFER_PROFILE").keySet()));
        }
        Map<String, Node> f = fields(p);
        if (f.containsKey("xoff")) {
            pfc.put("headroom", from(f.get("xoff"), bytes(f.get("xoff"), "xoff") + "B"));
        }
        long offset = f.containsKey("xon_offset") ? bytes(f.get("xon_offset"), "xon_offset") : -1;
        if (f.containsKey("dynamic_th")) {
            int n = integer(f.get("dynamic_th"), "dynamic_th", -8, 7);
            pfc.put("threshold", "dynamic");
            pfc.put("alpha", from(f.get("dynamic_th"), alpha("BUFFER_PROFILE|" + name, n)));
            if (offset >= 0) {
                pfc.put("resume-offset", offset + "B");
            }
        } else if (f.containsKey("static_th")) {
            long xoff = bytes(f.get("static_th"), "static_th");
            pfc.put("threshold", "static");
            pfc.put("xoff", xoff + "B");
            pfc.put("xon", Math.max(0, xoff - Math.max(offset, 0)) + "B");
        }
        for (String k : f.keySet()) {
            if (!List.of("xoff", "xon_offset", "dynamic_th", "static_th", "pool").contains(k)) {
                note("BUFFER_PROFILE|" + name + " field " + k + " is not applied"
                        + (k.equals("size") ? " (no reserved minimum per priority group in the model)"
                                : k.equals("xon") ? " (XON follows the threshold and resume offset)" : ""));
            }
        }
    }

    /** What DEFAULT_LOSSLESS_BUFFER_PARAMETER holds beyond the default_dynamic_th that a NULL profile takes. */
    private void defaultLosslessParameters() {
        for (Map.Entry<String, MappingNode> row : table("DEFAULT_LOSSLESS_BUFFER_PARAMETER").entrySet()) {
            for (String k : fields(row.getValue()).keySet()) {
                if (!k.equals("default_dynamic_th")) {
                    note("DEFAULT_LOSSLESS_BUFFER_PARAMETER|" + row.getKey() + " field " + k + " is not applied (no"
                            + " shared headroom pool in the model)");
                } else if (!defaultThresholdApplied) {
                    note("DEFAULT_LOSSLESS_BUFFER_PARAMETER|" + row.getKey() + " default_dynamic_th is not applied:"
                            + " no lossless BUFFER_PG has profile NULL, the only groups it sizes");
                }
            }
        }
    }

    /** SAI's dynamic threshold: 2^n of the pool's free buffer, at most the model's largest alpha (64). */
    private double alpha(String what, int n) {
        double alpha = Math.pow(2, n);
        if (alpha > 64) {
            note(what + " dynamic_th " + n + " (alpha " + (long) alpha + ") is applied as alpha 64, the model's"
                    + " largest");
            alpha = 64;
        }
        return alpha;
    }

    /**
     * PFC_WD: detection, restoration and action from the first port row, poll from GLOBAL; milliseconds. As
     * sonic-swss runs it (orchagent/pfcwdorch.cpp, qosorch.cpp): a port row without detection_time is refused, GLOBAL
     * alone starts the watchdog on no port, and it watches the priorities in PORT_QOS_MAP's pfcwd_sw_enable.
     */
    private void watchdog(Map<String, Object> pfc, Map<String, Node> qos, List<Integer> lossless)
            throws ScenarioException {
        Map<String, MappingNode> rows = table("PFC_WD");
        if (rows.isEmpty()) {
            return;
        }
        Map<String, Object> wd = new LinkedHashMap<>();
        String applied = null;
        for (Map.Entry<String, MappingNode> row : rows.entrySet()) {
            Map<String, Node> f = fields(row.getValue());
            if (row.getKey().equalsIgnoreCase("GLOBAL")) {
                if (f.containsKey("POLL_INTERVAL")) {
                    wd.put("poll", integer(f.get("POLL_INTERVAL"), "POLL_INTERVAL", 1, 60_000) + "ms");
                }
                for (String k : f.keySet()) {
                    if (!k.equals("POLL_INTERVAL")) {
                        note("PFC_WD|" + row.getKey() + " field " + k + " is not applied");
                    }
                }
                continue;
            }
            if (!f.containsKey("detection_time")) {
                note(where(row.getValue()) + ": PFC_WD|" + row.getKey() + " has no detection_time: SONiC refuses the"
                        + " row and runs no watchdog on that port");
                continue;
            }
            Map<String, Object> port = portWatchdog(f);
            if (applied == null) {
                applied = row.getKey();
                wd.putAll(port);
                if (port.get("action").equals("alert")) {
                    note("PFC_WD action alert (log only) is not modelled; applied as forward");
                    wd.put("action", "forward");
                }
                for (String k : f.keySet()) {
                    // pfc_stat_history only keeps counters: it changes nothing the switch does.
                    if (!List.of("detection_time", "restoration_time", "action", "pfc_stat_history").contains(k)) {
                        note("PFC_WD|" + row.getKey() + " field " + k + " is not applied");
                    }
                }
            } else if (!port.equals(portWatchdog(fields(rows.get(applied))))) {
                note("PFC_WD|" + row.getKey() + " differs from PFC_WD|" + applied + "; one watchdog per switch is"
                        + " applied: " + applied + "'s");
            }
        }
        if (applied == null) {
            note("PFC_WD has no port row with a detection_time: the real switch runs the watchdog on no port; the"
                    + " import sets none (the switch keeps the scenario's own pfc.watchdog, if any)");
            return;
        }
        for (String port : table("PORT_QOS_MAP").keySet()) {
            if (!port.equalsIgnoreCase("global") && !port.contains(",") && !rows.containsKey(port)) {
                note("PFC_WD has no row for " + port + ", so the real switch runs no watchdog there; " + applied
                        + "'s watchdog applied on every port");
            }
        }
        Node sw = qos.get("pfcwd_sw_enable");
        if (sw != null) {
            List<Integer> watched = priorities(sw, "pfcwd_sw_enable");
            if (watched.isEmpty()) {
                note("PORT_QOS_MAP pfcwd_sw_enable is empty: the real switch's watchdog watches no priority; the"
                        + " import sets none (the switch keeps the scenario's own pfc.watchdog, if any)");
                return;
            }
            if (!new TreeSet<>(watched).equals(new TreeSet<>(lossless))) {
                note("PORT_QOS_MAP pfcwd_sw_enable " + watched + " differs from the lossless priorities " + lossless
                        + "; not applied: the simulated watchdog watches every lossless priority");
            }
        } else if (!qos.isEmpty()) {
            note("PORT_QOS_MAP has no pfcwd_sw_enable: a current SONiC then watches no priority (db_migrator copies"
                    + " pfc_enable into it when it upgrades an older config); the watchdog is applied to every"
                    + " lossless priority");
        }
        pfc.put("watchdog", wd);
    }

    /** A PFC_WD port row's detection, restoration (SONiC's CLI default: twice the detection) and action. */
    private Map<String, Object> portWatchdog(Map<String, Node> f) throws ScenarioException {
        Map<String, Object> wd = new LinkedHashMap<>();
        int detection = integer(f.get("detection_time"), "detection_time", 1, 60_000);
        wd.put("detection", detection + "ms");
        wd.put("restoration", (f.containsKey("restoration_time")
                ? integer(f.get("restoration_time"), "restoration_time", 1, 600_000) : 2 * detection) + "ms");
        String action = f.containsKey("action") ? doc.text(f.get("action"), "action", "drop, forward or alert")
                : "drop";
        if (!List.of("drop", "forward", "alert").contains(action)) {
            throw doc.at(f.get("action"), "'" + action + "' is not a PFC_WD action; expected drop, forward or alert");
        }
        wd.put("action", action);
        return wd;
    }

    /** A QUEUE row's WRED binding: the queues of one port it binds to a profile, and where it says so. */
    private record WredBinding(String key, String port, List<Integer> queues, String profile, Node at) {}

    /**
     * ECN from the QUEUE bindings, as a real switch marks: a profile marks the queues QUEUE binds it to and nothing
     * else. The model has one ECN setting per switch over a set of classes, so it applies one profile, the one bound
     * to the lossless queues (else the first bound), to every class bound to it; each binding of another profile is
     * reported with its position, and so is a profile bound to no queue (not applied: it marks nothing).
     */
    private Map<String, Object> wred(List<Integer> lossless) throws ScenarioException {
        Map<String, MappingNode> profiles = table("WRED_PROFILE");
        List<WredBinding> bindings = new ArrayList<>();
        for (Map.Entry<String, MappingNode> q : table("QUEUE").entrySet()) {
            Node w = fields(q.getValue()).get("wred_profile");
            if (w == null) {
                continue;
            }
            String key = q.getKey();
            String n = doc.text(w, "wred_profile", "a WRED_PROFILE name");
            if (!profiles.containsKey(n)) {
                throw doc.at(w, "WRED_PROFILE has no profile named '" + n + "'; expected "
                        + (profiles.isEmpty() ? "a WRED_PROFILE table that defines it"
                                : "one of " + String.join(", ", profiles.keySet())));
            }
            bindings.add(new WredBinding(key, key.contains("|") ? key.substring(0, key.lastIndexOf('|')) : "",
                    queues(key, q.getValue()), n, w));
        }
        if (profiles.isEmpty()) {
            return null;
        }
        String name = null;
        for (WredBinding b : bindings) {
            if (name == null && b.queues().stream().anyMatch(lossless::contains)) {
                name = b.profile();
            }
        }
        if (name == null && !bindings.isEmpty()) {
            name = bindings.get(0).profile();
        }
        for (Map.Entry<String, MappingNode> p : profiles.entrySet()) {
            if (bindings.stream().noneMatch(b -> b.profile().equals(p.getKey()))) {
                note(where(p.getValue()) + ": WRED_PROFILE|" + p.getKey() + " is bound to no queue in QUEUE; not"
                        + " applied (an unbound profile marks nothing on a real switch either)");
            }
        }
        if (name == null) {
            Map<String, Object> none = new LinkedHashMap<>();
            none.put("marking", "none");
            return none;
        }
        TreeSet<Integer> classes = new TreeSet<>();
        Map<String, TreeSet<Integer>> byPort = new LinkedHashMap<>();
        for (WredBinding b : bindings) {
            byPort.computeIfAbsent(b.port(), k -> new TreeSet<>());
            if (b.profile().equals(name)) {
                classes.addAll(b.queues());
                byPort.get(b.port()).addAll(b.queues());
            }
        }
        for (WredBinding b : bindings) {
            if (!b.profile().equals(name)) {
                note(where(b.at()) + ": QUEUE|" + b.key() + " binds WRED profile " + b.profile() + " to queues "
                        + b.queues() + "; not applied: the model marks with one ECN profile per switch, and " + name
                        + " was applied to classes " + classes);
            }
        }
        TreeSet<String> boundPorts = new TreeSet<>();
        for (String key : byPort.keySet()) {
            boundPorts.addAll(List.of(key.split(",")));
        }
        for (String port : table("PORT_QOS_MAP").keySet()) {
            if (!port.equalsIgnoreCase("global") && !port.contains(",") && !boundPorts.contains(port)) {
                note("QUEUE binds no WRED profile to the queues of " + port + ", so the real switch marks nothing"
                        + " there; " + name + " applied to classes " + classes + " on every port (one ECN setting"
                        + " per switch; use ports: ecn to differ)");
            }
        }
        for (Map.Entry<String, TreeSet<Integer>> port : byPort.entrySet()) {
            if (!port.getValue().equals(classes)) {
                note("QUEUE binds WRED profile " + name + " to queues " + port.getValue() + " of " + port.getKey()
                        + " but to " + classes + " on other ports; applied to classes " + classes + " on every"
                        + " port (one ECN setting per switch; use ports: ecn to differ)");
            }
        }
        MappingNode p = profiles.get(name);
        Map<String, Node> f = fields(p);
        Map<String, Object> ecn = new LinkedHashMap<>();
        String mode = f.containsKey("ecn") ? doc.text(f.get("ecn"), "ecn", "an ECN mode such as ecn_all") : "ecn_none";
        if (!ECN_MODES.contains(mode)) {
            throw doc.at(f.get("ecn"), "'" + mode + "' is not a WRED_PROFILE ecn mode; expected one of "
                    + String.join(", ", ECN_MODES));
        }
        ecn.put("classes", new ArrayList<>(classes));
        if (!GREEN_MARKING.contains(mode)) {
            // Packets are green here (no policer colours them), and these modes mark no green packet.
            ecn.put("marking", "none");
            note("WRED_PROFILE|" + name + " has ecn " + mode + ": " + (mode.equals("ecn_none") ? "no ECN marking"
                    : "it marks only " + mode.substring(4).replace('_', ' ') + " packets, and every packet is green"
                            + " here: no ECN marking") + " (WRED drop is not modelled)");
            return ecn;
        }
        ecn.put("marking", "red");
        if (f.containsKey("green_min_threshold") && f.containsKey("green_max_threshold")
                && bytes(f.get("green_min_threshold"), "green_min_threshold")
                        > bytes(f.get("green_max_threshold"), "green_max_threshold")) {
            throw doc.at(f.get("green_min_threshold"), "WRED_PROFILE|" + name + " green_min_threshold ("
                    + bytes(f.get("green_min_threshold"), "green_min_threshold") + " B) is above its"
                    + " green_max_threshold (" + bytes(f.get("green_max_threshold"), "green_max_threshold")
                    + " B); expected green_min_threshold <= green_max_threshold");
        }
        if (f.containsKey("green_min_threshold")) {
            ecn.put("kmin", from(f.get("green_min_threshold"), bytes(f.get("green_min_threshold"),
                    "green_min_threshold") + "B"));
        }
        if (f.containsKey("green_max_threshold")) {
            ecn.put("kmax", from(f.get("green_max_threshold"), bytes(f.get("green_max_threshold"),
                    "green_max_threshold") + "B"));
        }
        if (f.containsKey("green_drop_probability")) {
            ecn.put("pmax", integer(f.get("green_drop_probability"), "green_drop_probability", 0, 100) / 100.0);
        }
        for (String k : f.keySet()) {
            if (!List.of("ecn", "green_min_threshold", "green_max_threshold", "green_drop_probability",
                    "wred_green_enable").contains(k)) {
                note("WRED_PROFILE|" + name + " field " + k + " is not applied (packets are green"
                        + " here: no yellow or red colouring)");
            }
        }
        return ecn;
    }

    /**
     * SCHEDULER bound to queues by QUEUE: DWRR/WRR weights and STRICT queues, one scheduler per queue for the
     * switch (the first port's binding; other ports' differences reported). Queues without a binding take the
     * smallest bound weight.
     */
    private void scheduler(Map<String, Object> out) throws ScenarioException {
        Map<String, MappingNode> schedulers = table("SCHEDULER");
        int[] weight = new int[8];
        String[] boundTo = new String[8];
        int strict = 0;
        boolean any = false;
        for (Map.Entry<String, MappingNode> q : table("QUEUE").entrySet()) {
            Node sched = fields(q.getValue()).get("scheduler");
            if (sched == null) {
                continue;
            }
            String name = doc.text(sched, "scheduler", "a SCHEDULER name");
            MappingNode row = schedulers.get(name);
            if (row == null) {
                throw doc.at(sched, "SCHEDULER has no scheduler named '" + name + "'; expected one of "
                        + String.join(", ", schedulers.keySet()));
            }
            Map<String, Node> f = fields(row);
            String type = f.containsKey("type") ? doc.text(f.get("type"), "type", "DWRR, WRR or STRICT")
                    .toUpperCase(Locale.ROOT) : "DWRR";
            String key = q.getKey();
            for (int tc : queues(key, q.getValue())) {
                if (boundTo[tc] != null) {
                    if (!boundTo[tc].equals(name)) {
                        note("QUEUE|" + key + " uses scheduler " + name + " but " + boundTo[tc] + " was applied to"
                                + " queue " + tc + " of the switch");
                    }
                    continue;
                }
                boundTo[tc] = name;
                any = true;
                if (type.equals("STRICT")) {
                    strict |= 1 << tc;
                } else {
                    weight[tc] = f.containsKey("weight") ? integer(f.get("weight"), "weight", 1, 1000) : 1;
                }
            }
            for (String k : f.keySet()) {
                if (!List.of("type", "weight").contains(k)) {
                    note("SCHEDULER|" + name + " field " + k + " is not applied (no shaping or meters in the model)");
                }
            }
        }
        if (!any) {
            if (!schedulers.isEmpty()) {
                note("SCHEDULER is not applied: no QUEUE row binds a scheduler to a queue");
            }
            return;
        }
        int smallest = Integer.MAX_VALUE;
        for (int tc = 0; tc < 8; tc++) {
            if (weight[tc] > 0) {
                smallest = Math.min(smallest, weight[tc]);
            }
        }
        smallest = smallest == Integer.MAX_VALUE ? 1 : smallest;
        List<Integer> weights = new ArrayList<>();
        List<Integer> strictList = new ArrayList<>();
        List<Integer> unbound = new ArrayList<>();
        for (int tc = 0; tc < 8; tc++) {
            if (boundTo[tc] == null) {
                unbound.add(tc);
            }
            weights.add(weight[tc] > 0 ? weight[tc] : smallest);
            if ((strict & 1 << tc) != 0) {
                strictList.add(tc);
            }
        }
        if (!unbound.isEmpty()) {
            note("queues " + unbound + " have no scheduler in QUEUE; DWRR weight " + smallest + " applied");
        }
        Map<String, Object> sched = new LinkedHashMap<>();
        sched.put("kind", "dwrr");
        sched.put("weights", weights);
        sched.put("strict", strictList);
        out.put("scheduler", sched);
    }

    /** PORT: the MTU, when every port has the same. */
    private void mtu(Map<String, Object> out) throws ScenarioException {
        Integer mtu = null;
        for (Map.Entry<String, MappingNode> row : table("PORT").entrySet()) {
            Node m = fields(row.getValue()).get("mtu");
            if (m == null) {
                continue;
            }
            int v = integer(m, "mtu", 576, 65_536);
            if (mtu == null) {
                mtu = v;
            } else if (mtu != v) {
                note("PORT mtu differs between ports; applied " + mtu + " (use ports: mtu to differ)");
                break;
            }
        }
        if (mtu != null) {
            out.put("mtu", mtu);
        }
        if (!table("PORT").isEmpty()) {
            note("PORT fields other than mtu (speed, lanes, admin_status, ...) are not applied: rates"
                    + " come from the topology");
        }
    }

    /** The queues of a QUEUE (or BUFFER_PG) key such as {@code Ethernet0|3-4}, at the row's position. */
    private List<Integer> queues(String key, MappingNode row) throws ScenarioException {
        return priorities(new ScalarNode(Tag.STR, key.contains("|") ? key.substring(key.lastIndexOf('|') + 1) : "",
                row.getStartMark(), row.getEndMark(), DumperOptions.ScalarStyle.PLAIN), "the key " + key);
    }

    /**
     * {@code value} for the override, keeping the position of the JSON node it came from: an error the scenario reader
     * finds in it later (a buffer too small for the headroom) then names the config_db.json line, not the YAML's.
     */
    private Object from(Node json, Object value) {
        Mark m = json.getStartMark();
        return m == null ? value : new Nodes.Sourced(value,
                new Mark(Doc.FILE_MARK + file, m.getIndex(), m.getLine(), m.getColumn(), new int[0], 0));
    }

    /** {@code config_db.json:31:52}: where a note's subject is, for a reader to find it in the imported file. */
    private String where(Node n) {
        Mark m = n.getStartMark();
        return m == null ? file : file + ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1);
    }

    private int integer(Node n, String label, int min, int max) throws ScenarioException {
        return doc.integer(n, label, min, max);
    }

    private long bytes(Node n, String label) throws ScenarioException {
        return doc.longValue(n, label, "a number of bytes");
    }

    /** Builds SnakeYAML nodes from plain values, and moves every node without one to one position. */
    static final class Nodes {
        private Nodes() {}

        /** A value and the position (in the imported file) it was read from. */
        record Sourced(Object value, Mark mark) {}

        static Node of(Object v) {
            if (v instanceof Sourced s) {
                ScalarNode n = (ScalarNode) of(s.value());
                return new ScalarNode(n.getTag(), n.getValue(), s.mark(), s.mark(), n.getScalarStyle());
            }
            if (v instanceof Map<?, ?> m) {
                List<NodeTuple> tuples = new ArrayList<>();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    tuples.add(new NodeTuple(scalar(String.valueOf(e.getKey())), of(e.getValue())));
                }
                return new MappingNode(org.yaml.snakeyaml.nodes.Tag.MAP, true, tuples, null, null,
                        DumperOptions.FlowStyle.FLOW);
            }
            if (v instanceof List<?> l) {
                List<Node> items = new ArrayList<>();
                for (Object o : l) {
                    items.add(of(o));
                }
                return new SequenceNode(org.yaml.snakeyaml.nodes.Tag.SEQ, true, items, null, null,
                        DumperOptions.FlowStyle.FLOW);
            }
            String s = v instanceof Double d ? trim(d) : String.valueOf(v);
            return scalar(s);
        }

        private static String trim(double d) {
            return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%s", d);
        }

        private static ScalarNode scalar(String s) {
            return new ScalarNode(org.yaml.snakeyaml.nodes.Tag.STR, s, null, null, DumperOptions.ScalarStyle.PLAIN);
        }

        static Node rebase(Node n, Mark mark) {
            if (n instanceof MappingNode m) {
                List<NodeTuple> tuples = new ArrayList<>();
                for (NodeTuple t : m.getValue()) {
                    tuples.add(new NodeTuple(rebase(t.getKeyNode(), mark), rebase(t.getValueNode(), mark)));
                }
                return new MappingNode(m.getTag(), true, tuples, mark, mark, m.getFlowStyle());
            }
            if (n instanceof SequenceNode s) {
                List<Node> items = new ArrayList<>();
                for (Node i : s.getValue()) {
                    items.add(rebase(i, mark));
                }
                return new SequenceNode(s.getTag(), true, items, mark, mark, s.getFlowStyle());
            }
            ScalarNode s = (ScalarNode) n;
            // A value read from the file keeps its position there; the rest stands at the scenario's sonic: entry.
            Mark at = s.getStartMark() != null ? s.getStartMark() : mark;
            return new ScalarNode(s.getTag(), s.getValue(), at, at, s.getScalarStyle());
        }
    }
}
