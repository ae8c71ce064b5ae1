package rocelab.fabric.packet;

/**
 * One frame on the wire. Obtain it from {@link PacketPool}; pass it on or release it, exactly once. It holds only
 * primitives and enums plus the intrusive {@code next} link of the FIFO or link it currently sits in.
 */
public final class Packet {
    // Declaration order is memory order: HotSpot (JDK 15 on) lays out an object's longs, then ints, then chars,
    // then bytes and booleans, then references, each group in the order declared, the first int in the 4 bytes
    // after the header. A link arrival and a switch hop read or write only the fields from dueAtPs down to next, so
    // they are declared to sit together (76 bytes, offsets 64-140 of 152; were 100 of 224): narrow types for small
    // values, and what only some features write (selective repeat, notification causes, telemetry) in the packet's
    // PacketExtras, made only for a packet that writes them. bench-B2's loop waits on memory: a frame
    // is touched again only after a link delay, when tens of thousands of other frames have moved (BENCHMARKS.md,
    // 2026-12-02, branches loop and pkt).

    /** Not used at switches: placed in the gap after the header. */
    int payloadBytes;

    /**
     * Data: where a switch first marked it CE, the switch's node id in the high 32 bits and its egress port in the
     * low ({@link #UNMARKED}: not marked), and when. A notification: the mark of the packet it answers. Declared
     * first, so they lie before the fields every hop reads. In the packet, not its extras: in a congested run most
     * queued data packets are marked, and the 1,024-host all-to-all's 1.2 million queued packets each held 96 bytes
     * of extras for these 17.
     */
    long markPlace = UNMARKED;
    long markAtPs;

    // Read by the RNICs, not by switches.
    long psn;
    long messageBytes;
    long sentAtPs;
    /**
     * A data packet's message: the cookie it was posted with (the flow), carried so a switch can name it; the ACK of
     * a message's last packet carries that packet's cookie (the flow completes when it arrives), -1 otherwise. An
     * InfiniBand credit update carries its root here instead ({@link #creditRoot}).
     */
    long cookie = -1;

    // Every hop: link, switch ingress (route, buffer), egress queue (pause clock, marking), transmit.
    long dueAtPs;
    /**
     * While queued at a switch egress or an RNIC's control queue: that queue's paused-time clock when it entered (on
     * InfiniBand, its lane's credit-stall clock instead).
     */
    long pausedClockPs;
    /** On a link: the {@link #dueAtPs} of the frame behind this one (valid while {@link #next} is set by a link). */
    long nextDueAtPs;
    int frameBytes;
    int srcHost;
    int dstHost;
    int entropy;
    int ingressPort;
    int queuePair;
    char framing = FrameFormat.PREAMBLE_AND_IFG;
    /** BTH opcode (PFC: the MAC control opcode 0x0101) and AETH syndrome (PFC: the class-enable vector). */
    char opcode;
    char syndrome;
    byte dscp;
    byte priority;
    boolean telemetryRequested;
    boolean ackRequest;
    boolean cnpFlag;
    boolean ecnEcho;
    boolean free = true;
    /** Data: it waited behind a PFC pause at the port that first marked it CE; a notification: the packet it answers did. */
    boolean markHeldByPause;
    PacketKind kind;
    Ecn ecn;
    Packet next;
    /**
     * The rarely written fields, from the first write of one of them in this life until the packet is released (null:
     * every one at its default). Taken from {@link #pool}, the pool that handed the packet out (the writer's, in a
     * partitioned run), and given back to the pool it is released to.
     */
    PacketExtras extras;
    /** While queued at a switch that links its queues by ingress ({@link IngressLists}): the next newer there. */
    Packet ingressNext;
    /** The pool that handed this packet out, for its extras. */
    PacketPool pool;

    static final long UNMARKED = -1;

    Packet() {}

    void clear() {
        kind = null;
        srcHost = dstHost = queuePair = frameBytes = payloadBytes = 0;
        priority = dscp = 0;
        opcode = syndrome = 0;
        entropy = ingressPort = 0;
        psn = sentAtPs = dueAtPs = messageBytes = 0;
        ecn = Ecn.NOT_ECT;
        ackRequest = false;
        cnpFlag = false;
        ecnEcho = false;
        telemetryRequested = false;
        markPlace = UNMARKED;
        markAtPs = 0;
        markHeldByPause = false;
        // No extras to clear: a released packet gave them back to its pool ({@link PacketPool#release}).
        pausedClockPs = 0;
        nextDueAtPs = 0;
        cookie = -1;
        next = null;
    }

    /** The rarely written fields, to write: from now until the packet is released they are this packet's. */
    private PacketExtras extras() {
        if (extras == null) {
            extras = pool != null ? pool.takeExtras() : new PacketExtras();
        }
        return extras;
    }

    /** Most hops a packet records in-band telemetry for (HPCC's INT header holds up to 5; we allow 8). */
    public static final int MAX_TELEMETRY_HOPS = 8;
    static final int TELEMETRY_FIELDS = 4;

    /** Asks every switch egress on the way to stamp in-band network telemetry (HPCC). */
    public Packet requestTelemetry() {
        telemetryRequested = true;
        extras().startTelemetry();
        return this;
    }

    public boolean telemetryRequested() {
        return telemetryRequested;
    }

    /** A switch egress port records its state as the packet leaves (INT: time, bytes sent, queue, rate). */
    public void stampTelemetry(long nowPs, long txBytes, long queueBytes, long rateBps) {
        PacketExtras x = extras();
        if (x.telemetryHops < MAX_TELEMETRY_HOPS) {
            int i = x.telemetryHops++ * TELEMETRY_FIELDS;
            x.telemetry[i] = nowPs;
            x.telemetry[i + 1] = txBytes;
            x.telemetry[i + 2] = queueBytes;
            x.telemetry[i + 3] = rateBps;
        }
    }

    /** The receiver echoes the telemetry of the data packet in the ACK that answers it. */
    public void copyTelemetryFrom(Packet data) {
        if (data.telemetryRequested) {
            extras().copyTelemetryFrom(data.extras);
        }
    }

    public int telemetryHops() {
        return extras != null ? extras.telemetryHops : 0;
    }

    public long hopTimePs(int hop) {
        return extras.telemetry[hop * TELEMETRY_FIELDS];
    }

    public long hopTxBytes(int hop) {
        return extras.telemetry[hop * TELEMETRY_FIELDS + 1];
    }

    public long hopQueueBytes(int hop) {
        return extras.telemetry[hop * TELEMETRY_FIELDS + 2];
    }

    public long hopRateBps(int hop) {
        return extras.telemetry[hop * TELEMETRY_FIELDS + 3];
    }

    /** ACK only: carries a congestion notification instead of a separate CNP (the HPCC ns-3 model). */
    public Packet cnpFlag(boolean flag) {
        cnpFlag = flag;
        return this;
    }

    public boolean cnpFlag() {
        return cnpFlag;
    }

    /** ACK only: some data packet it acknowledges arrived CE-marked (ECN echo, as DCTCP needs). */
    public Packet ecnEcho(boolean echo) {
        ecnEcho = echo;
        return this;
    }

    public boolean ecnEcho() {
        return ecnEcho;
    }

    /** Fills a RoCEv2 data packet. */
    public Packet initData(long nowPs, int src, int dst, int qp, long packetPsn, int payload, int frame, int op) {
        kind = PacketKind.DATA;
        srcHost = src;
        dstHost = dst;
        queuePair = qp;
        psn = packetPsn;
        payloadBytes = payload;
        frameBytes = frame;
        opcode = (char) op;
        sentAtPs = nowPs;
        return this;
    }

    /** Data only: the length of the RDMA WRITE this packet belongs to (the RETH DMA length). */
    public Packet messageBytes(long bytes) {
        messageBytes = bytes;
        return this;
    }

    public long messageBytes() {
        return messageBytes;
    }

    /**
     * Data only, out-of-order placement: the packet carries its own placement address (a RETH on every packet, as
     * direct data placement does), here the byte offset of its payload within its WRITE.
     */
    public Packet placementOffset(long offset) {
        extras().placementOffset = offset;
        return this;
    }

    /** The byte offset within its WRITE this packet is placed at, or -1 when it carries no placement address. */
    public long placementOffset() {
        return extras != null ? extras.placementOffset : -1;
    }

    /**
     * NAK only: makes it a selective NAK that asks for PSNs {@code psn()}..{@code missingTo} alone, and acknowledges
     * every PSN up to {@code cumulative}; {@code previousMissingTo} is the end of the range asked for before (so the
     * sender can tell whether it heard of every gap before this one).
     */
    public Packet selectiveNak(long cumulative, long missingTo, long previousMissingTo) {
        PacketExtras x = extras();
        x.cumulativePsn = cumulative;
        x.missingToPsn = missingTo;
        x.previousMissingToPsn = previousMissingTo;
        return this;
    }

    /** Selective NAK: the last PSN of the range the receiver asked for before this one (-1: none). */
    public long previousMissingToPsn() {
        return extras != null ? extras.previousMissingToPsn : -1;
    }

    /** Whether this NAK asks only for a range (selective repeat) rather than for everything from its PSN on. */
    public boolean selective() {
        return missingToPsn() >= 0;
    }

    /** Selective NAK: the last missing PSN of the range it asks for. */
    public long missingToPsn() {
        return extras != null ? extras.missingToPsn : -1;
    }

    /** Selective NAK: the receiver has every PSN up to this one (-1: none yet). */
    public long cumulativePsn() {
        return extras != null ? extras.cumulativePsn : -1;
    }

    /** Fills an IEEE 802.1Qbb PFC frame pausing one priority for {@code quanta} x 512 bit times (0: XON). */
    public Packet initPfc(long nowPs, int pausedPriority, int quanta, int frame) {
        kind = PacketKind.PFC;
        srcHost = -1;
        dstHost = -1;
        priority = (byte) pausedPriority;
        psn = quanta;
        syndrome = (char) (1 << pausedPriority);
        opcode = 0x0101;
        frameBytes = frame;
        sentAtPs = nowPs;
        return this;
    }

    /**
     * Fills an InfiniBand flow-control packet for virtual lane {@code vl}: the sender's total blocks sent on that
     * lane (FCTBS) and the credit limit it grants the peer (FCCL), both in 64-byte blocks, absolute here (the
     * wire carries them modulo 4096). {@code root} is what the granting buffer held (a
     * {@code rocelab.fabric.flowcontrol.credit.CreditRoot}, -1: not traced): rocelab's own, not on the wire.
     */
    public Packet initCredit(long nowPs, int vl, long totalBlocksSent, long creditLimit, int frame, long root) {
        kind = PacketKind.CREDIT;
        // A credit update names no flow: its cookie field carries the root instead.
        cookie = root;
        srcHost = -1;
        dstHost = -1;
        priority = (byte) vl;
        psn = creditLimit;
        messageBytes = totalBlocksSent;
        frameBytes = frame;
        sentAtPs = nowPs;
        return this;
    }

    /** Fills an InfiniBand subnet management packet (VL15, to QP0) of {@code frame} bytes. */
    public Packet initManagement(long nowPs, int frame) {
        kind = PacketKind.MANAGEMENT;
        srcHost = -1;
        dstHost = -1;
        priority = 15;
        frameBytes = frame;
        sentAtPs = nowPs;
        return this;
    }

    /** Credit update only: the credit limit (FCCL) in blocks, absolute. */
    public long creditLimit() {
        return psn;
    }

    /** Credit update only: what the granting buffer held (a packed {@code CreditRoot}; -1 when not traced). */
    public long creditRoot() {
        return cookie;
    }

    /** Credit update only: the total blocks the sender of the update has sent on the lane (FCTBS), absolute. */
    public long totalBlocksSent() {
        return messageBytes;
    }

    /** PFC only: the pause time in quanta (0 = XON). */
    public int pauseQuanta() {
        return (int) psn;
    }

    /** Fills a Congestion Notification Packet for the sender's QP (BTH opcode 0x81, BECN set). */
    public Packet initCnp(long nowPs, int src, int dst, int qp, int frame) {
        kind = PacketKind.CNP;
        srcHost = src;
        dstHost = dst;
        queuePair = qp;
        frameBytes = frame;
        opcode = (char) Opcodes.CNP;
        sentAtPs = nowPs;
        return this;
    }

    /** Fills an ACK (syndrome {@link Opcodes#AETH_ACK}) or a NAK for the given PSN. */
    public Packet initAck(long nowPs, PacketKind ackKind, int src, int dst, int qp, long ackPsn, int frame) {
        kind = ackKind;
        srcHost = src;
        dstHost = dst;
        queuePair = qp;
        psn = ackPsn;
        frameBytes = frame;
        opcode = (char) Opcodes.ACKNOWLEDGE;
        syndrome = (char) (ackKind == PacketKind.NAK ? Opcodes.AETH_NAK_PSN_SEQUENCE_ERROR : Opcodes.AETH_ACK);
        sentAtPs = nowPs;
        return this;
    }

    /** Sets the QoS marking: 802.1p priority (RNIC traffic class), DSCP and ECN codepoint. */
    public Packet qos(int pcp, int dscpValue, Ecn ecnValue) {
        priority = (byte) pcp;
        dscp = (byte) dscpValue;
        ecn = ecnValue;
        return this;
    }

    /** Sets the UDP source port that carries per-QP ECMP entropy. */
    public Packet entropy(int udpSourcePort) {
        entropy = udpSourcePort;
        return this;
    }

    public Packet requestAck(boolean ask) {
        ackRequest = ask;
        return this;
    }

    /** A switch marks an ECN-capable packet Congestion Experienced; not-ECT packets are never marked. */
    public boolean markCongestionExperienced() {
        if (ecn.isCapable()) {
            ecn = Ecn.CE;
            return true;
        }
        return false;
    }

    /**
     * As {@link #markCongestionExperienced()}, remembering where: the first mark (the one that made the packet CE)
     * is the one a CNP names as its cause; later marks of an already marked packet change nothing on the wire.
     */
    public boolean markCongestionExperienced(long nowPs, int node, int port) {
        if (!markCongestionExperienced()) {
            return false;
        }
        if (markPlace == UNMARKED) {
            markPlace = (long) node << 32 | port & 0xFFFFFFFFL;
            markAtPs = nowPs;
        }
        return true;
    }

    /**
     * The packet waited behind a PFC pause at port {@code port} of switch {@code node} (it is leaving that port now):
     * if that is where it was first marked CE, the mark was made on a packet the pause held there, and the notification
     * that answers it will say so.
     */
    public void heldByPauseAt(int node, int port) {
        if (markPlace != UNMARKED && markNode() == node && markPort() == port) {
            markHeldByPause = true;
        }
    }

    /**
     * Data: it waited behind a PFC pause at the port that first marked it CE; a notification: the packet it answers
     * did.
     */
    public boolean markHeldByPause() {
        return markHeldByPause;
    }

    /** The switch (node id) that first marked this data packet CE, or that marked the packet a notification answers; -1 if none. */
    public int markNode() {
        return (int) (markPlace >> 32);
    }

    /** The egress port of {@link #markNode()} where the mark was made. */
    public int markPort() {
        return markPlace == UNMARKED ? 0 : (int) markPlace;
    }

    public long markAtPs() {
        return markAtPs;
    }

    /**
     * A CNP or a flagged ACK: records the CE-marked data packet {@code data} it answers (its PSN and mark) and its
     * number {@code n} among the notifications of its QP (1 for the first).
     */
    public Packet notificationCause(Packet data, long n) {
        return notificationCause(data.psn, data.markNode(), data.markPort(), data.markAtPs(), data.markHeldByPause(),
                n);
    }

    /** As {@link #notificationCause(Packet, long)} from a cause kept elsewhere (notifications riding on ACKs). */
    public Packet notificationCause(long psn, int node, int port, long markedAtPs, boolean heldByPause, long n) {
        PacketExtras x = extras();
        x.causePsn = psn;
        x.notification = n;
        markPlace = node < 0 ? UNMARKED : (long) node << 32 | port & 0xFFFFFFFFL;
        markAtPs = markedAtPs;
        markHeldByPause = heldByPause;
        return this;
    }

    /** The PSN of the CE-marked data packet this notification answers (-1: not a notification). */
    public long causePsn() {
        return extras != null ? extras.causePsn : -1;
    }

    /** This notification's number among its QP's notifications (1 for the first; 0: not a notification). */
    public long notification() {
        return extras != null ? extras.notification : 0;
    }

    /** The notifying RNIC puts the notification's first bit on the wire now. */
    public void notifySentPs(long nowPs) {
        extras().notifySentPs = nowPs;
    }

    /** When the notification's first bit left the notifying RNIC (-1 before). */
    public long notifySentPs() {
        return extras != null ? extras.notifySentPs : -1;
    }

    /**
     * InfiniBand: the credit-stall clock of the lane the packet enters (a switch egress queue, an HCA's control queue),
     * when a credit log listens. It shares the field of {@link #pausedClockPs}: a queue is held by PFC pauses
     * (Ethernet) or by credits (InfiniBand), never both, and a field every hop already writes costs nothing more.
     */
    public void creditClockPs(long clockPs) {
        pausedClockPs = clockPs;
    }

    /** The credit-stall clock as the packet entered its queue (0 when not set). */
    public long creditClockPs() {
        return pausedClockPs;
    }

    /** Switch egress use: the queue's paused-time clock as the packet enters it. */
    public void pausedClockPs(long clockPs) {
        pausedClockPs = clockPs;
    }

    /**
     * The field as written: at a switch egress, a packet queued behind an ECMP collision has the clock with its bits
     * flipped (negative; a clock never is), so a port's one test of the field when the packet leaves ("did the clock
     * move?") also finds the collisions, at no cost to any other packet ({@link #enteredClockPs} reads it either way).
     */
    public long pausedClockPs() {
        return pausedClockPs;
    }

    /** Queued at a switch egress behind an ECMP collision: the held clock {@code clockPs}, with the mark. */
    public void collisionClockPs(long clockPs) {
        pausedClockPs = ~clockPs;
    }

    /** Whether the packet was queued behind an ECMP collision at the switch egress it sits in. */
    public boolean ecmpCollision() {
        return pausedClockPs < 0;
    }

    /** The paused (or credit-stall) clock as the packet entered its queue, with or without the collision mark. */
    public long enteredClockPs() {
        return pausedClockPs < 0 ? ~pausedClockPs : pausedClockPs;
    }

    public PacketKind kind() {
        return kind;
    }

    public int srcHost() {
        return srcHost;
    }

    public int dstHost() {
        return dstHost;
    }

    public int queuePair() {
        return queuePair;
    }

    public int priority() {
        return priority;
    }

    public int dscp() {
        return dscp;
    }

    public Ecn ecn() {
        return ecn;
    }

    public int frameBytes() {
        return frameBytes;
    }

    /** Bytes of link time: the frame plus its framing (preamble and IFG on Ethernet, delimiters on IB). */
    public int wireBytes() {
        return frameBytes + framing;
    }

    public int payloadBytes() {
        return payloadBytes;
    }

    /**
     * A data packet's message cookie (what the workload posted it with: its flow); the ACK of a message's last packet
     * carries that packet's cookie; -1 for other packets.
     */
    public long cookie() {
        return cookie;
    }

    public Packet cookie(long messageCookie) {
        this.cookie = messageCookie;
        return this;
    }

    public long psn() {
        return psn;
    }

    public int opcode() {
        return opcode;
    }

    public int syndrome() {
        return syndrome;
    }

    public int entropy() {
        return entropy;
    }

    public boolean ackRequest() {
        return ackRequest;
    }

    public long sentAtPs() {
        return sentAtPs;
    }

    public long dueAtPs() {
        return dueAtPs;
    }

    public void dueAtPs(long t) {
        dueAtPs = t;
    }

    public int ingressPort() {
        return ingressPort;
    }

    public void ingressPort(int port) {
        ingressPort = port;
    }

    /** Link use only: chains a frame behind this one while both are in flight. */
    public void nextInFlight(Packet p) {
        // Copied while both frames are in cache (the one behind was just stamped): when this frame arrives, the
        // link schedules the next arrival from this frame, which it reads anyway, without loading the next one
        // (a cache miss at every link arrival of bench-B2: a frame is touched again only at its own arrival).
        nextInFlight(p, p.dueAtPs);
    }

    /** As {@link #nextInFlight(Packet)}, with the due time of {@code p} as its caller kept it (not read from it). */
    public void nextInFlight(Packet p, long pDueAtPs) {
        next = p;
        nextDueAtPs = pDueAtPs;
    }

    /** On a link: when the frame behind this one arrives (set with {@link #nextInFlight}). */
    public long nextDueAtPs() {
        return nextDueAtPs;
    }

    /**
     * Reads the fields a hop reads (its first, middle and last: every cache line they lie on) and returns a value
     * made of them, for a handler reading ahead ({@code rocelab.engine.Prefetching}) to keep so the loads stay.
     */
    public long touch() {
        return dueAtPs + frameBytes + (next == null ? 0 : 1);
    }

    /** Link use only: unlinks and returns the frame behind this one. */
    public Packet takeNextInFlight() {
        Packet n = next;
        next = null;
        return n;
    }

    public boolean isFree() {
        return free;
    }
}
