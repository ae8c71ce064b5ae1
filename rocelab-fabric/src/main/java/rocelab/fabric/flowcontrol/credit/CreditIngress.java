package rocelab.fabric.flowcontrol.credit;

import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.port.EgressPort;

/** What an InfiniBand switch port does with a packet arriving on it before forwarding: the link-level part. */
public final class CreditIngress {
    private CreditIngress() {}

    /**
     * Link packets end here: a flow-control packet gives the port's transmitter credits, a VL15 management packet
     * goes to the switch's management agent (both return true: the caller releases them). A data-lane packet
     * occupies the port's input buffer for its lane until it leaves the switch, or is freed at once when it
     * cannot be forwarded (no route in {@code routes}); it returns false and is forwarded as usual.
     */
    public static boolean consumed(long nowPs, EgressPort port, Packet packet, int[][] routes) {
        if (packet.kind() == PacketKind.CREDIT) {
            port.creditGate().onUpdate(nowPs, packet.priority(), packet.creditLimit(), packet.creditRoot());
            return true;
        }
        if (packet.kind() == PacketKind.MANAGEMENT) {
            return true;
        }
        CreditReturn ret = port.creditReturn();
        ret.onReceived(nowPs, packet.priority(), packet.frameBytes());
        if (routes[packet.dstHost()].length == 0) {
            ret.onFreed(nowPs, packet.priority(), packet.frameBytes());
        }
        return false;
    }
}
