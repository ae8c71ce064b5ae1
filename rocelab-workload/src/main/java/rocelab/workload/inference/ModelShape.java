package rocelab.workload.inference;

/**
 * The shape of a served transformer, as far as the network sees it: the hidden size sets the bytes of every
 * tensor-parallel AllReduce (tokens x hidden x dtype bytes), and layers, KV heads and head dimension set the KV cache
 * (2 x layers x kv-heads x head-dim x dtype bytes per token: a key and a value per layer). {@code heads} is kept for
 * documentation and checks only (KV heads must divide the query heads, as in grouped-query attention). A
 * mixture-of-experts model ({@code topk} > 0: experts per token) adds an expert-parallel AlltoAll dispatch and
 * combine to every layer, the experts sharded over an instance's ranks (EP = TP).
 */
public record ModelShape(int layers, long hidden, int heads, int kvHeads, int headDim, int dtypeBytes, int topk) {
    public ModelShape {
        if (layers < 1 || hidden < 1 || heads < 1 || kvHeads < 1 || headDim < 1 || dtypeBytes < 1 || topk < 0) {
            throw new IllegalArgumentException("every model dimension must be at least 1");
        }
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("kv-heads " + kvHeads + " does not divide heads " + heads);
        }
    }

    /** A dense model. */
    public ModelShape(int layers, long hidden, int heads, int kvHeads, int headDim, int dtypeBytes) {
        this(layers, hidden, heads, kvHeads, headDim, dtypeBytes, 0);
    }

    public boolean moe() {
        return topk > 0;
    }

    /**
     * Bytes one of {@code ranks} EP ranks dispatches for {@code tokens} tokens in one MoE layer (and gets back in the
     * combine): tokens x hidden x dtype bytes x topk / ranks, as AICB's inference generator sizes it.
     */
    public long expertDispatchBytes(long tokens, int ranks) {
        return Math.multiplyExact(activationBytes(tokens), topk) / ranks;
    }

    /** KV-cache bytes of one token: 2 x layers x kv-heads x head-dim x dtype bytes (320 KiB for Llama-3 70B). */
    public long kvBytesPerToken() {
        return 2L * layers * kvHeads * headDim * dtypeBytes;
    }

    /** Bytes of the activations of {@code tokens} tokens: one TP AllReduce (tokens x hidden x dtype bytes). */
    public long activationBytes(long tokens) {
        return Math.multiplyExact(Math.multiplyExact(tokens, hidden), dtypeBytes);
    }
}
