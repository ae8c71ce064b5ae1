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
