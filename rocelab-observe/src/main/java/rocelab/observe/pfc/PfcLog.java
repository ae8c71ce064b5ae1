package rocelab.observe.pfc;

import java.util.Arrays;
import java.util.List;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.PfcProbe;
import rocelab.observe.output.CsvTable;
import rocelab.observe.output.Numbers;

/** Records every PFC frame sent (XOFF, refresh, XON) in primitive arrays, and writes them as pfc.csv. */
public final class PfcLog implements PfcProbe {
    private static final int FIELDS = 6;
    private final Network network;
    private long[] rows = new long[FIELDS * 1024];
    private int count;

    public PfcLog(Network network) {
        this.network = network;
    }

    @Override
    public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes) {
        if ((count + 1) * FIELDS > rows.length) {
            rows = Arrays.copyOf(rows, rows.length * 2);
        }
        int i = count++ * FIELDS;
        rows[i] = nowPs;
        rows[i + 1] = node;
        rows[i + 2] = port;
        rows[i + 3] = priority;
        rows[i + 4] = quanta;
        rows[i + 5] = groupBytes;
    }

    public int frames() {
        return count;
    }

    /** Field f of frame i: 0 time (ps), 1 node, 2 port, 3 priority, 4 quanta (0: XON), 5 priority-group bytes. */
    public long field(int i, int f) {
        return rows[i * FIELDS + f];
    }

    /** One link of the pause propagation tree: {@code device} first paused {@code peer} at a time. */
    public record PauseEdge(long firstXoffPs, int device, int port, int peer, int priority, int hop, long pausedPs) {}

    /**
     * The pause propagation tree: for every (device, port, priority) that sent XOFF, the first time it did, how many
     * hops it is from where the congestion started (a device that paused others before anyone paused it is hop 0;
     * a device paused first by a hop-n device is hop n+1), and how long the paused peer stayed paused in all.
     * Ordered by time.
     */
    public List<PauseEdge> propagation(long nowPs) {
        var topo = network.topology();
        java.util.Map<Long, long[]> first = new java.util.LinkedHashMap<>();
        long[] firstPausedAt = new long[topo.nodeCount()];
        int[] pausedBy = new int[topo.nodeCount()];
        Arrays.fill(firstPausedAt, Long.MAX_VALUE);
        Arrays.fill(pausedBy, -1);
        for (int r = 0; r < count; r++) {
            int i = r * FIELDS;
            if (rows[i + 4] == 0) {
                continue;
            }
            int node = (int) rows[i + 1];
            int port = (int) rows[i + 2];
            int prio = (int) rows[i + 3];
            long key = ((long) node << 24) | ((long) port << 8) | prio;
            first.putIfAbsent(key, new long[] {rows[i], node, port, prio});
            int peer = topo.peer(node, port).node();
            if (rows[i] < firstPausedAt[peer]) {
                firstPausedAt[peer] = rows[i];
                pausedBy[peer] = node;
            }
        }
        List<PauseEdge> out = new java.util.ArrayList<>();
        for (long[] e : first.values()) {
            int node = (int) e[1];
            int port = (int) e[2];
            int prio = (int) e[3];
            var far = topo.peer(node, port);
            long paused = topo.isHost(far.node())
                    ? network.nic(far.node()).counter(rocelab.fabric.probe.NicCounter.RX_PAUSE_DURATION_PS)
                    : network.switchAt(far.node() - topo.hostCount()).port(far.port()).pausedPs(prio, nowPs);
            out.add(new PauseEdge(e[0], node, port, far.node(), prio, hop(node, e[0], firstPausedAt, pausedBy),
                    paused));
        }
        out.sort(java.util.Comparator.comparingLong(PauseEdge::firstXoffPs).thenComparingInt(PauseEdge::device)
                .thenComparingInt(PauseEdge::port));
        return out;
    }

    private static int hop(int node, long atPs, long[] firstPausedAt, int[] pausedBy) {
        int hop = 0;
        int n = node;
        long t = atPs;
        while (pausedBy[n] >= 0 && firstPausedAt[n] <= t && hop < firstPausedAt.length) {
            t = firstPausedAt[n];
            n = pausedBy[n];
            hop++;
        }
        return hop;
    }

    /** {@code time_us,device,port,peer,priority,kind,quanta,pause_us,ingress_bytes}. */
    public String csv() {
        CsvTable t = new CsvTable(List.of("time_us", "device", "port", "peer", "priority", "kind", "quanta",
                "pause_us", "ingress_bytes"));
        var topo = network.topology();
        for (int r = 0; r < count; r++) {
            int i = r * FIELDS;
            int node = (int) rows[i + 1];
            int port = (int) rows[i + 2];
            int quanta = (int) rows[i + 4];
            long rate = topo.edgeAt(node, port).parameters().rateBps();
            t.row(Numbers.micros(rows[i]), topo.nodeName(node), port, topo.nodeName(topo.peer(node, port).node()),
                    rows[i + 3], quanta == 0 ? "XON" : "XOFF", quanta,
                    Numbers.micros(rocelab.fabric.flowcontrol.Headroom.pauseDurationPs(quanta, rate)), rows[i + 5]);
        }
        return t.toString();
    }
}
