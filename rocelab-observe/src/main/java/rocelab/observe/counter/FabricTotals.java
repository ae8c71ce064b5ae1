package rocelab.observe.counter;

import rocelab.fabric.network.Network;
import rocelab.fabric.nic.Nic;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.switching.Switch;

/** Fabric-wide sums of the RNIC and switch port counters, read once at the end of a run. */
public record FabricTotals(
        long dataPacketsSent,
        long dataBytesSent,
        long retransmittedPackets,
        long packetsDropped,
        long droppedBufferFull,
        long droppedNoRoute,
        long droppedHeadroom,
        long droppedPfcWatchdog,
        long droppedOversize,
        long pfcWatchdogStorms,
        long linkLosses,
        long nicOutOfBuffer,
        long ecnMarked,
        long ecnMarkedArrived,
        long cnpSent,
        long cnpHandled,
        long cnpIgnored,
        long rateCuts,
        long pfcPauseSent,
        long pausedPs,
        long naksSent,
        long ackTimeouts,
        long retryExceeded,
        long deliveredBytes,
        long maxQueueBytes,
        String maxQueuePort,
        long outOfSequence,
        long duplicateRequests,
        long selectiveRetransmitted,
        long selectiveNaksSent) {

    /** Packets dropped for {@code reason}, fabric-wide (every reason has a total, so none goes uncounted). */
    public long dropped(DropReason reason) {
        return switch (reason) {
            case BUFFER_FULL -> droppedBufferFull;
            case HEADROOM_EXCEEDED -> droppedHeadroom;
            case PFC_WATCHDOG -> droppedPfcWatchdog;
            case LINK_DOWN -> linkLosses;
            case OVERSIZE -> droppedOversize;
            case NO_ROUTE -> droppedNoRoute;
        };
    }

    public static FabricTotals of(Network network) {
        long[] nic = new long[NicCounter.COUNT];
        for (int h = 0; h < network.hostCount(); h++) {
            Nic n = network.nic(h);
            for (NicCounter c : NicCounter.values()) {
                nic[c.ordinal()] += n.counter(c);
            }
        }
        long[] port = new long[PortCounter.COUNT];
        long cuts = 0;
        for (int q = 0; q < network.queuePairs().size(); q++) {
            cuts += network.queuePairs().get(q).congestionControl().rateCuts();
        }
        long maxQueue = 0;
        long ongoingPause = 0;
        String maxPort = "";
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                EgressPort ep = sw.port(p);
                for (PortCounter c : PortCounter.values()) {
                    port[c.ordinal()] += ep.counter(c);
                }
                for (int prio = 0; prio < 8; prio++) {
                    ongoingPause += ep.pausedPs(prio, network.simulator().nowPs()) - ep.pausedPs(prio);
                }
                if (ep.peakQueuedBytes() > maxQueue) {
                    maxQueue = ep.peakQueuedBytes();
                    maxPort = sw.name() + "/p" + p;
                }
            }
        }
        return new FabricTotals(
                nic[NicCounter.TX_DATA_PACKETS.ordinal()],
                nic[NicCounter.TX_DATA_BYTES.ordinal()],
                nic[NicCounter.RETRANSMITTED_PACKETS.ordinal()],
                port[PortCounter.DROPPED_PACKETS.ordinal()] + nic[NicCounter.TX_LOST_LINK_DOWN.ordinal()]
                        + nic[NicCounter.OUT_OF_BUFFER.ordinal()],
                port[PortCounter.DROPPED_BUFFER_FULL.ordinal()],
                port[PortCounter.DROPPED_NO_ROUTE.ordinal()],
                port[PortCounter.DROPPED_HEADROOM.ordinal()],
                port[PortCounter.DROPPED_PFC_WATCHDOG.ordinal()],
                port[PortCounter.DROPPED_OVERSIZE.ordinal()],
                port[PortCounter.PFC_WATCHDOG_STORMS.ordinal()],
                port[PortCounter.DROPPED_LINK_DOWN.ordinal()] + nic[NicCounter.TX_LOST_LINK_DOWN.ordinal()],
                nic[NicCounter.OUT_OF_BUFFER.ordinal()],
                port[PortCounter.ECN_MARKED.ordinal()],
                nic[NicCounter.NP_ECN_MARKED_ROCE_PACKETS.ordinal()],
                nic[NicCounter.NP_CNP_SENT.ordinal()],
                nic[NicCounter.RP_CNP_HANDLED.ordinal()],
                nic[NicCounter.RP_CNP_IGNORED.ordinal()],
                cuts,
                port[PortCounter.PAUSE_SENT.ordinal()] + nic[NicCounter.TX_PAUSE.ordinal()],
                port[PortCounter.PAUSED_PS.ordinal()] + nic[NicCounter.RX_PAUSE_DURATION_PS.ordinal()] + ongoingPause,
                nic[NicCounter.TX_NAKS.ordinal()],
                nic[NicCounter.LOCAL_ACK_TIMEOUT_ERR.ordinal()],
                nic[NicCounter.RETRY_EXCEEDED.ordinal()],
                nic[NicCounter.RX_DELIVERED_BYTES.ordinal()],
                maxQueue,
                maxPort,
                nic[NicCounter.OUT_OF_SEQUENCE.ordinal()],
                nic[NicCounter.DUPLICATE_REQUEST.ordinal()],
                nic[NicCounter.SELECTIVE_RETRANSMITTED.ordinal()],
                nic[NicCounter.TX_SELECTIVE_NAKS.ordinal()]);
    }
}
