package rocelab.workload.job;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;

/**
 * Expands a {@link MegatronModel} on a layout into the step language, one block per pipeline stage (guarded by
 * {@code when: pp == s}) in the 1F1B order: warm-up forwards, then one forward and one backward alternating, then
 * the cool-down backwards. Per layer and micro-batch: attention compute, a TP collective, MLP compute (with the
 * EP AlltoAll dispatch and combine around it for a mixture of experts), a TP collective; backward mirrors it. PP
 * activations and gradients are send/recv to the neighbouring stage; receives sit on their own stream, posted up
 * front as NCCL's irecv would be, and sends on another, so they never block compute. In the last micro-batch's
 * backward, each gradient bucket is reduced over DP on its own stream as soon as its layers are done (Megatron's
 * overlapped gradient reduction); the optimizer step waits for all of them.
 */
public final class MegatronGenerator {
    private final MegatronModel model;
    private final Layout layout;
    private final int t;
    private final int p;
    private final int d;
    private final int e;
    private final int microBatches;
    private final int layersPerStage;
    private final List<Step> out = new ArrayList<>();
    private int stage;
    private String lastId;
    private int buckets;

    private MegatronGenerator(MegatronModel model, Layout layout) {
        this.model = model;
        this.layout = layout;
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
    }

    /** The program every rank runs. */
    public static List<Step> expand(MegatronModel model, Layout layout) {
        MegatronGenerator g = new MegatronGenerator(model, layout);
        for (int s = 0; s < g.p; s++) {
            g.stage(s);
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

    /** Parameters a rank of stage s holds: its layers split over TP, plus the embedding on the first stage. */
    public long stageParams(int s) {
        long params = layersPerStage * model.layerParams() + (s == 0 ? model.vocab() * model.hidden() : 0);
        return params / t;
    }

    private void add(Step step) {
        out.add(step);
        lastId = step.meta().id();
    }

    private Expr when(String text) {
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
        this.buckets = 0;
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
        optimizer();
    }

    private void forward(int mb) {
        String tag = "s" + stage + "-mb" + mb;
        String first = stage > 0 ? "recv-act-" + tag : null;
        for (int l = 0; l < layersPerStage; l++) {
            String id = "fwd-" + tag + "-l" + l;
            layer(id, model.forwardPs(), l == 0 ? first : null);
        }
        if (stage < p - 1) {
            add(new Step.Transfer(meta("send-act-" + tag, "send-act", lastId), true, Map.of(Dim.PP, when("pp+1")),
                    pipelineBytes()));
        }
    }

    private void backward(int mb) {
        String tag = "s" + stage + "-mb" + mb;
        String first = stage < p - 1 ? "recv-grad-" + tag : null;
        boolean last = mb == microBatches - 1;
        String lastBackward = null;
        long pending = 0;
        for (int i = 0; i < layersPerStage; i++) {
            int l = layersPerStage - 1 - i;
            layer("bwd-" + tag + "-l" + l, model.backwardPs(), i == 0 ? first : null);
            lastBackward = lastId;
            if (last && reducesGradients()) {
                // Megatron fills fixed-size buckets in backward order; a bucket is reduced once it is full.
                pending += model.layerParams() / t;
                if (i == layersPerStage - 1 && stage == 0) {
                    pending += model.vocab() * model.hidden() / t;
                }
                while (pending >= bucketParams() || (i == layersPerStage - 1 && pending > 0)) {
                    long params = Math.min(pending, bucketParams());
                    dataParallel(buckets++, params, lastBackward);
                    pending -= params;
                }
            }
        }
        if (stage > 0) {
            add(new Step.Transfer(meta("send-grad-" + tag, "send-grad", lastBackward), true,
                    Map.of(Dim.PP, when("pp-1")), pipelineBytes()));
        }
    }

    /** Attention compute, TP collective, MLP (or experts), TP collective; {@code after} the step it waits for. */
    private void layer(String id, long computePs, String after) {
        String[] wait = after == null ? new String[0] : new String[] {after};
        add(new Step.Compute(meta(id + "-attn", "main", wait), computePs / 2));
        tensorParallel(id + "-tp1");
        if (model.moeTopk() > 0) {
            long bytes = model.activationBytes() * model.moeTopk() / t;
            add(expertExchange(id + "-dispatch", bytes));
            add(new Step.Compute(meta(id + "-mlp-experts", "main"), computePs - computePs / 2));
            add(expertExchange(id + "-combine", bytes));
            add(new Step.Compute(meta(id + "-mlp", "main"), 0));
        } else {
            add(new Step.Compute(meta(id + "-mlp", "main"), computePs - computePs / 2));
        }
        tensorParallel(id + "-tp2");
    }

    /** The dispatch or combine of a MoE layer: AlltoAll over EP, or AlltoAllv when the experts are skewed. */
    private Step.Collective expertExchange(String id, long bytes) {
        if (model.moeSkew() == null) {
            return collective(id, CollectiveOp.ALL_TO_ALL, EnumSet.of(Dim.EP), bytes);
        }
        Step.Collective c = collective(id, CollectiveOp.ALL_TO_ALLV, EnumSet.of(Dim.EP), bytes);
        return new Step.Collective(c.meta(), c.op(), c.algorithm(), c.dims(), c.sizeBytes(), false, 1, 0, 1,
                model.moeSkew());
    }

    private void tensorParallel(String id) {
        if (t < 2) {
            return;
        }
        long bytes = model.activationBytes();
        if (model.sequenceParallel()) {
            add(collective(id + "-ag", CollectiveOp.ALL_GATHER, EnumSet.of(Dim.TP), bytes));
            add(collective(id + "-rs", CollectiveOp.REDUCE_SCATTER, EnumSet.of(Dim.TP), bytes));
        } else {
            add(collective(id + "-ar", CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.TP), bytes));
        }
    }

    private Step.Collective collective(String id, CollectiveOp op, Set<Dim> dims, long bytes) {
        return collective(id, "main", op, dims, bytes);
    }

    private Step.Collective collective(String id, String stream, CollectiveOp op, Set<Dim> dims, long bytes,
            String... after) {
        if (!Collectives.available(op)) {
            throw new IllegalArgumentException(op.title() + " is not available, so this model cannot be generated");
        }
        Algorithm a = Collectives.defaultAlgorithm(op);
        return new Step.Collective(meta(id, stream, after), op, a, dims, Math.max(bytes, 1), false, 1, 0);
    }

    private boolean reducesGradients() {
        return d * e > 1;
    }

    /** Parameters per gradient bucket: the model's, or Megatron's default max(40M, 1M x DP). */
    private long bucketParams() {
        return model.bucketParams() > 0 ? model.bucketParams() : Math.max(40_000_000L, 1_000_000L * d * e);
    }

    private void dataParallel(int bucket, long params, String after) {
        // Gradients of dense layers are reduced over every data-parallel replica, DP and EP together.
        Set<Dim> group = EnumSet.of(Dim.DP, Dim.EP);
        if (model.distributedOptimizer()) {
            add(collective("dp-rs-s" + stage + "-b" + bucket, "dp", CollectiveOp.REDUCE_SCATTER, group,
                    params * 4, after));
        } else {
            add(collective("dp-ar-s" + stage + "-b" + bucket, "dp", CollectiveOp.ALL_REDUCE, group,
                    params * model.dtypeBytes(), after));
        }
    }

    private void optimizer() {
        List<String> after = new ArrayList<>();
        if (buckets > 0) {
            after.add((model.distributedOptimizer() ? "dp-rs-s" : "dp-ar-s") + stage + "-b" + (buckets - 1));
        }
        add(new Step.Compute(meta("optimizer-s" + stage, "main", after.toArray(new String[0])),
                model.optimizerPs()));
        if (model.distributedOptimizer() && buckets > 0) {
            add(collective("dp-ag-s" + stage, "main", CollectiveOp.ALL_GATHER, EnumSet.of(Dim.DP, Dim.EP),
                    stageParams(stage) * model.dtypeBytes()));
        }
    }
}
