package rocelab.scenario.read;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import rocelab.workload.inference.Arrivals;
import rocelab.workload.inference.CostModel;
import rocelab.workload.inference.InferenceSpec;
import rocelab.workload.inference.ModelShape;
import rocelab.workload.inference.RequestTemplate;
import rocelab.workload.inference.ServingInstance;

/**
 * Reads the {@code inference} list: request-driven services with prefill and decode instances, a fixed cost model,
 * a scheduler, arrivals (Poisson or a CSV trace) and a request template of LLM and tool calls.
 */
final class InferenceReader {
    static final String[] SERVICE_KEYS = {"name", "model", "instances", "cost", "scheduler", "arrivals", "request",
        "gateway", "dscp"};
    private static final String[] MODEL_KEYS = {"layers", "hidden", "heads", "kv-heads", "head-dim", "dtype-bytes",
        "moe"};

    private final Doc doc;
    private final TrafficReader hosts;
    private final int hostCount;

    InferenceReader(Doc doc, TrafficReader hosts, int hostCount) {
        this.doc = doc;
        this.hosts = hosts;
        this.hostCount = hostCount;
    }

    List<InferenceSpec> read(Node node, Set<String> takenNames) throws ScenarioException {
        List<InferenceSpec> out = new ArrayList<>();
        Set<String> names = new HashSet<>(takenNames);
        List<Node> items = doc.list(node, "inference", "a list of inference services");
        for (int i = 0; i < items.size(); i++) {
            InferenceSpec s = service(items.get(i), i + 1);
            if (!names.add(s.name())) {
                throw doc.at(items.get(i), "the name '" + s.name() + "' is used twice; expected unique names for"
                        + " jobs and inference services");
            }
            out.add(s);
        }
        return out;
    }

    private InferenceSpec service(Node node, int index) throws ScenarioException {
        String where = "inference service " + index;
        YamlMap m = YamlMap.of(doc, node, where, SERVICE_KEYS);
        String name = m.has("name") ? doc.text(m.get("name"), "name", "a service name") : "inference" + index;
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw doc.at(m.get("name"), Doc.quoted(name) + " is not a valid name; expected letters, digits, '.', '_' and"
                    + " '-'");
        }
        // The service by its name in what is said of it from here on: the name is what outputs call it.
        String named = "inference service '" + name + "'";
        ModelShape model = model(m.require("model", "{layers: 80, hidden: 8192, heads: 64, kv-heads: 8, head-dim: 128}"));
        Map<Integer, String> servedBy = new HashMap<>();
        Map<String, Node> tpAt = new HashMap<>();
        Node instancesNode = m.require("instances", "a list of instances, e.g."
                + " [{role: prefill, tp: 8, hosts: 0-7}, {role: decode, tp: 8, hosts: 8-15}]");
        List<ServingInstance> instances = instances(instancesNode, named, servedBy, tpAt);
        for (ServingInstance.Role role : ServingInstance.Role.values()) {
            if (instances.stream().noneMatch(i -> i.role() == role)) {
                String r = role == ServingInstance.Role.PREFILL ? "prefill" : "decode";
                throw doc.at(instancesNode, named + " has no " + r + " instance; expected at least one prefill and"
                        + " one decode instance, e.g. [{role: prefill, hosts: 0}, {role: decode, hosts: 1}]");
            }
        }
        // The KV cache moves rank i to rank i: every instance has the first one's tp.
        ServingInstance first = instances.get(0);
        int tp = first.tp();
        for (ServingInstance i : instances) {
            if (i.tp() != tp) {
                throw doc.at(tpAt.get(i.name()), "tp " + i.tp() + " of instance " + i.name() + " differs from tp "
                        + tp + " of instance " + first.name() + " of " + named + "; expected tp " + tp + ", as every"
                        + " instance of the service has: the KV cache moves from rank i of the prefill instance to"
                        + " rank i of the decode instance");
            }
        }
        if (!InferenceSpec.shards(tp, model.kvHeads())) {
            YamlMap mm = YamlMap.of(doc, m.get("model"), "model", MODEL_KEYS);
            boolean given = mm.has("kv-heads");
            List<String> fit = new ArrayList<>();
            for (int v = 1; v <= model.heads(); v++) {
                if (model.heads() % v == 0 && InferenceSpec.shards(tp, v)) {
                    fit.add(String.valueOf(v));
                }
            }
            String choices = fit.size() == 1 ? fit.get(0) : String.join(", ", fit.subList(0, fit.size() - 1))
                    + " or " + fit.get(fit.size() - 1);
            throw doc.at(given ? mm.get("kv-heads") : mm.get("heads"), "kv-heads " + model.kvHeads()
                    + (given ? "" : " (heads, as kv-heads is not given)") + " of " + named + " is not sharded evenly"
                    + " by its tp " + tp + "; expected kv-heads a multiple of tp (each rank holds kv-heads/tp heads)"
                    + " or a divisor of it (each head on tp/kv-heads ranks) that divides heads " + model.heads()
                    + ": " + choices);
        }
        YamlMap c = YamlMap.of(doc, m.require("cost", "{prefill-per-token: 45us, decode-step: 25ms}"), "cost",
                "prefill-per-token", "decode-step");
        long perToken = doc.time(c.require("prefill-per-token", "a time per prompt token, e.g. 45us"),
                "prefill-per-token");
        long step = doc.time(c.require("decode-step", "the time of one decode step, e.g. 25ms"), "decode-step");
        // A GPU pass takes time: at 0 a prompt is prefilled or a token made in no time (a TPOT of 0).
        if (perToken <= 0) {
            throw doc.at(c.get("prefill-per-token"), "prefill-per-token '" + doc.text(c.get("prefill-per-token"),
                    "prefill-per-token", "a time") + "' is not positive; expected the time per prompt token above 0,"
                    + " e.g. 45us");
        }
        if (step <= 0) {
            throw doc.at(c.get("decode-step"), "decode-step '" + doc.text(c.get("decode-step"), "decode-step",
                    "a time") + "' is not positive; expected the time of one decode step above 0, e.g. 25ms");
        }
        int maxBatch = 16;
        String placement = "round-robin";
        int perPass = 1;
        if (m.has("scheduler")) {
            YamlMap s = YamlMap.of(doc, m.get("scheduler"), "scheduler", "max-batch", "placement",
                    "allreduces-per-pass");
            maxBatch = s.optionalInt("max-batch", maxBatch, 1, 4096);
            placement = s.optionalChoice("placement", placement, "a placement", "round-robin", "least-loaded");
            perPass = s.optionalInt("allreduces-per-pass", perPass, 1, 2 * model.layers());
        }
        Arrivals arrivals = arrivals(m.require("arrivals", "{process: poisson, rate: 20/s, duration: 1s} or"
                + " {trace: requests.csv}"));
        RequestTemplate request;
        if (m.has("request")) {
            request = request(m.get("request"));
        } else if (arrivals instanceof Arrivals.Trace) {
            request = new RequestTemplate(0, List.of(new RequestTemplate.LlmCall(1, false, 1)), 0);
        } else {
            throw doc.at(node, "missing key 'request' in " + where + "; expected request: {ingress: ..., steps:"
                    + " [{llm: {prompt-tokens: 1024, output-tokens: 128}}], egress: ...} (only a trace may leave it"
                    + " out: its rows give each request one LLM call)");
        }
        int gateway = m.has("gateway") ? doc.integer(m.get("gateway"), "gateway", 0, hostCount - 1) : -1;
        if (servedBy.containsKey(gateway)) {
            throw doc.at(m.get("gateway"), "gateway " + gateway + " of " + named + " also serves its instance "
                    + servedBy.get(gateway) + "; expected a host that serves no instance (requests enter and leave"
                    + " the service through it)");
        }
        if (gateway < 0 && request.northSouth()) {
            throw doc.at(node, named + " has no gateway, yet its requests move bytes through one (request ingress,"
                    + " egress or a tool call's bytes); expected gateway: HOST, a host that serves no instance");
        }
        long longest = InferenceSpec.longestPrompt(request, arrivals);
        if (!InferenceSpec.fits(model, longest)) {
            throw doc.at(m.get("model"), "the model of " + named + " makes the KV cache or the AllReduce of its"
                    + " longest prompt (" + longest + " tokens) more than 2^63 bytes; expected a smaller model or"
                    + " shorter prompts");
        }
        if (!InferenceSpec.withinLongestCall(longest, perToken)) {
            throw doc.at(c.get("prefill-per-token"), "prefill-per-token '" + doc.text(c.get("prefill-per-token"),
                    "prefill-per-token", "a time") + "' makes the prefill of the longest prompt of " + named + " ("
                    + longest + " tokens) longer than 2^61 ps (about 26 days); expected prefill-per-token x "
                    + longest + " at most 2^61 ps");
        }
        long mostOutput = InferenceSpec.mostOutput(request, arrivals);
        if (!InferenceSpec.withinLongestCall(mostOutput, step)) {
            throw doc.at(c.get("decode-step"), "decode-step '" + doc.text(c.get("decode-step"), "decode-step",
                    "a time") + "' makes the decode of the longest answer of " + named + " (" + mostOutput
                    + " tokens) longer than 2^61 ps (about 26 days); expected decode-step x " + mostOutput
                    + " at most 2^61 ps");
        }
        int dscp = m.has("dscp") ? doc.integer(m.get("dscp"), "dscp", 0, 63) : -1;
        int batch = maxBatch;
        int parts = perPass;
        InferenceSpec.Placement p = placement.equals("round-robin") ? InferenceSpec.Placement.ROUND_ROBIN
                : InferenceSpec.Placement.LEAST_LOADED;
        return doc.build(node, named, () -> new InferenceSpec(name, model, instances, new CostModel(perToken, step),
                batch, p, parts, arrivals, request, gateway, dscp));
    }

    private ModelShape model(Node node) throws ScenarioException {
        YamlMap m = YamlMap.of(doc, node, "model", MODEL_KEYS);
        int layers = m.requiredInt("layers", 1, 100_000);
        int hidden = m.requiredInt("hidden", 1, 1 << 24);
        int heads = m.requiredInt("heads", 1, 1 << 16);
        int kv = m.optionalInt("kv-heads", heads, 1, 1 << 16);
        int headDim = m.optionalInt("head-dim", Math.max(1, hidden / heads), 1, 1 << 16);
        int dtype = m.optionalInt("dtype-bytes", 2, 1, 8);
        if (heads % kv != 0) {
            throw doc.at(m.get("kv-heads"), "kv-heads " + kv + " does not divide heads " + heads + "; expected a"
                    + " divisor of heads (grouped-query attention)");
        }
        int topk = 0;
        if (m.has("moe")) {
            YamlMap moe = YamlMap.of(doc, m.get("moe"), "moe", "experts", "topk");
            int experts = moe.requiredInt("experts", 2, 1 << 20);
            topk = moe.requiredInt("topk", 1, experts);
        }
        int k = topk;
        return doc.build(node, "model", () -> new ModelShape(layers, hidden, heads, kv, headDim, dtype, k));
    }

    /**
     * The service's instances; {@code servedBy} gets each host's instance, and a host given to a second instance is
     * an error at that instance's hosts; {@code tpAt} gets each instance's tp (the instance when tp is not given).
     */
    private List<ServingInstance> instances(Node node, String named, Map<Integer, String> servedBy,
            Map<String, Node> tpAt) throws ScenarioException {
        List<ServingInstance> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int[] counters = new int[2];
        for (Node item : doc.list(node, "instances", "a list of instances")) {
            YamlMap m = YamlMap.of(doc, item, "an instance", "name", "role", "tp", "hosts", "count");
            m.require("role", "prefill or decode");
            String roleKey = m.optionalChoice("role", "prefill", "a role", "prefill", "decode");
            ServingInstance.Role role = roleKey.equals("prefill") ? ServingInstance.Role.PREFILL
                    : ServingInstance.Role.DECODE;
            int tp = m.optionalInt("tp", 1, 1, 1024);
            int count = m.optionalInt("count", 1, 1, 4096);
            int[] placed = hosts.hostSet(m.require("hosts", "the hosts of the instance's TP ranks, e.g. 0-7"), "hosts");
            if (placed.length != (long) tp * count) {
                throw doc.at(m.get("hosts"), placed.length + " hosts are given for " + count + " instance"
                        + (count == 1 ? "" : "s") + " of tp " + tp + "; expected " + (long) tp * count
                        + " hosts (count x tp, in rank order)");
            }
            if (m.has("name") && count > 1) {
                throw doc.at(m.get("name"), "a name cannot be given to " + count + " instances; expected no name"
                        + " (they are named " + roleKey + "0, " + roleKey + "1, ...) or count: 1");
            }
            for (int i = 0; i < count; i++) {
                String name = m.has("name") ? doc.text(m.get("name"), "name", "an instance name")
                        : roleKey + counters[role.ordinal()];
                if (!name.matches("[A-Za-z0-9._-]+")) {
                    throw doc.at(m.get("name"), Doc.quoted(name) + " is not a valid instance name; expected letters,"
                            + " digits, '.', '_' and '-'");
                }
                counters[role.ordinal()]++;
                if (!names.add(name)) {
                    throw doc.at(item, "instance name '" + name + "' is used twice; expected unique instance names");
                }
                int[] h = Arrays.copyOfRange(placed, i * tp, (i + 1) * tp);
                for (int host : h) {
                    String other = servedBy.putIfAbsent(host, name);
                    if (other != null) {
                        throw doc.at(m.get("hosts"), "host " + host + ", given to instance " + name + ", already"
                                + " serves instance " + other + " of " + named + "; expected hosts that serve no other"
                                + " instance");
                    }
                }
                tpAt.put(name, m.has("tp") ? m.get("tp") : item);
                out.add(doc.build(item, "an instance", () -> new ServingInstance(name, role, h)));
            }
        }
        return out;
    }

    private Arrivals arrivals(Node node) throws ScenarioException {
        YamlMap m = YamlMap.of(doc, node, "arrivals", "process", "rate", "duration", "count", "start", "trace");
        if (m.has("trace") == m.has("process")) {
            throw doc.at(node, "arrivals need exactly one of process and trace; expected {process: poisson, rate:"
                    + " 20/s, duration: 1s} or {trace: requests.csv}");
        }
        if (m.has("trace")) {
            for (String k : new String[] {"rate", "duration", "count", "start"}) {
                if (m.has(k)) {
                    throw doc.at(m.keyNode(k), k + " does not apply to a trace; expected only trace: FILE");
                }
            }
            Node fileNode = m.get("trace");
            String file = doc.text(fileNode, "trace", "the path of a CSV file");
            Path resolved;
            String shown;
            try {
                resolved = hosts.baseDir().resolve(file).toAbsolutePath().normalize();
                shown = hosts.csvName(file);
            } catch (InvalidPathException e) {
                throw doc.at(fileNode, "'" + file + "' is not a valid path; expected the path of a CSV file");
            }
            String text = FlowsCsvReader.load(doc, fileNode, resolved, "; expected a CSV file with the header "
                    + TraceCsvReader.HEADER);
            List<Arrivals.Arrival> rows = TraceCsvReader.parse(text, shown);
            return new Arrivals.Trace(file, rows);
        }
        m.optionalChoice("process", "poisson", "an arrival process", "poisson");
        double rate = rate(m.require("rate", "requests per second, e.g. 20/s"));
        long duration = m.optionalTime("duration", 0);
        int count = m.optionalInt("count", 0, 1, 1_000_000);
        long start = m.optionalTime("start", 0);
        if (duration == 0 && count == 0) {
            throw doc.at(node, "Poisson arrivals need a duration or a count; expected e.g. duration: 1s or"
                    + " count: 100");
        }
        if (count == 0 && rate * (duration / 1e12) > 1e6) {
            throw doc.at(m.get("duration"), "rate x duration makes about " + Math.round(rate * (duration / 1e12))
                    + " requests; expected at most 1000000 (or give a count)");
        }
        return doc.build(node, "arrivals", () -> new Arrivals.Poisson(rate, start, duration, count));
    }

    private double rate(Node node) throws ScenarioException {
        String text = doc.text(node, "rate", "requests per second, e.g. 20/s");
        String t = text.strip();
        if (t.endsWith("/s")) {
            t = t.substring(0, t.length() - 2).strip();
        }
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw doc.at(node, "rate '" + text + "' is not a number of requests per second; expected e.g. 20/s or"
                    + " 0.5/s");
        }
        if (!(v > 0) || Double.isInfinite(v)) {
            throw doc.at(node, "rate '" + text + "' is not positive; expected requests per second above 0, e.g."
                    + " 20/s");
        }
        return v;
    }

    private RequestTemplate request(Node node) throws ScenarioException {
        YamlMap m = YamlMap.of(doc, node, "request", "ingress", "steps", "egress");
        long ingress = m.optionalSize("ingress", 0, 0);
        long egress = m.optionalSize("egress", 0, 0);
        List<RequestTemplate.Step> steps = new ArrayList<>();
        boolean llmSeen = false;
        for (Node item : m.requiredList("steps", "a list of steps, each {llm: {...}} or {tool: {...}}")) {
            Map<String, NodeTuple> e = YamlMap.entries(doc, item, "a step", "{llm: {...}} or {tool: {...}}");
            if (e.size() != 1 || !(e.containsKey("llm") || e.containsKey("tool"))) {
                Node at = e.isEmpty() ? item : e.values().iterator().next().getKeyNode();
                throw doc.at(at, "a step " + (e.isEmpty() ? "is empty" : "has the keys " + e.keySet())
                        + "; expected exactly one of llm or tool, e.g. {llm: {prompt-tokens: 1024, output-tokens:"
                        + " 128}}");
            }
            if (e.containsKey("llm")) {
                Node v = e.get("llm").getValueNode();
                YamlMap c = YamlMap.of(doc, v, "an llm step", "prompt-tokens", "new-tokens", "output-tokens");
                if (c.has("prompt-tokens") == c.has("new-tokens")) {
                    throw doc.at(v, "an llm step needs exactly one of prompt-tokens (the whole prompt is prefilled)"
                            + " and new-tokens (only these are prefilled, the context's KV cache is reused)");
                }
                boolean reuse = c.has("new-tokens");
                if (reuse && !llmSeen) {
                    throw doc.at(c.keyNode("new-tokens"), "the first llm step has no context to reuse; expected"
                            + " prompt-tokens");
                }
                int tokens = c.requiredInt(reuse ? "new-tokens" : "prompt-tokens", 1, 1 << 30);
                int out = c.requiredInt("output-tokens", 1, 1 << 24);
                steps.add(new RequestTemplate.LlmCall(tokens, reuse, out));
                llmSeen = true;
            } else {
                Node v = e.get("tool").getValueNode();
                YamlMap t = YamlMap.of(doc, v, "a tool step", "latency", "egress", "ingress");
                long latency = doc.time(t.require("latency", "the tool's time, e.g. 200ms"), "latency");
                steps.add(new RequestTemplate.ToolCall(latency, t.optionalSize("egress", 0, 0),
                        t.optionalSize("ingress", 0, 0)));
            }
        }
        if (!llmSeen) {
            throw doc.at(m.get("steps"), "the request has no llm step; expected at least one {llm: {prompt-tokens:"
                    + " ..., output-tokens: ...}}");
        }
        return doc.build(node, "request", () -> new RequestTemplate(ingress, steps, egress));
    }
}
