package rocelab.fabric.link;

import rocelab.fabric.packet.Packet;

/** Something that takes ownership of a packet at a moment in simulated time. */
public interface PacketSink {
    void receive(long nowPs, Packet packet);
}
