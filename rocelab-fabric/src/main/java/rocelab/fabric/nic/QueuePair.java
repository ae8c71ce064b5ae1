package rocelab.fabric.nic;

import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.packet.Ecn;
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
 *
 * <p>With out-of-order placement ({@code nic.ooo} on both RNICs, as IRN proposes and DDP-capable RNICs do) every
 * packet carries its placement address, the responder places whatever arrives and tracks arrivals in a bitmap, a
 * message is delivered when all its packets (and all earlier messages, RC order) are in, and a gap is asked for
 * with a selective NAK once {@code ooo-reorder} later PSNs have arrived beyond it (a smaller reordering, as spraying
 * causes, is waited out); the requester sends again only the PSNs asked for, and on a local ACK timeout only those
 * whose arrival it cannot infer (the tail). It keeps at most {@code ooo-window} PSNs outstanding.
 */
public final class QueuePair {

    enum TxState { IDLE, ACTIVE, PACED }

    final int id;
    final Nic source;
    final Nic destination;
    final int entropy;
    final CongestionControl cc;
    /**
     * Whether {@link #cc} limits the bytes in flight at all: when it does not, {@link #canSend} does not read the
     * control (an RNIC's pause end asks it of every ready QP, and the control's state is a cache miss of its own).
     */
    private final boolean windowed;
    /** The listener, MTU, timers and frame format, one object for every QP of a sending RNIC. */
    private final QueuePairConstants k;
    // The QoS fields, the counters and the retries are narrow: a 1,024-host all-to-all holds a million QPs, and these
    // make each 24 bytes smaller (of 264).
    byte dscp;
    /** Priority (RoCE) or virtual lane (InfiniBand) of this QP's data and ACKs on the wire. */
    byte lane;
    /** DSCP and priority of the ACKs and NAKs: the QP's own, or the responder RNIC's {@code nic.ack} QoS. */
    byte ackDscp;
    byte ackLane;
    private final boolean ownAckQos;

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
    /**
     * When the ACK timer was last started by anything but its own firing (a send with no timer running, an ACK that
     * acknowledged something new, a NAK): a timeout's "no new ACK since". A timer restarted by its firing starts
     * later than this, and only then.
     */
    private long timerStartedByTrafficPs;
    private boolean timerPending;

    // Transmit scheduling state, owned by the source RNIC.
    TxState txState = TxState.IDLE;
    QueuePair nextActive;
    /** Multi-plane RNIC in per-QP mode: the plane (port) this QP's packets and its ACKs take. */
    int plane;
    long nextSendPs;
    /** When the QP last started a packet and that packet's wire size: the pacer's gap is re-derived from them. */
    long lastSendPs;
    long lastWireBytes;

    /** Congestion notifications this QP's sender received (CNP frames or flagged ACKs). */
    int cnpsReceived;
    /** Data packets this QP sent again (go-back-N or selective repeat), as its RNIC's retransmitted_packets counts them. */
    private int resentPackets;
    /** This QP's local ACK timeouts, as its RNIC's local_ack_timeout_err counts them. */
    private int ackTimeouts;
    /** When the QP last joined its RNIC's rotation with data to send (a pause it then waits behind counts from here). */
    long readyPs;
    /**
     * Time the QP had data ready that its congestion control's rate held back: from when it could have sent at line
     * rate (the end of its previous packet, or when data arrived if later) to when its rate's gap let it (see
     * {@link QueuePairRotation}); and, while it waits in the pacer, when that wait began.
     */
    long rateHeldPs;
    long rateHeldFromPs;
    /**
     * InfiniBand with a credit probe attached: its lane's credit-stall clock when the QP last became ready to send (its
     * next packet's wait for credits counts from there).
     */
    long creditClockPs;

    // Responder state.
    /** The notification point's state of this QP, from its first CE-marked packet on (null before). */
    CongestionNotice notice;
    private boolean ceSinceAck;
    private long expectedPsn;
    private long deliveredMessages;
    private int unackedPackets;
    private boolean nakOutstanding;

    /** Out-of-order placement and selective repeat (both RNICs have nic.ooo), or null: go-back-N. */
    final SelectiveRepeat selective;

    QueuePair(int id, Nic source, Nic destination, int entropy, CongestionControl cc,
            QueuePairConstants constants, NicParameters params) {
        this.id = id;
        this.source = source;
        this.destination = destination;
        this.entropy = entropy;
        this.cc = cc;
        this.windowed = cc.windowed();
        this.k = constants;
        this.dscp = (byte) params.dataDscp();
        this.lane = (byte) params.dataPriority();
        // The responder sends the ACKs: its RNIC's ACK QoS, when it has one, else the QP's own class (a QP made
        // without RNICs, as the heap tests make them, takes its own settings).
        NicParameters responder = destination != null ? destination.parameters() : params;
        this.ownAckQos = responder.ownAckQos();
        this.ackDscp = (byte) (ownAckQos ? responder.ackDscp() : dscp);
        this.ackLane = (byte) (ownAckQos ? responder.ackPriority() : lane);
        // Out-of-order placement is a property of the connection: both ends must support it.
        this.selective = params.ooo() && destination.parameters().ooo()
                ? new SelectiveRepeat(params.oooWindowPackets(), destination.parameters().oooReorderPackets()) : null;
    }

    /** Posts an RDMA WRITE of {@code bytes}; the listener hears of it again with {@code cookie}. */
    public void postWrite(long nowPs, long bytes, long cookie) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("message size must be positive");
        }
        long packets = (bytes + k.mtu - 1) / k.mtu;
        messages.add(postedPsns, bytes, postedBytes, cookie);
        postedPsns += packets;
        postedBytes += bytes;
        source.posted(this);
        source.wake(nowPs, this);
    }

    // ---------------------------------------------------------------- requester

    boolean canSend() {
        if (selective != null) {
            // A PSN asked for goes out whatever the window: it fills a gap, it adds nothing in flight at the end.
            return !failed && (selective.resendCount > 0
                    || sndNxt < postedPsns && sndNxt < sndUna + selective.window && withinWindow());
        }
        return !failed && sndNxt < postedPsns && withinWindow();
    }

    private boolean withinWindow() {
        return !windowed || inFlightBytes() < cc.windowBytes();
    }

    /** Payload bytes between the oldest unacknowledged PSN and the next one to send. */
    private long inFlightBytes() {
        return (sndNxt - sndUna) * k.mtu;
    }

    /** Bytes of the packet {@link #nextPacket} would build now. */
    int nextFrameBytes() {
        if (selective != null) {
            // Every packet carries a RETH (its placement address).
            if (selective.resendCount > 0) {
                long psn = nextResend();
                long m = messageOf(psn);
                long size = messages.sizeBytes(m);
                return k.frames.dataFrameBytes(
                        (int) Math.min(k.mtu, size - (psn - messages.firstPsn(m)) * k.mtu), true, k.telemetryBytes);
            }
            return k.frames.dataFrameBytes(
                    (int) Math.min(k.mtu, messages.sizeBytes(cursorMessage) - cursorOffset), true, k.telemetryBytes);
        }
        long size = messages.sizeBytes(cursorMessage);
        int payload = (int) Math.min(k.mtu, size - cursorOffset);
        return k.frames.dataFrameBytes(payload, size <= k.mtu || cursorOffset == 0, k.telemetryBytes);
    }

    /** Frame bytes of this QP's ACKs and NAKs: they echo its congestion control's telemetry header, if any. */
    int ackFrameBytes() {
        return k.frames.ackFrameBytes(k.telemetryBytes);
    }

    /** Builds the packet with PSN {@code sndNxt} and advances the send cursor (or, selective, one asked for). */
    Packet nextPacket(long nowPs, PacketPool pool, NicParameters params, long[] counters) {
        if (selective != null && selective.resendCount > 0) {
            return resendPacket(nowPs, pool, params, counters);
        }
        long size = messages.sizeBytes(cursorMessage);
        long offset = cursorOffset;
        Packet p = dataPacket(nowPs, pool, params, sndNxt, size, offset, cursorMessage);
        int payload = p.payloadBytes();
        cursorOffset += payload;
        if (cursorOffset == size) {
            cursorMessage++;
            cursorOffset = 0;
        }
        if (sndNxt <= maxSentPsn) {
            counters[NicCounter.RETRANSMITTED_PACKETS.ordinal()]++;
            resentPackets++;
        } else {
            maxSentPsn = sndNxt;
            // One branch per new packet, a call per message: its first packet's first transmission.
            if (offset == 0) {
                k.listener.onMessageStarted(nowPs, id, p.cookie());
            }
        }
        sndNxt++;
        cc.onSend(nowPs, p.wireBytes());
        armTimer(nowPs, false);
        return p;
    }

    /** The data packet with PSN {@code psn} at byte {@code offset} of a WRITE of {@code size} bytes. */
    private Packet dataPacket(long nowPs, PacketPool pool, NicParameters params, long psn, long size, long offset,
            long message) {
        int payload = (int) Math.min(k.mtu, size - offset);
        int opcode;
        if (size <= k.mtu) {
            opcode = Opcodes.RDMA_WRITE_ONLY;
        } else if (offset == 0) {
            opcode = Opcodes.RDMA_WRITE_FIRST;
        } else if (offset + payload == size) {
            opcode = Opcodes.RDMA_WRITE_LAST;
        } else {
            opcode = Opcodes.RDMA_WRITE_MIDDLE;
        }
        Packet p = pool.acquire()
                .initData(nowPs, source.host(), destination.host(), id, psn, payload,
                        k.frames.dataFrameBytes(payload, selective != null || Opcodes.hasReth(opcode),
                                k.telemetryBytes), opcode)
                .qos(lane, dscp, params.ecnCapable() ? Ecn.ECT_0 : Ecn.NOT_ECT)
                .entropy(entropy)
                .requestAck(Opcodes.isLast(opcode))
                .messageBytes(size)
                .cookie(messages.cookie(message));
        if (selective != null) {
            p.placementOffset(offset);
        }
        if (cc.wantsTelemetry()) {
            p.requestTelemetry();
        }
        return p;
    }

    /** Selective repeat: the lowest PSN asked for goes out again; the send cursor does not move. */
    private Packet resendPacket(long nowPs, PacketPool pool, NicParameters params, long[] counters) {
        long psn = nextResend();
        long m = messageOf(psn);
        Packet p = dataPacket(nowPs, pool, params, psn, messages.sizeBytes(m), (psn - messages.firstPsn(m)) * k.mtu, m);
        selective.resend.clear(psn);
        selective.resendCount--;
        counters[NicCounter.RETRANSMITTED_PACKETS.ordinal()]++;
        resentPackets++;
        counters[NicCounter.SELECTIVE_RETRANSMITTED.ordinal()]++;
        selective.selectiveRetransmissions++;
        cc.onSend(nowPs, p.wireBytes());
        armTimer(nowPs, false);
        return p;
    }

    /** The lowest PSN to send again (only while {@code resendCount > 0}: they all lie in sndUna..maxSentPsn). */
    private long nextResend() {
        return selective.resend.nextSet(sndUna, maxSentPsn + 1);
    }

    /** Index of the outstanding message that holds {@code psn} (a posted, unacknowledged PSN). */
    private long messageOf(long psn) {
        long lo = messages.head();
        long hi = messages.tail() - 1;
        while (lo < hi) {
            long mid = (lo + hi + 1) >>> 1;
            if (messages.firstPsn(mid) <= psn) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    void onAck(long nowPs, Packet ack, AckFeedback feedback) {
        long before = sndUna;
        acknowledgeThrough(nowPs, ack.psn());
        if (sndUna > before) {
            retries = 0;
            ackDeadlinePs = nowPs + k.ackTimeoutPs;
            timerStartedByTrafficPs = nowPs;
        }
        cc.onAck(nowPs, feedback.fill(bytesBefore(sndUna) - bytesBefore(before), nowPs - ack.sentAtPs(), ack.psn(),
                unackedBytes(), ack));
        source.wake(nowPs, this);
    }

    void onNak(long nowPs, Packet nak, AckFeedback feedback) {
        if (nak.selective()) {
            onSelectiveNak(nowPs, nak, feedback);
            return;
        }
        long before = sndUna;
        acknowledgeThrough(nowPs, nak.psn() - 1);
        if (sndUna > before) {
            retries = 0;
            cc.onAck(nowPs, feedback.fill(bytesBefore(sndUna) - bytesBefore(before), -1, nak.psn() - 1,
                    unackedBytes(), nak));
        }
        ackDeadlinePs = nowPs + k.ackTimeoutPs;
        timerStartedByTrafficPs = nowPs;
        // A stale NAK asks for a PSN that an ACK sent after it (they can pass each other on sprayed paths) already
        // acknowledged: going back to it would re-send acknowledged packets, or point before the first outstanding
        // message. The requester goes back to its oldest unacknowledged PSN instead, as the ns-3 RDMA model does on
        // every NAK (what the responder discarded after the NAK's gap is unknown, and it NAKs a gap only once).
        goBackTo(Math.max(nak.psn(), sndUna));
        source.recovering(nowPs, id, false, sndNxt, maxSentPsn, Math.max(0, maxSentPsn - sndNxt + 1), -1, -1,
                retries, k.retryLimit);
        cc.onLoss(nowPs);
        source.wake(nowPs, this);
    }

    /**
     * Selective repeat: the responder has everything up to the NAK's cumulative PSN and asks for the range from its
     * PSN to its last missing PSN; those PSNs alone go out again, ahead of new data.
     */
    private void onSelectiveNak(long nowPs, Packet nak, AckFeedback feedback) {
        long before = sndUna;
        acknowledgeThrough(nowPs, nak.cumulativePsn());
        if (sndUna > before) {
            retries = 0;
            cc.onAck(nowPs, feedback.fill(bytesBefore(sndUna) - bytesBefore(before), -1, nak.cumulativePsn(),
                    unackedBytes(), nak));
        }
        ackDeadlinePs = nowPs + k.ackTimeoutPs;
        timerStartedByTrafficPs = nowPs;
        long last = Math.min(nak.missingToPsn(), maxSentPsn);
        for (long psn = Math.max(nak.psn(), sndUna); psn <= last; psn++) {
            selective.askedFor.set(psn);
            if (selective.resend.set(psn)) {
                selective.resendCount++;
            }
        }
        // The responder asks for gaps in PSN order, so everything up to this range's end arrived or was asked for:
        // the sender knows it only if it heard of the range asked for before (NAKs are lost and reordered too).
        if (nak.previousMissingToPsn() <= Math.max(selective.knownThrough, nak.cumulativePsn())) {
            selective.knownThrough = Math.max(selective.knownThrough, nak.missingToPsn());
        }
        source.recovering(nowPs, id, false, selective.resendCount > 0 ? nextResend() : -1, maxSentPsn,
                selective.resendCount, -1, -1, retries, k.retryLimit);
        cc.onLoss(nowPs);
        source.wake(nowPs, this);
    }

    /**
     * Selective repeat after a local ACK timeout: sends again every unacknowledged PSN that was asked for or whose
     * arrival the responder has not implied (those after the last gap it asked for: the tail).
     */
    private void resendUnconfirmed() {
        for (long psn = sndUna; psn <= maxSentPsn; psn++) {
            if ((psn > selective.knownThrough || selective.askedFor.get(psn)) && selective.resend.set(psn)) {
                selective.resendCount++;
            }
        }
    }

    /** Payload bytes sent at least once and not yet acknowledged. */
    private long unackedBytes() {
        return bytesBefore(maxSentPsn + 1) - bytesBefore(sndUna);
    }

    private void acknowledgeThrough(long nowPs, long psn) {
        if (psn < sndUna || psn >= postedPsns) {
            return;
        }
        if (selective != null) {
            // The window slides: bits of acknowledged PSNs are cleared for the PSNs that will reuse them.
            for (long p = sndUna; p <= psn; p++) {
                selective.askedFor.clear(p);
                if (selective.resend.clear(p)) {
                    selective.resendCount--;
                }
            }
        }
        sndUna = psn + 1;
        if (sndNxt < sndUna) {
            goBackTo(sndUna);
        }
        while (!messages.isEmpty()) {
            long h = messages.head();
            long last = messages.firstPsn(h) + (messages.sizeBytes(h) + k.mtu - 1) / k.mtu - 1;
            if (last >= sndUna) {
                break;
            }
            long cookie = messages.cookie(h);
            messages.removeHead();
            k.listener.onMessageCompleted(nowPs, id, cookie);
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
        cursorOffset = m < messages.tail() ? (psn - messages.firstPsn(m)) * k.mtu : 0;
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
        return messages.startBytes(m) + Math.min((psn - messages.firstPsn(m)) * k.mtu, messages.sizeBytes(m));
    }

    private boolean hasOutstanding() {
        return !failed && sndUna <= maxSentPsn;
    }

    private void armTimer(long nowPs, boolean force) {
        if (k.ackTimeoutPs == Long.MAX_VALUE) {
            return;
        }
        if (force || !timerPending) {
            ackDeadlinePs = nowPs + k.ackTimeoutPs;
            if (!force) {
                timerStartedByTrafficPs = nowPs;
            }
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
        ackTimeouts++;
        // Nothing new was acknowledged since the timer started (progress and NAKs move the deadline), nor since it was
        // last started by something other than its own firing.
        long timerStartPs = ackDeadlinePs - k.ackTimeoutPs;
        long noAckSincePs = timerStartedByTrafficPs;
        if (retries >= k.retryLimit) {
            failed = true;
            source.count(NicCounter.RETRY_EXCEEDED);
            source.recovering(nowPs, id, true, -1, maxSentPsn, 0, timerStartPs, noAckSincePs, retries + 1,
                    k.retryLimit);
            source.retriesExhausted(nowPs, this, timerStartPs);
            k.listener.onQueuePairError(nowPs, id);
            return;
        }
        retries++;
        if (selective != null) {
            resendUnconfirmed();
            source.recovering(nowPs, id, true, selective.resendCount > 0 ? nextResend() : -1, maxSentPsn,
                    selective.resendCount, timerStartPs, noAckSincePs, retries, k.retryLimit);
        } else {
            goBackTo(sndUna);
            source.recovering(nowPs, id, true, sndNxt, maxSentPsn, Math.max(0, maxSentPsn - sndNxt + 1), timerStartPs,
                    noAckSincePs, retries, k.retryLimit);
        }
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
        if (selective != null) {
            place(nowPs, p);
            return;
        }
        long psn = p.psn();
        if (psn == expectedPsn) {
            expectedPsn++;
            destination.deliveredInOrder(this);
            nakOutstanding = false;
            destination.count(NicCounter.RX_DELIVERED_BYTES, p.payloadBytes());
            if (Opcodes.isLast(p.opcode())) {
                // The message's cookie as the packet carries it (the one at index deliveredMessages): the responder
                // reads nothing of the requester's message ring, which its sender may be adding to on another
                // partition's thread (a workload driver's lane posting mid-window).
                deliveredMessages++;
                k.listener.onMessageDelivered(nowPs, id, p.cookie());
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

    /**
     * Out-of-order placement: the packet is written where its placement address says, whatever arrived before it;
     * the cumulative PSN moves over every PSN now contiguous, delivering each message it completes (in posting
     * order, as RC completes them); a gap that has been overtaken by {@code reorder} PSNs is asked for.
     */
    private void place(long nowPs, Packet p) {
        long psn = p.psn();
        if (psn < expectedPsn || selective.placed.get(psn)) {
            destination.count(NicCounter.DUPLICATE_REQUEST);
            selective.duplicates++;
            scheduleAck(nowPs, p);
            return;
        }
        if (psn >= expectedPsn + selective.window) {
            throw new IllegalStateException("QP " + id + ": PSN " + psn + " beyond the placement window at "
                    + expectedPsn);
        }
        if (psn != expectedPsn) {
            destination.count(NicCounter.OUT_OF_SEQUENCE);
            selective.outOfSequence++;
        }
        selective.placed.set(psn);
        destination.count(NicCounter.RX_DELIVERED_BYTES, p.payloadBytes());
        if (psn > selective.highestPlaced) {
            selective.highestPlaced = psn;
        }
        boolean completedEarlier = false;
        if (psn == expectedPsn) {
            long end = selective.placed.nextClear(psn, selective.highestPlaced + 1);
            for (long q = psn; q < end; q++) {
                selective.placed.clear(q);
            }
            expectedPsn = end;
            destination.deliveredInOrder(this);
            while (deliveredMessages < messages.tail()) {
                long m = deliveredMessages;
                long last = messages.firstPsn(m) + (messages.sizeBytes(m) + k.mtu - 1) / k.mtu - 1;
                if (last >= expectedPsn) {
                    break;
                }
                // A message whose last packet (the one that asks for an ACK) came before this gap was filled: its
                // ACK then could only acknowledge up to the gap, so the request is answered now. Left to the
                // coalescing count (ack-every N), the last message of a burst was acknowledged by no one and its
                // requester waited out its ACK timeout on a fabric that dropped nothing.
                completedEarlier |= last != psn;
                deliveredMessages++;
                k.listener.onMessageDelivered(nowPs, id, messages.cookie(m));
            }
        }
        if (!askForGaps(nowPs, p)) {
            if (completedEarlier && !p.ackRequest()) {
                unackedPackets = 0;
                sendAck(nowPs, PacketKind.ACK, expectedPsn - 1, p);
            } else {
                scheduleAck(nowPs, p);
            }
        }
    }

    /**
     * Sends a selective NAK for each gap, in PSN order, that {@code reorder} placed PSNs have overtaken since; each
     * gap is asked for once (a lost retransmission is left to the requester's timeout). Whether one was sent.
     */
    private boolean askForGaps(long nowPs, Packet p) {
        boolean asked = false;
        long from = Math.max(selective.checkedThrough + 1, expectedPsn);
        while (from + selective.reorder <= selective.highestPlaced) {
            long gap = selective.placed.nextClear(from, selective.highestPlaced + 1);
            long last = selective.placed.nextSet(gap, selective.highestPlaced + 1) - 1;
            if (selective.highestPlaced - last < selective.reorder) {
                selective.checkedThrough = gap - 1;
                break;
            }
            unackedPackets = 0;
            selective.nakCumulativePsn = expectedPsn - 1;
            selective.nakMissingToPsn = last;
            sendAck(nowPs, PacketKind.NAK, gap, p);
            selective.nakMissingToPsn = -1;
            selective.nakPreviousMissingToPsn = last;
            destination.count(NicCounter.TX_SELECTIVE_NAKS);
            selective.selectiveNaks++;
            asked = true;
            selective.checkedThrough = last;
            from = last + 1;
        }
        return asked;
    }

    private void scheduleAck(long nowPs, Packet p) {
        if (p.ackRequest() || ++unackedPackets >= k.ackEvery) {
            unackedPackets = 0;
            sendAck(nowPs, PacketKind.ACK, expectedPsn - 1, p);
        }
    }

    private void sendAck(long nowPs, PacketKind kind, long psn, Packet data) {
        boolean flagged = notice != null && notice.cnpFlagPending;
        destination.sendAck(nowPs, this, kind, psn, data, ceSinceAck, flagged);
        ceSinceAck = false;
        if (flagged) {
            notice.cnpFlagPending = false;
        }
    }

    /** The notification point's state of this QP, made at its first CE-marked packet. */
    CongestionNotice notice() {
        if (notice == null) {
            notice = new CongestionNotice();
        }
        return notice;
    }

    // ---------------------------------------------------------------- accessors

    /** Marks this QP's data and ACKs with {@code value} instead of the RNIC's default DSCP (set before use). */
    public void dscp(int value) {
        if (value < 0 || value > 63) {
            throw new IllegalArgumentException("DSCP must be 0..63, got " + value);
        }
        this.dscp = (byte) value;
        if (!ownAckQos) {
            ackDscp = dscp;
        }
    }

    /** Sends this QP's data and ACKs on virtual lane {@code vl} (InfiniBand: the lane of its service level). */
    public void lane(int vl) {
        if (vl < 0 || vl > 15) {
            throw new IllegalArgumentException("a priority or virtual lane must be 0..15, got " + vl);
        }
        this.lane = (byte) vl;
        if (!ownAckQos) {
            ackLane = lane;
        }
    }

    public int lane() {
        return lane;
    }

    public int id() {
        return id;
    }

    /** The plane this QP is on (per-QP plane selection; 0 on a single-plane fabric). */
    public int plane() {
        return plane;
    }

    /** Sets the QP's plane before it sends anything (the network does, when it opens the QP). */
    public void initialPlane(int p) {
        this.plane = p;
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

    /**
     * Whether its congestion control limits it by a window ({@link CongestionControl#windowed}), as read when it was
     * made: a reader of many QPs (throughput.csv's samples, a million QPs at 1,024 hosts) asks it here without a
     * cache miss on the control.
     */
    public boolean windowed() {
        return windowed;
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

    /**
     * The sender heard a congestion notification answering a packet first marked at {@code markNode}'s
     * {@code markPort}, which a PFC pause held at that port if {@code heldByPause}.
     */
    void notified(int markNode, int markPort, boolean heldByPause) {
        cnpsReceived++;
        NotificationSources.record(notice(), markNode, markPort, heldByPause);
    }

    /**
     * The notifications this QP's sender has heard so far ({@link #cnpsReceived()} of them), by the port whose mark
     * caused each: (node, port, count, held) quadruplets, most first ({@code held}: those on packets a PFC pause held
     * at that port; see {@link NotificationSources}); empty for none.
     */
    public long[] notificationSources() {
        return notice == null ? new long[0] : NotificationSources.bySource(notice);
    }

    /** Data packets this QP has sent again so far (go-back-N or selective repeat). */
    public long resentPackets() {
        return resentPackets;
    }

    /** Local ACK timeouts of this QP so far. */
    public long ackTimeouts() {
        return ackTimeouts;
    }

    /**
     * Time, up to {@code nowPs}, this QP had data ready to send that its congestion control's rate held back: the gaps
     * its rate put between its packets beyond their line-rate serialisation, while it had more to send (a wait in the
     * pacer still going counts up to now). Waits for the port, pauses and the window are not in it.
     */
    public long rateHeldPs(long nowPs) {
        return rateHeldPs + (txState == TxState.PACED ? Math.max(0, Math.min(nowPs, nextSendPs) - rateHeldFromPs) : 0);
    }

    /**
     * Whether packets of the messages posted so far are still to be sent (for the first time, or again by go-back-N or
     * selective repeat): a message posted now goes after them.
     */
    public boolean hasPacketsToSend() {
        return sndNxt < postedPsns || selective != null && selective.resendCount > 0;
    }

    public long postedPsns() {
        return postedPsns;
    }

    /** Payload bytes of every message posted on this QP so far. */
    public long postedBytes() {
        return postedBytes;
    }

    /**
     * Payload bytes the responder has received in order so far: those of every PSN before {@link #expectedPsn} (the
     * cumulative point; selective repeat's packets placed beyond a gap are not in it until the gap is filled). Made
     * from the responder's cumulative PSN and the message ring, nothing counted per packet: a sampler or the run's
     * end asks, between events (a partitioned run: with every partition idle).
     */
    public long deliveredBytes() {
        return bytesBefore(expectedPsn);
    }

    /**
     * Reads what {@link #deliveredBytes} reads (this QP, its message ring, the ring's head entry) and returns a value
     * made of them: a reader of many QPs calls it for a batch before it reads them, so that their cache misses, three
     * in a row for each QP, overlap across the batch instead of following one another.
     */
    public long touchDelivered() {
        return expectedPsn + postedPsns + messages.touchHead();
    }

    /**
     * As {@link #touchDelivered}, for what a sampler of rates reads: this QP, and its congestion control when the QP
     * still has data to send.
     */
    public long touchRate() {
        return postedPsns == 0 || sndUna == postedPsns ? postedPsns + cnpsReceived : cnpsReceived + cc.rateBps();
    }

    /** Whether this QP places out of order and repeats selectively (both its RNICs have {@code nic.ooo}). */
    public boolean selectiveRepeat() {
        return selective != null;
    }

    /** Data packets of this QP that arrived ahead of a gap and were placed (out-of-order placement only). */
    public long outOfSequence() {
        return selective == null ? 0 : selective.outOfSequence;
    }

    /** Data packets of this QP that arrived again after they had been placed (out-of-order placement only). */
    public long duplicates() {
        return selective == null ? 0 : selective.duplicates;
    }

    /** Data packets this QP sent again because the receiver asked for them alone, or after a timeout. */
    public long selectiveRetransmissions() {
        return selective == null ? 0 : selective.selectiveRetransmissions;
    }

    /** Selective NAKs the responder of this QP sent. */
    public long selectiveNaks() {
        return selective == null ? 0 : selective.selectiveNaks;
    }
}
