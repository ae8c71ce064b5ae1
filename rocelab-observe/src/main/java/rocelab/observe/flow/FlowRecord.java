package rocelab.observe.flow;

/**
 * What happened to one flow. Times in picoseconds; -1 when it did not happen.
 *
 * @param idealFctPs completion time of the same flow alone on an idle fabric (closed form)
 * @param udpSourcePort the UDP source port of the flow's QP, RoCEv2's ECMP entropy; {@link #NO_UDP_SOURCE_PORT} when
 *     its packets have no UDP header (InfiniBand: a switch forwards by the destination LID)
 * @param rateHeldPs packet level: the time its QP had data ready that its congestion control's rate held back during
 *     its life (to the run's end if unfinished); -1 when not known (flow level, or never started)
 */
public record FlowRecord(
        int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs, long idealFctPs,
        boolean failed, int queuePair, int udpSourcePort, long rateHeldPs) {

    /** A record with no rate-held time known. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs,
            long idealFctPs, boolean failed, int queuePair, int udpSourcePort) {
        this(id, src, dst, sizeBytes, startPs, deliveredPs, finishPs, idealFctPs, failed, queuePair, udpSourcePort,
                -1);
    }

    /** The flow's packets carry no UDP header (InfiniBand), so no UDP source port: an empty udp_sport. */
    public static final int NO_UDP_SOURCE_PORT = -1;

    /** Whether the flow's packets carry a UDP source port (RoCEv2; not InfiniBand). */
    public boolean hasUdpSourcePort() {
        return udpSourcePort != NO_UDP_SOURCE_PORT;
    }

    public boolean completed() {
        return finishPs >= 0;
    }

    public long fctPs() {
        return finishPs < 0 ? -1 : finishPs - startPs;
    }

    /** FCT divided by the ideal FCT (1.0 = as fast as an idle fabric allows). */
    public double slowdown() {
        return finishPs < 0 || idealFctPs <= 0 ? Double.NaN : (double) fctPs() / idealFctPs;
    }
}
