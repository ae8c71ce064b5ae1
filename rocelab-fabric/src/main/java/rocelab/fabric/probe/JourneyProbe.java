package rocelab.fabric.probe;

import rocelab.fabric.packet.Packet;

/**
 * Hears the steps of packets through the fabric, for the journey of a flow. Devices call it on every step, so the
 * default {@link #NONE} must stay a no-op that the JIT inlines away: a run that asks for no journey pays nothing.
 */
public interface JourneyProbe {
    JourneyProbe NONE = new JourneyProbe() {};

    /** An RNIC put a data packet of its QP on the wire at {@code rateBps}. */
    default void onSend(long nowPs, int host, Packet packet, long rateBps, boolean retransmission) {}

    /** A switch admitted a packet into the queue of output {@code port}, which held {@code queueBytes} before it. */
    default void onEnqueue(long nowPs, int node, int inPort, int port, long queueBytes, Packet packet) {}

    /** A switch dropped a packet. */
    default void onDrop(long nowPs, int node, int port, DropReason reason, Packet packet) {}

    /** An egress queue marked the packet CE; {@code queueBytes} is the depth the marking decision saw. */
    default void onMark(long nowPs, int node, int port, long queueBytes, Packet packet) {}

    /** A frame of any kind arrived at an RNIC. */
    default void onArrive(long nowPs, int host, Packet packet) {}

    /** The receiving RNIC sent a CNP for {@code queuePair}, caused by the CE-marked packet with {@code psn}. */
    default void onCnpSent(long nowPs, int host, int queuePair, long psn) {}

    /** The sender's congestion control heard a notification; its rate right after. */
    default void onCnpHandled(long nowPs, int host, int queuePair, boolean reacted, long rateBps) {}
}
