package rocelab.fabric.nic;

/**
 * The notification state of one queue pair: the responder's (when it last sent a CNP, the notifications it sent, and
 * the marked packet a pending ACK flag answers) and what its sender heard, by mark port. The responder writes its
 * part, the sender its own; a notification follows a marked packet's arrival, so the notice is there by then. A QP gets one at its first CE-marked packet: a QP that is
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
    /**
     * The sender's side: the notifications it heard, by the port whose mark each answers ({@link
     * NotificationSources}): two ports, each with its count and those on packets a pause held there, and the rest.
     */
    int markNode0;
    int markPort0;
    int markCount0;
    int markHeld0;
    int markNode1;
    int markPort1;
    int markCount1;
    int markHeld1;
    int markOther;
}
