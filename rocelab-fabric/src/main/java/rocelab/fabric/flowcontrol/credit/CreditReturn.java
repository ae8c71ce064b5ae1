package rocelab.fabric.flowcontrol.credit;

import java.util.Arrays;
import java.util.function.LongConsumer;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;

/**
 * The receiving side of InfiniBand link-level flow control on one port: per virtual lane, the blocks received
 * into the lane's buffer and the blocks freed from it. When buffer frees, a flow-control packet becomes due; the
 * port's transmitter builds it when it goes on the wire (ahead of data), carrying the credit limit of that moment
 * (FCCL = blocks freed + buffer size), so frees that happen while an update waits ride on the same packet. The
 * update then takes serialisation and propagation time to reach the sender, as a real one does.
 */
public final class CreditReturn {
    private final long capacityBlocks;
    private final long[] received = new long[InfinibandParameters.DATA_VLS];
    private final long[] freed = new long[InfinibandParameters.DATA_VLS];
    private final long[] peakHeld = new long[InfinibandParameters.DATA_VLS];
    private final long[] updatesSent = new long[InfinibandParameters.DATA_VLS];
    private final PacketPool pool;
    private final FrameFormat frames;
    private final LongConsumer wake;
    private CreditGate ownGate;
    private int pending;
    /** Names what holds a lane when an update is built (null: no credit log listens, updates carry no root). */
    private BufferHolder holder;
    private int port;
    /**
     * Per lane, what held the buffer when it last filled (a packet arrived and a packet of its size no longer fits: the
     * sender stalls on its next one), until an update carries it: {@link CreditRoot#NONE} when it has not filled since.
     */
    private final long[] rootWhenFull = newRoots();

    /**
     * @param bufferBytes this port's receive buffer per lane
     * @param wake kicks this port's transmitter, which sends the updates
     */
    public CreditReturn(long bufferBytes, PacketPool pool, FrameFormat frames, LongConsumer wake) {
        this.capacityBlocks = bufferBytes / CreditGate.BLOCK_BYTES;
        this.pool = pool;
        this.frames = frames;
        this.wake = wake;
    }

    /** The gate of the same port's sending direction, whose FCTBS each update carries. */
    public void ownGate(CreditGate gate) {
        this.ownGate = gate;
    }

    /**
     * Each update carries the root of what this buffer (input port {@code inPort} of its device) holds, as
     * {@code names} tells it: the transmitter keeps the root of the update that ends its stall.
     */
    public void holder(BufferHolder names, int inPort) {
        this.holder = names;
        this.port = inPort;
    }

    private static long[] newRoots() {
        long[] roots = new long[InfinibandParameters.DATA_VLS];
        Arrays.fill(roots, CreditRoot.NONE);
        return roots;
    }

    /**
     * A packet arrived on lane {@code vl} at {@code nowPs} and occupies the lane's buffer. When another packet of its
     * size no longer fits, the sender will stall: what holds the buffer is named now, as a PFC XOFF names its cause when
     * the buffer crosses its threshold. Named later, when the update that ends the stall is built, it was named just
     * after the egress holding the buffer sent (that is what freed the blocks), when a port that only passes on its
     * downstream's stalls looks free to send: a spine port fed by one leaf was named a congestion point.
     */
    public void onReceived(long nowPs, int vl, int bytes) {
        int blocks = CreditGate.blocks(bytes);
        received[vl] += blocks;
        long held = received[vl] - freed[vl];
        if (holder != null && capacityBlocks - held < blocks) {
            rootWhenFull[vl] = holder.rootOf(port, vl);
        }
        if (held > capacityBlocks) {
            throw new IllegalStateException("credit overrun on VL " + vl + ": " + held + " blocks held in a buffer of "
                    + capacityBlocks);
        }
        if (held > peakHeld[vl]) {
            peakHeld[vl] = held;
        }
    }

    /** A packet of lane {@code vl} left the buffer: its blocks are free, and an update is due. */
    public void onFreed(long nowPs, int vl, int bytes) {
        freed[vl] += CreditGate.blocks(bytes);
        if ((pending & (1 << vl)) == 0) {
            pending |= 1 << vl;
            wake.accept(nowPs);
        }
    }

    /**
     * Link (re)initialisation: the receiver takes the sender's total blocks sent (FCTBS) as what it has received, as
     * the IBA receiver resynchronises to each flow-control packet, so blocks lost on a failed link no longer count
     * as held; what is really in the buffer stays held.
     */
    public void resynchronise(int vl, long senderBlocksSent) {
        long held = received[vl] - freed[vl];
        received[vl] = senderBlocksSent;
        freed[vl] = senderBlocksSent - held;
    }

    /** Whether a flow-control packet waits to be sent. */
    public boolean hasUpdate() {
        return pending != 0;
    }

    /** Builds the next due flow-control packet (lowest lane first), or null. */
    public Packet nextUpdate(long nowPs) {
        if (pending == 0) {
            return null;
        }
        int vl = Integer.numberOfTrailingZeros(pending);
        pending &= pending - 1;
        updatesSent[vl]++;
        long fctbs = ownGate == null ? 0 : ownGate.blocksSent(vl);
        long root = holder == null ? CreditRoot.NONE
                : heldBlocks(vl) == 0 ? CreditRoot.EMPTY_BUFFER
                : rootWhenFull[vl] != CreditRoot.NONE ? rootWhenFull[vl] : holder.rootOf(port, vl);
        rootWhenFull[vl] = CreditRoot.NONE;
        return pool.acquire().initCredit(nowPs, vl, fctbs, creditLimit(vl), frames.creditFrameBytes(), root);
    }

    /** The credit limit this port grants now on lane {@code vl}: blocks freed plus the buffer (FCCL, absolute). */
    public long creditLimit(int vl) {
        return freed[vl] + capacityBlocks;
    }

    public long capacityBlocks() {
        return capacityBlocks;
    }

    public long blocksReceived(int vl) {
        return received[vl];
    }

    public long blocksFreed(int vl) {
        return freed[vl];
    }

    /** Blocks of lane {@code vl} in the buffer now. */
    public long heldBlocks(int vl) {
        return received[vl] - freed[vl];
    }

    public long peakHeldBlocks(int vl) {
        return peakHeld[vl];
    }

    /** Flow-control packets sent for lane {@code vl}. */
    public long updatesSent(int vl) {
        return updatesSent[vl];
    }
}
