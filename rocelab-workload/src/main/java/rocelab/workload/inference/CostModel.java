package rocelab.workload.inference;

/**
 * Fixed GPU times, so results are deterministic and checkable: a prefill pass costs {@code prefillPerTokenPs} per
 * prompt token processed (attention's growth with context length is not modelled), a decode step costs
 * {@code decodeStepPs} whatever the batch (decode is memory-bound: each step reads every weight once). Both are the
 * GPU time of one TP rank for the whole pass, spread evenly over the layers.
 */
public record CostModel(long prefillPerTokenPs, long decodeStepPs) {
    public CostModel {
        if (prefillPerTokenPs < 0 || decodeStepPs < 0) {
            throw new IllegalArgumentException("costs must not be negative");
        }
    }
}
