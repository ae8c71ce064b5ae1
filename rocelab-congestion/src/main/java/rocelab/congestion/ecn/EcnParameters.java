package rocelab.congestion.ecn;

/**
 * ECN marking at switch egress queues (the DCQCN congestion point).
 *
 * @param scheme none, RED-style (Kmin, Kmax, Pmax) or step (single threshold K, DCTCP-style)
 * @param kminBytes RED lower threshold; -1 scales with the port rate (4 KB per Gb/s: 400 KB at 100 Gb/s)
 * @param kmaxBytes RED upper threshold; -1 scales with the port rate (16 KB per Gb/s: 1600 KB at 100 Gb/s)
 * @param pmax RED marking probability at Kmax
 * @param kBytes step threshold; -1 scales with the port rate (3 KB per Gb/s: 300 KB at 100 Gb/s)
 * @param atEnqueue decide on the queue found at enqueue instead of at dequeue (the reference simulators' default)
 * @param classMask traffic classes whose queues mark (bit c for class c; default class 3, RoCE)
 */
public record EcnParameters(
        Scheme scheme, long kminBytes, long kmaxBytes, double pmax, long kBytes, boolean atEnqueue, int classMask) {

    /** Marking schemes. */
    public enum Scheme {
        NONE("none"),
        RED("red"),
        STEP("step");

        private final String key;

        Scheme(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }
    }

    /** Scaling of the default thresholds (HPCC's and SimAI's rule: constant queueing delay). */
    public static final long KMIN_BYTES_PER_GBPS = 4_000;
    public static final long KMAX_BYTES_PER_GBPS = 16_000;
    public static final long K_BYTES_PER_GBPS = 3_000;
    public static final double DEFAULT_PMAX = 0.2;

    public EcnParameters {
        if (pmax < 0 || pmax > 1) {
            throw new IllegalArgumentException("pmax must be in [0, 1], got " + pmax);
        }
        if (kminBytes >= 0 && kmaxBytes >= 0 && kmaxBytes < kminBytes) {
            throw new IllegalArgumentException("kmax (" + kmaxBytes + " B) must not be below kmin (" + kminBytes
                    + " B)");
        }
        if ((classMask & ~0xff) != 0) {
            throw new IllegalArgumentException("traffic classes are 0..7");
        }
    }

    /** RED with thresholds scaled to each port's rate, marking class 3 at dequeue. */
    public static EcnParameters defaults() {
        return new EcnParameters(Scheme.RED, -1, -1, DEFAULT_PMAX, -1, false, 1 << 3);
    }

    public static EcnParameters none() {
        return new EcnParameters(Scheme.NONE, -1, -1, DEFAULT_PMAX, -1, false, 1 << 3);
    }

    public long kminFor(long rateBps) {
        return kminBytes >= 0 ? kminBytes : scaled(KMIN_BYTES_PER_GBPS, rateBps);
    }

    public long kmaxFor(long rateBps) {
        return kmaxBytes >= 0 ? kmaxBytes : scaled(KMAX_BYTES_PER_GBPS, rateBps);
    }

    public long kFor(long rateBps) {
        return kBytes >= 0 ? kBytes : scaled(K_BYTES_PER_GBPS, rateBps);
    }

    private static long scaled(long bytesPerGbps, long rateBps) {
        return Math.round(bytesPerGbps * (rateBps / 1e9));
    }

    /**
     * The text a record's generated toString() gives (name[component=value, ...], the scenario hash's input), written
     * out: the generated one is bootstrapped through method handles the first time it runs, tens of milliseconds of
     * a short run's start-up (RecordTextTest checks the two agree).
     */
    @Override
    public String toString() {
        return "EcnParameters[" + "scheme=" + scheme + ", kminBytes=" + kminBytes + ", kmaxBytes=" + kmaxBytes
                + ", pmax=" + pmax + ", kBytes=" + kBytes + ", atEnqueue=" + atEnqueue + ", classMask=" + classMask
                + "]";
    }
}
