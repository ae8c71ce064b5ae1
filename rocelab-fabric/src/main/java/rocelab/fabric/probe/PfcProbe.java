package rocelab.fabric.probe;

/** Hears every PFC frame a device sends (for the pfc.csv log); {@link #NONE} costs nothing. */
public interface PfcProbe {
    PfcProbe NONE = (nowPs, node, port, priority, quanta, groupBytes) -> {};

    /**
     * @param node the sending switch or host node id
     * @param quanta the pause time sent (0 = XON)
     * @param groupBytes the ingress priority group's bytes (shared plus headroom) that triggered it
     */
    void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes);
}
