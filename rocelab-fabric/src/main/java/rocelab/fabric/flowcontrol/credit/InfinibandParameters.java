package rocelab.fabric.flowcontrol.credit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Settings of an InfiniBand fabric ({@code fabric.mode: infiniband}).
 *
 * @param vlBufferBytes a switch's input buffer per port and data virtual lane (credits = bytes / 64)
 * @param hcaBufferBytes an HCA's (RNIC's) receive buffer per data virtual lane
 * @param slToVl the virtual lane of each of the 16 service levels
 * @param high the high-priority VL arbitration table (entries of lane and weight in 64-byte units)
 * @param low the low-priority VL arbitration table
 * @param highLimit Limit of High-Priority: x 4096 bytes of high-priority packets before one low-priority packet
 *     may go if one waits; 255 means unlimited
 */
public record InfinibandParameters(
        long vlBufferBytes,
        long hcaBufferBytes,
        int[] slToVl,
        List<ArbitrationEntry> high,
        List<ArbitrationEntry> low,
        int highLimit) {

    /** Data virtual lanes modelled (VL0..VL7, as current switches and HCAs implement); VL15 is management. */
    public static final int DATA_VLS = 8;
    public static final int SERVICE_LEVELS = 16;
    /** Largest per-lane buffer the 12-bit, modulo-4096 credit counters can advertise: 2048 blocks. */
    public static final long MAX_BUFFER_BYTES = 2048L * CreditGate.BLOCK_BYTES;
    public static final int UNLIMITED_HIGH = 255;

    /** One entry of a VL arbitration table: the lane may send {@code weight} x 64 bytes before the next entry. */
    public record ArbitrationEntry(int vl, int weight) {
        public ArbitrationEntry {
            if (vl < 0 || vl >= DATA_VLS) {
                throw new IllegalArgumentException("VL must be 0.." + (DATA_VLS - 1) + ", got " + vl);
            }
            if (weight < 0 || weight > 255) {
                throw new IllegalArgumentException("weight must be 0..255, got " + weight);
            }
        }
    }

    public InfinibandParameters {
        check(vlBufferBytes, "vl-buffer");
        check(hcaBufferBytes, "hca-buffer");
        if (slToVl.length != SERVICE_LEVELS) {
            throw new IllegalArgumentException("the SL to VL map needs 16 entries");
        }
        for (int vl : slToVl) {
            if (vl < 0 || vl >= DATA_VLS) {
                throw new IllegalArgumentException("VL must be 0.." + (DATA_VLS - 1) + ", got " + vl);
            }
        }
        if (high.size() > 64 || low.size() > 64) {
            throw new IllegalArgumentException("a VL arbitration table has at most 64 entries");
        }
        if (highLimit < 0 || highLimit > 255) {
            throw new IllegalArgumentException("high-limit must be 0..255, got " + highLimit);
        }
        slToVl = slToVl.clone();
        high = List.copyOf(high);
        low = List.copyOf(low);
    }

    private static void check(long bytes, String what) {
        if (bytes < CreditGate.BLOCK_BYTES || bytes > MAX_BUFFER_BYTES) {
            throw new IllegalArgumentException(what + " of " + bytes + " B is out of range; expected 64 B .. 128 KiB"
                    + " (IBA credits are 64-byte blocks, at most 2048 per lane)");
        }
    }

    /**
     * 64 KiB per lane in switches and HCAs, SL n on VL n (SL 8..15 on VL n-8), VL6 and VL7 (where the default
     * DSCP map puts CNPs and network control) in the high-priority table, VL0..VL5 sharing the low table equally.
     */
    public static InfinibandParameters defaults() {
        int[] map = new int[SERVICE_LEVELS];
        for (int sl = 0; sl < SERVICE_LEVELS; sl++) {
            map[sl] = sl % DATA_VLS;
        }
        List<ArbitrationEntry> high = List.of(new ArbitrationEntry(6, 255), new ArbitrationEntry(7, 255));
        List<ArbitrationEntry> low = new ArrayList<>();
        for (int vl = 0; vl < 6; vl++) {
            low.add(new ArbitrationEntry(vl, 64));
        }
        return new InfinibandParameters(64 * 1024, 64 * 1024, map, high, low, 4);
    }

    @Override
    public int[] slToVl() {
        return slToVl.clone();
    }

    /** Lanes with a non-zero weight in either table: the only lanes that can ever transmit. */
    public int servedMask() {
        int m = 0;
        for (ArbitrationEntry e : high) {
            m |= e.weight() > 0 ? 1 << e.vl() : 0;
        }
        for (ArbitrationEntry e : low) {
            m |= e.weight() > 0 ? 1 << e.vl() : 0;
        }
        return m;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InfinibandParameters p && vlBufferBytes == p.vlBufferBytes
                && hcaBufferBytes == p.hcaBufferBytes && Arrays.equals(slToVl, p.slToVl) && high.equals(p.high)
                && low.equals(p.low) && highLimit == p.highLimit;
    }

    @Override
    public int hashCode() {
        return Objects.hash(vlBufferBytes, hcaBufferBytes, Arrays.hashCode(slToVl), high, low, highLimit);
    }

    @Override
    public String toString() {
        return "ib[vl-buffer=" + vlBufferBytes + " hca-buffer=" + hcaBufferBytes + " sl-to-vl="
                + Arrays.toString(slToVl) + " high=" + high + " low=" + low + " high-limit=" + highLimit + "]";
    }
}
