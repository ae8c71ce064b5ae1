package rocelab.fabric.nic;

/**
 * The responder's notification-point state of one queue pair: when it last sent a CNP, the notifications it sent,
 * and the marked packet a pending ACK flag answers. A QP gets one at its first CE-marked packet: a QP that is
 * never marked (and every QP of a fabric without ECN) carries none.
 */
final class CongestionNotice {
    long lastCnpPs = Long.MIN_VALUE;
    boolean cnpFlagPending;
    /** Notifications the responder sent for this QP (each CNP or flagged ACK carries its number). */
    long notificationsSent;
    /** The marked packet a pending ACK flag answers. */
    long pendingCausePsn;
    int pendingMarkNode;
    int pendingMarkPort;
    long pendingMarkAtPs;
    boolean pendingMarkHeldByPause;
}
