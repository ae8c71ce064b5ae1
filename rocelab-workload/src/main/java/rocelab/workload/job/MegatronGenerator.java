package rocelab.workload.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;

/**
 * Expands a {@link MegatronModel} on a layout into the step language, one block per pipeline stage (guarded by
 * {@code when: pp == s}) in the 1F1B order: warm-up forwards, then one forward and one backward alternating, then
 * the cool-down backwards. Per layer and micro-batch, attention then MLP (the MLP then attention in backward), each
 * wrapped in its TP collectives as Megatron's layers are: an AllReduce after the compute, or with sequence
 * parallelism an AllGather before it and a ReduceScatter after. A mixture of experts puts the EP AlltoAll dispatch
 * and combine around the experts' compute. The first stage holds the embedding, the last the output layer (logits).
 * PP activations and gradients are send/recv to the neighbouring stage; receives sit on their own stream, posted up
 * front as NCCL's irecv would be, and sends on another, so they never block compute. In the last micro-batch's
 * backward, each gradient bucket is reduced on its own stream as soon as its layers are done (Megatron's overlapped
 * gradient reduction): dense parameters over every data-parallel replica, experts over the replicas that hold the
 * same experts. Then the tied embedding's gradient is all-reduced between the first and last stage, and the
 * optimizer steps.
 */
public final class MegatronGenerator {
    private final MegatronModel model;
    private final int t;
    private final int p;
    private final int d;
    private final int e;
    private final int experts;
    private final int microBatches;
    private final int layersPerStage;
    private final List<Step> out = new ArrayList<>();
    /** Per stage, the id of its last dense and last expert gradient bucket (null: none). */
    private final String[] lastDense;
    private final String[] lastExpert;
    private int stage;
    private String lastId;
    private int denseBuckets;
    private int expertBuckets;
    private long densePending;
    private long expertPending;

    private MegatronGenerator(MegatronModel model, Layout layout) {
        this.model = model;
        this.t = layout.degree(Dim.TP);
        this.p = layout.degree(Dim.PP);
        this.d = layout.degree(Dim.DP);
        this.e = layout.degree(Dim.EP);
        if (layout.degree(Dim.CP) != 1) {
            throw new IllegalArgumentException("the megatron generator does not model context parallelism; expected"
                    + " cp: 1");
        }
        if (model.layers() % p != 0) {
            throw new IllegalArgumentException(model.layers() + " layers do not split evenly over " + p
                    + " pipeline stages");
        }
        this.layersPerStage = model.layers() / p;
        long perStep = model.microBatch() * d * e;
        if (model.globalBatch() % perStep != 0) {
            throw new IllegalArgumentException("global batch " + model.globalBatch() + " is not a multiple of micro"
                    + " batch x dp x ep = " + perStep);
        }
        long m = model.globalBatch() / perStep;
        if (m > 100_000) {
            throw new IllegalArgumentException(m + " micro-batches per iteration is too many to expand");
        }
        this.microBatches = (int) m;
        if (model.moeTopk() > 0 && e < 2) {
            throw new IllegalArgumentException("a mixture of experts needs ep of at least 2");
        }
        if (model.moeTopk() == 0 && e > 1) {
            throw new IllegalArgumentException("ep > 1 needs a mixture of experts; expected moe: {topk: ...}");
        }
        this.experts = model.moeExperts() > 0 ? model.moeExperts() : e;
        if (model.moeTopk() > 0 && experts % e != 0) {
            throw new IllegalArgumentException(experts + " experts do not split evenly over ep = " + e
                    + "; expected a multiple of " + e);
        }
        if (model.moeTopk() > experts) {
            throw new IllegalArgumentException("topk " + model.moeTopk() + " is more than the " + experts
                    + " experts; expected at most " + experts);
        }
        this.lastDense = new String[p];
        this.lastExpert = new String[p];
    }

    /** The program every rank runs. */
    public static List<Step> expand(MegatronModel model, Layout layout) {
        MegatronGenerator g = new MegatronGenerator(model, layout);
        for (int s = 0; s < g.p; s++) {
            g.stage(s);
        }
        // After every stage's gradient reduction: the embedding group is the first and last stage together.
        g.tiedEmbedding();
        for (int s = 0; s < g.p; s++) {
            g.stage = s;
            g.optimizer();
        }
        return List.copyOf(g.out);
    }

    /** Micro-batches per iteration: global batch / (micro batch x data-parallel replicas). */
    public static int microBatches(MegatronModel model, Layout layout) {
        return new MegatronGenerator(model, layout).microBatches;
    }

    /** Bytes of one PP send: the activation, split over TP with sequence parallelism. */
    public long pipelineBytes() {
        return model.sequenceParallel() ? model.activationBytes() / t : model.activationBytes();
    }

    /**
     * Dense parameters of one layer on a rank: attention split over TP; without experts the MLP too, with experts
     * the router (h x experts, replicated over TP).
     */
    private long denseLayerParams() {
        return model.moeTopk() > 0 ? model.attentionParams() / t + model.hidden() * experts : model.layerParams() / t;
    }

    /** Expert parameters of one layer on a rank: its experts / ep experts, each split over TP. */
    private long expertLayerParams() {
        return model.moeTopk() > 0 ? experts / e * model.mlpParams() / t : 0;
    }

    /** Whether stage s holds the output layer: the last stage, unless it is also the first and shares the weight. */
    private boolean holdsOutputLayer(int s) {
        return model.vocab() > 0 && s == p - 1 && (p > 1 || !model.tiedEmbeddings());
    }

    /** Parameters of the embedding or the output layer on a rank: V h / tp. */
    private long vocabParams() {
        return model.vocab() * model.hidden() / t;
    }

    /**
     * The output layer's compute: a layer's, scaled by their matrix-multiply FLOPs per token, V h against the
     * parameters a token passes through in a layer (attention and top-k experts).
     */
    private long outputLayerPs(long layerPs) {
        double active = model.attentionParams() + (double) Math.max(1, model.moeTopk()) * model.mlpParams();
        return Math.round(layerPs / 1000.0 * model.vocab() * model.hidden() / active) * 1000;   // whole ns
    }

    private void add(Step step) {
        out.add(step);
        lastId = step.meta().id();
    }

    private static Expr when(String text) {
        try {
            return Expr.parse(text, Layout.names());
        } catch (Expr.ParseException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private Step.Meta meta(String id, String stream, String... after) {
        return new Step.Meta(id, stream, List.of(after), when("pp == " + stage), 0, 0);
    }

    private void stage(int s) {
        this.stage = s;
        this.denseBuckets = 0;
        this.expertBuckets = 0;
        int warm = Math.min(p - s - 1, microBatches);
        // Receives are posted up front on their own streams, in the order the sends will come.
        for (int mb = 0; mb < microBatches; mb++) {
            if (s > 0) {
                add(new Step.Transfer(meta("recv-act-s" + s + "-mb" + mb, "recv-act"), false,
                        Map.of(Dim.PP, when("pp-1")), 0));
            }
            if (s < p - 1) {
                add(new Step.Transfer(meta("recv-grad-s" + s + "-mb" + mb, "recv-grad"), false,
                        Map.of(Dim.PP, when("pp+1")), 0));
            }
        }
        int nextForward = 0;
        int nextBackward = 0;
        for (int i = 0; i < warm; i++) {
            forward(nextForward++);
        }
        while (nextBackward < microBatches) {
            if (nextForward < microBatches) {
                forward(nextForward++);
            }
            backward(nextBackward++);
        }
    }

    private void forward(int mb) {
        String tag = "s" + stage + "-mb" + mb;
        String[] wait = stage > 0 ? new String[] {"recv-act-" + tag} : new String[0];
        if (stage == 0 && model.vocab() > 0 && t > 1) {
            add(tensorCollective("fwd-" + tag + "-emb"));   // the vocabulary-parallel embedding sums its TP parts
        }
        for (int l = 0; l < layersPerStage; l++) {
            String id = "fwd-" + tag + "-l" + l;
            sublayer(id + "-attn", model.forwardPs() / 2, false, true, l == 0 ? wait : new String[0]);
            sublayer(id + "-mlp", model.forwardPs() - model.forwardPs() / 2, model.moeTopk() > 0, true);
        }
        if (holdsOutputLayer(stage)) {
            // Column-parallel logits: with SP the sequence is gathered first; without, the input is already whole.
            if (model.sequenceParallel() && t > 1) {
                add(collective("fwd-" + tag + "-out-ag", CollectiveOp.ALL_GATHER, EnumSet.of(Dim.TP),
                        model.activationBytes()));
            }
            add(new Step.Compute(meta("fwd-" + tag + "-out", "main"), outputLayerPs(model.forwardPs())));
        }
        if (stage < p - 1) {
            add(new Step.Transfer(meta("send-act-" + tag, "send-act", lastId), true, Map.of(Dim.PP, when("pp+1")),
                    pipelineBytes()));
        }
    }

    private void backward(int mb) {
        String tag = "s" + stage + "-mb" + mb;
        String[] wait = stage < p - 1 ? new String[] {"recv-grad-" + tag} : new String[0];
        boolean last = mb == microBatches - 1;
        if (holdsOutputLayer(stage)) {
            add(new Step.Compute(meta("bwd-" + tag + "-out", "main", wait), outputLayerPs(model.backwardPs())));
            wait = new String[0];
            if (t > 1) {
                // The mirror of the forward: the input gradient is reduced (scattered again with SP).
                add(tensorCollective("bwd-" + tag + "-out"));
            }
            if (last) {
                densePending += vocabParams();
            }
        }
        String lastBackward = null;
        for (int i = 0; i < layersPerStage; i++) {
            String id = "bwd-" + tag + "-l" + (layersPerStage - 1 - i);
            sublayer(id + "-mlp", model.backwardPs() - model.backwardPs() / 2, model.moeTopk() > 0, false,
                    i == 0 ? wait : new String[0]);
            sublayer(id + "-attn", model.backwardPs() / 2, false, false);
            lastBackward = lastId;
            if (last) {
                densePending += denseLayerParams();
                expertPending += expertLayerParams();
                boolean end = i == layersPerStage - 1 && !(stage == 0 && model.vocab() > 0);
                reduceGradients(end, lastBackward);
            }
        }
        if (stage == 0 && model.vocab() > 0) {
            if (model.sequenceParallel() && t > 1) {
                // The mirror of the embedding's ReduceScatter: its output gradient is gathered over the sequence.
                add(collective("bwd-" + tag + "-emb-ag", CollectiveOp.ALL_GATHER, EnumSet.of(Dim.TP),
                        model.activationBytes()));
            }
            if (last) {
                densePending += vocabParams();
                reduceGradients(true, lastId);
            }
        }
        if (stage > 0) {
            add(new Step.Transfer(meta("send-grad-" + tag, "send-grad", lastBackward), true,
                    Map.of(Dim.PP, when("pp-1")), pipelineBytes()));
        }
    }

    /**
     * Attention or MLP in Megatron's order: AllGather, compute, ReduceScatter with sequence parallelism; compute,
     * AllReduce without (in backward the AllReduce is that of the input gradient, the mirror of the forward's copy).
     */
    private void sublayer(String id, long computePs, boolean moe, boolean forward, String... after) {
        String[] wait = after;
        if (t > 1 && model.sequenceParallel()) {
            add(collective(id + "-ag", CollectiveOp.ALL_GATHER, EnumSet.of(Dim.TP), model.activationBytes(), wait));
            wait = new String[0];
        }
        if (moe) {
            // Tokens go to their experts and come back; backward runs the same exchanges in reverse.
            long bytes = model.activationBytes() * model.moeTopk() / t;
            add(expertExchange(id + (forward ? "-dispatch" : "-combine"), bytes, wait));
            add(new Step.Compute(meta(id + "-experts", "main"), computePs));
            add(expertExchange(id + (forward ? "-combine" : "-dispatch"), bytes));
        } else {
            add(new Step.Compute(meta(id, "main", wait), computePs));
        }
        if (t > 1) {
            add(tensorCollective(id));
        }
    }

    /** The reduction after a TP-split compute: ReduceScatter with sequence parallelism, AllReduce without. */
    private Step.Collective tensorCollective(String id) {
        return model.sequenceParallel()
                ? collective(id + "-rs", CollectiveOp.REDUCE_SCATTER, EnumSet.of(Dim.TP), model.activationBytes())
                : collective(id + "-ar", CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.TP), model.activationBytes());
    }

    /** The dispatch or combine of a MoE layer: AlltoAll over EP, or AlltoAllv when the experts are skewed. */
    private Step.Collective expertExchange(String id, long bytes, String... after) {
        if (model.moeSkew() == null) {
            return collective(id, CollectiveOp.ALL_TO_ALL, EnumSet.of(Dim.EP), bytes, after);
        }
        Step.Collective c = collective(id, CollectiveOp.ALL_TO_ALLV, EnumSet.of(Dim.EP), bytes, after);
        return new Step.Collective(c.meta(), c.op(), c.algorithm(), c.dims(), c.sizeBytes(), false, 1, 0, 1,
                model.moeSkew());
    }

    private Step.Collective collective(String id, CollectiveOp op, Set<Dim> dims, long bytes, String... after) {
        return collective(meta(id, "main", after), op, dims, bytes);
    }

    private static Step.Collective collective(Step.Meta meta, CollectiveOp op, Set<Dim> dims, long bytes) {
        if (!Collectives.available(op)) {
            throw new IllegalArgumentException(op.title() + " is not available, so this model cannot be generated");
        }
        Algorithm a = Collectives.defaultAlgorithm(op);
        return new Step.Collective(meta, op, a, dims, Math.max(bytes, 1), false, 1, 0);
    }

    /** Parameters per gradient bucket: the model's, or Megatron's default max(40M, 1M x DP). */
    private long bucketParams() {
        return model.bucketParams() > 0 ? model.bucketParams() : Math.max(40_000_000L, 1_000_000L * d * e);
    }

    /**
     * Reduces every full bucket ({@code end}: every pending parameter). Megatron keeps expert and dense parameters
     * in separate buffers, each cut into buckets of the same size: experts are reduced over the replicas holding the
     * same experts (dp), everything else over every replica (dp and ep together).
     */
    private void reduceGradients(boolean end, String after) {
        while (expertPending >= bucketParams() || (end && expertPending > 0)) {
            long params = Math.min(expertPending, bucketParams());
            expertPending -= params;
            if (d > 1) {
                lastExpert[stage] = gradientBucket("edp", expertBuckets++, EnumSet.of(Dim.DP), params, after);
            }
        }
        while (densePending >= bucketParams() || (end && densePending > 0)) {
            long params = Math.min(densePending, bucketParams());
            densePending -= params;
            if (d * e > 1) {
                lastDense[stage] = gradientBucket("dp", denseBuckets++, EnumSet.of(Dim.DP, Dim.EP), params, after);
            }
        }
    }

    /** Bytes per parameter of a gradient reduction: fp32 with the distributed optimizer, else the model's dtype. */
    private int gradientBytes() {
        return model.distributedOptimizer() ? 4 : model.dtypeBytes();
    }

    private String gradientBucket(String prefix, int bucket, Set<Dim> group, long params, String after) {
        CollectiveOp op = model.distributedOptimizer() ? CollectiveOp.REDUCE_SCATTER : CollectiveOp.ALL_REDUCE;
        String id = prefix + (model.distributedOptimizer() ? "-rs-s" : "-ar-s") + stage + "-b" + bucket;
        add(collective(meta(id, "dp", after), op, group, params * gradientBytes()));
        return id;
    }

    /** Ids of the last gradient buckets of stages from..to (a rank waits only for those of its own stage). */
    private String[] lastBuckets(int from, int to) {
        return Stream.concat(Arrays.stream(lastDense, from, to + 1), Arrays.stream(lastExpert, from, to + 1))
                .filter(Objects::nonNull).toArray(String[]::new);
    }

    /**
     * The AllReduce of the tied embedding's gradient between the first and last stage (Megatron's embedding
     * group), once the data-parallel reduction is done, as in its finalize_model_grads.
     */
    private void tiedEmbedding() {
        if (p < 2 || model.vocab() == 0 || !model.tiedEmbeddings()) {
            return;
        }
        Expr ends = when("pp == 0 || pp == PP-1");
        Step.Meta meta = new Step.Meta("emb-ar", "main", List.of(lastBuckets(0, p - 1)), null, 0, 0);
        Step.Collective c = collective(meta, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.PP),
                vocabParams() * gradientBytes());
        add(new Step.Collective(c.meta(), c.op(), c.algorithm(), c.dims(), c.sizeBytes(), false, 1, 0, 1, null,
                ends));
    }

    private void optimizer() {
        add(new Step.Compute(meta("optimizer-s" + stage, "main", lastBuckets(stage, stage)), model.optimizerPs()));
        if (model.distributedOptimizer()) {
            // The updated bf16 parameters are gathered back over the group that reduced their gradients.
            if (lastDense[stage] != null) {
                // Dense parameters of the stage: its layers, the embedding (first) and the output layer (last).
                long params = layersPerStage * denseLayerParams() + (stage == 0 ? vocabParams() : 0)
                        + (holdsOutputLayer(stage) ? vocabParams() : 0);
                add(collective("dp-ag-s" + stage, CollectiveOp.ALL_GATHER, EnumSet.of(Dim.DP, Dim.EP),
                        params * model.dtypeBytes()));
            }
            if (lastExpert[stage] != null) {
                add(collective("edp-ag-s" + stage, CollectiveOp.ALL_GATHER, EnumSet.of(Dim.DP),
                        layersPerStage * expertLayerParams() * model.dtypeBytes()));
            }
        }
    }
}
