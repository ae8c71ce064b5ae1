package rocelab.fabric.switching;

import java.util.SplittableRandom;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.PortCounter;

/**
 * An Ethernet/IP switch: classifies each arriving frame by DSCP into a traffic class, picks the output port among
 * the equal-cost next hops (ECMP hash of the RoCEv2 5-tuple or per-packet spraying), admits it into the shared
 * buffer or drops it with a reason, and queues it on the output port.
 */
public final class Switch {
    private final int nodeId;
    private final String name;
    private final EgressPort[] ports;
    private final PacketSink[] ingress;
    private final int[][] routes;
    private final SharedBuffer buffer;
    private final int[] dscpToTc;
    private final LoadBalancing loadBalancing;
    private final EcmpHash hash;
    private final long hashSeed;
    private final SplittableRandom random;
    private final PacketPool pool;

    /**
     * @param routes for each destination host, the output ports on a shortest path (shared arrays, read only)
     */
    public Switch(int nodeId, String name, EgressPort[] ports, int[][] routes, SharedBuffer buffer,
            SwitchParameters params, long hashSeed, SplittableRandom random, PacketPool pool) {
        this.nodeId = nodeId;
        this.name = name;
        this.ports = ports.clone();
        this.routes = routes;
        this.buffer = buffer;
        this.dscpToTc = params.dscpToTc();
        this.loadBalancing = params.loadBalancing();
        this.hash = params.ecmpHash();
        this.hashSeed = hashSeed;
        this.random = random;
        this.pool = pool;
        this.ingress = new PacketSink[ports.length];
        for (int i = 0; i < ports.length; i++) {
            final int port = i;
            ingress[i] = (nowPs, packet) -> onArrival(nowPs, port, packet);
        }
    }

    /** The receiver that a link into port {@code port} delivers to. */
    public PacketSink ingress(int port) {
        return ingress[port];
    }

    void onArrival(long nowPs, int inPort, Packet packet) {
        ports[inPort].countReceived(packet.frameBytes());
        int[] candidates = routes[packet.dstHost()];
        if (candidates.length == 0) {
            drop(inPort, packet, DropReason.NO_ROUTE);
            return;
        }
        int out = candidates.length == 1 ? candidates[0] : candidates[select(packet, candidates.length)];
        int tc = dscpToTc[packet.dscp()];
        DropReason refused = buffer.admit(inPort, out, tc, packet.frameBytes());
        if (refused != null) {
            drop(out, packet, refused);
            return;
        }
        packet.ingressPort(inPort);
        packet.qos(tc, packet.dscp(), packet.ecn());
        ports[out].enqueue(nowPs, packet);
    }

    private int select(Packet packet, int n) {
        if (loadBalancing == LoadBalancing.SPRAY) {
            return random.nextInt(n);
        }
        int h = hash.hash(ipOf(packet.srcHost()), ipOf(packet.dstHost()), packet.entropy(), 4791, hashSeed);
        return h % n;
    }

    /** Counts a drop on the port it concerns: the full output queue's port, or the ingress port if unroutable. */
    private void drop(int portIndex, Packet packet, DropReason reason) {
        EgressPort port = ports[portIndex];
        port.count(PortCounter.DROPPED_PACKETS, 1);
        port.count(PortCounter.DROPPED_BYTES, packet.frameBytes());
        port.count(reason == DropReason.BUFFER_FULL ? PortCounter.DROPPED_BUFFER_FULL : PortCounter.DROPPED_NO_ROUTE,
                1);
        pool.release(packet);
    }

    /** The IPv4 address of a host's RNIC: 10.0.0.0 + host + 1. */
    public static int ipOf(int host) {
        return 0x0A000000 + host + 1;
    }

    public int nodeId() {
        return nodeId;
    }

    public String name() {
        return name;
    }

    public int portCount() {
        return ports.length;
    }

    public EgressPort port(int i) {
        return ports[i];
    }

    public SharedBuffer buffer() {
        return buffer;
    }
}
