package rocelab.scenario.read;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import rocelab.scenario.Footprint;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.job.CheckedUnrolling;
import rocelab.workload.job.Dim;
import rocelab.workload.job.Expr;
import rocelab.workload.job.JobEmitter;
import rocelab.workload.job.JobException;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.JobTasks;
import rocelab.workload.job.Layout;
import rocelab.workload.job.Step;

/**
 * Reads the {@code jobs} list: each job's layout (parallelism degrees, rank order, hosts) and its program, written
 * out or generated. Every job is unrolled once into a scratch graph while reading, so a program that cannot run (a
 * group member missing, a send without its receive) is reported at the step that causes it.
 */
final class JobReader {
    static final String[] JOB_KEYS = {"name", "hosts", "parallelism", "order", "iterations", "warmup", "start", "dscp",
        "program", "generator", "simai", "chakra"};
    private static final String OPS = "compute, delay, send, recv, or a collective: "
            + String.join(", ", Arrays.stream(CollectiveOp.values()).filter(Collectives::available)
                    .map(CollectiveOp::key).toList());
    private static final String GROUP = "a group: tp, cp, ep, dp, pp, world, or a list of them such as [dp, ep]";

    private final Doc doc;
    private final TrafficReader hosts;

    private final Sizing sizing;
    /** Whether the scenario has NVLink: transfers inside a server are then NVLink tasks, in the check as in the run. */
    private final boolean nvlink;

    JobReader(Doc doc, TrafficReader hosts, Sizing sizing, boolean nvlink) {
        this.doc = doc;
        this.hosts = hosts;
        this.sizing = sizing;
        this.nvlink = nvlink;
    }

    List<JobSpec> read(Node node) throws ScenarioException {
        List<Node> items = doc.list(node, "jobs", "a list of jobs");
        List<JobSpec> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            JobSpec job = job(items.get(i), i + 1, i == 0);
            if (!names.add(job.name())) {
                throw doc.at(items.get(i), "job name '" + job.name() + "' is used twice; expected unique job names");
            }
            out.add(job);
        }
        return out;
    }

    private JobSpec job(Node node, int index, boolean keepUnrolling) throws ScenarioException {
        String where = "job " + index;
        YamlMap m = YamlMap.of(doc, node, where, JOB_KEYS);
        String name = m.has("name") ? doc.text(m.get("name"), "name", "a job name") : "job" + index;
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw doc.at(m.get("name"), Doc.quoted(name) + " is not a valid job name; expected letters, digits, '.', '_'"
                    + " and '-'");
        }
        int sources = (m.has("program") ? 1 : 0) + (m.has("generator") ? 1 : 0) + (m.has("simai") ? 1 : 0)
                + (m.has("chakra") ? 1 : 0);
        if (sources != 1) {
            throw doc.at(node, "job '" + name + "' needs exactly one of program, generator, simai and chakra;"
                    + " expected a program (a list of steps), a generator (e.g. {type: megatron, ...}), simai: FILE"
                    + " (a SimAI workload file) or chakra: FOLDER (Chakra execution traces, one per rank)");
        }
        Map<Dim, Integer> degrees = new EnumMap<>(Dim.class);
        SimaiReader.Workload simai = null;
        ChakraJob chakra = null;
        if (m.has("simai")) {
            if (m.has("parallelism")) {
                throw doc.at(m.keyNode("parallelism"), "a SimAI workload file gives the parallelism in its header;"
                        + " expected no parallelism key with simai");
            }
            int[] placed = hosts.hostSet(m.require("hosts", "the hosts of the ranks in rank order, e.g. 0-31"), "hosts");
            simai = simai(m.get("simai"), placed.length);
            degrees.putAll(simai.degrees());
        } else if (m.has("chakra") && !m.has("parallelism")) {
            chakra = chakra(m.get("chakra"));
            // Without a parallelism, every rank is a data-parallel replica (groups are then the whole job).
            for (Dim d : Dim.values()) {
                degrees.put(d, d == Dim.DP ? chakra.traces().ranks() : 1);
            }
        } else {
            YamlMap par = YamlMap.of(doc, m.require("parallelism", "a mapping of degrees, e.g. {tp: 8, pp: 2, dp: 4}"),
                    "parallelism", "tp", "cp", "ep", "dp", "pp");
            for (Dim d : Dim.values()) {
                degrees.put(d, par.optionalInt(d.key(), 1, 1, 1 << 20));
            }
        }
        List<Dim> order = Layout.MEGATRON_ORDER;
        if (m.has("order")) {
            order = new ArrayList<>();
            for (Node o : doc.list(m.get("order"), "order", "a list of tp, cp, ep, dp, pp, fastest-varying first")) {
                String k = doc.text(o, "order", "tp, cp, ep, dp or pp");
                Dim d = Dim.ofKey(k);
                if (d == null || order.contains(d)) {
                    throw doc.at(o, d == null ? "'" + k + "' is not a dimension; expected tp, cp, ep, dp or pp"
                            : k + " is listed twice; expected each dimension once");
                }
                order.add(d);
            }
            for (Dim d : Dim.values()) {
                if (!order.contains(d)) {
                    order.add(d);
                }
            }
        }
        int[] placed = hosts.hostSet(m.require("hosts", "the hosts of the ranks in rank order, e.g. 0-31"), "hosts");
        long ranks = degrees.values().stream().mapToLong(Integer::longValue).reduce(1, (a, b) -> a * b);
        if (m.has("chakra")) {
            if (chakra == null) {
                chakra = chakra(m.get("chakra"));
            }
            if (ranks != chakra.traces().ranks()) {
                throw doc.at(m.get("parallelism"), "the parallelism makes " + ranks + " ranks but the trace folder"
                        + " has " + chakra.traces().ranks() + " (one .et file per rank); expected degrees whose"
                        + " product is " + chakra.traces().ranks());
            }
        }
        if (ranks != placed.length) {
            throw doc.at(m.get("hosts"), placed.length + " hosts are placed but the parallelism "
                    + degrees.entrySet().stream().filter(e -> e.getValue() > 1).map(e -> e.getKey().key() + " "
                    + e.getValue()).toList() + " makes " + ranks + " ranks; expected one host per rank");
        }
        List<Dim> finalOrder = order;
        Layout layout = doc.build(m.get("hosts"), where, () -> new Layout(degrees, finalOrder, placed));
        int iterations = m.optionalInt("iterations", 1, 1, 1_000_000);
        int warmup = m.optionalInt("warmup", 0, 0, 1_000_000);
        if (warmup >= iterations) {
            throw doc.at(m.get("warmup"), "warmup " + warmup + " leaves no measured iteration; expected fewer than "
                    + "iterations (" + iterations + ")");
        }
        long start = m.optionalTime("start", 0);
        int dscp = m.has("dscp") ? doc.integer(m.get("dscp"), "dscp", 0, 63) : -1;
        List<Step> program;
        List<String> notes = simai == null ? List.of() : simai.notes();
        if (simai != null) {
            program = simai.program();
        } else if (chakra != null) {
            ChakraReader.Workload w = ChakraReader.read(chakra.traces(), layout, chakra.options());
            program = w.program();
            notes = w.notes();
        } else if (m.has("program")) {
            List<String> ids = new ArrayList<>();
            collectIds(m.get("program"), ids);
            program = steps(m.get("program"), new HashSet<>(), new HashSet<>(ids), new int[] {0});
            notes = groupsOfOne(program, layout);
        } else {
            program = new MegatronReader(doc).read(m.get("generator"), layout);
        }
        List<String> jobNotes = notes;
        JobSpec job = doc.build(node, where, () -> new JobSpec(name, layout, program, iterations, warmup, start, dscp,
                jobNotes));
        long[] estimate = sizing.job(m.has("program") ? m.get("program") : m.has("generator") ? m.get("generator")
                : m.has("simai") ? m.get("simai") : m.get("chakra"), job);
        check(job, node, keepUnrolling, estimate);
        return job;
    }

    /**
     * A note naming the collective steps whose groups have one rank (every dimension of the group at degree 1, as a
     * sweep over tp reaches tp 1): they exchange nothing and take no time, as NCCL's one-rank communicator does.
     */
    private static List<String> groupsOfOne(List<Step> program, Layout layout) {
        Set<String> ids = new LinkedHashSet<>();
        collectGroupsOfOne(program, layout, ids);
        if (ids.isEmpty()) {
            return List.of();
        }
        return List.of((ids.size() == 1 ? "step '" + ids.iterator().next() + "' runs" : "steps '"
                + String.join("', '", ids) + "' run") + " over groups of one rank (degree 1): nothing to exchange,"
                + " no time taken");
    }

    private static void collectGroupsOfOne(List<Step> steps, Layout layout, Set<String> ids) {
        for (Step s : steps) {
            if (s instanceof Step.Repeat r) {
                collectGroupsOfOne(r.steps(), layout, ids);
            } else if (s instanceof Step.Collective c && c.members() == null
                    && c.dims().stream().allMatch(d -> layout.degree(d) == 1)) {
                ids.add(c.meta().id());
            }
        }
    }

    /**
     * Unrolls the job once, so a program that cannot run is reported where it is written. The first job's unrolling
     * is kept for the run ({@link CheckedUnrolling}): when it is the first thing in the run's
     * graph, the run takes it instead of unrolling the job again.
     */
    private void check(JobSpec job, Node node, boolean keepUnrolling, long[] estimate) throws ScenarioException {
        try {
            TaskGraph scratch = new TaskGraph();
            // Sized from the reader's count of the job (an estimate: the arrays grow past it if need be). Jobs
            // unrolled so far have about three dependencies per task (the 4,096-GPU Megatron iteration 3.08): room
            // for 3.25 spares its half-gigabyte of dependencies a copy to grow (3 was short). Not when the
            // arrays alone (about 45 bytes a task) would take a good part of the heap: an estimate that counted
            // too much must not be what fails a job that fits.
            if (Footprint.mulSat(45, estimate[0]) < Runtime.getRuntime().maxMemory() / 2) {
                scratch.expect(estimate[0], estimate[1], Footprint.mulSat(13, estimate[0]) / 4);
            }
            if (hosts.servers() != null) {
                scratch.servers(hosts.servers());
                if (nvlink) {
                    // The graph the run builds (rate and latency do not matter to the check), without a fabric
                    // flow's arrays for each of the millions of transfers inside the servers of a large job.
                    scratch.localLinks(new LocalLinks(hosts.servers(), 1, 0));
                }
            }
            if (keepUnrolling) {
                CheckedUnrolling.clear();
            }
            JobTasks tasks = JobEmitter.emit(scratch, job);
            int stuck = scratch.tasksInCycles();
            if (stuck > 0) {
                throw doc.at(node, "job '" + job.name() + "' waits on itself: " + stuck
                        + " tasks can never start (for example a send that waits for a receive that waits for that"
                        + " send); expected sends and receives that can be matched in program order");
            }
            if (keepUnrolling) {
                CheckedUnrolling.keep(job, scratch, tasks);
            }
        } catch (JobException e) {
            Step.Meta meta = e.meta();
            if (meta.line() == 0) {
                // An imported program: its steps have no place in the scenario, the job has.
                throw doc.at(node, "job '" + job.name() + "': " + e.getMessage());
            }
            throw new ScenarioException(doc.file(), Math.max(1, meta.line()), Math.max(1, meta.column()),
                    e.getMessage());
        } catch (IllegalArgumentException e) {
            throw doc.at(node, "job '" + job.name() + "': " + e.getMessage());
        }
    }

    /** A job's Chakra trace folder and what the scenario adds to it. */
    private record ChakraJob(ChakraReader.Traces traces, ChakraReader.Options options) {}

    /**
     * Reads {@code chakra: FOLDER} or {@code chakra: {traces: FOLDER, ops-per-second: R, channels: N, algorithm:
     * {allreduce: ring, ...}}}; the folder is relative to the scenario.
     */
    private ChakraJob chakra(Node node) throws ScenarioException {
        Node dirNode = node;
        double ops = 0;
        int channels = 1;
        Map<CollectiveOp, Algorithm> algorithms = new EnumMap<>(CollectiveOp.class);
        if (!(node instanceof ScalarNode)) {
            YamlMap c = YamlMap.of(doc, node, "chakra", "traces", "ops-per-second", "channels", "algorithm");
            dirNode = c.require("traces", "the folder of the Chakra traces, one NAME.R.et per rank");
            if (c.has("ops-per-second")) {
                ops = doc.number(c.get("ops-per-second"), "ops-per-second", 1, 1e21);
            }
            channels = c.optionalInt("channels", 1, 1, 64);
            if (c.has("algorithm")) {
                List<CollectiveOp> ops2 = Arrays.stream(CollectiveOp.values()).filter(Collectives::available)
                        .filter(o -> o != CollectiveOp.ALL_TO_ALLV && o != CollectiveOp.SEND_RECV).toList();
                YamlMap a = YamlMap.of(doc, c.get("algorithm"), "algorithm", ops2.stream().map(CollectiveOp::key)
                        .toArray(String[]::new));
                for (CollectiveOp o : ops2) {
                    if (a.has(o.key())) {
                        algorithms.put(o, Algorithm.ofKey(a.optionalChoice(o.key(), Collectives.defaultAlgorithm(o)
                                .key(), "an algorithm of " + o.title(), Collectives.algorithmKeys(o))));
                    }
                }
            }
        }
        String dir = doc.text(dirNode, "chakra", "the folder of the Chakra traces, one NAME.R.et per rank");
        Path resolved;
        String shown;
        try {
            resolved = hosts.baseDir().resolve(dir).toAbsolutePath().normalize();
            shown = hosts.csvName(dir);
        } catch (InvalidPathException e) {
            throw doc.at(dirNode, "'" + dir + "' is not a valid path; expected the folder of the Chakra traces");
        }
        Node where = dirNode;
        ChakraReader.Traces traces = ChakraReader.list(resolved, shown.endsWith("/") ? shown : shown + "/",
                detail -> doc.at(where, detail));
        return new ChakraJob(traces, new ChakraReader.Options(ops, channels, algorithms));
    }

    /** Reads the SimAI workload file named by {@code fileNode}, relative to the scenario. */
    private SimaiReader.Workload simai(Node fileNode, int hostCount) throws ScenarioException {
        String file = doc.text(fileNode, "simai", "the path of a SimAI workload file");
        Path resolved;
        String shown;
        try {
            resolved = hosts.baseDir().resolve(file).toAbsolutePath().normalize();
            shown = hosts.csvName(file);
        } catch (InvalidPathException e) {
            throw doc.at(fileNode, "'" + file + "' is not a valid path; expected the path of a SimAI workload file");
        }
        String text = FlowsCsvReader.load(doc, fileNode, resolved, "; expected a SimAI workload file (AICB's .txt)");
        return SimaiReader.read(text, shown, hostCount);
    }

    private void collectIds(Node list, List<String> ids) throws ScenarioException {
        for (Node item : doc.list(list, "program", "a list of steps")) {
            Map<String, org.yaml.snakeyaml.nodes.NodeTuple> e = YamlMap.entries(doc, item, "a step", "a mapping");
            if (e.containsKey("id")) {
                ids.add(doc.text(e.get("id").getValueNode(), "id", "a step id"));
            }
            if (e.containsKey("steps")) {
                collectIds(e.get("steps").getValueNode(), ids);
            }
        }
    }

    private List<Step> steps(Node list, Set<String> loopVars, Set<String> ids, int[] counter)
            throws ScenarioException {
        List<Step> out = new ArrayList<>();
        List<Node> items = doc.list(list, "program", "a list of steps");
        if (items.isEmpty()) {
            throw doc.at(list, "the program is empty; expected at least one step");
        }
        for (Node item : items) {
            counter[0]++;
            out.add(step(item, loopVars, ids, counter));
        }
        return out;
    }

    private Step step(Node node, Set<String> loopVars, Set<String> ids, int[] counter) throws ScenarioException {
        Map<String, org.yaml.snakeyaml.nodes.NodeTuple> e = YamlMap.entries(doc, node, "a step", "a mapping");
        if (e.containsKey("repeat")) {
            YamlMap m = YamlMap.of(doc, node, "a repeat", "repeat", "as", "steps", "id");
            int count = doc.integer(m.get("repeat"), "repeat", 1, 1_000_000);
            String var = null;
            if (m.has("as")) {
                var = doc.text(m.get("as"), "as", "a loop variable name");
                if (!var.matches("[a-z_][a-z0-9_]*") || Layout.names().contains(var) || loopVars.contains(var)) {
                    throw doc.at(m.get("as"), "'" + var + "' cannot name a loop variable; expected a lower-case name"
                            + " that is not a coordinate (tp, cp, ep, dp, pp) or an enclosing loop's variable");
                }
            }
            Set<String> inner = new HashSet<>(loopVars);
            if (var != null) {
                inner.add(var);
            }
            String id = m.has("id") ? stepId(m.get("id")) : "repeat" + counter[0];
            Step.Meta meta = new Step.Meta(id, "main", List.of(), null, line(node), column(node));
            return new Step.Repeat(meta, count, var, steps(m.require("steps", "a list of steps"), inner, ids,
                    counter));
        }
        if (!e.containsKey("op")) {
            throw doc.at(node, "a step needs an op; expected op: " + OPS + " (or repeat: N with steps)");
        }
        Node opNode = e.get("op").getValueNode();
        String op = doc.text(opNode, "op", OPS);
        Set<String> names = new HashSet<>(Layout.names());
        names.addAll(loopVars);
        String[] common = {"id", "op", "stream", "after", "when"};
        switch (op) {
            case "compute", "delay" -> {
                YamlMap m = YamlMap.of(doc, node, "a " + op + " step", concat(common, "duration"));
                long d = doc.time(m.require("duration", "a time, e.g. 1.2ms"), "duration");
                Step.Meta meta = meta(m, node, op, names, ids, counter);
                return op.equals("compute") ? new Step.Compute(meta, d) : new Step.Delay(meta, d);
            }
            case "send", "recv" -> {
                YamlMap m = op.equals("send") ? YamlMap.of(doc, node, "a send step", concat(common, "peer", "size"))
                        : YamlMap.of(doc, node, "a recv step", concat(common, "peer"));
                long size = op.equals("send") ? m.requiredSize("size", 1) : 0;
                Map<Dim, Expr> peer = peer(m.require("peer", "the peer's coordinates, e.g. pp+1 or {pp: 0, dp: dp}"),
                        names);
                return new Step.Transfer(meta(m, node, op, names, ids, counter), op.equals("send"), peer, size);
            }
            default -> {
                CollectiveOp cop = CollectiveOp.ofKey(op);
                if (cop == null || !Collectives.available(cop)) {
                    throw doc.at(opNode, "'" + op + "' is not a step op; expected " + OPS);
                }
                YamlMap m = YamlMap.of(doc, node, "a " + op + " step", concat(common, "group", "size", "size-total",
                        "size-per-rank", "algorithm", "channels", "root", "qps-per-connection", "skew", "members"));
                Set<Dim> dims = group(m.get("group"));
                String alg = m.optionalChoice("algorithm", Collectives.defaultAlgorithm(cop).key(),
                        "an algorithm of " + cop.title(), Collectives.algorithmKeys(cop));
                long size = 0;
                boolean perRank = false;
                if (cop != CollectiveOp.BARRIER) {
                    String key = null;
                    for (String k : new String[] {"size", "size-total", "size-per-rank"}) {
                        if (m.has(k)) {
                            if (key != null) {
                                throw doc.at(m.get(k), "both " + key + " and " + k + " are given; expected exactly"
                                        + " one of size-total (the nccl-tests size), size-per-rank, or size");
                            }
                            key = k;
                        }
                    }
                    if (key == null) {
                        throw doc.at(node, "missing key 'size-total' in a " + op + " step; expected size-total (the "
                                + "nccl-tests size S), size-per-rank, or size (= size-total)");
                    }
                    size = m.requiredSize(key, 1);
                    perRank = key.equals("size-per-rank");
                }
                int channels = m.optionalInt("channels", 1, 1, 64);
                int qps = m.optionalInt("qps-per-connection", 1, 1, 128);
                Step.Skew skew = null;
                if (m.has("skew")) {
                    if (cop != CollectiveOp.ALL_TO_ALLV) {
                        throw doc.at(m.get("skew"), "only an alltoallv step takes a skew; expected op: alltoallv");
                    }
                    YamlMap sk = YamlMap.of(doc, m.get("skew"), "skew", "zipf", "seed");
                    double zipf = doc.number(sk.require("zipf", "a Zipf exponent such as 1.2"), "zipf", 0, 10);
                    long seed = sk.has("seed") ? doc.longValue(sk.get("seed"), "seed", "a whole number") : 1;
                    skew = new Step.Skew(zipf, seed);
                }
                int root = 0;
                if (m.has("root")) {
                    if (!cop.rooted()) {
                        throw doc.at(m.get("root"), cop.title() + " has no root; expected no root key");
                    }
                    root = doc.integer(m.get("root"), "root", 0, 1 << 20);
                }
                Expr members = m.has("members") ? expr(m.get("members"), "members", names) : null;
                return new Step.Collective(meta(m, node, op, names, ids, counter), cop, Algorithm.ofKey(alg), dims,
                        size, perRank, channels, root, qps, skew, members);
            }
        }
    }

    /**
     * A step id or stream name: a word of letters, digits, '.', '_' and '-', as job names (it appears in CSV rows and
     * one-line messages, so no newline or comma can hide in it).
     */
    private String stepId(Node node) throws ScenarioException {
        String what = "a step id or stream name: letters, digits, '.', '_' and '-' (e.g. grads)";
        String id = doc.text(node, "id", what);
        if (!id.matches("[A-Za-z0-9._-]+")) {
            throw doc.at(node, "'" + id.replace("\n", "\\n") + "' is not a valid name; expected " + what);
        }
        return id;
    }

    private Step.Meta meta(YamlMap m, Node node, String op, Set<String> names, Set<String> ids, int[] counter)
            throws ScenarioException {
        String id = m.has("id") ? stepId(m.get("id")) : op + counter[0];
        String stream = m.has("stream") ? stepId(m.get("stream")) : "main";
        List<String> after = new ArrayList<>();
        if (m.has("after")) {
            Node a = m.get("after");
            List<Node> refs = a instanceof SequenceNode s ? s.getValue() : List.of(a);
            for (Node r : refs) {
                String ref = doc.text(r, "after", "step ids");
                if (!ids.contains(ref)) {
                    throw doc.at(r, "no step has the id '" + ref + "'; expected the id of a step of this program");
                }
                after.add(ref);
            }
        }
        Expr when = m.has("when") ? expr(m.get("when"), "when", names) : null;
        return new Step.Meta(id, stream, after, when, line(node), column(node));
    }

    private Map<Dim, Expr> peer(Node node, Set<String> names) throws ScenarioException {
        Map<Dim, Expr> out = new LinkedHashMap<>();
        if (node instanceof ScalarNode) {
            String text = doc.text(node, "peer", "an expression such as pp+1");
            Matcher lead = Pattern.compile("\\s*([a-z]+)").matcher(text);
            Dim d = lead.lookingAt() ? Dim.ofKey(lead.group(1)) : null;
            if (d == null) {
                throw doc.at(node, "'" + text + "' does not start with a coordinate; expected e.g. pp+1 or pp-1 (or a"
                        + " mapping such as {pp: (pp+1) % PP})");
            }
            out.put(d, expr(node, "peer", names));
            return out;
        }
        YamlMap m = YamlMap.of(doc, node, "peer", "tp", "cp", "ep", "dp", "pp");
        for (Dim d : Dim.values()) {
            if (m.has(d.key())) {
                out.put(d, expr(m.get(d.key()), "peer " + d.key(), names));
            }
        }
        if (out.isEmpty()) {
            throw doc.at(node, "the peer names no coordinate; expected at least one of tp, cp, ep, dp, pp");
        }
        return out;
    }

    private Expr expr(Node node, String label, Set<String> names) throws ScenarioException {
        String text = doc.text(node, label, "an expression such as pp > 0");
        try {
            return Expr.parse(text, names);
        } catch (Expr.ParseException e) {
            throw doc.at(node, e.offset(), label + " '" + text + "': " + e.getMessage()
                    + (e.getMessage().contains("expected") ? "" : "; expected an expression such as pp > 0"));
        }
    }

    private Set<Dim> group(Node node) throws ScenarioException {
        if (node == null) {
            return EnumSet.allOf(Dim.class);
        }
        List<Node> items = node instanceof SequenceNode s ? s.getValue() : List.of(node);
        Set<Dim> dims = EnumSet.noneOf(Dim.class);
        for (Node n : items) {
            String k = doc.text(n, "group", GROUP);
            if (k.equals("world")) {
                dims.addAll(EnumSet.allOf(Dim.class));
                continue;
            }
            Dim d = Dim.ofKey(k);
            if (d == null) {
                throw doc.at(n, "'" + k + "' is not a group; expected " + GROUP);
            }
            dims.add(d);
        }
        return dims;
    }

    private static int line(Node n) {
        return n.getStartMark() == null ? 0 : n.getStartMark().getLine() + 1;
    }

    private static int column(Node n) {
        return n.getStartMark() == null ? 0 : n.getStartMark().getColumn() + 1;
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
