package rocelab.fabric.buffer;

import rocelab.fabric.probe.DropReason;

/**
 * A switch's shared packet buffer with per-port, per-priority accounting on ingress and egress. In the lossy
 * mode a packet is admitted while the whole buffer has room (tail drop).
 */
public final class SharedBuffer {
    private final long capacityBytes;
    private final int classes;
    private final long[] ingressBytes;
    private final long[] egressBytes;
    private long usedBytes;
    private long peakUsedBytes;

    public SharedBuffer(long capacityBytes, int ports, int classes) {
        this.capacityBytes = capacityBytes;
        this.classes = classes;
        this.ingressBytes = new long[ports * classes];
        this.egressBytes = new long[ports * classes];
    }

    /** Admits the packet and accounts it, or returns the reason it must be dropped (null when admitted). */
    public DropReason admit(int inPort, int outPort, int tc, int bytes) {
        if (usedBytes + bytes > capacityBytes) {
            return DropReason.BUFFER_FULL;
        }
        usedBytes += bytes;
        if (usedBytes > peakUsedBytes) {
            peakUsedBytes = usedBytes;
        }
        ingressBytes[inPort * classes + tc] += bytes;
        egressBytes[outPort * classes + tc] += bytes;
        return null;
    }

    /** The packet left the switch (its last bit was transmitted). */
    public void release(int inPort, int outPort, int tc, int bytes) {
        usedBytes -= bytes;
        ingressBytes[inPort * classes + tc] -= bytes;
        egressBytes[outPort * classes + tc] -= bytes;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    public long usedBytes() {
        return usedBytes;
    }

    public long peakUsedBytes() {
        return peakUsedBytes;
    }

    public long ingressBytes(int port, int priority) {
        return ingressBytes[port * classes + priority];
    }

    public long egressBytes(int port, int tc) {
        return egressBytes[port * classes + tc];
    }
}
