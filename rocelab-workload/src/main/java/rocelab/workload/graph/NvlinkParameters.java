package rocelab.workload.graph;

/** The scale-up link of each GPU inside a server: its rate per direction and its one-way latency. */
public record NvlinkParameters(long rateBps, long latencyPs) {
    public NvlinkParameters {
        if (rateBps <= 0 || latencyPs < 0) {
            throw new IllegalArgumentException("NVLink needs a positive rate and a non-negative latency");
        }
    }
}
