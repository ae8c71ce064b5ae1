package rocelab.scenario.read;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.sweep.SummaryKeys;
import rocelab.scenario.sweep.SweepPlan;
import rocelab.scenario.sweep.SweepPoint;

/**
 * Reads a sweep file into a {@link SweepPlan}: the base scenario, the keys to vary and their values, how to combine
 * them, the seeds, the model and the metrics. Each point is made by setting the values in a copy of the base
 * scenario's YAML tree and reading that tree with the scenario reader, so every value is checked as it would be in a
 * scenario, and a bad value is reported at its own line and column in the sweep file. All points are resolved here,
 * before any runs.
 */
public final class SweepReader {
    private static final String[] KEYS = {"scenario", "example", "vary", "combine", "samples", "sample-seed", "seeds",
        "model", "metrics"};
    private static final String[] COMBINE = {"grid", "zip", "random"};
    private static final String[] MODELS = {"packet", "flow", "ideal"};
    private static final Pattern METRIC = Pattern.compile("[A-Za-z0-9_]+(\\[\\d+\\])*(\\.[A-Za-z0-9_]+(\\[\\d+\\])*)*");
    /** Most points one sweep may have (a grid of this many runs is already weeks of simulation). */
    static final int MAX_POINTS = 100_000;

    /** One varied key: its path, its values and the sweep file's nodes for both. */
    private record Axis(KeyPath path, Node keyNode, List<Node> values) {}

    public SweepReader() {}

    /** Reads and validates a sweep file and every point's scenario. */
    public SweepPlan read(Path sweepFile) throws ScenarioException {
        String shown = sweepFile.toString();
        String text = ScenarioReader.readText(sweepFile, shown, "sweep");
        Path folder = sweepFile.toAbsolutePath().normalize().getParent();
        return read(text, shown, folder);
    }

    /** Reads a sweep from text; {@code folder} resolves the base scenario's path. */
    public SweepPlan read(String text, String shown, Path folder) throws ScenarioException {
        Doc doc = new Doc(shown);
        Node composed = ScenarioReader.compose(text, shown, "a base scenario (scenario or example) and vary");
        // The sweep's nodes end up inside each point's scenario: they carry the sweep file's name with their position.
        Node root = YamlTrees.copy(composed, shown);
        YamlMap top = YamlMap.of(doc, root, "the sweep", KEYS);

        Base base = base(doc, top, folder, root);
        List<Axis> axes = axes(doc, top, root);
        String combine = top.optionalChoice("combine", "grid", "a way to combine the values (grid: every"
                + " combination; zip: the i-th value of every key together; random: a seeded sample of the grid)",
                COMBINE);
        List<int[]> combos = combos(doc, top, axes, combine);
        List<Long> seeds = seeds(doc, top, base);
        String model = top.optionalChoice("model", "packet", "a model of this version", MODELS);
        List<String> metrics = metrics(doc, top);
        if ((long) combos.size() * seeds.size() > MAX_POINTS) {
            throw doc.at(top.has("seeds") ? top.get("seeds") : root, combos.size() + " combinations x " + seeds.size()
                    + " seeds are more than " + MAX_POINTS + " runs; expected a smaller sweep");
        }

        ScenarioReader reader = new ScenarioReader();
        List<SweepPoint> points = new ArrayList<>();
        Map<String, int[]> seen = new HashMap<>();
        Node seedsNode = top.has("seeds") ? top.get("seeds") : null;
        for (int[] combo : combos) {
            List<String> values = new ArrayList<>();
            for (int k = 0; k < axes.size(); k++) {
                values.add(YamlTrees.oneLine(axes.get(k).values().get(combo[k])));
            }
            for (long seed : seeds) {
                Node tree = YamlTrees.copy(base.root(), null);
                for (int k = 0; k < axes.size(); k++) {
                    Axis a = axes.get(k);
                    a.path().set(doc, tree, a.values().get(combo[k]), a.keyNode(), base.shown());
                }
                if (seedsNode != null) {
                    setSeed(tree, seed, seedsNode);
                }
                ScenarioConfig config;
                try {
                    config = reader.readTree(tree, base.shown(), base.dir());
                } catch (ScenarioException e) {
                    throw new ScenarioException(e.file(), e.line(), e.column(), e.detail() + " (sweep point "
                            + describe(axes, values) + ", seed " + seed + ")");
                }
                // The model is not a scenario key: the header says it, and how to run the point again as it ran.
                String yaml = "# A point of the sweep " + shown + ": " + describe(axes, values) + ", seed "
                        + config.seed() + (model.equals("packet") ? "" : ", model " + model + " (run it again with"
                        + " rocelab run scenario.yaml --model " + model + ")") + "\n" + YamlTrees.text(tree);
                ScenarioConfig reread;
                try {
                    reread = reader.read(yaml, base.shown(), base.dir());
                } catch (ScenarioException e) {
                    throw new IllegalStateException("the resolved scenario of a sweep point does not read back: "
                            + e.getMessage(), e);
                }
                if (!reread.canonicalText().equals(config.canonicalText())) {
                    throw new IllegalStateException("the resolved scenario of a sweep point reads back differently");
                }
                String id = pointId(config, model);
                int[] before = seen.putIfAbsent(id, combo);
                if (before != null) {
                    throw same(doc, axes, before, combo, root);
                }
                points.add(new SweepPoint(id, values, config.seed(), yaml,
                        base.dir() == null ? null : base.dir().toString()));
            }
        }
        List<String> keys = axes.stream().map(a -> a.path().text()).toList();
        List<List<String>> written = axes.stream()
                .map(a -> a.values().stream().map(YamlTrees::oneLine).toList()).toList();
        return new SweepPlan(shown, base.shown(), keys, written, combine, model, metrics, points);
    }

    /**
     * A point's id: the start of its scenario hash (manifest.json's scenario_sha256) for the packet model; another
     * model hashes its name in too (the SHA-256 of the scenario hash, a newline and {@code model=NAME}), so the same
     * scenario under two models gets two folders.
     */
    static String pointId(ScenarioConfig config, String model) {
        String hash = Simulation.scenarioHash(config);
        if (!model.equals("packet")) {
            try {
                MessageDigest d = MessageDigest.getInstance("SHA-256");
                hash = HexFormat.of().formatHex(d.digest((hash + "\nmodel=" + model)
                        .getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return hash.substring(0, SweepPoint.ID_LENGTH);
    }

    /** The base scenario: its tree, its name in messages, the folder its relative files resolve against. */
    private record Base(Node root, String shown, Path dir, long seed) {}

    private static Base base(Doc doc, YamlMap top, Path folder, Node sweepRoot) throws ScenarioException {
        if (top.has("scenario") == top.has("example")) {
            throw doc.at(top.has("example") ? top.keyNode("example") : sweepRoot, (top.has("scenario")
                    ? "both scenario and example are given" : "missing key 'scenario' in the sweep")
                    + "; expected scenario: a base scenario file (relative to the sweep file), or example: the name"
                    + " of a built-in example");
        }
        String text;
        String shown;
        Path dir;
        if (top.has("scenario")) {
            Node v = top.get("scenario");
            String name = doc.text(v, "scenario", "a scenario file, relative to the sweep file");
            Path file = folder == null ? Path.of(name) : folder.resolve(name).normalize();
            Path sweepDir = Path.of(doc.file()).getParent();
            shown = (sweepDir == null ? Path.of(name) : sweepDir.resolve(name)).normalize().toString();
            try {
                text = ScenarioReader.readText(file, shown, "scenario");
            } catch (ScenarioException e) {
                throw doc.at(v, e.detail());
            }
            dir = file.toAbsolutePath().getParent();
        } else {
            Node v = top.get("example");
            String name = doc.text(v, "example", "the name of a built-in example");
            try {
                text = ScenarioReader.exampleText(name);
            } catch (IOException e) {
                text = null;
            }
            if (text == null || !name.matches("[A-Za-z0-9._-]+")) {
                throw doc.at(v, "there is no example named '" + name + "'; expected one of: "
                        + String.join(", ", ScenarioReader.exampleNames()));
            }
            shown = name + ".yaml";
            dir = null;
        }
        Node root = ScenarioReader.compose(text, shown);
        Doc baseDoc = new Doc(shown);
        long seed = 1;
        if (root instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("seed")) {
                    seed = baseDoc.longValue(t.getValueNode(), "seed", "a whole number");
                }
            }
        }
        return new Base(root, shown, dir, seed);
    }

    private static List<Axis> axes(Doc doc, YamlMap top, Node root) throws ScenarioException {
        String expected = "vary: a mapping from scenario key paths to lists of values, e.g. {switch.ecn.kmin: [100KB,"
                + " 200KB]}";
        if (!top.has("vary")) {
            throw doc.at(root, "missing key 'vary' in the sweep; expected " + expected);
        }
        Map<String, NodeTuple> entries = YamlMap.entries(doc, top.get("vary"), "vary", expected);
        if (entries.isEmpty()) {
            throw doc.at(top.get("vary"), "the sweep varies nothing; expected " + expected);
        }
        List<Axis> axes = new ArrayList<>();
        for (NodeTuple t : entries.values()) {
            KeyPath path = KeyPath.parse(doc, t.getKeyNode());
            if (path.top().equals("seed")) {
                throw doc.at(t.getKeyNode(), "the seed is not varied under vary; expected seeds: N or seeds: [a list]"
                        + " at the top of the sweep");
            }
            for (Axis other : axes) {
                if (other.path().overlaps(path)) {
                    throw doc.at(t.getKeyNode(), "'" + path + "' overlaps '" + other.path() + "' (one is inside the"
                            + " other); expected each key to be varied by one entry");
                }
            }
            List<Node> values = doc.list(t.getValueNode(), path.text(), "a list of values, e.g. [100KB, 200KB]");
            if (values.isEmpty()) {
                throw doc.at(t.getValueNode(), path + " has no values; expected a list of at least one value");
            }
            axes.add(new Axis(path, t.getKeyNode(), values));
        }
        return axes;
    }

    private static List<int[]> combos(Doc doc, YamlMap top, List<Axis> axes, String combine)
            throws ScenarioException {
        if (!combine.equals("random")) {
            for (String k : new String[] {"samples", "sample-seed"}) {
                if (top.has(k)) {
                    throw doc.at(top.keyNode(k), k + " belongs to combine: random; expected it only with that");
                }
            }
        }
        List<int[]> out = new ArrayList<>();
        if (combine.equals("zip")) {
            int n = axes.get(0).values().size();
            for (Axis a : axes) {
                if (a.values().size() != n) {
                    throw doc.at(a.keyNode(), a.path() + " has " + a.values().size() + " values and "
                            + axes.get(0).path() + " has " + n + "; expected lists of the same length with combine:"
                            + " zip");
                }
            }
            for (int i = 0; i < n; i++) {
                int[] c = new int[axes.size()];
                Arrays.fill(c, i);
                out.add(c);
            }
            return out;
        }
        long grid = 1;
        for (Axis a : axes) {
            grid = Math.min(Long.MAX_VALUE / 1024, grid * a.values().size());
        }
        if (combine.equals("grid")) {
            if (grid > MAX_POINTS) {
                throw doc.at(top.get("vary"), "the grid has " + grid + " combinations, more than " + MAX_POINTS
                        + "; expected a smaller grid, or combine: random with samples: N");
            }
            for (long i = 0; i < grid; i++) {
                out.add(decode(axes, i));
            }
            return out;
        }
        Node samplesNode = top.require("samples", "the number of points to draw from the grid");
        int samples = doc.integer(samplesNode, "samples", 1, MAX_POINTS);
        if (samples > grid) {
            throw doc.at(samplesNode, "samples " + samples + " is more than the grid's " + grid + " combinations;"
                    + " expected at most " + grid);
        }
        long sampleSeed = top.has("sample-seed") ? doc.longValue(top.get("sample-seed"), "sample-seed",
                "a whole number") : 1L;
        // Floyd's algorithm: `samples` distinct grid indices, the same ones for the same seed; run in grid order.
        SplittableRandom random = new SplittableRandom(sampleSeed);
        Set<Long> chosen = new HashSet<>();
        for (long j = grid - samples; j < grid; j++) {
            long t = random.nextLong(j + 1);
            chosen.add(chosen.contains(t) ? j : t);
        }
        List<Long> sorted = new ArrayList<>(chosen);
        sorted.sort(null);
        for (long i : sorted) {
            out.add(decode(axes, i));
        }
        return out;
    }

    /** Grid index to value indices, the last key varying fastest. */
    private static int[] decode(List<Axis> axes, long index) {
        int[] c = new int[axes.size()];
        for (int k = axes.size() - 1; k >= 0; k--) {
            int n = axes.get(k).values().size();
            c[k] = (int) (index % n);
            index /= n;
        }
        return c;
    }

    private static List<Long> seeds(Doc doc, YamlMap top, Base base) throws ScenarioException {
        if (!top.has("seeds")) {
            return List.of(base.seed());
        }
        Node n = top.get("seeds");
        List<Long> out = new ArrayList<>();
        if (n instanceof ScalarNode) {
            int count = doc.integer(n, "seeds", 1, 10_000);
            for (int i = 0; i < count; i++) {
                out.add(base.seed() + i);
            }
            return out;
        }
        List<Node> items = doc.list(n, "seeds", "a number of seeds (from the scenario's seed up) or a list of seeds");
        if (items.isEmpty()) {
            throw doc.at(n, "seeds is an empty list; expected at least one seed");
        }
        for (Node item : items) {
            long s = doc.longValue(item, "a seed", "a whole number");
            if (out.contains(s)) {
                throw doc.at(item, "seed " + s + " is listed twice; expected each seed once");
            }
            out.add(s);
        }
        return out;
    }

    private static List<String> metrics(Doc doc, YamlMap top) throws ScenarioException {
        if (!top.has("metrics")) {
            return List.of();
        }
        String expected = "a list of summary.json numbers by their flattened names (e.g. flows.fct_us.p99) or"
                + " prefixes ending at a . or [ (e.g. counters)";
        List<Node> items = doc.list(top.get("metrics"), "metrics", expected);
        if (items.isEmpty()) {
            throw doc.at(top.get("metrics"), "metrics is an empty list; expected " + expected
                    + ", or no metrics key for every number");
        }
        List<String> out = new ArrayList<>();
        for (Node item : items) {
            String m = doc.text(item, "a metric", expected);
            if (!METRIC.matcher(m).matches()) {
                throw doc.at(item, "'" + m + "' is not a metric name; expected " + expected);
            }
            if (!SummaryKeys.known(m)) {
                List<String> near = SummaryKeys.nearest(m);
                throw doc.at(item, "'" + m + "' is not a key of summary.json"
                        + (near.isEmpty() ? "" : " (did you mean " + String.join(" or ", near) + "?)") + "; expected "
                        + expected + "; the keys are in docs/outputs.md#summaryjson");
            }
            out.add(m);
        }
        return out;
    }

    private static void setSeed(Node tree, long seed, Node at) {
        MappingNode m = (MappingNode) tree;
        ScalarNode value = new ScalarNode(Tag.INT, Long.toString(seed), at.getStartMark(), at.getEndMark(),
                DumperOptions.ScalarStyle.PLAIN);
        List<NodeTuple> tuples = m.getValue();
        for (int i = 0; i < tuples.size(); i++) {
            if (tuples.get(i).getKeyNode() instanceof ScalarNode k && k.getValue().equals("seed")) {
                tuples.set(i, new NodeTuple(k, value));
                return;
            }
        }
        // After the name, where a scenario writes it.
        tuples.add(Math.min(1, tuples.size()), new NodeTuple(new ScalarNode(Tag.STR, "seed", at.getStartMark(),
                at.getEndMark(), DumperOptions.ScalarStyle.PLAIN), value));
    }

    private static String describe(List<Axis> axes, List<String> values) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < axes.size(); k++) {
            b.append(k == 0 ? "" : ", ").append(axes.get(k).path()).append('=').append(values.get(k));
        }
        return b.toString();
    }

    /** Two combinations resolve to the same scenario: a value has no effect. Reported at the first that differs. */
    private static ScenarioException same(Doc doc, List<Axis> axes, int[] before, int[] now, Node root) {
        for (int k = 0; k < axes.size(); k++) {
            if (before[k] != now[k]) {
                Axis a = axes.get(k);
                return doc.at(a.values().get(now[k]), a.path() + " = " + YamlTrees.oneLine(a.values().get(now[k]))
                        + " gives the same scenario as " + YamlTrees.oneLine(a.values().get(before[k]))
                        + " (the resolved scenarios are identical); expected values that change the run");
            }
        }
        return doc.at(root, "two points of the sweep resolve to the same scenario; expected distinct points");
    }
}
