package rocelab.fabric.probe;

/** Hears every PFC frame a device sends (for the pfc.csv log); {@link #NONE} costs nothing. */
public interface PfcProbe {
    PfcProbe NONE = (nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes,
            poolBytes) -> {};

    /**
     * @param node the sending switch or host node id
     * @param port the port it leaves by: the ingress port whose priority group (or the RNIC receive buffer) filled
     * @param quanta the pause time sent (0 = XON)
     * @param groupBytes the ingress priority group's bytes (shared plus headroom) that triggered it
     * @param thresholdBytes the pause threshold at that moment (a switch's static or dynamic XOFF level, an RNIC's
     *     receive-buffer XOFF level)
     * @param reason why the device sent it, as it decided at that moment: a pause that starts (and why), a refresh of
     *     a pause that holds, or XON
     * @param poolUsedBytes a switch's shared pool in use at that moment (-1 for an RNIC)
     * @param poolBytes the size of that shared pool (the buffer less the reserved headroom; -1 for an RNIC)
     */
    void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes, long thresholdBytes,
            PfcReason reason, long poolUsedBytes, long poolBytes);

    /**
     * A packet of {@code queuePair} waited behind a pause at a transmitter: a switch egress queue ({@code node},
     * {@code port}) or an RNIC ({@code node} = host, port 0). It names the flow by {@code flowCookie}: a data
     * packet's own message cookie at a switch; at an RNIC the message of the next packet it would send (-1 when none
     * is outstanding); for an ACK ({@code ack}: the ACK of a message's last packet), that packet's cookie, since the
     * flow completes only when it arrives. {@code fromClockPs} and {@code toClockPs} bound the wait on that transmitter's paused-time clock for
     * {@code priority} (the total time it has been paused), so overlapping waits of one flow's packets can be merged;
     * {@code xoffSentPs} names the PFC frame that last paused it (its send time at the peer; -1 when unknown). Called
     * only when a wait happened; at a switch egress, as the packet leaves the queue (sent, or drained by the PFC
     * watchdog: it waited all the same) or as the run ends with it still queued.
     */
    default void onPausedWait(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            boolean ack, long fromClockPs, long toClockPs, long xoffSentPs) {}

    /**
     * A transmitter (a switch egress port, or an RNIC: {@code node} = host, {@code port} its plane) acted on a pause
     * of {@code priority}: from now on the XOFF its peer sent at {@code xoffSentPs} holds it (a refresh replaces the
     * one before), its paused-time clock then at {@code clockPs}; or, with {@code xoffSentPs} -1, the pause was
     * lifted (XON, expiry, or a watchdog that ignores pauses). Which pauses are in force at a moment is what tells a
     * cycle of pauses from a tree.
     */
    default void onPauseInForce(long nowPs, int node, int port, int priority, long xoffSentPs, long clockPs) {}

    /**
     * The PFC watchdog of switch {@code node} dropped a packet (of {@code queuePair}, flow {@code flowCookie}, the
     * flow's last ACK when {@code ack}) of its output {@code port}'s queue of {@code priority}, which it found stuck in a
     * pause storm; {@code xoffSentPs} names the PFC frame that last paused that queue (its send time at the peer; -1
     * when unknown), as {@link #onPausedWait} names it. Rare: called per watchdog drop.
     */
    default void onWatchdogDrop(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            boolean ack, long xoffSentPs) {}
}
