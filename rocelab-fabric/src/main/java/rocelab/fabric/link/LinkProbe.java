package rocelab.fabric.link;

import rocelab.fabric.packet.Packet;

/** Sees each frame as its first bit goes onto a link (for packet captures); {@link #NONE} costs nothing. */
public interface LinkProbe {
    LinkProbe NONE = (startPs, link, packet) -> {};

    void onTransmit(long startPs, Link link, Packet packet);
}
