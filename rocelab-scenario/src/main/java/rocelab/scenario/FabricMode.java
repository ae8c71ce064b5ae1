package rocelab.scenario;

/** Which kind of fabric carries the RDMA traffic. */
public enum FabricMode {
    /** RoCEv2 on best-effort Ethernet: tail drop, go-back-N recovery. */
    ROCE_LOSSY("roce-lossy"),
    /** RoCEv2 with priority flow control on the lossless priorities (default 3): a lossless priority never drops. */
    ROCE_LOSSLESS("roce-lossless"),
    /** Native InfiniBand: credit-based flow control per virtual lane, never a drop for lack of buffer. */
    INFINIBAND("infiniband");

    private final String key;

    FabricMode(String key) {
        this.key = key;
    }

    /** The name used in scenario files and outputs. */
    public String key() {
        return key;
    }

    public static FabricMode fromKey(String key) {
        for (FabricMode m : values()) {
            if (m.key.equals(key)) {
                return m;
            }
        }
        return null;
    }
}
