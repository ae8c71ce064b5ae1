package rocelab.fabric.probe;

import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.packet.Packet;

/**
 * Hears the steps of packets through the fabric, for the journey of a flow. Devices call it on every step, so the
 * default {@link #NONE} must stay a no-op that the JIT inlines away: a run that asks for no journey pays nothing.
 */
public interface JourneyProbe {
    JourneyProbe NONE = new JourneyProbe() {};

    /** An RNIC put a data packet of its QP on the wire at {@code rateBps}. */
    default void onSend(long nowPs, int host, Packet packet, long rateBps, boolean retransmission) {}

    /**
     * The requester of {@code queuePair} starts to recover lost packets, after a NAK or after its local ACK timeout
     * fired ({@code timeout}); it calls this itself, when it decides, so the step names the QP by identity. Go-back-N:
     * it sends again from {@code fromPsn}; selective repeat: it sends again {@code packets} PSNs alone, the lowest
     * {@code fromPsn} (-1: none). {@code sentThroughPsn} is the highest PSN it had sent, {@code packets} how many it
     * now means to send again. For a timeout, {@code timerStartPs} is when its timer started (the firing of a
     * timeout before it restarts it), {@code noAckSincePs} when it was last started by a send, an ACK that
     * acknowledged something new or a NAK (nothing new was acknowledged since; earlier than {@code timerStartPs}
     * exactly when the timer was restarted by its own firing), {@code retry} the retry it starts
     * (1..{@code retryLimit}); a retry above the limit means the retries are spent and the QP fails. For a NAK, both
     * times are -1 and {@code retry} is the retries so far.
     */
    default void onRecovery(long nowPs, int host, int queuePair, boolean timeout, long fromPsn, long sentThroughPsn,
            long packets, long timerStartPs, long noAckSincePs, int retry, int retryLimit) {}

    /** A switch admitted a packet into the queue of output {@code port}, which held {@code queueBytes} before it. */
    default void onEnqueue(long nowPs, int node, int inPort, int port, long queueBytes, Packet packet) {}

    /**
     * A device dropped a packet: a switch, or the sending end of a link that is down ({@link DropReason#LINK_DOWN}:
     * a switch's egress port, or an RNIC's port).
     */
    default void onDrop(long nowPs, int node, int port, DropReason reason, Packet packet) {}

    /**
     * A switch dropped a packet headed for its output {@code port} because its shared buffer was full
     * ({@link DropReason#BUFFER_FULL}), and what held that buffer at that moment, as the switch counts it: the egress
     * queue holding the most of it, output {@code holderPort}'s queue of class {@code holderTc} with
     * {@code holderBytes}, of {@code poolUsedBytes} in use in a shared pool of {@code poolBytes}. Rare (a drop); by
     * default told as a plain drop.
     */
    default void onBufferFullDrop(long nowPs, int node, int port, Packet packet, int holderPort, int holderTc,
            long holderBytes, long poolUsedBytes, long poolBytes) {
        onDrop(nowPs, node, port, DropReason.BUFFER_FULL, packet);
    }

    /**
     * The PFC watchdog of switch {@code node} dropped a packet of its output {@code port}'s queue of class
     * {@code priority} ({@link DropReason#PFC_WATCHDOG}: queued there, or arriving for it), which it had found stuck
     * in a pause storm; {@code xoffSentPs} names the PFC frame that last paused that queue (its send time at the
     * peer; -1 when unknown), so the pause's root is found by identity. By default told as a plain drop.
     */
    default void onWatchdogDrop(long nowPs, int node, int port, int priority, Packet packet, long xoffSentPs) {
        onDrop(nowPs, node, port, DropReason.PFC_WATCHDOG, packet);
    }

    /**
     * The link between ({@code nodeA}, {@code portA}) and ({@code nodeB}, {@code portB}) went down or came back up
     * (a scenario's link event); both directions change together.
     */
    default void onLinkState(long nowPs, int nodeA, int portA, int nodeB, int portB, boolean up) {}

    /** An egress queue marked the packet CE; {@code queueBytes} is the depth the marking decision saw. */
    default void onMark(long nowPs, int node, int port, long queueBytes, Packet packet) {}

    /** A frame of any kind arrived at an RNIC. */
    default void onArrive(long nowPs, int host, Packet packet) {}

    /**
     * The receiving RNIC put a congestion notification (a CNP, or an ACK carrying the CNP flag) on the wire; the
     * packet carries its cause ({@link Packet#causePsn()}, {@link Packet#markNode()}, ...) and its number.
     */
    default void onCnpSent(long nowPs, int host, Packet notification) {}

    /**
     * The receiving RNIC sent no CNP for the CE-marked {@code data}: one went out at {@code lastCnpPs}, within its
     * {@code intervalPs} (for this QP, or with {@code perPort} for any QP of the port).
     */
    default void onCnpWithheld(long nowPs, int host, Packet data, long lastCnpPs, long intervalPs, boolean perPort) {}

    /** The sender's congestion control heard the notification; {@code rateBps}: its rate before it reacted. */
    default void onCnpHandled(long nowPs, int host, Packet notification, boolean reacted, long rateBps) {}

    /**
     * The congestion control of {@code queuePair} changed its rate or window, for {@code cause}; {@code value} and
     * {@code index} are the cause's details (see {@link RateCause}).
     */
    default void onRateChange(long nowPs, int host, int queuePair, long fromBps, long toBps, long windowBytes,
            RateCause cause, long value, int index) {}
}
