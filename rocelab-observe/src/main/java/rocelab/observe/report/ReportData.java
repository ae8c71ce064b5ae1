package rocelab.observe.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.Network;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.inference.RequestRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.JobTransferRecord;
import rocelab.observe.job.RankRecord;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.output.IbCounterNames;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.Summary;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.sample.TimeSeriesSampler;

/**
 * Everything the report shows, in one model, whether it comes from a run still in memory ({@link #of}) or from the
 * files of a finished run's folder ({@link ReportFolder#read}). The report is built from this alone, so both paths
 * give the same page (values are rounded as the files hold them).
 */
final class ReportData {
    /**
     * A PFC frame: {@code device} sent it on {@code port} to {@code peer}, which it paused (XOFF) or resumed;
     * {@code poolFull}: an XOFF the switch sent because its shared pool was full, the group under its threshold.
     */
    record PfcFrame(double timeUs, String device, int port, String peer, int priority, boolean xoff, double pauseUs,
            long ingressBytes, long thresholdBytes, boolean poolFull) {}

    /** One switch port: its counters by their ports.csv names (in that order; times ending _us held in ps). */
    record PortRow(String device, int port, String peer, double rateGbps, Map<String, Long> counters,
            long peakQueueBytes) {}

    /** One link of the topology, with the tier of each end (0: hosts). */
    /** A link of the fabric drawing: its ends, their tiers (hosts 0), and its rate and delay (topology.csv). */
    record Link(String a, String b, int aTier, int bTier, long rateBps, long delayPs) {}

    /**
     * Time-ordered samples of several named series in primitive columns: {@code key} indexes {@link #keys}, and
     * each row has up to three values.
     */
    static final class Samples {
        final List<String> keys = new ArrayList<>();
        /** Series left out when these samples were made (the report draws only some), counted by {@link #series}. */
        int omittedKeys;
        private final Map<String, Integer> index = new LinkedHashMap<>();
        double[] timeUs;
        int[] key;
        /** The values; {@code b} and {@code c} are null when not kept (see {@link #Samples(int, int)}). */
        double[] a;
        double[] b;
        double[] c;
        int rows;

        Samples() {
            this(1024, 3);
        }

        /**
         * Room for {@code rows} rows at once, of the first {@code columns} (1 to 3) of a, b and c: a run's sampled rows
         * are counted before they are copied here (grown by doubling, a 1,024-host run's queue and link rows held up to
         * twice their size and a copy at once), and queues.csv's have one value, not three.
         */
        Samples(int rows, int columns) {
            int n = Math.max(16, rows);
            timeUs = new double[n];
            key = new int[n];
            a = new double[n];
            b = columns >= 2 ? new double[n] : null;
            c = columns >= 3 ? new double[n] : null;
        }

        /** Series in the run, those kept here and those left out. */
        int series() {
            return keys.size() + omittedKeys;
        }

        int keyOf(String name) {
            Integer k = index.get(name);
            if (k == null) {
                k = keys.size();
                keys.add(name);
                index.put(name, k);
            }
            return k;
        }

        void add(double t, int k, double va, double vb, double vc) {
            if (rows == timeUs.length) {
                int n = rows * 2;
                timeUs = Arrays.copyOf(timeUs, n);
                key = Arrays.copyOf(key, n);
                a = Arrays.copyOf(a, n);
                b = b == null ? null : Arrays.copyOf(b, n);
                c = c == null ? null : Arrays.copyOf(c, n);
            }
            timeUs[rows] = t;
            key[rows] = k;
            a[rows] = va;
            if (b != null) {
                b[rows] = vb;
            }
            if (c != null) {
                c[rows] = vc;
            }
            rows++;
        }
    }

    String scenario = "";
    String mode = "";
    /** summary.json's tree (the key numbers and findings come from it) and manifest.json's. */
    Map<String, Object> summary = Map.of();
    Map<String, Object> manifest = Map.of();
    List<FlowRecord> flows = List.of();
    List<CollectiveRecord> collectives = List.of();
    List<JobTransferRecord> transfers = List.of();
    List<JobRecord> jobs = List.of();
    List<RankRecord> ranks = List.of();
    List<TimelineRecord> timeline = List.of();
    List<RequestRecord> requests = List.of();
    List<CallRecord> calls = List.of();
    /** Egress queue depth: key {@code switch pN tcK} (VL on InfiniBand), a = bytes. Null when not sampled. */
    Samples queues;
    /**
     * Sending rates: key a QP label, a = Gb/s, b = notifications received so far, c = the QP's id. From a run in
     * memory, only the QPs the report can draw ({@link BusiestRates}) unless every series was asked for.
     */
    Samples rates;
    /**
     * Switch port counters: key {@code switch pN}, a = time on the wire in bytes (tx bytes plus each frame's framing),
     * b = marked, c = credit stall (us).
     */
    Samples links;
    /**
     * The HCAs' credit stall summed over HCAs and lanes (InfiniBand), c = stall (us); from a run in memory only (no
     * CSV holds it), null otherwise.
     */
    Samples hcaStall;
    /** Every PFC frame, or null when PFC is off. */
    List<PfcFrame> pfc;
    List<PortRow> ports = List.of();
    /** Port lanes (InfiniBand), or null on RoCE. */
    List<VirtualLanes.PortLane> lanes;
    List<Link> topology = List.of();
    /** The sampling interval of queues, rates and links, in microseconds (0 when not sampled). */
    double sampleIntervalUs;
    /** Simulated time when the run ended, in microseconds. */
    double endUs;

    boolean infiniband() {
        return "infiniband".equals(mode);
    }

    /**
     * The link time each frame takes besides its bytes: preamble and inter-frame gap on Ethernet, delimiters on
     * InfiniBand. links.csv's utilisation counts it, so a saturated link reads 100 %, not its frames' share.
     */
    long framingBytes() {
        return infiniband() ? FrameFormat.IB_FRAMING : FrameFormat.PREAMBLE_AND_IFG;
    }

    /** The run's model (summary.json {@code model}): packet, flow or ideal; a summary without it is packet level's. */
    String model() {
        Object m = summary.get("model");
        return m == null ? "packet" : m.toString();
    }

    /**
     * Whether the run was simulated packet by packet: only then are there queues, ECN marks, PFC pauses, credit waits,
     * drops, deadlocks, victims and ECMP collisions to count (a flow-level or ideal run has none of them to show).
     */
    boolean packetLevel() {
        return "packet".equals(model());
    }

    static String queueKey(String sw, long port, long tc, boolean infiniband) {
        return sw + " p" + port + (infiniband ? " VL" : " tc") + tc;
    }

    static String qpKey(Object qp, Object src, Object dst) {
        return "QP " + qp + " (h" + src + "->h" + dst + ")";
    }

    /**
     * Bits per second as Gb/s to 6 decimals (half even), exactly as rates.csv holds it, so a report rebuilt from the
     * folder draws the same values.
     */
    static double gbps(long bps) {
        long q = bps / 1000;
        long r = bps % 1000;
        if (r > 500 || r == 500 && (q & 1) == 1) {
            q++;
        }
        return q / 1e6;
    }

    /** Microseconds rounded to nanoseconds, as jobs.csv and ranks.csv hold them. */
    static double ns(double us) {
        return Double.isNaN(us) ? us : Numbers.round(us, 3).doubleValue();
    }

    /** A collective with its bus bandwidth as collectives.csv holds it (3 decimals). */
    static CollectiveRecord asWritten(CollectiveRecord c) {
        if (!c.completed() || !(c.algbwGBps() > 0)) {
            // collectives.csv has no end for an unfinished call.
            return new CollectiveRecord(c.job(), c.name(), c.algorithm(), c.ranks(), c.sizeBytes(), c.startPs(),
                    c.completed() ? c.endPs() : c.startPs(), c.completed(), Double.NaN, c.idealTimePs(), c.iteration(),
                    c.runs(), c.concurrent(), c.rateHeldShare(), c.beside(), c.firstEntryPs(), c.idealEntrySpreadPs(),
                    c.lateEntry(), c.onLinks());
        }
        // The bus factor as a report rebuilt from collectives.csv recovers it, from the file's two rounded figures, so
        // that both reports show the same busbw (from the exact algbw, a third decimal of 5 showed as .80 in one and
        // .79 in the other).
        double busbw = Numbers.round(c.busbwGBps(), 3).doubleValue();
        double algbw = Numbers.round(c.algbwGBps(), 3).doubleValue();
        return new CollectiveRecord(c.job(), c.name(), c.algorithm(), c.ranks(), c.sizeBytes(), c.startPs(),
                c.endPs(), c.completed(), algbw > 0 ? busbw / algbw : Double.NaN, c.idealTimePs(), c.iteration(),
                c.runs(), c.concurrent(), c.rateHeldShare(), c.beside(), c.firstEntryPs(), c.idealEntrySpreadPs(),
                c.lateEntry(), c.onLinks());
    }

    /** The report's data straight from a finished run, without reading back any file. */
    static ReportData of(RunResult r, Map<String, Object> manifest) {
        return of(r, manifest, false);
    }

    /**
     * The same, with every QP's rate series when {@code everyRate} (the comparison draws one QP's series on every
     * fabric, so it cannot know which to keep before it has seen them all).
     */
    static ReportData of(RunResult r, Map<String, Object> manifest, boolean everyRate) {
        ReportData d = new ReportData();
        d.scenario = r.scenario();
        d.mode = r.mode();
        d.summary = Summary.of(r);
        d.manifest = manifest;
        d.flows = r.flows();
        // Rounded as the files hold them, so a report rebuilt from the folder is the same page byte for byte.
        d.collectives = r.collectives().stream().map(ReportData::asWritten).toList();
        // Whole picoseconds, as transfers.csv holds them.
        d.transfers = r.transfers();
        d.jobs = r.jobs().stream().map(j -> new JobRecord(j.job(), j.ranks(), j.iterations(), j.warmup(), j.startPs(),
                j.endPs(), j.completed(), j.idealEndPs(), ns(j.iterationUs()), ns(j.idealIterationUs()),
                ns(j.computeUs()), ns(j.exposedCommUs()), ns(j.idleUs()), ns(j.idealExposedCommUs()),
                ns(j.idealIdleUs()), ns(j.networkWaitUs()), ns(j.maxNetworkWaitUs()))
                .withPerIteration(ns(j.perIterationUs()), ns(j.idealPerIterationUs()))).toList();
        d.ranks = r.ranks().stream().map(k -> new RankRecord(k.job(), k.rank(), k.host(), k.coords(),
                ns(k.iterationUs()), ns(k.computeUs()), ns(k.exposedCommUs()), ns(k.idleUs()),
                ns(k.idealExposedCommUs()), ns(k.idealIdleUs()))).toList();
        d.timeline = r.timeline();
        d.requests = r.requests();
        d.calls = r.llmCalls();
        d.endUs = r.simulatedPs() / 1e6;
        Network net = r.network();
        Topology topo = net.topology();
        boolean ib = d.infiniband();
        TimeSeriesSampler s = r.series();
        if (s != null) {
            d.sampleIntervalUs = s.intervalPs() / 1e6;
            d.queues = new Samples(s.queueRows(), 1);
            // Keys are interned per (switch, port, tc) through a flat table: no string per sample.
            int[][] keyOf = new int[net.switchCount()][];
            for (int i = 0; i < s.queueRows(); i++) {
                int sw = (int) s.queue(i, 1);
                int pt = (int) s.queue(i, 2);
                if (keyOf[sw] == null) {
                    keyOf[sw] = new int[net.switchAt(sw).portCount() * 8];
                    Arrays.fill(keyOf[sw], -1);
                }
                if (keyOf[sw][pt] < 0) {
                    keyOf[sw][pt] = d.queues.keyOf(queueKey(net.switchAt(sw).name(), pt / 8, pt % 8, ib));
                }
                d.queues.add(s.queue(i, 0) / 1e6, keyOf[sw][pt], s.queue(i, 3), 0, 0);
            }
            Samples rates = new Samples();
            int qps = net.queuePairs().size();
            BusiestRates drawn = everyRate ? null : BusiestRates.of(s, qps, ReportWriter.TOP_SERIES);
            int[] qpKey = new int[qps];
            Arrays.fill(qpKey, -1);
            try {
                s.forEachRate((timePs, q, rateBps, cnps) -> {
                    if (drawn != null && !drawn.chosen[q]) {
                        return;
                    }
                    var qp = net.queuePairs().get(q);
                    if (qpKey[q] < 0) {
                        qpKey[q] = rates.keyOf(qpKey(qp.id(), qp.sourceHost(), qp.destinationHost()));
                    }
                    rates.add(timePs / 1e6, qpKey[q], gbps(rateBps), cnps, qp.id());
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (drawn != null) {
                rates.omittedKeys = drawn.series - rates.keys.size();
            }
            d.rates = rates;
            d.links = new Samples(s.linkRows(), 3);
            long framing = d.framingBytes();
            int[][] portKey = new int[net.switchCount()][];
            for (int i = 0; i < s.linkRows(); i++) {
                int sw = (int) s.link(i, 1);
                int p = (int) s.link(i, 2);
                if (portKey[sw] == null) {
                    portKey[sw] = new int[net.switchAt(sw).portCount()];
                    Arrays.fill(portKey[sw], -1);
                }
                if (portKey[sw][p] < 0) {
                    portKey[sw][p] = d.links.keyOf(net.switchAt(sw).name() + " p" + p);
                }
                d.links.add(s.link(i, 0) / 1e6, portKey[sw][p], s.link(i, 3) + framing * s.link(i, 6), s.link(i, 4),
                        s.link(i, 5) / 1e6);
            }
            if (ib) {
                d.hcaStall = new Samples();
                int hcas = d.hcaStall.keyOf("HCAs");
                for (int i = 0; i < s.hcaStallRows(); i++) {
                    d.hcaStall.add(s.hcaStall(i, 0) / 1e6, hcas, 0, 0, s.hcaStall(i, 1) / 1e6);
                }
            }
        }
        PfcLog log = r.pfcLog();
        if (log != null) {
            List<PfcFrame> frames = new ArrayList<>(log.frames());
            for (int i = 0; i < log.frames(); i++) {
                int node = (int) log.field(i, 1);
                int port = (int) log.field(i, 2);
                int quanta = (int) log.field(i, 4);
                long rate = topo.edgeAt(node, port).parameters().rateBps();
                frames.add(new PfcFrame(log.field(i, 0) / 1e6, topo.nodeName(node), port,
                        topo.nodeName(topo.peer(node, port).node()), (int) log.field(i, 3), quanta > 0,
                        Headroom.pauseDurationPs(quanta, rate) / 1e6, log.field(i, 5),
                        log.field(i, 6), log.reason(i) == PfcReason.SHARED_POOL_FULL));
            }
            d.pfc = frames;
        }
        List<PortRow> ports = new ArrayList<>();
        // A flow-level run's ports counted nothing (ports.csv is not written): no row, as the folder has none.
        for (int i = 0; r.packetLevel() && i < net.switchCount(); i++) {
            Switch sw = net.switchAt(i);
            for (int p = 0; p < sw.portCount(); p++) {
                EgressPort ep = sw.port(p);
                // Named and scaled as ports.csv has them (InfiniBand names on InfiniBand).
                Map<String, Long> counters = new LinkedHashMap<>();
                for (PortCounter c : PortCounter.values()) {
                    if (!ib) {
                        counters.put(c.key(), ep.counter(c));
                    } else if (IbCounterNames.port(c) != null) {
                        counters.put(IbCounterNames.port(c), IbCounterNames.value(c, ep.counter(c)));
                    }
                }
                if (ib) {
                    counters.put(IbCounterNames.XMIT_WAIT, IbCounterNames.waitPs(ep.creditGate(),
                            net.simulator().nowPs()));
                }
                ports.add(new PortRow(sw.name(), p, topo.nodeName(topo.peer(sw.nodeId(), p).node()),
                        ep.rateBps() / 1e9, counters, ep.peakQueuedBytes()));
            }
        }
        d.ports = ports;
        VirtualLanes lanes = VirtualLanes.of(net);
        d.lanes = lanes == null ? null : lanes.ports();
        List<Link> links = new ArrayList<>();
        for (Topology.Edge e : topo.edges()) {
            int a = e.a().node();
            int b = e.b().node();
            links.add(new Link(topo.nodeName(a), topo.nodeName(b), topo.isHost(a) ? 0 : topo.switchTier(a),
                    topo.isHost(b) ? 0 : topo.switchTier(b), e.parameters().rateBps(), e.parameters().delayPs()));
        }
        d.topology = links;
        return d;
    }
}
