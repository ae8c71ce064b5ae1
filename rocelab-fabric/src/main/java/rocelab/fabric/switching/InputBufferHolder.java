package rocelab.fabric.switching;

import rocelab.fabric.flowcontrol.credit.BufferHolder;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.packet.IngressLists;
import rocelab.fabric.port.EgressPort;

/**
 * What holds an InfiniBand switch's input buffer for a lane, by the identity of the packets in it: the egress port
 * most of the lane's bytes from that input are queued for (ties: the lowest port). If that egress waits for credits
 * now, its last packet did, or it still queues packets that were queued behind its last packet that waited (the
 * backlog that stall held back: the packets from this input wait behind them), the root is the one its own last stall
 * carried, one credit hop further. Otherwise every packet it queues was queued after it last waited and it has sent
 * since without waiting: it is the congestion point (its rate is what the packets wait for; its inputs bring more than
 * it sends). The credit counterpart of the cause a PFC XOFF records ({@code PfcCapture}), found from this switch's own
 * state only, so a partitioned run finds the same. The buffer's port names it when the buffer fills
 * ({@code CreditReturn#onReceived}).
 */
final class InputBufferHolder implements BufferHolder {
    private final int node;
    private final EgressPort[] ports;
    private final IngressLists lists;

    InputBufferHolder(int node, EgressPort[] ports, IngressLists lists) {
        this.node = node;
        this.ports = ports;
        this.lists = lists;
    }

    @Override
    public long rootOf(int port, int vl) {
        int holder = -1;
        long most = 0;
        for (int out = 0; out < ports.length; out++) {
            long bytes = lists.bytes(port, out, vl);
            if (bytes > most) {
                most = bytes;
                holder = out;
            }
        }
        if (holder < 0) {
            // Held blocks but no queued packet (blocks of a packet dropped after it arrived are never freed): no holder to
            // name, and nothing claimed about one.
            return CreditRoot.of(CreditRoot.UNKNOWN, node, -1, -1, 0);
        }
        CreditGate gate = ports[holder].creditGate();
        EgressPort out = ports[holder];
        boolean held = gate.heldBack(vl) || out.heldBacklog(vl)
                // Fed on this lane by this input alone, over a link no faster than its own: its input cannot bring it more
                // than it sends, so the queue it keeps is what its stall left.
                || most == out.queuedBytes(vl) && ports[port].rateBps() <= out.rateBps() && out.stalledThisBusyPeriod(vl);
        if (!held) {
            return CreditRoot.of(CreditRoot.CONGESTION, node, holder, holder, 0);
        }
        long further = gate.root(vl);
        return further < 0 ? CreditRoot.of(CreditRoot.UNKNOWN, node, holder, holder, 0)
                : CreditRoot.heldFor(further, holder);
    }
}
