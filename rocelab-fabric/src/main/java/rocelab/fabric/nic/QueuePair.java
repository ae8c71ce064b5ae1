package rocelab.fabric.nic;

import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.NicCounter;

/**
 * A Reliable Connected queue pair (IBTA RC over RoCEv2), both halves: the requester on the source RNIC segments
 * posted RDMA WRITEs into MTU packets with consecutive PSNs and recovers by go-back-N on NAK or local ACK
 * timeout; the responder on the destination RNIC accepts in-order packets, acknowledges them (coalesced), and
 * answers a PSN gap with one NAK (PSN sequence error). Its ACK timer lives in its RNIC's timer heap and is re-armed lazily.
 */
public final class QueuePair {

    enum TxState { IDLE, ACTIVE, PACED }

    final int id;
    final Nic source;
    final Nic destination;
    final int entropy;
    final CongestionControl cc;
    private final MessageListener listener;
    private final int mtu;
    private final long ackTimeoutPs;
    private final int retryLimit;
    private final int ackEvery;
    private final FrameFormat frames;
    int dscp;
    /** Priority (RoCE) or virtual lane (InfiniBand) of this QP's data and ACKs on the wire. */
    int lane;

    private final MessageRing messages = new MessageRing();
    private long postedPsns;
    private long postedBytes;
    private long sndNxt;
    private long sndUna;
    private long maxSentPsn = -1;
    private long cursorMessage;
    private long cursorOffset;
    private boolean failed;
    private int retries;
    private long ackDeadlinePs;
    private boolean timerPending;

    // Transmit scheduling state, owned by the source RNIC.
    TxState txState = TxState.IDLE;
    QueuePair nextActive;
    int heapIndex = -1;
    long nextSendPs;
    /** When the QP last started a packet and that packet's wire size: the pacer's gap is re-derived from them. */
    long lastSendPs;
    long lastWireBytes;

    /** Congestion notifications this QP's sender received (CNP frames or flagged ACKs). */
    long cnpsReceived;
    /** When the QP last joined its RNIC's rotation with data to send (a pause it then waits behind counts from here). */
    long readyPs;

    // Responder state (the notification point's per-QP state included).
    long lastCnpPs = Long.MIN_VALUE;
    boolean cnpFlagPending;
    /** Notifications the responder sent for this QP (each CNP or flagged ACK carries its number). */
    long notificationsSent;
    /** The marked packet a pending ACK flag answers. */
    long pendingCausePsn;
    int pendingMarkNode;
    int pendingMarkPort;
    long pendingMarkAtPs;
    private boolean ceSinceAck;
    private long expectedPsn;
    private long deliveredMessages;
    private int unackedPackets;
    private boolean nakOutstanding;

    QueuePair(int id, Nic source, Nic destination, int entropy, CongestionControl cc,
            MessageListener listener, NicParameters params, FrameFormat frames) {
        this.id = id;
        this.source = source;
        this.destination = destination;
        this.entropy = entropy;
        this.cc = cc;
        this.listener = listener;
        this.mtu = params.mtuBytes();
        this.ackTimeoutPs = params.ackTimeoutPs();
        this.retryLimit = params.retryCount();
        this.ackEvery = params.ackEvery();
        this.frames = frames;
        this.dscp = params.dataDscp();
        this.lane = params.dataPriority();
    }

    /** Posts an RDMA WRITE of {@code bytes}; the listener hears of it again with {@code cookie}. */
    public void postWrite(long nowPs, long bytes, long cookie) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("message size must be positive");
        }
        long packets = (bytes + mtu - 1) / mtu;
        messages.add(postedPsns, bytes, postedBytes, cookie);
        postedPsns += packets;
        postedBytes += bytes;
        source.wake(nowPs, this);
    }

    // ---------------------------------------------------------------- requester

    boolean canSend() {
        return !failed && sndNxt < postedPsns && inFlightBytes() < cc.windowBytes();
    }

    /** Payload bytes between the oldest unacknowledged PSN and the next one to send. */
    private long inFlightBytes() {
        return (sndNxt - sndUna) * mtu;
    }

    /** Bytes of the packet {@link #nextPacket} would build now. */
    int nextFrameBytes() {
        long size = messages.sizeBytes(cursorMessage);
        int payload = (int) Math.min(mtu, size - cursorOffset);
        return frames.dataFrameBytes(payload, size <= mtu || cursorOffset == 0);
    }

    /** Builds the packet with PSN {@code sndNxt} and advances the send cursor. */
    Packet nextPacket(long nowPs, PacketPool pool, NicParameters params, long[] counters) {
        long size = messages.sizeBytes(cursorMessage);
        int payload = (int) Math.min(mtu, size - cursorOffset);
        int opcode;
        if (size <= mtu) {
            opcode = Opcodes.RDMA_WRITE_ONLY;
        } else if (cursorOffset == 0) {
            opcode = Opcodes.RDMA_WRITE_FIRST;
        } else if (cursorOffset + payload == size) {
            opcode = Opcodes.RDMA_WRITE_LAST;
        } else {
            opcode = Opcodes.RDMA_WRITE_MIDDLE;
        }
        Packet p = pool.acquire()
                .initData(nowPs, source.host(), destination.host(), id, sndNxt, payload,
                        frames.dataFrameBytes(payload, Opcodes.hasReth(opcode)), opcode)
                .qos(lane, dscp, params.ecnCapable() ? Ecn.ECT_0 : Ecn.NOT_ECT)
                .entropy(entropy)
                .requestAck(Opcodes.isLast(opcode))
                .messageBytes(size);
        if (cc.wantsTelemetry()) {
            p.requestTelemetry();
        }
        cursorOffset += payload;
        if (cursorOffset == size) {
            cursorMessage++;
            cursorOffset = 0;
        }
        if (sndNxt <= maxSentPsn) {
            counters[NicCounter.RETRANSMITTED_PACKETS.ordinal()]++;
        } else {
            maxSentPsn = sndNxt;
        }
        sndNxt++;
        cc.onSend(nowPs, p.wireBytes());
        armTimer(nowPs, false);
        return p;
    }

    void onAck(long nowPs, Packet ack, AckFeedback feedback) {
        long before = sndUna;
        acknowledgeThrough(nowPs, ack.psn());
        if (sndUna > before) {
            retries = 0;
            ackDeadlinePs = nowPs + ackTimeoutPs;
        }
        cc.onAck(nowPs, feedback.fill(bytesBefore(sndUna) - bytesBefore(before), nowPs - ack.sentAtPs(), ack.psn(),
                unackedBytes(), ack));
        source.wake(nowPs, this);
    }

    void onNak(long nowPs, Packet nak, AckFeedback feedback) {
        long before = sndUna;
        acknowledgeThrough(nowPs, nak.psn() - 1);
        if (sndUna > before) {
            retries = 0;
            cc.onAck(nowPs, feedback.fill(bytesBefore(sndUna) - bytesBefore(before), -1, nak.psn() - 1,
                    unackedBytes(), nak));
        }
        ackDeadlinePs = nowPs + ackTimeoutPs;
        goBackTo(nak.psn());
        cc.onLoss(nowPs);
        source.wake(nowPs, this);
    }

    /** Payload bytes sent at least once and not yet acknowledged. */
    private long unackedBytes() {
        return bytesBefore(maxSentPsn + 1) - bytesBefore(sndUna);
    }

    private void acknowledgeThrough(long nowPs, long psn) {
        if (psn < sndUna || psn >= postedPsns) {
            return;
        }
        sndUna = psn + 1;
        if (sndNxt < sndUna) {
            goBackTo(sndUna);
        }
        while (!messages.isEmpty()) {
            long h = messages.head();
            long last = messages.firstPsn(h) + (messages.sizeBytes(h) + mtu - 1) / mtu - 1;
            if (last >= sndUna) {
                break;
            }
            long cookie = messages.cookie(h);
            messages.removeHead();
            listener.onMessageCompleted(nowPs, id, cookie);
        }
    }

    /** Go-back-N: the next packet sent is {@code psn}; the cursor moves to the message that holds it. */
    private void goBackTo(long psn) {
        sndNxt = psn;
        long m = messages.head();
        while (m + 1 < messages.tail() && messages.firstPsn(m + 1) <= psn) {
            m++;
        }
        cursorMessage = m;
        cursorOffset = m < messages.tail() ? (psn - messages.firstPsn(m)) * mtu : 0;
    }

    /** Payload bytes of all PSNs before {@code psn}. */
    private long bytesBefore(long psn) {
        if (psn >= postedPsns) {
            return postedBytes;
        }
        long m = messages.head();
        while (m + 1 < messages.tail() && messages.firstPsn(m + 1) <= psn) {
            m++;
        }
        return messages.startBytes(m) + Math.min((psn - messages.firstPsn(m)) * mtu, messages.sizeBytes(m));
    }

    private boolean hasOutstanding() {
        return !failed && sndUna <= maxSentPsn;
    }

    private void armTimer(long nowPs, boolean force) {
        if (ackTimeoutPs == Long.MAX_VALUE) {
            return;
        }
        if (force || !timerPending) {
            ackDeadlinePs = nowPs + ackTimeoutPs;
        }
        if (!timerPending) {
            timerPending = true;
            source.scheduleAckTimer(this, ackDeadlinePs);
        }
    }

    /**
     * The RNIC's timer heap reached this QP's key. Progress only moved {@code ackDeadlinePs} forward without
     * touching the heap, so a timer whose deadline moved is simply re-armed for the new deadline.
     */
    void onAckTimer(long nowPs) {
        timerPending = false;
        if (!hasOutstanding()) {
            return;
        }
        if (nowPs < ackDeadlinePs) {
            timerPending = true;
            source.scheduleAckTimer(this, ackDeadlinePs);
            return;
        }
        source.count(NicCounter.LOCAL_ACK_TIMEOUT_ERR);
        if (retries >= retryLimit) {
            failed = true;
            source.count(NicCounter.RETRY_EXCEEDED);
            listener.onQueuePairError(nowPs, id);
            return;
        }
        retries++;
        goBackTo(sndUna);
        cc.onLoss(nowPs);
        armTimer(nowPs, true);
        source.wake(nowPs, this);
    }

    // ---------------------------------------------------------------- responder

    /** The destination RNIC received a data packet of this QP. */
    void onData(long nowPs, Packet p) {
        if (p.ecn() == Ecn.CE) {
            ceSinceAck = true;
            destination.onCongestionExperienced(nowPs, this, p);
        }
        long psn = p.psn();
        if (psn == expectedPsn) {
            expectedPsn++;
            nakOutstanding = false;
            destination.count(NicCounter.RX_DELIVERED_BYTES, p.payloadBytes());
            if (Opcodes.isLast(p.opcode())) {
                long index = deliveredMessages++;
                listener.onMessageDelivered(nowPs, id, messages.cookie(index));
            }
            scheduleAck(nowPs, p);
        } else if (psn > expectedPsn) {
            destination.count(NicCounter.OUT_OF_SEQUENCE);
            if (!nakOutstanding) {
                nakOutstanding = true;
                unackedPackets = 0;
                sendAck(nowPs, PacketKind.NAK, expectedPsn, p);
            }
        } else {
            destination.count(NicCounter.DUPLICATE_REQUEST);
            scheduleAck(nowPs, p);
        }
    }

    private void scheduleAck(long nowPs, Packet p) {
        if (p.ackRequest() || ++unackedPackets >= ackEvery) {
            unackedPackets = 0;
            sendAck(nowPs, PacketKind.ACK, expectedPsn - 1, p);
        }
    }

    private void sendAck(long nowPs, PacketKind kind, long psn, Packet data) {
        destination.sendAck(nowPs, this, kind, psn, data, ceSinceAck, cnpFlagPending);
        ceSinceAck = false;
        cnpFlagPending = false;
    }

    // ---------------------------------------------------------------- accessors

    /** Marks this QP's data and ACKs with {@code value} instead of the RNIC's default DSCP (set before use). */
    public void dscp(int value) {
        if (value < 0 || value > 63) {
            throw new IllegalArgumentException("DSCP must be 0..63, got " + value);
        }
        this.dscp = value;
    }

    /** Sends this QP's data and ACKs on virtual lane {@code vl} (InfiniBand: the lane of its service level). */
    public void lane(int vl) {
        this.lane = vl;
    }

    public int lane() {
        return lane;
    }

    public int id() {
        return id;
    }

    public int sourceHost() {
        return source.host();
    }

    public int destinationHost() {
        return destination.host();
    }

    /** UDP source port of this QP's packets (ECMP entropy). */
    public int entropy() {
        return entropy;
    }

    public CongestionControl congestionControl() {
        return cc;
    }

    public boolean failed() {
        return failed;
    }

    /** Oldest unacknowledged PSN. */
    public long sndUna() {
        return sndUna;
    }

    public long sndNxt() {
        return sndNxt;
    }

    /** Next PSN the responder expects. */
    public long expectedPsn() {
        return expectedPsn;
    }

    /**
     * The cookie of the outstanding message that holds {@code psn} (what {@link #postWrite} was given), or -1 when
     * no outstanding message does (already acknowledged, or not posted).
     */
    public long cookieOf(long psn) {
        long lo = messages.head();
        long hi = messages.tail() - 1;
        if (lo > hi || psn < messages.firstPsn(lo) || psn >= postedPsns) {
            return -1;
        }
        while (lo < hi) {
            long mid = (lo + hi + 1) >>> 1;
            if (messages.firstPsn(mid) <= psn) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return messages.cookie(lo);
    }

    public long cnpsReceived() {
        return cnpsReceived;
    }

    public long postedPsns() {
        return postedPsns;
    }
}
