package rocelab.workload.job;

/**
 * A Megatron-style training setup: the transformer's shape, the batch, the options that change its communication,
 * and the compute time of one layer for one micro-batch (forward; backward defaults to twice that).
 *
 * @param layers transformer layers L
 * @param hidden hidden size h
 * @param ffn feed-forward size (4h for GPT)
 * @param seq sequence length s
 * @param vocab vocabulary size V (its embedding sits on the first pipeline stage, the output layer on the last)
 * @param dtypeBytes bytes per activation element (2 for bf16)
 * @param microBatch micro-batch size b
 * @param globalBatch global batch in sequences
 * @param sequenceParallel TP collectives are AllGather + ReduceScatter instead of AllReduce; PP sends shrink by t
 * @param distributedOptimizer DP is ReduceScatter of fp32 gradients + AllGather of bf16 parameters, not AllReduce
 * @param bucketParams parameters per gradient bucket (Megatron: max(40M, 1M x DP)), 0 for Megatron's default
 * @param forwardPs forward compute of one layer for one micro-batch
 * @param backwardPs backward compute of one layer for one micro-batch
 * @param optimizerPs the optimizer step at the end of the iteration
 * @param moeTopk experts per token when the MLP is a mixture of experts over the EP group (0: dense)
 * @param moeSkew hot experts: the dispatch and combine are AlltoAllv with this skew (null: balanced AlltoAll)
 * @param moeExperts experts per MoE layer, each an MLP of 2 h ffn parameters, split evenly over the EP ranks (0: one
 *     per EP rank)
 * @param tiedEmbeddings the output layer shares the input embedding's weights (Megatron's default): with more than
 *     one stage, the first and last stage hold a copy each and all-reduce its gradient
 */
public record MegatronModel(int layers, long hidden, long ffn, long seq, long vocab, int dtypeBytes, long microBatch,
        long globalBatch, boolean sequenceParallel, boolean distributedOptimizer, long bucketParams, long forwardPs,
        long backwardPs, long optimizerPs, int moeTopk, Step.Skew moeSkew, int moeExperts, boolean tiedEmbeddings) {
    /** A model with tied embeddings and, if a mixture of experts, one expert per EP rank. */
    public MegatronModel(int layers, long hidden, long ffn, long seq, long vocab, int dtypeBytes, long microBatch,
            long globalBatch, boolean sequenceParallel, boolean distributedOptimizer, long bucketParams,
            long forwardPs, long backwardPs, long optimizerPs, int moeTopk, Step.Skew moeSkew) {
        this(layers, hidden, ffn, seq, vocab, dtypeBytes, microBatch, globalBatch, sequenceParallel,
                distributedOptimizer, bucketParams, forwardPs, backwardPs, optimizerPs, moeTopk, moeSkew, 0, true);
    }

    /** A model whose experts, if any, are evenly loaded. */
    public MegatronModel(int layers, long hidden, long ffn, long seq, long vocab, int dtypeBytes, long microBatch,
            long globalBatch, boolean sequenceParallel, boolean distributedOptimizer, long bucketParams,
            long forwardPs, long backwardPs, long optimizerPs, int moeTopk) {
        this(layers, hidden, ffn, seq, vocab, dtypeBytes, microBatch, globalBatch, sequenceParallel,
                distributedOptimizer, bucketParams, forwardPs, backwardPs, optimizerPs, moeTopk, null);
    }

    public MegatronModel {
        if (layers < 1 || hidden < 1 || ffn < 1 || seq < 1 || vocab < 0 || dtypeBytes < 1 || microBatch < 1
                || globalBatch < 1 || bucketParams < 0 || forwardPs < 0 || backwardPs < 0 || optimizerPs < 0
                || moeTopk < 0 || moeExperts < 0) {
            throw new IllegalArgumentException("model sizes must be positive");
        }
    }

    /** Parameters of one transformer layer: attention 4h^2 (QKV and output projection) and MLP 2 h ffn. */
    public long layerParams() {
        return attentionParams() + mlpParams();
    }

    /** Parameters of a layer's attention: QKV and output projection, 4h^2. */
    public long attentionParams() {
        return 4 * hidden * hidden;
    }

    /** Parameters of one MLP, or of one expert of a mixture: 2 h ffn. */
    public long mlpParams() {
        return 2 * hidden * ffn;
    }

    /** Bytes of one micro-batch's activation b s h d: the TP collective size and the PP message without SP. */
    public long activationBytes() {
        return microBatch * seq * hidden * dtypeBytes;
    }
}
