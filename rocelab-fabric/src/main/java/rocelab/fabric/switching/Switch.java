package rocelab.fabric.switching;

import java.util.Arrays;
import java.util.SplittableRandom;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.flowcontrol.credit.CreditIngress;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.IngressLists;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.CreditProbe;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.EcmpProbe;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.probe.PortCounter;

/**
 * An Ethernet/IP switch: classifies each arriving frame by DSCP into a traffic class, picks the output port among
 * the equal-cost next hops (ECMP hash of the RoCEv2 5-tuple, per-packet spraying, or by load: {@link AdaptiveSelector}), admits it into the shared
 * buffer or drops it with a reason, and queues it on the output port. On lossless priorities its buffer drives
 * PFC: XOFF frames to the upstream device on the ingress port (refreshed while needed) and XON when drained.
 */
public final class Switch implements SharedBuffer.PauseListener, EventHandler {
    private static final int REFRESH = 1;
    private static final int WATCHDOG = 2;
    private static final int IDLE_CHECK = 3;

    private final int nodeId;
    private final String name;
    private final EgressPort[] ports;
    private final PacketSink[] ingress;
    private int[][] routes;
    /** The same routes with how the switch chooses among them, for readers on other threads ({@link Forwarding}). */
    private Forwarding forwarding;
    private final SharedBuffer buffer;
    private final int[] dscpToTc;
    private final LoadBalancing loadBalancing;
    private final EcmpHash hash;
    private final long hashSeed;
    private final SplittableRandom random;
    /** The load-aware choice (adaptive and flowlet modes); null under ECMP and spraying. */
    private final AdaptiveSelector adaptive;
    private final PacketPool pool;
    private final Simulator sim;
    private final int handlerId;
    private final PfcParameters pfc;
    private final FrameFormat frames;
    private final long[] refreshEpoch;
    private PfcProbe pfcProbe = PfcProbe.NONE;
    private JourneyProbe journey = JourneyProbe.NONE;
    /** Hears ECMP collisions (see {@link EcmpProbe}); none: the switch looks for none. */
    private EcmpProbe ecmp = EcmpProbe.NONE;
    /**
     * What {@link #collides} found: the other flow's packet queued ahead (directly ahead, or the oldest queued), the idle
     * equal-cost port and how long it had been idle.
     */
    private Packet ahead;
    private boolean directlyAhead;
    private int idlePort;
    private long idlePs;
    /**
     * With an ECMP probe: per port, the ports equal-cost with it towards some host (null: none), and whether an idle
     * check of it is pending ({@link #onDrained}); null without a probe.
     */
    private int[][] siblings;
    private boolean[] idleCheckPending;
    /**
     * Per (port, class): the last queued packet an idle check looked at and its place in the order the queue's packets
     * joined it ({@link EgressPort#dequeued}), so the next check starts after it while it is still queued: each packet
     * is looked at about once, however often a sibling falls idle beside a long queue.
     */
    private Packet[] lookedAt;
    private long[] lookedAtOrdinal;
    private final boolean[] storm;
    private final long[] stuckSincePs;
    private final long[] lastTransmitted;
    /** Per port, the largest frame (or, {@link #limitsPayload}, payload) it carries. */
    private int[] maxFrameBytes;
    private boolean limitsPayload;
    /** The lossless queues linked by ingress port, for the PFC log's causes; null until asked for. */
    private IngressLists ingressLists;
    /** Link the lossless queues by ingress before this switch's first XOFF ({@link #linkQueuesByIngressAtFirstXoff}). */
    private boolean linkAtFirstXoff;

    /**
     * @param routes for each destination host, the output ports on a shortest path (shared arrays, read only)
     */
    public Switch(Simulator sim, int nodeId, String name, EgressPort[] ports, int[][] routes, SharedBuffer buffer,
            SwitchParameters params, PfcParameters pfc, FrameFormat frames, long hashSeed, SplittableRandom random,
            PacketPool pool) {
        this.sim = sim;
        this.handlerId = sim.register(this);
        this.pfc = pfc;
        this.frames = frames;
        this.refreshEpoch = new long[ports.length * SwitchParameters.TRAFFIC_CLASSES];
        this.storm = new boolean[ports.length * SwitchParameters.TRAFFIC_CLASSES];
        this.stuckSincePs = new long[ports.length * SwitchParameters.TRAFFIC_CLASSES];
        this.lastTransmitted = new long[ports.length * SwitchParameters.TRAFFIC_CLASSES];
        Arrays.fill(stuckSincePs, -1);
        buffer.listener(this);
        if (pfc.enabled() && pfc.watchdog().enabled()) {
            sim.schedule(pfc.watchdog().pollPs(), handlerId, WATCHDOG, 0L);
        }
        this.nodeId = nodeId;
        this.name = name;
        this.ports = ports.clone();
        for (EgressPort p : this.ports) {
            p.owner(nodeId);
        }
        this.routes = routes;
        this.buffer = buffer;
        this.dscpToTc = params.dscpToTc();
        this.loadBalancing = params.loadBalancing();
        this.hash = params.ecmpHash();
        this.hashSeed = hashSeed;
        this.forwarding = new Forwarding(routes, loadBalancing, hash, hashSeed);
        this.random = random;
        this.adaptive = loadBalancing.loadAware()
                ? new AdaptiveSelector(this.ports, loadBalancing, params.adaptive(), random, hash, hashSeed) : null;
        this.pool = pool;
        this.maxFrameBytes = new int[ports.length];
        Arrays.fill(maxFrameBytes, Integer.MAX_VALUE);
        this.ingress = new PacketSink[ports.length];
        for (int i = 0; i < ports.length; i++) {
            final int port = i;
            ingress[i] = (nowPs, packet) -> onArrival(nowPs, port, packet);
        }
    }

    /** The receiver that a link into port {@code port} delivers to. */
    /** New next hops after a topology change (the control plane converged). */
    public void routes(int[][] newRoutes) {
        this.routes = newRoutes;
        this.forwarding = new Forwarding(newRoutes, loadBalancing, hash, hashSeed);
        if (siblings != null) {
            siblings = siblings();
        }
    }

    /** The largest frame each port accepts and sends (its MTU plus the L2 header); larger frames are dropped. */
    public void maxFrameBytes(int[] perPort) {
        if (perPort.length != ports.length) {
            throw new IllegalArgumentException("one maximum frame size per port");
        }
        this.maxFrameBytes = perPort.clone();
        this.limitsPayload = false;
    }

    /**
     * InfiniBand: the largest payload each port carries (its MTU: IB's MTU counts the payload alone, whatever the
     * headers); packets with more are dropped.
     */
    public void maxPayloadBytes(int[] perPort) {
        maxFrameBytes(perPort);
        this.limitsPayload = true;
    }

    public PacketSink ingress(int port) {
        return ingress[port];
    }

    void onArrival(long nowPs, int inPort, Packet packet) {
        ports[inPort].countReceived(packet.frameBytes());
        if (packet.kind() == PacketKind.PFC) {
            // MAC control frames end at the receiving MAC: they pause our transmitter on that port.
            ports[inPort].onPauseFrame(nowPs, packet.priority(), packet.pauseQuanta(), packet.sentAtPs());
            pool.release(packet);
            return;
        }
        if (ports[inPort].creditReturn() != null && CreditIngress.consumed(nowPs,
                ports[inPort], packet, routes)) {
            pool.release(packet);
            return;
        }
        int[] candidates = routes[packet.dstHost()];
        if (candidates.length == 0) {
            drop(inPort, packet, DropReason.NO_ROUTE);
            return;
        }
        int tc = dscpToTc[packet.dscp()];
        int out;
        // Whether the packet joins its queue behind an ECMP collision: decided here, where the hash chose, and only
        // under ECMP with a probe listening; told once the packet is admitted.
        boolean collided = false;
        if (candidates.length == 1) {
            out = candidates[0];
        } else if (adaptive != null) {
            out = adaptive.choose(nowPs, tc, packet.srcHost(), packet.dstHost(), packet.entropy(), candidates);
        } else if (loadBalancing == LoadBalancing.SPRAY) {
            out = candidates[random.nextInt(candidates.length)];
        } else {
            out = candidates[ecmpChoice(packet.srcHost(), packet.dstHost(), packet.entropy(), candidates.length)];
            collided = ecmp != EcmpProbe.NONE && collides(nowPs, packet, candidates, out, tc);
        }
        int size = limitsPayload ? packet.payloadBytes() : packet.frameBytes();
        if (size > maxFrameBytes[inPort] || size > maxFrameBytes[out]) {
            freeCredits(nowPs, inPort, packet);
            drop(size > maxFrameBytes[inPort] ? inPort : out, packet, DropReason.OVERSIZE);
            return;
        }
        if (storm[out * SwitchParameters.TRAFFIC_CLASSES + tc] && pfc.watchdog().drop()) {
            dropByWatchdog(out, tc, packet);
            return;
        }
        DropReason refused = buffer.admit(nowPs, inPort, out, tc, packet.frameBytes());
        if (refused != null) {
            freeCredits(nowPs, inPort, packet);
            // A headroom overflow is the ingress priority group's (the port whose upstream did not stop in time), as
            // real switches count it (SONiC PG drops, SAI_PORT_STAT_IN_DROPPED_PKTS); a full shared buffer refuses the
            // packet for the egress queue it was headed to, counted there as a tail drop.
            drop(refused == DropReason.HEADROOM_EXCEEDED ? inPort : out, packet, refused);
            return;
        }
        packet.ingressPort(inPort);
        packet.qos(tc, packet.dscp(), packet.ecn());
        journey.onEnqueue(nowPs, nodeId, inPort, out, ports[out].queuedBytes(tc), packet);
        if (ingressLists != null) {
            // Before the port sees it: an idle port dequeues (and unlinks) it at once.
            ingressLists.add(inPort, out, tc, packet);
        }
        if (collided) {
            EgressPort port = ports[out];
            ecmp.onCollision(nowPs, nodeId, out, tc, port.queuedBytes(tc), packet, ahead, directlyAhead, idlePort,
                    idlePs);
            ahead = null;
            port.enqueueAfterCollision(nowPs, packet);
        } else {
            ports[out].enqueue(nowPs, packet);
        }
    }

    /**
     * Whether {@code packet}, hashed onto port {@code out} among {@code candidates}, joins its queue there behind an
     * ECMP collision (see {@link EcmpProbe}): a flow's packet (data, or the last ACK its sender
     * waits for), a non-empty queue of its class whose last (or else first) packet is another queue pair's flow's data, and
     * an equal-cost port idle at this instant ({@link EgressPort#idleFor}); it notes what it found in {@link #ahead},
     * {@link #directlyAhead}, {@link #idlePort} and {@link #idlePs}. Cheap first: most hashed packets find their queue
     * empty and stop at the first test.
     */
    private boolean collides(long nowPs, Packet packet, int[] candidates, int out, int tc) {
        EgressPort port = ports[out];
        if (port.queuedBytes(tc) == 0 || packet.cookie() < 0) {
            return false;
        }
        Packet other = port.lastQueued(tc);
        boolean last = true;
        if (!anotherFlowsData(other, packet)) {
            other = port.firstQueued(tc);
            last = false;
            if (!anotherFlowsData(other, packet)) {
                return false;
            }
        }
        for (int c : candidates) {
            if (c != out) {
                long idle = ports[c].idleFor(nowPs, tc, packet.wireBytes(), packet.frameBytes());
                if (idle >= 0) {
                    ahead = other;
                    directlyAhead = last;
                    idlePort = c;
                    idlePs = idle;
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * InfiniBand: a packet that arrived and is dropped leaves its input buffer at once, so its credits go back to the
     * sender (as an unroutable one's do): kept, they stalled the link for good after the first oversize drop.
     */
    private void freeCredits(long nowPs, int inPort, Packet packet) {
        CreditReturn credits = ports[inPort].creditReturn();
        if (credits != null) {
            credits.onFreed(nowPs, packet.priority(), packet.frameBytes());
        }
    }

    /**
     * Which of {@code n} equal-cost next hops the ECMP hash picks for a QP's packets (from host {@code srcHost} to
     * {@code dstHost} with UDP source port {@code entropy}): what every data packet of that QP does here.
     */
    public int ecmpChoice(int srcHost, int dstHost, int entropy, int n) {
        return hash.hash(ipOf(srcHost), ipOf(dstHost), entropy, 4791, hashSeed) % n;
    }

    /** The output ports on a shortest path to host {@code dstHost} now, in port order (read only; may be empty). */
    public int[] candidates(int dstHost) {
        return routes[dstHost];
    }

    /** The traffic class this switch puts frames of {@code dscp} in. */
    public int trafficClass(int dscp) {
        return dscpToTc[dscp];
    }

    public LoadBalancing loadBalancing() {
        return loadBalancing;
    }

    /** Flowlets this switch has begun (flowlet mode; 0 otherwise). */
    public long flowletsStarted() {
        return adaptive == null ? 0 : adaptive.flowletsStarted();
    }

    /** Whether {@code other} is a data packet of a flow on another queue pair than {@code packet}'s. */
    private static boolean anotherFlowsData(Packet other, Packet packet) {
        return other.kind() == PacketKind.DATA && other.cookie() >= 0 && other.queuePair() != packet.queuePair();
    }

    /** Counts a drop on the port it concerns: the full output queue's port, or the ingress port if unroutable. */
    private void drop(int portIndex, Packet packet, DropReason reason) {
        if (reason == DropReason.BUFFER_FULL && (journey != JourneyProbe.NONE || ecmp != EcmpProbe.NONE)) {
            tellBufferFull(sim.nowPs(), portIndex, packet);
        } else {
            journey.onDrop(sim.nowPs(), nodeId, portIndex, reason, packet);
        }
        count(portIndex, packet, reason);
    }

    /**
     * A packet for output {@code portIndex} found the shared buffer full: the probes hear what held the buffer at this
     * moment, the egress queue holding the most of it, as this switch counts it (a scan of its queues, per drop).
     */
    private void tellBufferFull(long nowPs, int portIndex, Packet packet) {
        int q = buffer.fullestEgressQueue();
        int classes = buffer.classes();
        int holderPort = q < 0 ? -1 : q / classes;
        int holderTc = q < 0 ? -1 : q % classes;
        long holderBytes = q < 0 ? 0 : buffer.egressBytes(holderPort, holderTc);
        journey.onBufferFullDrop(nowPs, nodeId, portIndex, packet, holderPort, holderTc, holderBytes,
                buffer.sharedUsedBytes(), buffer.sharedPoolBytes());
        ecmp.onBufferFullDrop(nowPs, nodeId, portIndex, packet.cookie(), packet.kind() != PacketKind.DATA,
                holderPort, holderTc, holderBytes);
    }

    /**
     * The PFC watchdog drops a packet arriving for a queue it found in a pause storm; the probes hear it with the PFC
     * frame that last paused that queue, which names the pause (and so its root) by identity.
     */
    private void dropByWatchdog(int out, int tc, Packet packet) {
        long nowPs = sim.nowPs();
        long xoffSentPs = ports[out].lastXoffSentPs(tc);
        journey.onWatchdogDrop(nowPs, nodeId, out, tc, packet, xoffSentPs);
        if (packet.cookie() >= 0) {
            pfcProbe.onWatchdogDrop(nowPs, nodeId, out, tc, packet.queuePair(), packet.cookie(),
                    packet.kind() != PacketKind.DATA, xoffSentPs);
        }
        count(out, packet, DropReason.PFC_WATCHDOG);
    }

    private void count(int portIndex, Packet packet, DropReason reason) {
        EgressPort port = ports[portIndex];
        port.count(PortCounter.DROPPED_PACKETS, 1);
        port.count(PortCounter.DROPPED_BYTES, packet.frameBytes());
        port.count(switch (reason) {
            case BUFFER_FULL -> PortCounter.DROPPED_BUFFER_FULL;
            case HEADROOM_EXCEEDED -> PortCounter.DROPPED_HEADROOM;
            case PFC_WATCHDOG -> PortCounter.DROPPED_PFC_WATCHDOG;
            case OVERSIZE -> PortCounter.DROPPED_OVERSIZE;
            case LINK_DOWN -> PortCounter.DROPPED_LINK_DOWN;
            case NO_ROUTE -> PortCounter.DROPPED_NO_ROUTE;
        }, 1);
        pool.release(packet);
    }

    /** The buffer decided XOFF for a priority group: pause the upstream device on that port. */
    @Override
    public void onXoff(long nowPs, int port, int priority, long groupBytes, PfcReason reason) {
        sendPause(nowPs, port, priority, pfc.pauseQuanta(), groupBytes, reason);
        int g = port * SwitchParameters.TRAFFIC_CLASSES + priority;
        scheduleRefresh(nowPs, port, g);
    }

    @Override
    public void onXon(long nowPs, int port, int priority, long groupBytes) {
        refreshEpoch[port * SwitchParameters.TRAFFIC_CLASSES + priority]++;
        sendPause(nowPs, port, priority, 0, groupBytes, PfcReason.RESUME);
    }

    /** While still congested, XOFF is sent again at half the pause time, before the peer's pause expires. */
    private void scheduleRefresh(long nowPs, int port, int g) {
        long half = Headroom.pauseDurationPs(pfc.pauseQuanta(), ports[port].rateBps()) / 2;
        sim.schedule(nowPs + Math.max(1, half), handlerId, REFRESH, ++refreshEpoch[g] << 16 | g);
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (kind == WATCHDOG) {
            pollWatchdog(nowPs);
            sim.schedule(nowPs + pfc.watchdog().pollPs(), handlerId, WATCHDOG, 0L);
            return;
        }
        if (kind == IDLE_CHECK) {
            if (siblings != null && siblings[(int) arg] != null) {
                checkIdle(nowPs, (int) arg);
            }
            return;
        }
        int g = (int) (arg & 0xFFFF);
        int port = g / SwitchParameters.TRAFFIC_CLASSES;
        int priority = g % SwitchParameters.TRAFFIC_CLASSES;
        if (arg >>> 16 == refreshEpoch[g] && buffer.isPausing(port, priority)) {
            sendPause(nowPs, port, priority, pfc.pauseQuanta(), buffer.ingressBytes(port, priority),
                    PfcReason.REFRESH);
            scheduleRefresh(nowPs, port, g);
        }
    }

    /**
     * PFC watchdog poll: a lossless queue paused by its peer, holding packets, that sent nothing since the last poll
     * for the detection time is in a storm; restore it once no PFC frame arrived for the restoration time.
     */
    private void pollWatchdog(long nowPs) {
        var wd = pfc.watchdog();
        for (int p = 0; p < ports.length; p++) {
            EgressPort port = ports[p];
            for (int prio = 0; prio < SwitchParameters.TRAFFIC_CLASSES; prio++) {
                if (!pfc.isLossless(prio)) {
                    continue;
                }
                int g = p * SwitchParameters.TRAFFIC_CLASSES + prio;
                long sent = port.transmitted(prio);
                if (storm[g]) {
                    if (nowPs - port.lastPauseFramePs(prio) >= wd.restorationPs()) {
                        storm[g] = false;
                        port.ignorePause(nowPs, prio, false);
                        port.count(PortCounter.PFC_WATCHDOG_RESTORES, 1);
                    } else if (wd.drop()) {
                        port.drainClass(nowPs, prio, pool);
                    }
                } else if (port.isPaused(prio) && port.queuedBytes(prio) > 0 && sent == lastTransmitted[g]) {
                    if (stuckSincePs[g] < 0) {
                        stuckSincePs[g] = nowPs - wd.pollPs();
                    }
                    if (nowPs - stuckSincePs[g] >= wd.detectionPs()) {
                        storm[g] = true;
                        stuckSincePs[g] = -1;
                        port.count(PortCounter.PFC_WATCHDOG_STORMS, 1);
                        port.ignorePause(nowPs, prio, true);
                        if (wd.drop()) {
                            port.drainClass(nowPs, prio, pool);
                        }
                    }
                } else {
                    stuckSincePs[g] = -1;
                }
                lastTransmitted[g] = sent;
            }
        }
    }

    private void sendPause(long nowPs, int port, int priority, int quanta, long groupBytes, PfcReason reason) {
        if (linkAtFirstXoff && quanta > 0) {
            linkAtFirstXoff = false;
            linkQueuesByIngress();
        }
        Packet frame = pool.acquire().initPfc(nowPs, priority, quanta, frames.pfcFrameBytes());
        pfcProbe.onPfcSent(nowPs, nodeId, port, priority, quanta, groupBytes, buffer.threshold(), reason,
                buffer.sharedUsedBytes(), buffer.sharedPoolBytes());
        ports[port].sendControl(nowPs, frame);
    }

    /** Follows packets for a journey; the egress ports report their ECN marks to it too. */
    public void journeyProbe(JourneyProbe probe) {
        this.journey = probe;
        for (EgressPort p : ports) {
            p.journeyProbe(probe, nodeId);
        }
    }

    /** Hears this switch's PFC frames, and the waits of packets behind pauses at its ports. */
    /** The run ends at {@code nowPs}: see {@link EgressPort#settlePauses}, for every port. */
    public void settlePauses(long nowPs) {
        for (EgressPort p : ports) {
            p.settlePauses(nowPs);
        }
    }

    /**
     * Hears this switch's ECMP collisions and the waits they cost at its ports ({@code EcmpProbe.NONE}: the switch
     * looks for none). Only a switch that hashes (load balancing {@code ecmp}) has any.
     */
    public void ecmpProbe(EcmpProbe probe) {
        this.ecmp = probe;
        boolean hashes = probe != EcmpProbe.NONE && adaptive == null && loadBalancing != LoadBalancing.SPRAY;
        siblings = hashes ? siblings() : null;
        idleCheckPending = hashes ? new boolean[ports.length] : null;
        lookedAt = hashes ? new Packet[ports.length * SwitchParameters.TRAFFIC_CLASSES] : null;
        lookedAtOrdinal = hashes ? new long[ports.length * SwitchParameters.TRAFFIC_CLASSES] : null;
        for (EgressPort p : ports) {
            p.ecmpProbe(probe);
            p.drainListener(hashes ? this::onDrained : null);
        }
    }

    /** Per port, the ports that are equal-cost with it towards some host under the current routes (null: none). */
    private int[][] siblings() {
        boolean[][] with = new boolean[ports.length][ports.length];
        for (int[] c : routes) {
            for (int i = 0; c.length > 1 && i < c.length; i++) {
                for (int j = 0; j < c.length; j++) {
                    with[c[i]][c[j]] |= i != j;
                }
            }
        }
        int[][] out = new int[ports.length][];
        for (int p = 0; p < ports.length; p++) {
            int n = 0;
            for (boolean b : with[p]) {
                n += b ? 1 : 0;
            }
            if (n == 0) {
                continue;
            }
            out[p] = new int[n];
            for (int q = 0, k = 0; q < ports.length; q++) {
                if (with[p][q]) {
                    out[p][k++] = q;
                }
            }
        }
        return out;
    }

    /**
     * Port {@code port} starts the last frame it has: from {@code freeAtPs} it may fall idle beside equal-cost ports
     * that still hold packets. Those packets joined their queues while it was busy, so the rule at enqueue
     * ({@link #collides}) did not find them; if a sibling holds any, the switch looks again once the port has been
     * idle for the time its siblings' oldest queued packets take on its wire ({@link #checkIdle}). One check pending
     * per port, and only beside a backlog: a cost per port falling idle, nothing per packet queued.
     */
    private void onDrained(long nowPs, int port, long freeAtPs) {
        int[] sib = siblings[port];
        if (sib == null || idleCheckPending[port]) {
            return;
        }
        int wire = 0;
        for (int s : sib) {
            EgressPort x = ports[s];
            for (int tc = 0; x.queuedBytes() > 0 && tc < SwitchParameters.TRAFFIC_CLASSES; tc++) {
                Packet head = x.firstQueued(tc);
                if (head != null) {
                    wire = Math.max(wire, head.wireBytes());
                }
            }
        }
        if (wire > 0) {
            idleCheckPending[port] = true;
            sim.schedule(freeAtPs + ports[port].wireTimePs(wire), handlerId, IDLE_CHECK, port);
        }
    }

    /**
     * Port {@code idle} may have fallen idle (nothing queued, nothing sent since its last frame): the packets of flows
     * that the hash put on an equal-cost sibling, queued there behind another flow's data (directly ahead, or the
     * oldest queued: the rule at enqueue, applied to each one's place in its queue), wait beside an idle port from now
     * on, each once the port has been idle for its own time on that wire ({@link EgressPort#idleFor}, as at enqueue).
     * Each is a collision from then ({@link EcmpProbe#onCollision}), its wait counted from then
     * ({@link EgressPort#collideFromNow}); a packet already marked is left as it is. A packet the port has not yet been
     * idle long enough for is looked at again when it has. A walk of the siblings' queues per port falling idle beside
     * them, never per packet sent.
     */
    private void checkIdle(long nowPs, int idle) {
        idleCheckPending[idle] = false;
        EgressPort port = ports[idle];
        if (port.queuedBytes() > 0 || port.freeAtPs() > nowPs) {
            // Busy again: its next last frame looks again.
            return;
        }
        long later = Long.MAX_VALUE;
        for (int s : siblings[idle]) {
            EgressPort sib = ports[s];
            for (int tc = 0; sib.queuedBytes() > 0 && tc < SwitchParameters.TRAFFIC_CLASSES; tc++) {
                later = Math.min(later, lookAt(nowPs, idle, s, tc));
            }
        }
        if (later != Long.MAX_VALUE) {
            idleCheckPending[idle] = true;
            sim.schedule(later, handlerId, IDLE_CHECK, idle);
        }
    }

    /**
     * The walk of {@link #checkIdle} over sibling {@code s}'s queue of class {@code tc}, from after the packet the last
     * walk looked at (while it is still queued), else from the head; returns when a packet the idle port has not yet
     * been idle long enough for may be looked at again (Long.MAX_VALUE: none), and the walk stops before it next time.
     */
    private long lookAt(long nowPs, int idle, int s, int tc) {
        EgressPort port = ports[idle];
        EgressPort sib = ports[s];
        int slot = s * SwitchParameters.TRAFFIC_CLASSES + tc;
        long dequeued = sib.dequeued(tc);
        Packet first = sib.firstQueued(tc);
        if (first == null) {
            return Long.MAX_VALUE;
        }
        Packet prev = null;
        Packet q = first;
        long ordinal = dequeued;
        if (lookedAt[slot] != null && lookedAtOrdinal[slot] >= dequeued) {
            prev = lookedAt[slot];
            q = sib.queuedAfter(tc, prev);
            ordinal = lookedAtOrdinal[slot] + 1;
        }
        // The bytes queued ahead of q, which only a collision tells: unknown (-1) until the first one of this walk
        // needs them, then counted on. Found then as the queue less what is queued from that packet on, a walk to
        // the tail the walk makes anyway, so a walk without a collision reads each packet once.
        long ahead = -1;
        long later = Long.MAX_VALUE;
        for (; q != null; prev = q, q = sib.queuedAfter(tc, q), ordinal++) {
            long bytesAhead = ahead;
            if (ahead >= 0) {
                ahead += q.frameBytes();
            }
            if (later == Long.MAX_VALUE) {
                lookedAt[slot] = q;
                lookedAtOrdinal[slot] = ordinal;
            }
            if (prev == null || q.cookie() < 0 || q.ecmpCollision()) {
                continue;
            }
            Packet other = anotherFlowsData(prev, q) ? prev : anotherFlowsData(first, q) ? first : null;
            if (other == null || !hashedAmong(routes[q.dstHost()], idle)) {
                continue;
            }
            long idlePs = port.idleFor(nowPs, tc, q.wireBytes(), q.frameBytes());
            if (idlePs < 0) {
                long due = port.freeAtPs() + port.wireTimePs(q.wireBytes());
                if (due > nowPs && later == Long.MAX_VALUE) {
                    // Looked at again from here: the walk's mark stays on the packet before it.
                    lookedAt[slot] = prev;
                    lookedAtOrdinal[slot] = ordinal - 1;
                    later = due;
                }
                continue;
            }
            if (bytesAhead < 0) {
                bytesAhead = sib.queuedBytes(tc);
                for (Packet x = q; x != null; x = sib.queuedAfter(tc, x)) {
                    bytesAhead -= x.frameBytes();
                }
                ahead = bytesAhead + q.frameBytes();
            }
            // Told before its clock changes: the probe reads the packet during the call only.
            ecmp.onIdleCollision(nowPs, nodeId, s, tc, bytesAhead, q, other, other == prev, idle, idlePs);
            sib.collideFromNow(nowPs, tc, q);
        }
        return later;
    }

    /** Whether a packet with these candidate ports was hashed among several of them, {@code port} one. */
    private static boolean hashedAmong(int[] candidates, int port) {
        if (candidates.length < 2) {
            return false;
        }
        for (int c : candidates) {
            if (c == port) {
                return true;
            }
        }
        return false;
    }

    /** Whether this switch picks by the ECMP hash among two or more equal-cost ports towards some host. */
    public boolean hashesAmongEqualCostPorts() {
        if (adaptive != null || loadBalancing == LoadBalancing.SPRAY) {
            return false;
        }
        for (int[] c : routes) {
            if (c.length > 1) {
                return true;
            }
        }
        return false;
    }

    public void pfcProbe(PfcProbe probe) {
        this.pfcProbe = probe;
        for (EgressPort p : ports) {
            p.pfcProbe(probe);
        }
    }

    /**
     * Links this switch's lossless queues by ingress port from now on ({@link IngressLists}), the packets queued
     * already included, so that an XOFF's cause visits the pausing group's packets only. Nothing when no class is
     * lossless; a second call changes nothing.
     */
    public void linkQueuesByIngress() {
        if (ingressLists != null || !pfc.enabled()) {
            return;
        }
        linkQueues(pfc.losslessMask(), true);
    }

    /**
     * As {@link #linkQueuesByIngress}, but just before this switch sends its first XOFF, the first moment an XOFF's
     * cause is read: the lists then hold every packet queued at that moment, as if they had been linked all along,
     * and a switch that never pauses (every switch of most lossless runs: DCQCN holds the queues below the
     * threshold) never pays for linking each packet in and out.
     */
    public void linkQueuesByIngressAtFirstXoff() {
        linkAtFirstXoff = ingressLists == null && pfc.enabled();
    }

    private void linkQueues(int classMask, boolean linked) {
        var lists = new IngressLists(ports.length, SwitchParameters.TRAFFIC_CLASSES, classMask,
                linked);
        for (int out = 0; out < ports.length; out++) {
            EgressPort port = ports[out];
            for (int tc = 0; tc < SwitchParameters.TRAFFIC_CLASSES; tc++) {
                if (!lists.tracks(tc)) {
                    continue;
                }
                for (Packet p = port.firstQueued(tc); p != null; p = port.queuedAfter(tc, p)) {
                    lists.add(p.ingressPort(), out, tc, p);
                }
            }
            port.ingressLists(lists);
        }
        this.ingressLists = lists;
    }

    /**
     * InfiniBand: from now on every credit update this switch sends carries the root of what its input buffer holds
     * ({@link InputBufferHolder}), for which its queues count their bytes by ingress port on every data lane. Nothing
     * on an Ethernet switch; a second call changes nothing.
     */
    public void traceCreditRoots() {
        if (ports.length == 0 || ports[0].creditReturn() == null) {
            return;
        }
        if (ingressLists == null) {
            linkQueues((1 << InfinibandParameters.DATA_VLS) - 1, false);
        }
        InputBufferHolder holder = new InputBufferHolder(nodeId, ports, ingressLists);
        for (int p = 0; p < ports.length; p++) {
            ports[p].creditReturn().holder(holder, p);
        }
    }

    /** Hears the waits of packets for credits at this switch's ports (InfiniBand), with their roots. */
    public void creditProbe(CreditProbe probe) {
        for (EgressPort p : ports) {
            p.creditProbe(probe);
        }
    }

    /** The lossless queues linked by ingress port ({@link #linkQueuesByIngress}), or null. */
    public IngressLists ingressLists() {
        return ingressLists;
    }

    /**
     * The one port a QP's packets (from {@code srcHost} to {@code dstHost} with {@code entropy}) leave by, or -1 when
     * there is none or this switch may send them by any of its equal-cost ports (spraying, adaptive choices).
     */
    public int forwardingPort(int srcHost, int dstHost, int entropy) {
        return forwarding.port(srcHost, dstHost, entropy);
    }

    /**
     * Whether a data packet from {@code srcHost} to {@code dstHost} with UDP source port {@code entropy} leaves by
     * {@code port} under the current routes: the ECMP choice, or with spraying, adaptive routing or flowlets any of
     * the equal-cost ports.
     */
    public boolean forwardsThrough(int srcHost, int dstHost, int entropy, int port) {
        return forwarding.through(srcHost, dstHost, entropy, port);
    }

    /** The switch's choices of port as it stands (its routes now), apart from what it writes as it forwards. */
    public Forwarding forwarding() {
        return forwarding;
    }

    /** The IPv4 address of a host's RNIC: 10.0.0.0 + host + 1. */
    public static int ipOf(int host) {
        return 0x0A000000 + host + 1;
    }

    public int nodeId() {
        return nodeId;
    }

    public String name() {
        return name;
    }

    public int portCount() {
        return ports.length;
    }

    public EgressPort port(int i) {
        return ports[i];
    }

    public SharedBuffer buffer() {
        return buffer;
    }

    /**
     * How long after one of this switch's queues of class {@code priority} stops sending, paused and holding packets,
     * its PFC watchdog has declared a pause storm at the latest: the detection time from the first poll that finds it
     * stuck (which counts the poll before it), plus up to two poll intervals; -1 when no watchdog watches the class.
     */
    public long watchdogActsWithinPs(int priority) {
        var wd = pfc.watchdog();
        if (!pfc.enabled() || !wd.enabled() || !pfc.isLossless(priority)) {
            return -1;
        }
        return wd.detectionPs() + 2 * wd.pollPs();
    }
}
