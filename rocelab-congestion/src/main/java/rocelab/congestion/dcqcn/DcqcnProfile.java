package rocelab.congestion.dcqcn;

/**
 * The three incompatible DCQCN variants found in the sources (see the mechanisms reference, section 1.2). Each
 * profile fixes the algorithm's shape and its defaults; every parameter can still be overridden.
 */
public enum DcqcnProfile {
    /** SIGCOMM'15 paper / original ns-3: immediate cut per CNP, 55 us timers, byte counter, F = 5. */
    PAPER("paper"),
    /** NVIDIA ConnectX firmware: cut at most every 4 us, alpha every 1 us, T = 300 us, B = 2 MiB, F = 1. */
    NVIDIA("nvidia"),
    /** The HPCC ns-3 "Mellanox" model used by SimAI and ASTRA-sim: timer only, one AI step, then hyper increase. */
    HPCC_NS3("hpcc-ns3");

    private final String key;

    DcqcnProfile(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    public static DcqcnProfile fromKey(String key) {
        for (DcqcnProfile p : values()) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }
}
