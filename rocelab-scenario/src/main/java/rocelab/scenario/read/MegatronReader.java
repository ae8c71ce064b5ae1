package rocelab.scenario.read;

import java.util.List;
import org.yaml.snakeyaml.nodes.Node;
import rocelab.workload.job.Layout;
import rocelab.workload.job.MegatronGenerator;
import rocelab.workload.job.MegatronModel;
import rocelab.workload.job.Step;

/** Reads {@code generator: {type: megatron, ...}} and expands it into a job's program. */
final class MegatronReader {
    private final Doc doc;

    MegatronReader(Doc doc) {
        this.doc = doc;
    }

    List<Step> read(Node node, Layout layout) throws ScenarioException {
        YamlMap g = YamlMap.of(doc, node, "generator", "type", "model", "batch", "options", "compute", "moe");
        g.require("type", "megatron");
        g.optionalChoice("type", "megatron", "a generator type", "megatron");
        YamlMap model = YamlMap.of(doc, g.require("model", "{layers: 96, hidden: 12288, seq: 2048, ...}"), "model",
                "layers", "hidden", "ffn", "seq", "vocab", "dtype-bytes");
        int layers = model.requiredInt("layers", 1, 1_000_000);
        long hidden = model.requiredInt("hidden", 1, Integer.MAX_VALUE);
        long ffn = model.optionalInt("ffn", (int) Math.min(Integer.MAX_VALUE, 4 * hidden), 1, Integer.MAX_VALUE);
        long seq = model.requiredInt("seq", 1, Integer.MAX_VALUE);
        long vocab = model.optionalInt("vocab", 0, 0, Integer.MAX_VALUE);
        int dtype = model.optionalInt("dtype-bytes", 2, 1, 8);
        YamlMap batch = YamlMap.of(doc, g.require("batch", "{micro: 1, global: 64}"), "batch", "micro", "global");
        long micro = batch.optionalInt("micro", 1, 1, Integer.MAX_VALUE);
        long global = batch.requiredInt("global", 1, Integer.MAX_VALUE);
        YamlMap options = g.has("options") ? YamlMap.of(doc, g.get("options"), "options", "sequence-parallel",
                "distributed-optimizer", "bucket-params", "tied-embeddings") : null;
        boolean sp = options != null && options.optionalBool("sequence-parallel", false);
        boolean distOpt = options != null && options.optionalBool("distributed-optimizer", false);
        long bucket = options == null ? 0 : options.optionalInt("bucket-params", 0, 0, Integer.MAX_VALUE);
        boolean tied = options == null || options.optionalBool("tied-embeddings", true);
        YamlMap compute = YamlMap.of(doc, g.require("compute", "{forward-per-layer: 1ms}"), "compute",
                "forward-per-layer", "backward-per-layer", "optimizer");
        long fwd = doc.time(compute.require("forward-per-layer", "a time, e.g. 1.2ms"), "forward-per-layer");
        long bwd = compute.optionalTime("backward-per-layer", 2 * fwd);
        long opt = compute.optionalTime("optimizer", 0);
        int topk = 0;
        int experts = 0;
        Step.Skew skew = null;
        if (g.has("moe")) {
            YamlMap moe = YamlMap.of(doc, g.get("moe"), "moe", "topk", "experts", "zipf", "seed");
            topk = moe.requiredInt("topk", 1, 1024);
            experts = moe.optionalInt("experts", 0, 1, 1 << 20);
            if (moe.has("zipf")) {
                double zipf = doc.number(moe.get("zipf"), "zipf", 0, 10);
                long seed = moe.has("seed") ? doc.longValue(moe.get("seed"), "seed", "a whole number") : 1;
                skew = new Step.Skew(zipf, seed);
            } else if (moe.has("seed")) {
                throw doc.at(moe.get("seed"), "a seed without zipf does nothing; expected zipf: EXPONENT with it");
            }
        }
        int k = topk;
        int count = experts;
        Step.Skew hot = skew;
        MegatronModel m = doc.build(node, "generator", () -> new MegatronModel(layers, hidden, ffn, seq, vocab, dtype,
                micro, global, sp, distOpt, bucket, fwd, bwd, opt, k, hot, count, tied));
        return doc.build(node, "generator", () -> MegatronGenerator.expand(m, layout));
    }
}
