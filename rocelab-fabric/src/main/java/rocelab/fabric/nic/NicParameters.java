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
 */
public record NicParameters(
        int mtuBytes,
        int ackEvery,
        int timeoutExponent,
        int retryCount,
        int dataDscp,
        int dataPriority,
        boolean ecnCapable,
        long pauseResponsePs) {

    public static final int DEFAULT_TIMEOUT_EXPONENT = 14;
    public static final int DEFAULT_RETRY_COUNT = 7;

    public NicParameters {
        require(mtuBytes >= 64 && mtuBytes <= 65_536, "mtu must be between 64 and 65536 bytes, got " + mtuBytes);
        require(ackEvery >= 1, "ack-every must be >= 1, got " + ackEvery);
        require(timeoutExponent >= 0 && timeoutExponent <= 31, "timeout exponent must be 0..31, got " + timeoutExponent);
        require(retryCount >= 0 && retryCount <= 7, "retry count must be 0..7, got " + retryCount);
        require(dataDscp >= 0 && dataDscp <= 63, "DSCP must be 0..63, got " + dataDscp);
        require(dataPriority >= 0 && dataPriority <= 7, "priority must be 0..7, got " + dataPriority);
        require(pauseResponsePs >= -1, "pause response must not be negative");
    }

    /** With the 802.3 response time. */
    public NicParameters(int mtuBytes, int ackEvery, int timeoutExponent, int retryCount, int dataDscp,
            int dataPriority, boolean ecnCapable) {
        this(mtuBytes, ackEvery, timeoutExponent, retryCount, dataDscp, dataPriority, ecnCapable, -1);
    }

    public static NicParameters defaults(int mtuBytes) {
        return new NicParameters(mtuBytes, 1, DEFAULT_TIMEOUT_EXPONENT, DEFAULT_RETRY_COUNT, 26, 3, true);
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
