package rocelab.fabric.topology;

/** A full-duplex point-to-point link: the same rate and propagation delay in both directions. */
public record LinkParameters(long rateBps, long delayPs) {
    public LinkParameters {
        if (rateBps <= 0) {
            throw new IllegalArgumentException("rate must be positive, got " + rateBps + " bit/s");
        }
        if (delayPs < 0) {
            throw new IllegalArgumentException("delay must not be negative, got " + delayPs + " ps");
        }
    }
}
