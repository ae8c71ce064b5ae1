package rocelab.fabric.nic;

/**
 * Settings of every RNIC: payload per packet, ACK coalescing, the RC transport's local ACK timeout and retry
 * count (IBTA: timeout = 4.096 us x 2^exponent, exponent 0 means infinite), and QoS marking of RoCE traffic.
 *
 * @param mtuBytes RoCE payload bytes per packet (the IB path MTU: 256..4096 on real NICs)
 * @param ackEvery the responder acknowledges every Nth in-order packet, and always a packet that asks (AckReq)
 * @param timeoutExponent local ACK timeout exponent (perftest default 14 = 67 ms; NCCL uses 18..20)
 * @param retryCount retries before the QP goes to the error state (at most 7)
 * @param dataDscp DSCP of RoCE data and ACKs (NVIDIA practice: 26)
 * @param dataPriority 802.1p priority (traffic class on the RNIC) of RoCE data and ACKs
 * @param ecnCapable send data as ECT(0); when false, switches never mark it
 * @param pauseResponsePs how long after a PFC frame arrives the RNIC acts on it; -1: the IEEE 802.3 Annex 31B
 *     response time at its line rate
 * @param ooo out-of-order placement and selective repeat (IRN-style): a QP whose two RNICs both have it places
 *     every packet where it belongs, asks only for what is missing, and resends only that; off: go-back-N
 * @param oooWindowPackets with {@code ooo}: PSNs a QP may have outstanding, the size of its arrival bitmap
 * @param oooReorderPackets with {@code ooo}: how many PSNs beyond a gap must arrive before the receiver takes the
 *     gap for a loss and asks for it (a smaller reordering is waited out)
 * @param ackDscp DSCP of the ACKs and NAKs this RNIC sends as a responder, or -1: its QP's data DSCP (as RoCEv2
 *     RNICs do: an ACK travels in its QP's traffic class)
 * @param ackPriority 802.1p priority of those ACKs and NAKs, or -1 (with {@code ackDscp}): its QP's data priority
 */
public record NicParameters(
        int mtuBytes,
        int ackEvery,
        int timeoutExponent,
        int retryCount,
        int dataDscp,
        int dataPriority,
        boolean ecnCapable,
        long pauseResponsePs,
        boolean ooo,
        int oooWindowPackets,
        int oooReorderPackets,
        int ackDscp,
        int ackPriority) {

    public static final int DEFAULT_TIMEOUT_EXPONENT = 14;
    public static final int DEFAULT_RETRY_COUNT = 7;
    public static final int DEFAULT_OOO_WINDOW = 1024;
    public static final int DEFAULT_OOO_REORDER = 256;

    public NicParameters {
        require(mtuBytes >= 64 && mtuBytes <= 65_536, "mtu must be between 64 and 65536 bytes, got " + mtuBytes);
        require(ackEvery >= 1, "ack-every must be >= 1, got " + ackEvery);
        require(timeoutExponent >= 0 && timeoutExponent <= 31, "timeout exponent must be 0..31, got " + timeoutExponent);
        require(retryCount >= 0 && retryCount <= 7, "retry count must be 0..7, got " + retryCount);
        require(dataDscp >= 0 && dataDscp <= 63, "DSCP must be 0..63, got " + dataDscp);
        require(dataPriority >= 0 && dataPriority <= 7, "priority must be 0..7, got " + dataPriority);
        require(pauseResponsePs >= -1, "pause response must not be negative");
        require(oooWindowPackets >= 64 && oooWindowPackets <= 1 << 20
                && Integer.bitCount(oooWindowPackets) == 1, "ooo-window must be a power of two 64..1048576, got "
                + oooWindowPackets);
        require(oooReorderPackets >= 1 && oooReorderPackets < oooWindowPackets,
                "ooo-reorder must be at least 1 and below ooo-window (" + oooWindowPackets + "), got "
                + oooReorderPackets);
        require(ackDscp >= -1 && ackDscp <= 63 && ackPriority >= -1 && ackPriority <= 7
                && (ackDscp < 0) == (ackPriority < 0), "ACK DSCP 0..63 and priority 0..7 (both, or neither), got "
                + ackDscp + "/" + ackPriority);
    }

    /** ACKs in their QP's traffic class (the default). */
    public NicParameters(int mtuBytes, int ackEvery, int timeoutExponent, int retryCount, int dataDscp,
            int dataPriority, boolean ecnCapable, long pauseResponsePs, boolean ooo, int oooWindowPackets,
            int oooReorderPackets) {
        this(mtuBytes, ackEvery, timeoutExponent, retryCount, dataDscp, dataPriority, ecnCapable, pauseResponsePs,
                ooo, oooWindowPackets, oooReorderPackets, -1, -1);
    }

    /** Go-back-N (no out-of-order placement). */
    public NicParameters(int mtuBytes, int ackEvery, int timeoutExponent, int retryCount, int dataDscp,
            int dataPriority, boolean ecnCapable, long pauseResponsePs) {
        this(mtuBytes, ackEvery, timeoutExponent, retryCount, dataDscp, dataPriority, ecnCapable, pauseResponsePs,
                false, DEFAULT_OOO_WINDOW, DEFAULT_OOO_REORDER);
    }

    /** With the 802.3 response time. */
    public NicParameters(int mtuBytes, int ackEvery, int timeoutExponent, int retryCount, int dataDscp,
            int dataPriority, boolean ecnCapable) {
        this(mtuBytes, ackEvery, timeoutExponent, retryCount, dataDscp, dataPriority, ecnCapable, -1);
    }

    public static NicParameters defaults(int mtuBytes) {
        return new NicParameters(mtuBytes, 1, DEFAULT_TIMEOUT_EXPONENT, DEFAULT_RETRY_COUNT, 26, 3, true);
    }

    /** The same settings with out-of-order placement and selective repeat on or off. */
    public NicParameters withOoo(boolean on) {
        return new NicParameters(mtuBytes, ackEvery, timeoutExponent, retryCount, dataDscp, dataPriority, ecnCapable,
                pauseResponsePs, on, oooWindowPackets, oooReorderPackets, ackDscp, ackPriority);
    }

    /** The same settings with data sent ECN-capable or not ({@code nic.ecn}). */
    public NicParameters withEcnCapable(boolean on) {
        return new NicParameters(mtuBytes, ackEvery, timeoutExponent, retryCount, dataDscp, dataPriority, on,
                pauseResponsePs, ooo, oooWindowPackets, oooReorderPackets, ackDscp, ackPriority);
    }

    /** Whether this RNIC's ACKs have a QoS of their own ({@code nic.ack}) rather than their QP's. */
    public boolean ownAckQos() {
        return ackDscp >= 0;
    }

    /**
     * The record's text, with the out-of-order settings only when {@code ooo} is on and the ACKs' QoS only when it is
     * their own: it goes into the scenario's canonical text, so the hash of every scenario without them stays what it
     * was.
     */
    @Override
    public String toString() {
        return "NicParameters[mtuBytes=" + mtuBytes + ", ackEvery=" + ackEvery + ", timeoutExponent="
                + timeoutExponent + ", retryCount=" + retryCount + ", dataDscp=" + dataDscp + ", dataPriority="
                + dataPriority + ", ecnCapable=" + ecnCapable + ", pauseResponsePs=" + pauseResponsePs
                + (ooo ? ", ooo=true, oooWindowPackets=" + oooWindowPackets + ", oooReorderPackets="
                        + oooReorderPackets : "")
                + (ownAckQos() ? ", ackDscp=" + ackDscp + ", ackPriority=" + ackPriority : "") + "]";
    }

    /** Local ACK timeout in picoseconds; {@code Long.MAX_VALUE} when the exponent is 0 (never). */
    public long ackTimeoutPs() {
        return timeoutExponent == 0 ? Long.MAX_VALUE : 4_096_000L << timeoutExponent;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
