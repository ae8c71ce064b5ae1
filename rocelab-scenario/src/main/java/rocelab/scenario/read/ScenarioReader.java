package rocelab.scenario.read;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import rocelab.congestion.CcSettings;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.network.LinkEvent;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.PauseStormFault;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.LinkOverridesSpec;
import rocelab.fabric.topology.LinkOverridesSpec.LinkOverride;
import rocelab.fabric.topology.MultiPlaneSpec;
import rocelab.fabric.topology.RailOptimizedSpec;
import rocelab.fabric.topology.Topology;
import rocelab.fabric.topology.TopologySpec;
import rocelab.scenario.FabricMode;
import rocelab.scenario.FlowsOutput;
import rocelab.scenario.InfinibandSettings;
import rocelab.scenario.MemoryBudget;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.StreamedRun;
import rocelab.scenario.device.Devices;
import rocelab.workload.graph.NvlinkParameters;
import rocelab.workload.inference.InferenceSpec;
import rocelab.workload.job.JobSpec;
import rocelab.workload.traffic.TrafficSpec;

/** Reads and validates scenario files (YAML) into {@link ScenarioConfig}, reporting problems with file:line:column. */
public final class ScenarioReader {
    /** The largest IPv4 packet (its total length is a 16-bit field). */
    private static final int MAX_IPV4_PACKET = 65_535;
    /** IPv4, UDP, BTH, RETH and ICRC bytes around a RoCEv2 packet's payload (60). */
    private static final int ROCE_HEADERS = FrameFormat.IPV4_HEADER + FrameFormat.UDP_HEADER + FrameFormat.BTH
            + FrameFormat.RETH + FrameFormat.ICRC;

    /** Name of the built-in demo scenario in messages. */
    public static final String DEMO_NAME = "demo.yaml";

    private static final String DEMO_RESOURCE = "/rocelab/scenario/demo.yaml";
    // A plain file name (it names the output folder out/NAME): no separators, and never "." or "..".
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final String NAME_FORMAT =
            "a plain file name of letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. incast-16to1)";
    private static final String[] TOP_KEYS = {"name", "seed", "fabric", "topology", "switch", "nic", "traffic", "jobs",
        "inference", "nvlink", "run", "observe", "faults", "events", "switches", "nics", "links"};

    /** The one-way delay of a link that gives none ({@code rocelab headroom}'s default too). */
    public static final long DEFAULT_LINK_DELAY_PS = TopologyReader.DEFAULT_DELAY_PS;

    private final MemoryBudget budget;

    /** Whether a scenario may have no workload at all (a fabric for commands that bring their own traffic). */
    private final boolean fabricOnly;

    /** A reader that refuses scenarios too large for this JVM's heap. */
    public ScenarioReader() {
        this(MemoryBudget.ofJvm(), false);
    }

    /** A reader that refuses scenarios whose estimated footprint exceeds {@code budget}. */
    public ScenarioReader(MemoryBudget budget) {
        this(budget, false);
    }

    private ScenarioReader(MemoryBudget budget, boolean fabricOnly) {
        this.budget = budget;
        this.fabricOnly = fabricOnly;
    }

    /**
     * A reader that also accepts a scenario without workload ({@code traffic: []} or no traffic, jobs or inference),
     * for commands that bring their own traffic (nccl-tests).
     */
    public ScenarioReader fabricOnly() {
        return new ScenarioReader(budget, true);
    }

    /** A plain-words reason for an I/O failure, without Java class names. */
    private static String ioReason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? "read error" : e.getMessage();
    }

    /** Why {@code nic.ack} is refused in infiniband mode. */
    static final String ACK_ON_INFINIBAND = "nic.ack sets the DSCP and priority of RoCEv2 ACKs; expected no ack in"
            + " infiniband mode, where an ACK travels on its QP's service level";
    /**
     * Why {@code nic.ecn} is refused in infiniband mode: it makes RoCE data ECN-capable in its IP header, which an
     * InfiniBand packet does not have; {@code ecn: false} would silently keep every packet from FECN marking.
     */
    static final String ECN_ON_INFINIBAND = "nic.ecn makes RoCE data ECN-capable in its IP header, which InfiniBand"
            + " packets do not have; expected no ecn in infiniband mode, where switches mark FECN as"
            + " fabric.infiniband.fecn says";

    /** Reads and validates a scenario file; relative files inside (flows-csv) resolve against the file's folder. */
    public ScenarioConfig read(Path file) throws ScenarioException {
        return read(file, text(file, null));
    }

    /**
     * Reads and validates scenario file {@code file} from its {@code text} (read once by {@link #text}, so a command
     * that keeps a copy of the text keeps what it ran).
     */
    public ScenarioConfig read(Path file, String text) throws ScenarioException {
        return parse(text, file.toString(), file.toAbsolutePath().normalize().getParent(), file);
    }

    /** The text of scenario file {@code file}, or of the built-in example {@code example} when file is null. */
    public String text(Path file, String example) throws ScenarioException {
        if (file != null) {
            return readText(file, file.toString(), "scenario");
        }
        try {
            String text = exampleText(example);
            if (text == null) {
                throw unknownExample(example);
            }
            return text;
        } catch (IOException e) {
            throw new ScenarioException(example + ".yaml", 1, 1, "cannot read the example; expected a readable"
                    + " resource");
        }
    }

    /**
     * The UTF-8 text of a YAML file ({@code what}: "scenario", "sweep"), or an error saying why not: at 1:1, or at the
     * first byte that is not UTF-8.
     */
    static String readText(Path file, String shown, String what) throws ScenarioException {
        Path absolute = file.toAbsolutePath().normalize();
        if (Files.isDirectory(file)) {
            throw new ScenarioException(shown, 1, 1, absolute + " is a directory; expected a " + what + " file");
        }
        try {
            byte[] bytes = YamlBounds.readBounded(file);
            ByteBuffer in = ByteBuffer.wrap(bytes);
            CharBuffer text = CharBuffer.allocate(bytes.length);
            if (StandardCharsets.UTF_8.newDecoder().decode(in, text, true).isError()) {
                // The decoder stops at the first bad byte: its line and column, counted in characters as YAML's are.
                String before = text.flip().toString();
                int lineStart = before.lastIndexOf('\n') + 1;
                throw new ScenarioException(shown, (int) before.chars().filter(c -> c == '\n').count() + 1,
                        before.codePointCount(lineStart, before.length()) + 1, String.format(Locale.ROOT,
                                "the file is not UTF-8 text (byte 0x%02X); expected a YAML %s file",
                                bytes[in.position()] & 0xFF, what));
            }
            return text.flip().toString();
        } catch (YamlBounds.TooLarge e) {
            throw new ScenarioException(shown, 1, 1, absolute + " has more than " + YamlBounds.MAX_BYTES / (1 << 20)
                    + " MiB" + (Files.isRegularFile(file) ? "" : " (it is not a regular file)")
                    + "; expected a " + what + " file (put large flow lists in a flows-csv file)");
        } catch (NoSuchFileException e) {
            throw new ScenarioException(shown, 1, 1, "file not found: " + absolute + "; expected a " + what + " file");
        } catch (IOException e) {
            throw new ScenarioException(shown, 1, 1, "cannot read " + absolute + " (" + ioReason(e)
                    + "); expected a readable " + what + " file");
        }
    }

    /**
     * A problem a command found with a scenario it has read ({@code rocelab compare}: a key another fabric cannot
     * take), told at the key {@code keyPath} (dotted mapping keys, such as {@code fabric.mtu}) of {@code file}, or
     * of the built-in example {@code example} when {@code file} is null. A key the file does not have is told at the
     * deepest mapping on its path that it does have.
     */
    public ScenarioException keyProblem(Path file, String example, String keyPath, String detail) {
        String shown = file != null ? file.toString() : example + ".yaml";
        Doc doc = new Doc(shown);
        Node value;
        try {
            String text = file != null ? readText(file, shown, "scenario") : exampleText(example);
            value = text == null ? null : compose(doc, text);
        } catch (ScenarioException | IOException e) {
            // The file changed or went since it was read: the problem is still the scenario's, told at its start.
            return new ScenarioException(shown, 1, 1, detail);
        }
        Node at = value;
        for (String key : keyPath.split("\\.")) {
            NodeTuple found = null;
            if (value instanceof MappingNode m) {
                for (NodeTuple t : m.getValue()) {
                    found = t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key) ? t : found;
                }
            }
            if (found == null) {
                break;
            }
            at = found.getKeyNode();
            value = found.getValueNode();
        }
        return at == null ? new ScenarioException(shown, 1, 1, detail) : doc.at(at, detail);
    }

    /** Reads from text; {@code displayName} is used in messages, {@code baseDir} resolves relative files. */
    public ScenarioConfig read(String yamlText, String displayName, Path baseDir) throws ScenarioException {
        return parse(yamlText, displayName, baseDir, null);
    }

    /** The built-in demo (classpath resource /rocelab/scenario/demo.yaml), displayName "demo.yaml". */
    /** Names of the example scenarios shipped in the jar (file names without {@code .yaml}), sorted. */
    public static List<String> exampleNames() {
        try {
            URL url = ScenarioReader.class.getResource("/rocelab/scenario/examples");
            if (url == null) {
                return List.of();
            }
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
                    return list(fs.getPath("/rocelab/scenario/examples"));
                }
            }
            return list(Path.of(uri));
        } catch (IOException | URISyntaxException e) {
            return List.of();
        }
    }

    private static List<String> list(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - 5)).sorted().toList();
        }
    }

    /** The problem with {@code --example NAME} when no example has that name, worded as every command says it. */
    public static ScenarioException unknownExample(String name) {
        return ScenarioException.ofOption("--example '" + name + "' is not a built-in example; expected one of: "
                + String.join(", ", exampleNames()));
    }

    /** Reads a built-in example scenario by name; an unknown name is a {@link ScenarioException}. */
    public ScenarioConfig readExample(String name) throws ScenarioException {
        InputStream in = ScenarioReader.class.getResourceAsStream("/rocelab/scenario/examples/" + name
                + ".yaml");
        if (in == null) {
            throw unknownExample(name);
        }
        try (in) {
            return read(new String(in.readAllBytes(), StandardCharsets.UTF_8), name + ".yaml", exampleFiles());
        } catch (IOException e) {
            throw new ScenarioException(name + ".yaml", 1, 1, "cannot read the example; expected a readable resource");
        }
    }

    /**
     * The folder the examples' own files (workloads/) resolve in: the examples' folder when the classes run from
     * one, else a copy of those files out of the jar into a temporary folder (made once per process).
     */
    private static synchronized Path exampleFiles() throws IOException {
        if (exampleFiles != null) {
            return exampleFiles;
        }
        URL url = ScenarioReader.class.getResource("/rocelab/scenario/examples");
        if (url == null) {
            return null;
        }
        try {
            URI uri = url.toURI();
            if (!"jar".equals(uri.getScheme())) {
                exampleFiles = Path.of(uri);
                return exampleFiles;
            }
            Path copy = Files.createTempDirectory("rocelab-examples");
            // Files marked to go at exit go in the reverse order of their marking: a folder is marked before what it
            // holds, so that it is empty when its turn comes (marked after, every folder of the copy stayed behind).
            copy.toFile().deleteOnExit();
            try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of());
                    Stream<Path> entries = Files.walk(fs.getPath("/rocelab/scenario/examples"))) {
                Path root = fs.getPath("/rocelab/scenario/examples");
                for (Path f : entries.toList()) { // a folder before what it holds
                    if (f.equals(root) || f.toString().endsWith(".yaml")) {
                        continue;
                    }
                    Path target = copy.resolve(root.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(f, target);
                    }
                    target.toFile().deleteOnExit();
                }
            }
            exampleFiles = copy;
            return copy;
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }

    private static Path exampleFiles;

    public ScenarioConfig readDemo() {
        try (InputStream in = ScenarioReader.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the built-in demo " + DEMO_RESOURCE + " is missing from the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), DEMO_NAME, null, null);
        } catch (IOException | ScenarioException e) {
            throw new IllegalStateException("the built-in demo scenario is broken: " + e.getMessage(), e);
        }
    }

    private ScenarioConfig parse(String text, String shown, Path baseDir, Path source) throws ScenarioException {
        Doc doc = new Doc(shown);
        try {
            return resolve(doc, compose(doc, text), baseDir == null ? Path.of("") : baseDir, source, fabricOnly,
                    budget);
        } catch (RuntimeException e) {
            throw new ScenarioException(shown, 1, 1, "cannot read the scenario (" + e
                    + "); expected a scenario this reader can handle");
        }
    }

    /**
     * Reads a scenario from an already composed YAML tree (a sweep point: the base scenario with the sweep's values
     * spliced in, each keeping its own file and position), exactly as a file with that content would be read.
     */
    ScenarioConfig readTree(Node root, String shown, Path baseDir) throws ScenarioException {
        Doc doc = new Doc(shown);
        try {
            return resolve(doc, root, baseDir == null ? Path.of("") : baseDir, null, fabricOnly, budget);
        } catch (RuntimeException e) {
            throw new ScenarioException(shown, 1, 1, "cannot read the scenario (" + e
                    + "); expected a scenario this reader can handle");
        }
    }

    /** Parses YAML text into its node tree (positions kept), or fails at the position of the malformed text. */
    static Node compose(String text, String shown) throws ScenarioException {
        return compose(new Doc(shown), text, SCENARIO_KEYS);
    }

    /** As {@link #compose(String, String)}, for a file whose empty text should ask for {@code expectedKeys}. */
    static Node compose(String text, String shown, String expectedKeys) throws ScenarioException {
        return compose(new Doc(shown), text, expectedKeys);
    }

    /** What an empty scenario file is asked for. */
    private static final String SCENARIO_KEYS = "at least the keys name, fabric, topology and traffic";

    /** The text of a built-in example, or null when there is none of that name. */
    static String exampleText(String name) throws IOException {
        try (InputStream in = ScenarioReader.class.getResourceAsStream("/rocelab/scenario/examples/" + name + ".yaml")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Node compose(Doc doc, String text) throws ScenarioException {
        return compose(doc, text, SCENARIO_KEYS);
    }

    private static Node compose(Doc doc, String text, String expectedKeys) throws ScenarioException {
        LoaderOptions options = YamlBounds.options();
        Node root;
        try {
            root = YamlBounds.compose(new StringReader(text), options);
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() == null ? "unreadable input" : e.getProblem().strip();
            String context = e.getContext() == null ? "" : e.getContext().strip() + ", ";
            throw doc.at(mark, "malformed YAML: " + context + problem
                    + "; expected well-formed YAML (check indentation, colons and quotes)");
        } catch (YAMLException e) {
            // The alias and nesting limits: SnakeYAML gives no position, YamlLimits finds it.
            throw doc.at(YamlLimits.where(text, options), "malformed YAML: " + e.getMessage()
                    + "; expected well-formed YAML");
        }
        if (root == null) {
            throw doc.at((Mark) null, "the file is empty; expected a mapping with " + expectedKeys);
        }
        YamlLimits.rejectTags(doc, root);
        YamlBounds.checkExpandedSize(doc, root);
        return root;
    }

    private static ScenarioConfig resolve(Doc doc, Node root, Path baseDir, Path source, boolean fabricOnly,
            MemoryBudget budget) throws ScenarioException {
        YamlMap top = YamlMap.of(doc, root, "the scenario", TOP_KEYS);
        Node nameNode = top.require("name", NAME_FORMAT);
        String name = doc.text(nameNode, "name", NAME_FORMAT);
        if (!NAME.matcher(name).matches()) {
            throw doc.at(nameNode, Doc.quoted(name) + " is not a valid name; expected " + NAME_FORMAT);
        }
        long seed = top.has("seed") ? doc.longValue(top.get("seed"), "seed", "a whole number") : 1L;

        YamlMap fabric = YamlMap.of(doc, top.require("fabric", "{mode: roce-lossy, mtu: ..., vlan: ...}"), "fabric",
                "mode", "mtu", "vlan", "infiniband");
        FabricMode mode = mode(doc, fabric);
        int mtu = (int) Math.min(fabric.optionalSize("mtu", 4096, 0), Integer.MAX_VALUE);
        // A RoCEv2 packet is its payload plus IPv4 (20), UDP (8), BTH (12), RETH (16) and ICRC (4) bytes, and IPv4's
        // total length has 16 bits: a larger packet cannot be written (its capture's lengths wrapped around).
        int maxMtu = mode == FabricMode.INFINIBAND ? 65_536 : MAX_IPV4_PACKET - ROCE_HEADERS;
        if (mtu < 64 || mtu > maxMtu) {
            throw doc.at(fabric.get("mtu"), "mtu of " + mtu + " bytes is out of range; expected 64.." + maxMtu
                    + " bytes" + (mode == FabricMode.INFINIBAND ? "" : " (an IPv4 packet holds at most 65535 bytes,"
                    + " " + ROCE_HEADERS + " of them RoCEv2 headers)"));
        }
        boolean vlan = fabric.optionalBool("vlan", false);
        InfinibandSettings infiniband = InfinibandReader.forMode(doc, top, fabric, mode, mtu);

        TopologyReader topologyReader = new TopologyReader(doc, baseDir);
        TopologySpec topology = topologyReader.read(
                top.require("topology", "a mapping with a kind: single-switch, leaf-spine, fat-tree, rail-optimized,"
                        + " custom or ns3"), top.keyNode("topology"));
        topology = linkOverrides(doc, top, topology);
        // Sized before anything is built: a fabric too large for the heap is refused here, not by an OutOfMemoryError.
        Sizing sizing = new Sizing(doc, budget, topology, top.has("nvlink"));
        sizing.require(top.get("topology"));
        DeviceReader devices = new DeviceReader(doc);
        SwitchParameters switches = devices.switches(top.get("switch"));
        YamlMap nicMap = top.has("nic") ? YamlMap.of(doc, top.get("nic"), "nic", DeviceReader.nicKeys()) : null;
        CongestionReader congestion = new CongestionReader(doc);
        EcnParameters ecn = congestion.ecn(top.has("switch") && !Doc.isNull(top.get("switch"))
                ? YamlMap.of(doc, top.get("switch"), "switch", DeviceReader.SWITCH_KEYS).get("ecn") : null);
        CcSettings cc = congestion.congestionControl(nicMap);
        InfinibandReader.checkCongestionControl(doc, nicMap, mode, cc);
        YamlMap switchMap = top.has("switch") && !Doc.isNull(top.get("switch"))
                ? YamlMap.of(doc, top.get("switch"), "switch", DeviceReader.SWITCH_KEYS) : null;
        PfcParameters pfc = new PfcReader(doc).read(switchMap == null ? null : switchMap.get("pfc"), mode);
        NicParameters nicForHeadroom = devices.nic(nicMap, mtu, fabric.keyNode("mtu"));
        PauseLoop loop = new PauseLoop(switches.forwardingLatencyPs(),
                pfc.pauseResponsePs(), nicForHeadroom.pauseResponsePs());
        if (!top.has("switches")) { // with overrides, each switch's buffer is checked against its own headroom
            PfcReader.checkBuffer(doc, topology, pfc, switches.bufferBytes(),
                    new FrameFormat(vlan),
                    nicForHeadroom.mtuBytes(), loop, switchMap == null ? top.keyNode("topology")
                            : switchMap.has("buffer") ? switchMap.get("buffer") : top.keyNode("switch"));
        }
        int[] cnpQos = congestion.cnpQos(nicMap);
        NicParameters nic = devices.nic(nicMap, mtu, fabric.keyNode("mtu"));
        if (mode == FabricMode.INFINIBAND) {
            InfinibandReader.refuseRoceNicKeys(doc, nicMap);
        }
        TrafficReader trafficReader = new TrafficReader(doc, topology.hostCount(), baseDir);
        trafficReader.sizing(sizing);
        trafficReader.ns3Topology(topologyReader.ns3());
        Topology built = topology.build();
        long[] hostRates = new long[built.hostCount()];
        for (int h = 0; h < hostRates.length; h++) {
            hostRates[h] = built.hostRateBps(h);
        }
        trafficReader.hostRates(hostRates);
        if (mode == FabricMode.INFINIBAND && topology.shape() instanceof MultiPlaneSpec) {
            throw doc.at(YamlMap.entries(doc, top.get("topology"), "topology", "a mapping").get("planes")
                    .getValueNode(), "planes are modelled on"
                    + " Ethernet (RoCEv2) fabrics only; expected no planes with mode: infiniband");
        }
        if (topology.shape() instanceof RailOptimizedSpec
                || topology.shape() instanceof MultiPlaneSpec mp
                        && mp.plane() instanceof RailOptimizedSpec) {
            // Only this topology puts several hosts in one server; the others need no server map.
            trafficReader.servers(Simulation.serverMap(built));
        }
        Devices perDevice = new DevicesReader(doc, mode, vlan, mtu, fabric.keyNode("mtu"),
                built, trafficReader, baseDir, loop).read(switchMap == null ? null : switchMap.node(),
                        top.get("switches"),
                nicMap == null ? null : nicMap.node(), top.get("nics"), pfc);
        if (!fabricOnly && !top.has("traffic") && !top.has("jobs") && !top.has("inference")) {
            throw doc.at(root, "missing key 'traffic' in the scenario; expected traffic: a list of traffic items, each"
                    + " with a kind (or jobs: a list of AI jobs, or inference: a list of inference services)");
        }
        // An empty list is no traffic, as the key left out is, when something else runs: jobs or inference, or the
        // command's own traffic (nccl-tests). With nothing else, a run would have nothing to do: an error.
        boolean emptyAllowed = fabricOnly || top.has("jobs") || top.has("inference");
        List<TrafficSpec> traffic = !top.has("traffic") || emptyAllowed && top.get("traffic") instanceof SequenceNode q
                && q.getValue().isEmpty() ? List.of() : trafficReader.read(top.get("traffic"));
        FlowsOutput flowsOutput = flowsOutput(doc, top);
        boolean otherWork = top.has("jobs") || top.has("inference") || top.has("events");
        if (flowsOutput.choice() == FlowsOutput.Choice.AGGREGATED) {
            String why = otherWork ? "a streamed run has no jobs, inference services or link events"
                    : StreamedRun.why(traffic);
            if (why != null) {
                throw doc.at(YamlMap.of(doc, top.get("observe"), "observe", "sample-interval", "flows").get("flows"),
                        "flows: aggregated is a streamed run, and " + why + "; expected flows: per-flow or auto");
            }
        }
        sizing.workload(flowsOutput, otherWork);
        if (!traffic.isEmpty()) {
            sizing.traffic(top.get("traffic"), traffic);
        }
        List<JobSpec> jobs = top.has("jobs")
                ? new JobReader(doc, trafficReader, sizing, top.has("nvlink")).read(top.get("jobs")) : List.of();
        List<InferenceSpec> inference = top.has("inference")
                ? new InferenceReader(doc, trafficReader, topology.hostCount()).read(top.get("inference"),
                        jobs.stream().map(JobSpec::name).collect(Collectors.toSet()))
                : List.of();
        NvlinkParameters nvlink = null;
        if (top.has("nvlink")) {
            YamlMap nv = YamlMap.of(doc, top.get("nvlink"), "nvlink", "rate", "latency");
            long rate = nv.requiredRate("rate");
            long latency = nv.optionalTime("latency", 1_000_000L);
            nvlink = doc.build(top.get("nvlink"), "nvlink", () -> new NvlinkParameters(rate,
                    latency));
        }
        long stopAt = Long.MAX_VALUE;
        if (top.has("run")) {
            YamlMap run = YamlMap.of(doc, top.get("run"), "run", "stop-at");
            stopAt = run.optionalTime("stop-at", Long.MAX_VALUE);
            if (stopAt == 0) {
                throw doc.at(run.get("stop-at"), "stop-at is 0; expected a time above 0 (e.g. 10ms)");
            }
        }
        List<PauseStormFault> faults = faults(doc, top, topology.hostCount(), mode);
        List<LinkEvent> linkEvents = linkEvents(doc, top, topology);
        long sampleInterval = ScenarioConfig.DEFAULT_SAMPLE_INTERVAL_PS;
        if (top.has("observe")) {
            YamlMap obs = YamlMap.of(doc, top.get("observe"), "observe", "sample-interval", "flows");
            sampleInterval = obs.optionalTime("sample-interval", sampleInterval);
        }
        String canonical = CanonicalText.render(name, seed, mode.key(), vlan, topology, switches, nic,
                String.join(" ", cc.toString(), pfc.toString(), ecn.toString(), "cnp=" + cnpQos[0] + "/" + cnpQos[1],
                        "sample=" + sampleInterval, "faults=" + faults, "events=" + linkEvents,
                        "rx=" + devices.receive(nicMap), "nvlink=" + nvlink,
                        "jobs=" + CanonicalText.jobs(jobs), "inference=" + inference) + (infiniband == null ? "" : " " + infiniband)
                        + (flowsOutput.choice() == FlowsOutput.Choice.AUTO ? ""
                                : " flows=" + flowsOutput.choice().key()), traffic, stopAt)
                + DeviceText.render(perDevice, DeviceText.used(top, switchMap, nicMap));
        return new ScenarioConfig(name, seed, mode, vlan, topology, switches, pfc, ecn, nic, devices.receive(nicMap), cc, cnpQos[0], cnpQos[1],
                traffic, faults, linkEvents, stopAt, sampleInterval, source, canonical, jobs, nvlink, inference, perDevice,
                infiniband, flowsOutput);
    }

    /** {@code observe: {flows: auto|per-flow|aggregated}}: how the run reports its flows (see FlowsOutput). */
    private static FlowsOutput flowsOutput(Doc doc, YamlMap top) throws ScenarioException {
        if (!top.has("observe")) {
            return FlowsOutput.AUTO;
        }
        YamlMap obs = YamlMap.of(doc, top.get("observe"), "observe", "sample-interval", "flows");
        if (obs.get("flows") == null) {
            return FlowsOutput.AUTO;
        }
        String key = obs.optionalChoice("flows", "auto", "a flows output", "auto", "per-flow", "aggregated");
        String where = doc.at(obs.get("flows"), "").getMessage();
        return new FlowsOutput(FlowsOutput.Choice.ofKey(key),
                where.substring(0, where.length() - 2));
    }

    /** {@code faults: [{kind: pause-storm, host: 3, start: 100us, duration: 5ms, priority: 3}]}. */
    private static List<PauseStormFault> faults(Doc doc, YamlMap top, int hosts, FabricMode mode)
            throws ScenarioException {
        List<PauseStormFault> out = new ArrayList<>();
        if (!top.has("faults")) {
            return out;
        }
        for (Node item : doc.list(top.get("faults"), "faults", "a list of faults, each with a kind")) {
            YamlMap f = YamlMap.of(doc, item, "a fault", "kind", "host", "start", "duration", "priority");
            f.require("kind", "pause-storm");
            f.optionalChoice("kind", "pause-storm", "a fault kind", "pause-storm");
            if (mode != FabricMode.ROCE_LOSSLESS) {
                throw doc.at(item, "a pause storm needs PFC; expected fabric: {mode: roce-lossless}");
            }
            int host = doc.integer(f.require("host", "a host index"), "host", 0, hosts - 1);
            long start = f.optionalTime("start", 0);
            long duration = doc.time(f.require("duration", "a time, e.g. 5ms"), "duration");
            int priority = f.optionalInt("priority", 3, 0, 7);
            out.add(doc.build(item, "a fault", () -> new PauseStormFault(host, start, duration, priority)));
        }
        return out;
    }

    /**
     * {@code links: [{a: leaf1, b: spine0, rate: 25Gbps}, {a: leaf0, b: spine1, delay: 5us}]}: per-link overrides laid
     * over the topology (every link between the two nodes), each with a rate, a delay or both.
     */
    private static TopologySpec linkOverrides(Doc doc, YamlMap top, TopologySpec spec) throws ScenarioException {
        if (!top.has("links")) {
            return spec;
        }
        Topology t = doc.build(top.get("links"), "links", spec::build);
        List<LinkOverride> out = new ArrayList<>();
        List<Node> items = new ArrayList<>();
        Map<Long, Integer> lineOf = new HashMap<>();
        for (Node item : doc.list(top.get("links"), "links", "a list of link overrides {a: ..., b: ..., rate: ...,"
                + " delay: ...}")) {
            YamlMap l = YamlMap.of(doc, item, "a link override", "a", "b", "rate", "delay");
            int a = node(doc, t, l.require("a", "a node name such as leaf0 or h3"));
            int b = node(doc, t, l.require("b", "a node name such as spine1"));
            if (!l.has("rate") && !l.has("delay")) {
                throw doc.at(item, "the override of " + t.nodeName(a) + " - " + t.nodeName(b) + " changes nothing;"
                        + " expected rate: (e.g. 25Gbps), delay: (e.g. 5us) or both");
            }
            boolean linked = false;
            for (Topology.Edge e : t.edges()) {
                linked |= e.a().node() == a && e.b().node() == b || e.a().node() == b && e.b().node() == a;
            }
            if (!linked) {
                throw doc.at(item, "there is no link between " + t.nodeName(a) + " and " + t.nodeName(b)
                        + "; expected two directly connected nodes");
            }
            long pair = (long) Math.min(a, b) * Integer.MAX_VALUE + Math.max(a, b);
            Integer first = lineOf.putIfAbsent(pair, item.getStartMark().getLine() + 1);
            if (first != null) {
                throw doc.at(item, "the link " + t.nodeName(a) + " - " + t.nodeName(b) + " is overridden on line "
                        + first + " already; expected each link once");
            }
            long rate = l.has("rate") ? l.requiredRate("rate") : -1;
            long delay = l.has("delay") ? l.optionalTime("delay", 0) : -1;
            out.add(doc.build(item, "a link override", () -> new LinkOverride(t.nodeName(a), t.nodeName(b), rate,
                    delay)));
            items.add(item);
        }
        equalPlanePorts(doc, t, out, items);
        return new LinkOverridesSpec(spec, out);
    }

    /**
     * On a multi-plane fabric an RNIC splits its line rate into equal ports, one per plane, and sends on each at that
     * share: a host link overridden alone would carry frames faster than its own rate (h0's plane-0 port at 100 Gb/s
     * sent at 250 Gb/s, the 500 Gb/s of its two ports halved, where the flow level and a single plane take 100). So a
     * host's links take one rate, all overridden alike or none.
     */
    private static void equalPlanePorts(Doc doc, Topology t, List<LinkOverride> overrides, List<Node> items)
            throws ScenarioException {
        if (t.planes() < 2) {
            return;
        }
        for (int i = 0; i < overrides.size(); i++) {
            LinkOverride o = overrides.get(i);
            int host = t.isHost(t.nodeByName(o.a())) ? t.nodeByName(o.a()) : t.nodeByName(o.b());
            if (o.rateBps() < 0 || !t.isHost(host)) {
                continue;
            }
            for (int port = 0; port < t.portCount(host); port++) {
                String peer = t.nodeName(t.peer(host, port).node());
                long rate = t.edgeAt(host, port).parameters().rateBps();
                for (LinkOverride other : overrides) {
                    if (other.rateBps() > 0 && (other.a().equals(peer) || other.b().equals(peer))
                            && (other.a().equals(t.nodeName(host)) || other.b().equals(t.nodeName(host)))) {
                        rate = other.rateBps();
                    }
                }
                if (rate != o.rateBps()) {
                    throw doc.at(items.get(i), "the link " + o.a() + " - " + o.b() + " at "
                            + Headroom.gbps(o.rateBps()) + " Gb/s leaves " + t.nodeName(host) + "'s port to " + peer
                            + " at " + Headroom.gbps(rate) + " Gb/s; an RNIC of a multi-plane fabric splits its line"
                            + " rate into equal ports: expected the same rate on every one of " + t.nodeName(host)
                            + "'s links (one override per plane)");
                }
            }
        }
    }

    /** {@code events: [{kind: link-down, a: leaf0, b: spine0, at: 50us}, {kind: link-up, ...}]}. */
    private static List<LinkEvent> linkEvents(Doc doc, YamlMap top, TopologySpec spec) throws ScenarioException {
        List<LinkEvent> out = new ArrayList<>();
        if (!top.has("events")) {
            return out;
        }
        Topology t = spec.build();
        List<EventSeen> seen = new ArrayList<>();
        for (Node item : doc.list(top.get("events"), "events", "a list of events, each with a kind")) {
            YamlMap e = YamlMap.of(doc, item, "an event", "kind", "a", "b", "at");
            e.require("kind", "link-down or link-up");
            boolean up = "link-up".equals(e.optionalChoice("kind", "link-down", "an event kind", "link-down",
                    "link-up"));
            Node an = e.require("a", "a node name such as leaf0 or h3");
            Node bn = e.require("b", "a node name such as spine1");
            int a = node(doc, t, an);
            int b = node(doc, t, bn);
            long at = doc.time(e.require("at", "a time, e.g. 50us"), "at");
            int found = 0;
            for (Topology.Edge edge : t.edges()) {
                if (edge.a().node() == a && edge.b().node() == b || edge.a().node() == b && edge.b().node() == a) {
                    out.add(new LinkEvent(edge.index(), at, up));
                    found++;
                }
            }
            if (found == 0) {
                throw doc.at(item, "there is no link between " + t.nodeName(a) + " and " + t.nodeName(b)
                        + "; expected two directly connected nodes");
            }
            seen.add(new EventSeen(Math.min(a, b), Math.max(a, b), at, up, e.get("kind"), e.get("at")));
        }
        downAndUpInTurn(doc, t, seen);
        return out;
    }

    /** One link event as read: the link by its two nodes, when, which way, and where it is in the file. */
    private record EventSeen(int lo, int hi, long atPs, boolean up, Node kind, Node at) {}

    /**
     * Each link's events, in the order they apply (by time, then as written, as the run applies them), go down and up
     * in turn from up: a second link-down while the link is down (or a link-up while it is up) changes nothing in the
     * run and is a mistake in the file, such as overlapping outages of one link.
     */
    private static void downAndUpInTurn(Doc doc, Topology t, List<EventSeen> seen)
            throws ScenarioException {
        List<EventSeen> inTime = new ArrayList<>(seen);
        inTime.sort(Comparator.comparingLong(EventSeen::atPs)); // stable: as written at equal times
        Map<Long, EventSeen> downNow = new HashMap<>();
        for (EventSeen e : inTime) {
            long link = (long) e.lo() * Integer.MAX_VALUE + e.hi();
            String name = t.nodeName(e.lo()) + " - " + t.nodeName(e.hi());
            EventSeen down = downNow.get(link);
            if (!e.up() && down != null) {
                throw doc.at(e.kind(), "link-down of " + name + " at " + text(e.at()) + " while it is already down"
                        + " (link-down at " + text(down.at()) + " on line " + (down.kind().getStartMark().getLine() + 1)
                        + ", no link-up of it in between); expected one link-down per outage, each followed by a"
                        + " link-up before the next");
            }
            if (e.up() && down == null) {
                throw doc.at(e.kind(), "link-up of " + name + " at " + text(e.at()) + " while it is up (no link-down of"
                        + " it before, or it is already back up); expected a link-up only after a link-down of the"
                        + " same link");
            }
            if (e.up()) {
                downNow.remove(link);
            } else {
                downNow.put(link, e);
            }
        }
    }

    private static String text(Node n) {
        return n instanceof org.yaml.snakeyaml.nodes.ScalarNode s ? s.getValue() : String.valueOf(n);
    }

    private static int node(Doc doc, Topology t, Node n) throws ScenarioException {
        String name = doc.text(n, "node", "a node name");
        int id = t.nodeByName(name);
        if (id < 0) {
            throw doc.at(n, "no node is named '" + name + "'; expected a host (h0..h" + (t.hostCount() - 1)
                    + ") or a switch of the topology (e.g. " + t.nodeName(t.hostCount()) + ")");
        }
        return id;
    }

    private static FabricMode mode(Doc doc, YamlMap fabric) throws ScenarioException {
        String modes = String.join(", ", Arrays.stream(FabricMode.values()).map(FabricMode::key).toList());
        Node node = fabric.require("mode", modes);
        String key = doc.text(node, "mode", modes);
        FabricMode mode = FabricMode.fromKey(key);
        if (mode != null) {
            return mode;
        }
        throw doc.at(node, "'" + key + "' is not a fabric mode; expected " + modes);
    }
}
