package rocelab.fabric.probe;

/**
 * Hears every wait of a flow's packets for InfiniBand credits, with the root the wait was behind (for the credit log,
 * its victims, and the journey). Devices call it only when a wait happened and a probe is attached; {@link #NONE}
 * turns the bookkeeping off.
 */
public interface CreditProbe {
    CreditProbe NONE = (nowPs, node, port, vl, queuePair, flowCookie, psn, ack, fromClockPs, toClockPs, root) -> {};

    /**
     * A packet of {@code queuePair} waited for credits at a transmitter, a switch egress port ({@code node},
     * {@code port}) or an HCA ({@code node} = host, its port): lane {@code vl} had it (at an HCA: the QP's next packet)
     * ready while the credits the next hop had granted did not cover the packet at the head of the lane (IBA vol. 1
     * §7.9). It names the flow by {@code flowCookie} (a data packet's message cookie; for {@code ack}, the ACK of a
     * message's last packet, that packet's cookie) and the packet by {@code psn}. {@code fromClockPs} and
     * {@code toClockPs} bound the wait on that transmitter's credit-stall clock for {@code vl} (the lane's total time
     * stalled, as its PortXmitWait counts it): packets queued together wait through the same stall, so overlapping
     * waits of one flow can be merged. {@code root} is the root of the lane's last stall, as the credit update that
     * ended it carried it (a packed {@code rocelab.fabric.flowcontrol.credit.CreditRoot}; -1 when none was carried).
     */
    void onCreditWait(long nowPs, int node, int port, int vl, int queuePair, long flowCookie, long psn, boolean ack,
            long fromClockPs, long toClockPs, long root);
}
