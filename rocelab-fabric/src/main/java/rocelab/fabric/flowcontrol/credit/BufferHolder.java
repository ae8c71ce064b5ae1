package rocelab.fabric.flowcontrol.credit;

/**
 * Names what holds a port's receive buffer for a lane when the port grants credits back: the {@link CreditRoot} its
 * flow-control packet carries to the transmitter (the credit counterpart of the cause a PFC XOFF records). Called only
 * when the lane holds something and a credit log listens; it must not allocate.
 */
@FunctionalInterface
public interface BufferHolder {
    /** The root of what lane {@code vl} of the buffer on input port {@code port} holds now. */
    long rootOf(int port, int vl);
}
