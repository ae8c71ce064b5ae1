package rocelab.fabric.flowcontrol.credit;

import java.util.Arrays;
import java.util.function.LongConsumer;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.probe.CreditProbe;

/**
 * The sending side of InfiniBand link-level flow control on one port: per virtual lane, the blocks of 64 bytes
 * sent since link initialisation (FCTBS) and the credit limit the receiver last advertised (FCCL). A packet of
 * n blocks may start iff {@code (FCCL - (FCTBS + n)) mod 4096 <= 2048} (IBA vol. 1 §7.9), so a lane whose
 * receiver has no free buffer transmits nothing, and nothing is ever dropped for lack of buffer. The limit starts
 * at the receiver's buffer (the initialisation exchange is over at time 0). It also measures credit stalls: the
 * time a lane had a packet waiting that its credits did not cover; and keeps, per lane, the root of each of its last
 * stalls as the update that ended it carried it ({@link CreditRoot}, {@link StallRoots}), and whether its last packet
 * had to wait.
 */
public final class CreditGate {
    /** Bytes per flow-control block. */
    public static final int BLOCK_BYTES = 64;
    private static final int MODULUS = 4096;
    private static final int WINDOW = 2048;

    private final long[] sent = new long[InfinibandParameters.DATA_VLS];
    private final long[] limit = new long[InfinibandParameters.DATA_VLS];
    private final long[] stallSincePs = new long[InfinibandParameters.DATA_VLS];
    private final long[] stallPs = new long[InfinibandParameters.DATA_VLS];
    private final long[] needBlocks = new long[InfinibandParameters.DATA_VLS];
    private final long[] updates = new long[InfinibandParameters.DATA_VLS];
    private final long[] root = new long[InfinibandParameters.DATA_VLS];
    /** Per lane, the roots of its last stalls on its stall clock: what each part of a packet's wait was behind. */
    private final StallRoots stalls = new StallRoots(InfinibandParameters.DATA_VLS);
    private final long capacityBlocks;
    private final LongConsumer wake;
    private int waited;
    /**
     * Lanes whose stall ended after it had lasted some time, since their last packet: the packet waits for credits
     * longer than it would have waited for the wire (a stall that ends the instant it starts, credits arriving just as
     * the port is free, as a lane paced by its receiver's credits at its own rate does, holds nothing back).
     */
    private int lost;
    /** Lanes whose last packet went after a stall that lasted some time ({@link #lost}). */
    private int lastLost;
    /** The transmitter this gate belongs to: it names the root of a stall that was its own link's credit loop. */
    private int ownerNode = -1;
    private int ownerPort = -1;
    /**
     * The link is down: every lane may send, its packets lost on the dead link, as a port that is not active discards
     * what is routed to it. Held by credits that no update can bring, its queue would keep the input buffers that feed
     * it full until the link came back, and with them the flows routed around the failure.
     */
    private boolean down;

    /**
     * @param receiverBufferBytes the far end's receive buffer per lane
     * @param wake kicks this port's transmitter when credits arrive
     */
    public CreditGate(long receiverBufferBytes, LongConsumer wake) {
        this.capacityBlocks = receiverBufferBytes / BLOCK_BYTES;
        if (capacityBlocks > WINDOW) {
            throw new IllegalArgumentException("a receive buffer of " + receiverBufferBytes + " B is "
                    + capacityBlocks + " credits; IBA allows at most " + WINDOW + " (128 KiB) per lane");
        }
        this.wake = wake;
        Arrays.fill(limit, capacityBlocks);
        Arrays.fill(stallSincePs, -1);
        Arrays.fill(root, CreditRoot.NONE);
    }

    /** The transmitter of this gate: port {@code port} of node {@code node} (a switch, or a host's HCA). */
    public void owner(int node, int port) {
        this.ownerNode = node;
        this.ownerPort = port;
    }

    /** Blocks of 64 bytes a packet of {@code bytes} consumes. */
    public static int blocks(int bytes) {
        return (bytes + BLOCK_BYTES - 1) / BLOCK_BYTES;
    }

    /** Whether a packet of {@code bytes} may start on lane {@code vl} now (the IBA modulo-4096 test). */
    public boolean canSend(int vl, int bytes) {
        if (down) {
            return true;
        }
        // The 12-bit fields of the flow-control packet: only their values modulo 4096 decide.
        int fccl = (int) (limit[vl] & (MODULUS - 1));
        int fctbsAfter = (int) ((sent[vl] + blocks(bytes)) & (MODULUS - 1));
        return ((fccl - fctbsAfter) & (MODULUS - 1)) <= WINDOW;
    }

    /** As {@link #canSend}, and when it may not, the lane starts (or continues) a credit stall. */
    public boolean admit(long nowPs, int vl, int bytes) {
        if (canSend(vl, bytes)) {
            return true;
        }
        if (stallSincePs[vl] < 0) {
            stallSincePs[vl] = nowPs;
        }
        needBlocks[vl] = blocks(bytes);
        waited |= 1 << vl;
        return false;
    }

    /**
     * Of the lanes in {@code ready}, those whose head packet the credits cover; the others start a credit stall.
     */
    public int sendable(long nowPs, PacketFifo[] queues, int ready) {
        int out = ready;
        for (int r = ready; r != 0; r &= r - 1) {
            int vl = Integer.numberOfTrailingZeros(r);
            if (!admit(nowPs, vl, queues[vl].peek().frameBytes())) {
                out &= ~(1 << vl);
            }
        }
        return out;
    }

    /** A packet of {@code bytes} starts on lane {@code vl}: its blocks are spent. */
    public void consume(int vl, int bytes) {
        sent[vl] += blocks(bytes);
        lastLost = lastLost & ~(1 << vl) | lost & (1 << vl);
        waited &= ~(1 << vl);
        lost &= ~(1 << vl);
    }

    /**
     * Whether lane {@code vl} had to wait for credits since its last packet: its queue is held back by congestion
     * further downstream, so this port is a victim of congestion, not its root (IB CC's distinction).
     */
    public boolean waitedForCredits(int vl) {
        return (waited & (1 << vl)) != 0;
    }

    /**
     * Whether lane {@code vl} is held back by credits: it waits for them now, or its next or last packet waited for
     * them for some time (a stall that ended the instant it began, credits arriving just as the port was free, held
     * nothing back). A receiver whose buffer holds packets for this port then names this lane's root, not this port,
     * as its own.
     */
    public boolean heldBack(int vl) {
        return stallSincePs[vl] >= 0 || ((lost | lastLost) & (1 << vl)) != 0;
    }

    /**
     * Whether the packet lane {@code vl} sends next waited for credits for some time before it could go: a stall of it
     * ended after lasting longer than an instant since the lane's last packet (call before {@link #consume}).
     */
    public boolean lostTimeToCredits(int vl) {
        return (lost & (1 << vl)) != 0;
    }

    /**
     * The link went down: credits gate nothing until it comes back ({@link #linkUp}); a stall in progress ends now,
     * its time counted as a stall with no root (no update ended it), and the transmitter is woken to drain its queues.
     */
    public void linkDown(long nowPs) {
        down = true;
        for (int vl = 0; vl < stallSincePs.length; vl++) {
            if (stallSincePs[vl] >= 0) {
                if (nowPs > stallSincePs[vl]) {
                    stallPs[vl] += nowPs - stallSincePs[vl];
                    lost |= 1 << vl;
                    stalls.ended(vl, stallPs[vl], CreditRoot.NONE);
                }
                stallSincePs[vl] = -1;
            }
        }
        wake.accept(nowPs);
    }

    /** The link came back up: credits gate again, from the limit its initialisation gives ({@link #onUpdate}). */
    public void linkUp() {
        down = false;
    }

    /** A flow-control packet from the receiver arrived: the new credit limit of lane {@code vl}. */
    public void onUpdate(long nowPs, int vl, long creditLimit) {
        onUpdate(nowPs, vl, creditLimit, CreditRoot.NONE);
    }

    /**
     * As {@link #onUpdate(long, int, long)}, for an update that carries {@code carriedRoot}, what the receiver's
     * buffer held when it granted the credits: if the update ends a stall, that stall's root is the carried one, one
     * credit hop further.
     */
    public void onUpdate(long nowPs, int vl, long creditLimit, long carriedRoot) {
        updates[vl]++;
        limit[vl] = creditLimit;
        if (stallSincePs[vl] >= 0 && limit[vl] - sent[vl] >= needBlocks[vl]) {
            if (nowPs > stallSincePs[vl]) {
                // A stall that lasted: its root is the carried one (one that ended the instant it began held nothing
                // back, and keeps the root of the last that lasted).
                stallPs[vl] += nowPs - stallSincePs[vl];
                lost |= 1 << vl;
                long seen = carriedRoot >= 0 ? CreditRoot.seenFrom(carriedRoot, ownerNode, ownerPort) : CreditRoot.NONE;
                if (seen >= 0) {
                    root[vl] = seen;
                }
                // This stall's own root, for the waits through it: not the last one's when it carried none.
                stalls.ended(vl, stallPs[vl], seen);
            }
            stallSincePs[vl] = -1;
        }
        wake.accept(nowPs);
    }

    /**
     * The root of lane {@code vl}'s last stall ({@link CreditRoot}), as the update that ended it carried it; what a
     * packet that waited for credits on this lane waited behind ({@link CreditRoot#NONE}: no stall ended yet, or
     * nothing traced).
     */
    public long root(int vl) {
        return root[vl];
    }

    /**
     * Tells {@code probe} a wait for credits on lane {@code vl} (of a packet of {@code queuePair} at this gate's
     * transmitter, {@code node} and {@code port}) from {@code fromClockPs} to {@code toClockPs} on the lane's stall
     * clock, by the stalls it went through: the part in each stall that ended behind that stall's root, as the update
     * that ended it carried it; the part in the stall still in force behind no root named (the update that ends it will
     * carry it), and so the part older than the stalls this gate keeps ({@link StallRoots#KEPT} roots per lane). A
     * packet that waited through a stall behind one congestion point and then one behind another waited behind both,
     * each for its own part.
     */
    public void tellWait(CreditProbe probe, long nowPs, int node, int port, int vl, int queuePair, long cookie,
            long psn, boolean ack, long fromClockPs, long toClockPs) {
        long at = fromClockPs;
        int n = stalls.after(vl);
        for (int i = stalls.firstEndingAfter(vl, at); i < n && at < toClockPs; i++) {
            long start = Math.min(toClockPs, stalls.start(vl, i));
            if (start > at) {
                probe.onCreditWait(nowPs, node, port, vl, queuePair, cookie, psn, ack, at, start, CreditRoot.NONE);
                at = start;
            }
            long end = Math.min(toClockPs, stalls.end(vl, i));
            if (end > at) {
                probe.onCreditWait(nowPs, node, port, vl, queuePair, cookie, psn, ack, at, end, stalls.root(vl, i));
                at = end;
            }
        }
        if (toClockPs > at) {
            probe.onCreditWait(nowPs, node, port, vl, queuePair, cookie, psn, ack, at, toClockPs, CreditRoot.NONE);
        }
    }

    /** Credits (blocks) this port may still send on lane {@code vl}. */
    public long available(int vl) {
        return limit[vl] - sent[vl];
    }

    /** Blocks sent on lane {@code vl} since link initialisation (FCTBS, not reduced modulo 4096). */
    public long blocksSent(int vl) {
        return sent[vl];
    }

    /** The credit limit last advertised by the receiver (FCCL, not reduced modulo 4096). */
    public long creditLimit(int vl) {
        return limit[vl];
    }

    /** The receiver's buffer per lane, in blocks: the credits this port holds when everything is returned. */
    public long capacityBlocks() {
        return capacityBlocks;
    }

    /**
     * Lane {@code vl}'s credit-stall clock over its stalls that have ended: {@link #stallPs} less the stall in force
     * now, if any (whose root no update has carried yet).
     */
    public long endedStallPs(int vl) {
        return stallPs[vl];
    }

    /** Time lane {@code vl} waited for credits with a packet ready, up to {@code nowPs}. */
    public long stallPs(int vl, long nowPs) {
        return stallPs[vl] + (stallSincePs[vl] >= 0 ? nowPs - stallSincePs[vl] : 0);
    }

    /** Flow-control packets received for lane {@code vl}. */
    public long updatesReceived(int vl) {
        return updates[vl];
    }
}
