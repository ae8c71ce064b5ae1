package rocelab.workload.inference;

/**
 * The shape of a served transformer, as far as the network sees it: the hidden size sets the bytes of every
 * tensor-parallel AllReduce (tokens x hidden x dtype bytes), and layers, KV heads and head dimension set the KV cache
 * (2 x layers x kv-heads x head-dim x dtype bytes per token: a key and a value per layer). {@code heads} is kept for
 * documentation and checks only (KV heads must divide the query heads, as in grouped-query attention).
 */
public record ModelShape(int layers, long hidden, int heads, int kvHeads, int headDim, int dtypeBytes) {
    public ModelShape {
        if (layers < 1 || hidden < 1 || heads < 1 || kvHeads < 1 || headDim < 1 || dtypeBytes < 1) {
            throw new IllegalArgumentException("every model dimension must be at least 1");
        }
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("kv-heads " + kvHeads + " does not divide heads " + heads);
        }
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
