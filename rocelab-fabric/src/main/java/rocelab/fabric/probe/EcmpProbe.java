package rocelab.fabric.probe;

import rocelab.fabric.packet.Packet;

/**
 * Hears ECMP collisions as the switch decides them and the waits they cost, for the ECMP log and the journey.
 * {@link #NONE} costs nothing: a switch asks only when a probe is attached, and only for a packet of a flow it hashed
 * among several equal-cost ports that joins a non-empty queue.
 *
 * <p>A collision, by identity at the moment of the decision: switch {@code node} chose output {@code port} for
 * {@code packet} by the ECMP hash among two or more equal-cost ports; the packet's queue of its class there was not
 * empty, and a data packet of another queue pair's flow was queued ahead of it ({@code ahead}: the queue's last
 * packet, directly ahead, when it is one, else its first, the oldest), so the packet queued behind another flow on
 * this port; and at that same instant equal-cost port {@code idlePort} for the same destination was idle: nothing
 * queued in the packet's class, the class not paused (on InfiniBand: credits for the packet), and nothing sent for
 * {@code idlePs}, at least the time the packet needs on that port's wire (a port sending back to back is busy). The
 * packet's wait in that queue is then an ECMP collision wait, reported when it leaves ({@link #onCollisionWait}).
 * (Only the last and the first queued packets are looked at: a queue whose other flow's packets all sit between two of
 * the packet's own flow is not found, so a collision is never claimed where none is known.)
 */
public interface EcmpProbe {
    EcmpProbe NONE = new EcmpProbe() {};

    /**
     * A collision (see the class comment): {@code packet} joins the queue of class {@code tc} at ({@code node},
     * {@code port}), which held {@code queueBytes} before it, behind {@code ahead} (another flow's data packet: directly
     * behind it when {@code directly}, else it is the oldest queued), while {@code idlePort} had been idle for
     * {@code idlePs}. Both packets are read during the call only.
     */
    default void onCollision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet, Packet ahead,
            boolean directly, int idlePort, long idlePs) {}

    /**
     * As {@link #onCollision}, for a packet already queued at ({@code node}, {@code port}) when equal-cost port
     * {@code idlePort} fell idle: it waits beside an idle port from now on ({@code queueBytes}: the bytes queued ahead
     * of it now). By default told as a collision.
     */
    default void onIdleCollision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet, Packet ahead,
            boolean directly, int idlePort, long idlePs) {
        onCollision(nowPs, node, port, tc, queueBytes, packet, ahead, directly, idlePort, idlePs);
    }

    /**
     * The packet of a collision leaves its queue (starts on the wire, or is dropped by the PFC watchdog's drain), or is
     * still queued when the run ends: it waited
     * from {@code fromPs} to {@code toPs} on the queue's clock of time not held (real time less the time its class was
     * paused by PFC, or on InfiniBand waited for credits: that part is the pause's or the credits', told apart), so
     * waits of one flow's packets queued together overlap and can be merged.
     */
    default void onCollisionWait(long nowPs, int node, int port, int tc, Packet packet, long fromPs, long toPs) {}

    /**
     * Switch {@code node} dropped a packet of flow {@code flowCookie} (-1: none; its last ACK when {@code ack}) headed
     * for its output {@code port} because its shared buffer was full, while output {@code holderPort}'s queue of
     * class {@code holderTc} held the most of that buffer ({@code holderBytes}), as the switch counted it at that
     * moment. Rare: called per such drop, so a collision's queue that starved another port of buffer is told.
     */
    default void onBufferFullDrop(long nowPs, int node, int port, long flowCookie, boolean ack, int holderPort,
            int holderTc, long holderBytes) {}
}
