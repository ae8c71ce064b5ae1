package rocelab.observe.credit;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.topology.Topology;
import rocelab.observe.output.CsvTable;
import rocelab.observe.output.Numbers;

/**
 * The InfiniBand counters of a finished run, per virtual lane and per port: credit stall time (a lane had a
 * packet its credits did not cover), flow-control packets, the input buffer each lane filled, FECN marks at switch
 * ports and BECNs at senders. Read once at the end of a run; all zero lanes are left out.
 */
public final class VirtualLanes {
    /** One lane's totals over the fabric. */
    public record Lane(int vl, long creditStallPs, long flowControlPackets, long fecnMarked, long becnReceived,
            long peakInputBufferBytes, long packetsForwarded) {}

    /** One port's (switch port or HCA) counters on one lane. */
    public record PortLane(String device, int port, String peer, int vl, long creditStallPs, long blocksSent,
            long flowControlSent, long flowControlReceived, long peakInputBufferBytes, long fecnMarked) {}

    private final List<Lane> lanes;
    private final List<PortLane> ports;
    private final long managementPackets;

    private VirtualLanes(List<Lane> lanes, List<PortLane> ports, long managementPackets) {
        this.lanes = List.copyOf(lanes);
        this.ports = List.copyOf(ports);
        this.managementPackets = managementPackets;
    }

    /** The counters of an InfiniBand network, or null for a RoCE one. */
    public static VirtualLanes of(Network network) {
        if (!network.isInfiniband()) {
            return null;
        }
        long now = network.simulator().nowPs();
        int n = InfinibandParameters.DATA_VLS;
        long[] stall = new long[n];
        long[] fc = new long[n];
        long[] fecn = new long[n];
        long[] becn = new long[n];
        long[] peak = new long[n];
        long[] forwarded = new long[n];
        List<PortLane> rows = new ArrayList<>();
        Topology topo = network.topology();
        for (int node = 0; node < topo.nodeCount(); node++) {
            for (int p = 0; p < topo.portCount(node); p++) {
                boolean host = topo.isHost(node);
                var sw = host ? null : network.switchAt(node - network.hostCount());
                CreditGate gate = host ? network.nic(node).creditGate() : sw.port(p).creditGate();
                CreditReturn ret = host ? network.nic(node).creditReturn() : sw.port(p).creditReturn();
                for (int vl = 0; vl < n; vl++) {
                    long marked = host ? 0 : sw.port(p).ecnMarked(vl);
                    long s = gate.stallPs(vl, now);
                    long peakBytes = ret.peakHeldBlocks(vl) * CreditGate.BLOCK_BYTES;
                    stall[vl] += s;
                    fc[vl] += ret.updatesSent(vl);
                    fecn[vl] += marked;
                    peak[vl] = Math.max(peak[vl], peakBytes);
                    forwarded[vl] += host ? 0 : sw.port(p).transmitted(vl);
                    if (gate.blocksSent(vl) > 0 || ret.blocksReceived(vl) > 0) {
                        rows.add(new PortLane(topo.nodeName(node), p, topo.nodeName(topo.peer(node, p).node()), vl, s,
                                gate.blocksSent(vl), ret.updatesSent(vl), gate.updatesReceived(vl), peakBytes, marked));
                    }
                }
            }
        }
        for (int q = 0; q < network.queuePairs().size(); q++) {
            QueuePair qp = network.queuePairs().get(q);
            becn[qp.lane()] += qp.cnpsReceived();
        }
        List<Lane> lanes = new ArrayList<>();
        for (int vl = 0; vl < n; vl++) {
            if (fc[vl] > 0 || stall[vl] > 0 || forwarded[vl] > 0) {
                lanes.add(new Lane(vl, stall[vl], fc[vl], fecn[vl], becn[vl], peak[vl], forwarded[vl]));
            }
        }
        return new VirtualLanes(lanes, rows, network.managementPacketsSent());
    }

    public List<Lane> lanes() {
        return lanes;
    }

    public List<PortLane> ports() {
        return ports;
    }

    public long creditStallPs() {
        return lanes.stream().mapToLong(Lane::creditStallPs).sum();
    }

    public long flowControlPackets() {
        return lanes.stream().mapToLong(Lane::flowControlPackets).sum();
    }

    public long fecnMarked() {
        return lanes.stream().mapToLong(Lane::fecnMarked).sum();
    }

    public long becnReceived() {
        return lanes.stream().mapToLong(Lane::becnReceived).sum();
    }

    /** The {@code infiniband} object of summary.json. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("credit_stall_us", micros(creditStallPs()));
        m.put("flow_control_packets", flowControlPackets());
        m.put("fecn_marked", fecnMarked());
        m.put("becn_received", becnReceived());
        m.put("vl15_management_packets", managementPackets);
        List<Object> list = new ArrayList<>();
        for (Lane l : lanes) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("vl", l.vl());
            row.put("credit_stall_us", micros(l.creditStallPs()));
            row.put("flow_control_packets", l.flowControlPackets());
            row.put("fecn_marked", l.fecnMarked());
            row.put("becn_received", l.becnReceived());
            row.put("peak_input_buffer_bytes", l.peakInputBufferBytes());
            row.put("packets_forwarded", l.packetsForwarded());
            list.add(row);
        }
        m.put("virtual_lanes", list);
        return m;
    }

    /** vl.csv: one row per port and lane that carried anything. */
    public String csv() {
        CsvTable t = new CsvTable(List.of("device", "port",
                "peer", "vl", "credit_stall_us", "blocks_sent", "flow_control_sent", "flow_control_received",
                "peak_input_buffer_bytes", "fecn_marked"));
        for (PortLane r : ports) {
            t.row(r.device(), r.port(), r.peer(), r.vl(), micros(r.creditStallPs()), r.blocksSent(),
                    r.flowControlSent(), r.flowControlReceived(), r.peakInputBufferBytes(), r.fecnMarked());
        }
        return t.toString();
    }

    private static BigDecimal micros(long ps) {
        return Numbers.micros(ps);
    }
}
