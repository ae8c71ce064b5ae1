package rocelab.observe.flow;

/**
 * What happened to one flow. Times in picoseconds; -1 when it did not happen.
 *
 * @param idealFctPs completion time of the same flow alone on an idle fabric (closed form)
 */
public record FlowRecord(
        int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs, long idealFctPs,
        boolean failed, int queuePair, int udpSourcePort) {

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
