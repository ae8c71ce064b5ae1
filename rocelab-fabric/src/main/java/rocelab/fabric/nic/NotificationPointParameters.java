package rocelab.fabric.nic;

import rocelab.engine.Time;

/**
 * How a receiving RNIC (the DCQCN notification point) reports CE-marked packets to their sender.
 *
 * @param mode separate CNP frames, or a flag on the ACK (the HPCC ns-3 model, which has no CNP frame)
 * @param cnpIntervalPs at most one CNP per QP (or per port) per interval (0: one per CE-marked packet)
 * @param cnpDscp DSCP of CNP frames (NVIDIA default 48)
 * @param cnpPriority 802.1p priority of CNP frames (NVIDIA default 6)
 * @param intervalPerPort the interval holds for the whole port, across its QPs (ConnectX min_time_between_cnps:
 *     "minimum time between sending CNPs from the port"), instead of for each QP (the paper's per-flow N)
 */
public record NotificationPointParameters(Mode mode, long cnpIntervalPs, int cnpDscp, int cnpPriority,
        boolean intervalPerPort) {
    /** How the notification travels. */
    public enum Mode {
        /** A CNP frame (BTH opcode 0x81) per QP per interval. */
        CNP,
        /** The CNP flag on the ACK of the marked packet. */
        ACK_FLAG,
        /** No notification: the sender's control reads ECN echoes, delay or telemetry from ACKs instead. */
        NONE
    }

    public NotificationPointParameters {
        if (cnpIntervalPs < 0) {
            throw new IllegalArgumentException("CNP interval must not be negative");
        }
        if (cnpDscp < 0 || cnpDscp > 63) {
            throw new IllegalArgumentException("CNP DSCP must be 0..63, got " + cnpDscp);
        }
        if (cnpPriority < 0 || cnpPriority > 7) {
            throw new IllegalArgumentException("CNP priority must be 0..7, got " + cnpPriority);
        }
    }

    /**
     * What a receiving RNIC with these parameters counts as {@code np_cnp_sent} (summary.json
     * {@code counters.cnp_sent_unit}): a paced CNP frame, a flag on an ACK, or (InfiniBand, {@code becn}) a BECN.
     */
    public String counted(boolean becn) {
        String frame = becn ? "BECNs" : "CNP frames";
        return switch (mode) {
            case NONE -> "none: these receivers send no congestion notifications";
            case ACK_FLAG -> "CNP flags on ACKs: one per ACK that follows CE-marked packets";
            case CNP -> cnpIntervalPs == 0 ? frame + ": one per " + (becn ? "FECN" : "CE") + "-marked packet"
                    : frame + ": at most one per " + (intervalPerPort ? "receiving port" : "QP") + " per "
                            + Time.microsText(cnpIntervalPs) + " us";
        };
    }

    /** The interval per QP. */
    public NotificationPointParameters(Mode mode, long cnpIntervalPs, int cnpDscp, int cnpPriority) {
        this(mode, cnpIntervalPs, cnpDscp, cnpPriority, false);
    }

    /** NVIDIA firmware defaults: CNP frames on DSCP 48, priority 6, at most one from the port every 4 us. */
    public static NotificationPointParameters defaults() {
        return new NotificationPointParameters(Mode.CNP, 4_000_000L, 48, 6, true);
    }
}
