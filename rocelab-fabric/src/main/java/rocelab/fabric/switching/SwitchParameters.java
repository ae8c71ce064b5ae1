package rocelab.fabric.switching;

import java.util.Arrays;
import java.util.Objects;
import rocelab.fabric.port.SchedulerKind;

/**
 * Settings of a switch: shared buffer, forwarding latency, QoS classification (DSCP to traffic class), scheduling
 * between classes, and ECMP.
 *
 * @param bufferBytes shared packet buffer of the whole switch
 * @param forwardingLatencyPs fixed pipeline delay from the last bit in to the packet being queued for output
 * @param dscpToTc traffic class (0..7) for each of the 64 DSCP values
 * @param scheduler strict priority or DWRR
 * @param dwrrWeights weight of each class under DWRR (quantum = weight x 1500 bytes)
 * @param strictClasses bit mask of classes served with strict priority ahead of the DWRR classes
 * @param loadBalancing per-flow ECMP, per-packet spraying, adaptive routing or flowlet switching
 * @param ecmpHash the 5-tuple hash function
 * @param ecmpSeed the hash seed; {@code null} derives a distinct seed for every switch from the scenario seed
 * @param adaptive settings of adaptive routing and flowlets (used by those two modes only)
 */
public record SwitchParameters(
        long bufferBytes,
        long forwardingLatencyPs,
        int[] dscpToTc,
        SchedulerKind scheduler,
        int[] dwrrWeights,
        int strictClasses,
        LoadBalancing loadBalancing,
        EcmpHash ecmpHash,
        Long ecmpSeed,
        AdaptiveParameters adaptive) {

    public static final int TRAFFIC_CLASSES = 8;

    public SwitchParameters {
        if (bufferBytes <= 0) {
            throw new IllegalArgumentException("buffer must be positive, got " + bufferBytes);
        }
        if (forwardingLatencyPs < 0) {
            throw new IllegalArgumentException("forwarding latency must not be negative");
        }
        if (dscpToTc.length != 64) {
            throw new IllegalArgumentException("the DSCP map needs 64 entries");
        }
        for (int tc : dscpToTc) {
            if (tc < 0 || tc >= TRAFFIC_CLASSES) {
                throw new IllegalArgumentException("traffic class must be 0..7, got " + tc);
            }
        }
        if (dwrrWeights.length != TRAFFIC_CLASSES) {
            throw new IllegalArgumentException("DWRR needs 8 weights");
        }
        for (int w : dwrrWeights) {
            if (w < 1) {
                throw new IllegalArgumentException("DWRR weights must be >= 1, got " + w);
            }
        }
        dscpToTc = dscpToTc.clone();
        dwrrWeights = dwrrWeights.clone();
        Objects.requireNonNull(adaptive, "adaptive");
    }

    /** Settings with the default adaptive-routing parameters (they matter only in the adaptive and flowlet modes). */
    public SwitchParameters(long bufferBytes, long forwardingLatencyPs, int[] dscpToTc, SchedulerKind scheduler,
            int[] dwrrWeights, int strictClasses, LoadBalancing loadBalancing, EcmpHash ecmpHash, Long ecmpSeed) {
        this(bufferBytes, forwardingLatencyPs, dscpToTc, scheduler, dwrrWeights, strictClasses, loadBalancing,
                ecmpHash, ecmpSeed, AdaptiveParameters.defaults());
    }

    /** The default map of many switches: traffic class = DSCP >> 3 (26 → 3 for RoCE, 48 → 6 for CNP). */
    public static int[] classSelectorMap() {
        int[] map = new int[64];
        for (int d = 0; d < 64; d++) {
            map[d] = d >> 3;
        }
        return map;
    }

    public static SwitchParameters defaults() {
        int[] weights = new int[TRAFFIC_CLASSES];
        Arrays.fill(weights, 1);
        return new SwitchParameters(32_000_000L, 0L, classSelectorMap(), SchedulerKind.DWRR, weights,
                1 << 6 | 1 << 7, LoadBalancing.ECMP, EcmpHash.CRC32, null);
    }

    @Override
    public int[] dscpToTc() {
        return dscpToTc.clone();
    }

    @Override
    public int[] dwrrWeights() {
        return dwrrWeights.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SwitchParameters p
                && bufferBytes == p.bufferBytes
                && forwardingLatencyPs == p.forwardingLatencyPs
                && Arrays.equals(dscpToTc, p.dscpToTc)
                && scheduler == p.scheduler
                && Arrays.equals(dwrrWeights, p.dwrrWeights)
                && strictClasses == p.strictClasses
                && loadBalancing == p.loadBalancing
                && ecmpHash == p.ecmpHash
                && Objects.equals(ecmpSeed, p.ecmpSeed)
                && adaptive.equals(p.adaptive);
    }

    @Override
    public int hashCode() {
        return Objects.hash(bufferBytes, Arrays.hashCode(dscpToTc), scheduler, strictClasses);
    }

    @Override
    public String toString() {
        return "SwitchParameters[buffer=" + bufferBytes + ", scheduler=" + scheduler + ", lb=" + loadBalancing
                + ", hash=" + ecmpHash + ", seed=" + ecmpSeed
                + (loadBalancing.loadAware() ? ", " + adaptive : "") + "]";
    }
}
