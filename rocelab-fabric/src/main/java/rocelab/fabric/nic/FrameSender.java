package rocelab.fabric.nic;

import rocelab.fabric.packet.Packet;

/** Where the RNIC's parts hand the frames they make: one port's {@link Transmitter}, or the ports of every plane. */
interface FrameSender {
    /** An ACK, NAK or CNP, sent when the port and its priority allow. */
    void sendControl(long nowPs, Packet frame);

    /** A MAC control frame (PFC), ahead of everything and never paused. */
    void sendMacControl(long nowPs, Packet frame);
}
