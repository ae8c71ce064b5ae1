package rocelab.fabric.buffer;

import rocelab.engine.Saturating;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.PfcReason;

/**
 * A switch's shared packet buffer with per-port, per-priority accounting on ingress and egress, and the PFC
 * decisions that ingress accounting drives (IEEE 802.1Qbb). Lossy priorities tail-drop when the shared pool is
 * full. A lossless priority group (ingress port, priority) uses the shared pool up to a threshold (static, or alpha
 * x the free shared pool), then its own headroom; crossing the threshold or touching headroom triggers XOFF to the
 * upstream device, and draining it triggers XON. Headroom is reserved out of the buffer for every lossless group.
 *
 * <p>The shared pool, headroom, XOFF/XON rules and the packet that crosses the threshold going to headroom are those
 * of the HPCC ns-3 switch MMU ({@code switch-mmu.cc}); unlike it, there is no per-(port, priority) reserve (HPCC
 * guarantees each group 4 KiB before the shared pool): every group starts in the shared pool, and there is no
 * per-port egress limit either.
 */
public final class SharedBuffer {
    /** Receives the PFC decisions of the buffer. */
    public interface PauseListener {
        PauseListener NONE = new PauseListener() {
            @Override
            public void onXoff(long nowPs, int port, int priority, long groupBytes, PfcReason reason) {}

            @Override
            public void onXon(long nowPs, int port, int priority, long groupBytes) {}
        };

        /**
         * @param reason {@link PfcReason#THRESHOLD} or {@link PfcReason#SHARED_POOL_FULL}: why the group pauses now
         */
        void onXoff(long nowPs, int port, int priority, long groupBytes, PfcReason reason);

        void onXon(long nowPs, int port, int priority, long groupBytes);
    }

    private final long capacityBytes;
    private final int classes;
    private final PfcParameters pfc;
    private final long[] headroomLimit;
    private final long reservedBytes;
    private final long[] shared;
    private final long[] headroom;
    private final long[] egressBytes;
    private final boolean[] xoff;
    private PauseListener listener = PauseListener.NONE;
    private ReleaseListener releaseListener;

    /** Hears every packet leaving the buffer (InfiniBand returns its credits to the upstream port). */
    public interface ReleaseListener {
        void onRelease(long nowPs, int inPort, int priority, int bytes);
    }
    private long sharedUsed;
    private long usedBytes;
    private long peakUsedBytes;

    /** A buffer without PFC: every priority tail-drops. */
    public SharedBuffer(long capacityBytes, int ports, int classes) {
        this(capacityBytes, ports, classes, PfcParameters.off(), new long[ports]);
    }

    /**
     * @param headroomPerPort headroom of each lossless priority group of each ingress port
     */
    public SharedBuffer(long capacityBytes, int ports, int classes, PfcParameters pfc, long[] headroomPerPort) {
        this.capacityBytes = capacityBytes;
        this.classes = classes;
        this.pfc = pfc;
        this.headroomLimit = headroomPerPort.clone();
        long reserved = 0;
        for (int p = 0; p < ports; p++) {
            reserved = Saturating.add(reserved,
                    Saturating.multiply(headroomLimit[p], Integer.bitCount(pfc.losslessMask())));
        }
        if (reserved >= capacityBytes) {
            throw new IllegalArgumentException("PFC headroom (" + reserved + " B in all) leaves no shared buffer of "
                    + capacityBytes + " B");
        }
        this.reservedBytes = reserved;
        this.shared = new long[ports * classes];
        this.headroom = new long[ports * classes];
        this.egressBytes = new long[ports * classes];
        this.xoff = new boolean[ports * classes];
    }

    public void listener(PauseListener l) {
        this.listener = l;
    }

    public void releaseListener(ReleaseListener l) {
        this.releaseListener = l;
    }

    /** Admits the packet and accounts it, or returns the reason it must be dropped (null when admitted). */
    public DropReason admit(long nowPs, int inPort, int outPort, int priority, int bytes) {
        int g = inPort * classes + priority;
        if (pfc.isLossless(priority)) {
            long threshold = threshold();
            boolean fitsShared = shared[g] + bytes <= threshold && sharedUsed + bytes <= capacityBytes - reservedBytes;
            if (fitsShared) {
                shared[g] += bytes;
                sharedUsed += bytes;
            } else if (headroom[g] + bytes <= headroomLimit[inPort]) {
                headroom[g] += bytes;
            } else {
                return DropReason.HEADROOM_EXCEEDED;
            }
            if (!xoff[g] && (headroom[g] > 0 || shared[g] >= threshold)) {
                xoff[g] = true;
                // The packet went to headroom only because the shared pool had no room for it, the group being
                // under its threshold: the pool was full. Otherwise the group reached its threshold.
                listener.onXoff(nowPs, inPort, priority, shared[g] + headroom[g],
                        !fitsShared && shared[g] + bytes <= threshold ? PfcReason.SHARED_POOL_FULL
                                : PfcReason.THRESHOLD);
            }
        } else {
            if (sharedUsed + bytes > capacityBytes - reservedBytes) {
                return DropReason.BUFFER_FULL;
            }
            shared[g] += bytes;
            sharedUsed += bytes;
        }
        usedBytes += bytes;
        if (usedBytes > peakUsedBytes) {
            peakUsedBytes = usedBytes;
        }
        egressBytes[outPort * classes + priority] += bytes;
        return null;
    }

    /** The packet left the buffer (dequeued for transmission): headroom drains first, then the shared part. */
    public void release(long nowPs, int inPort, int outPort, int priority, int bytes) {
        int g = inPort * classes + priority;
        long fromHeadroom = Math.min(headroom[g], bytes);
        headroom[g] -= fromHeadroom;
        shared[g] -= bytes - fromHeadroom;
        sharedUsed -= bytes - fromHeadroom;
        usedBytes -= bytes;
        egressBytes[outPort * classes + priority] -= bytes;
        if (releaseListener != null) {
            releaseListener.onRelease(nowPs, inPort, priority, bytes);
        }
        if (xoff[g] && headroom[g] == 0 && mayResume(g)) {
            xoff[g] = false;
            listener.onXon(nowPs, inPort, priority, shared[g]);
        }
    }

    private boolean mayResume(int g) {
        if (pfc.dynamic()) {
            return shared[g] == 0 || shared[g] + pfc.resumeOffsetBytes() <= threshold();
        }
        return shared[g] <= pfc.xonBytes();
    }

    /** The shared-use level at which a lossless priority group pauses its upstream now. */
    public long threshold() {
        if (!pfc.dynamic()) {
            return pfc.xoffBytes();
        }
        return (long) (pfc.alpha() * (capacityBytes - reservedBytes - sharedUsed));
    }

    /** Whether the group (ingress port, priority) has its upstream paused. */
    public boolean isPausing(int port, int priority) {
        return xoff[port * classes + priority];
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** The shared pool: the buffer less the headroom reserved for every lossless priority group. */
    public long sharedPoolBytes() {
        return capacityBytes - reservedBytes;
    }

    /** Bytes of the shared pool in use now (headroom not included). */
    public long sharedUsedBytes() {
        return sharedUsed;
    }

    public long reservedHeadroomBytes() {
        return reservedBytes;
    }

    public long headroomLimit(int port) {
        return headroomLimit[port];
    }

    public long usedBytes() {
        return usedBytes;
    }

    public long peakUsedBytes() {
        return peakUsedBytes;
    }

    /** Bytes that arrived on {@code port} with {@code priority} and are still held (shared plus headroom). */
    public long ingressBytes(int port, int priority) {
        return shared[port * classes + priority] + headroom[port * classes + priority];
    }

    public long headroomBytes(int port, int priority) {
        return headroom[port * classes + priority];
    }

    /**
     * The egress queue (index {@code port * classes + tc}) holding the most of this buffer now, the lowest index among
     * equals; -1 when the buffer is empty. A scan of every queue: for a drop, never per packet.
     */
    public int fullestEgressQueue() {
        int best = -1;
        long most = 0;
        for (int i = 0; i < egressBytes.length; i++) {
            if (egressBytes[i] > most) {
                most = egressBytes[i];
                best = i;
            }
        }
        return best;
    }

    /** The traffic classes each port's accounting has (a queue index is {@code port * classes + tc}). */
    public int classes() {
        return classes;
    }

    public long egressBytes(int port, int tc) {
        return egressBytes[port * classes + tc];
    }
}
