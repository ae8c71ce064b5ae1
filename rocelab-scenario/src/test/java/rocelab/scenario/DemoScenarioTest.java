package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.NotificationSources;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.FlowRecordList;
import rocelab.observe.flow.HeldAlone;
import rocelab.observe.flow.HeldByRate;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.victim.Victims;
import rocelab.scenario.read.ScenarioReader;

/**
 * The built-in demo shows what its header (demo.yaml) and the README say, checked on the run's own results: DCQCN cuts
 * QPs that still have data, the queue settles between Kmin and Kmax, the rates near their fair share and then recover,
 * PFC fires a few times at the onset only, a PFC victim exists, nothing is dropped.
 */
class DemoScenarioTest {
    private static final long KMIN = 200_000;
    private static final long KMAX = 1_600_000;
    private static final int LONG_FLOW = 0;
    private static final int[] INCAST = {1, 2, 3, 4};
    private static final int VICTIM = 5;

    private static Simulation sim;
    private static RunResult run;
    private static Recorder rec;

    /** Per QP: every data packet sent (time, payload, rate at that moment), every CNP received, the victim's hops. */
    private static final class Recorder implements JourneyProbe {
        final Network network;
        final List<List<long[]>> sends = new ArrayList<>();
        final List<List<Long>> cnps = new ArrayList<>();
        final List<Long> cutsAtLastSend = new ArrayList<>();
        final List<long[]> victimEnqueues = new ArrayList<>();
        final List<long[]> victimMarks = new ArrayList<>();
        final List<long[]> marks = new ArrayList<>();
        /** (QP, switch node) pairs any data packet of the QP was queued at. */
        final Set<Long> queuedAt = new TreeSet<>();
        int victimQp = -1;

        Recorder(Network network) {
            this.network = network;
        }

        private void grow(int qp) {
            while (sends.size() <= qp) {
                sends.add(new ArrayList<>());
                cnps.add(new ArrayList<>());
                cutsAtLastSend.add(0L);
            }
        }

        @Override
        public void onSend(long nowPs, int host, Packet packet, long rateBps, boolean retransmission) {
            int qp = packet.queuePair();
            grow(qp);
            sends.get(qp).add(new long[] {nowPs, packet.payloadBytes(), rateBps});
            cutsAtLastSend.set(qp, network.queuePairs().get(qp).congestionControl().rateCuts());
        }

        /** A CNP frame reaching its sender's RNIC, which hands it to the QP's congestion control at once. */
        @Override
        public void onArrive(long nowPs, int host, Packet packet) {
            if (packet.kind() == PacketKind.CNP) {
                grow(packet.queuePair());
                cnps.get(packet.queuePair()).add(nowPs);
            }
        }

        @Override
        public void onEnqueue(long nowPs, int node, int inPort, int port, long queueBytes, Packet packet) {
            if (packet.kind() == PacketKind.DATA) {
                queuedAt.add((long) packet.queuePair() << 32 | node);
            }
            if (packet.kind() == PacketKind.DATA && packet.queuePair() == victimQp) {
                victimEnqueues.add(new long[] {nowPs, node, port});
            }
        }

        @Override
        public void onMark(long nowPs, int node, int port, long queueBytes, Packet packet) {
            marks.add(new long[] {nowPs, node, port});
            if (packet.queuePair() == victimQp) {
                victimMarks.add(new long[] {nowPs, node, port});
            }
        }

        /** Payload bytes a QP put on the wire in [from, to). */
        long sentBetween(int qp, long from, long to) {
            long b = 0;
            for (long[] s : sends.get(qp)) {
                if (s[0] >= from && s[0] < to) {
                    b += s[1];
                }
            }
            return b;
        }

        /** The QP's pacing rate at its first data packet at or after {@code t}, or at its last one. */
        long rateAt(int qp, long t) {
            for (long[] s : sends.get(qp)) {
                if (s[0] >= t) {
                    return s[2];
                }
            }
            return sends.get(qp).get(sends.get(qp).size() - 1)[2];
        }
    }

    @BeforeAll
    static void runTheDemo() {
        sim = Simulation.assemble(new ScenarioReader().readDemo());
        rec = new Recorder(sim.network());
        // The victim is the sixth flow; its QP is the sixth connected (flows connect in traffic order).
        rec.victimQp = VICTIM;
        for (int h = 0; h < sim.network().hostCount(); h++) {
            sim.network().nic(h).journeyProbe(rec);
        }
        for (int s = 0; s < sim.network().switchCount(); s++) {
            sim.network().switchAt(s).journeyProbe(rec);
        }
        run = sim.run(ProgressListener.NONE);
        assertThat(run.flows().get(VICTIM).queuePair()).isEqualTo(rec.victimQp);
    }

    private static FlowRecord flow(int i) {
        return run.flows().get(i);
    }

    private static long incastStartPs() {
        return flow(INCAST[0]).startPs();
    }

    private static long incastEndPs() {
        long end = 0;
        for (int f : INCAST) {
            end = Math.max(end, flow(f).finishPs());
        }
        return end;
    }

    /** From 1 ms after the incast starts until its first write completes: all five writes to h0 still running. */
    private static long[] settledWindow() {
        long first = Long.MAX_VALUE;
        for (int f : INCAST) {
            first = Math.min(first, flow(f).finishPs());
        }
        return new long[] {incastStartPs() + Time.ms(1), first};
    }

    @Test
    void shouldCompleteEveryFlowWithNothingDroppedInAboutAMillionEventsAtMost() {
        assertThat(run.flows()).hasSize(6).allMatch(FlowRecord::completed);
        assertThat(run.totals().packetsDropped()).isZero();
        assertThat(run.totals().retransmittedPackets()).isZero();
        // A cheap demo: far fewer events than a second of the event loop handles (never a wall-time assertion).
        assertThat(run.events()).isLessThan(300_000);
    }

    @Test
    void shouldRunTheLongWriteAloneAtLineRateUntilTheIncastAndCutTheIncastToTheFloorAtItsOnset() {
        int qp = flow(LONG_FLOW).queuePair();
        assertThat(rec.cnps.get(qp)).allMatch(t -> t > incastStartPs());
        assertThat(rec.rateAt(qp, incastStartPs() - Time.us(1))).isEqualTo(100_000_000_000L);
        for (int f : INCAST) {
            assertThat(rec.sends.get(flow(f).queuePair())).as("flow %d reaches the 1 Gb/s floor", f)
                    .anyMatch(s -> s[2] == 1_000_000_000L);
        }
    }

    /**
     * Marks only where the header says: leaf0's port to h0 all along, and spine0's port to leaf0, which ECMP loads with
     * all six writes (600 Gb/s into 600 Gb/s) and which queues while leaf0's pauses hold it; no mark there once settled.
     */
    @Test
    void shouldMarkOnlyAtThePortToH0AndAtTheSpinePortIntoLeaf0DuringTheOnset() {
        Network n = sim.network();
        var topo = n.topology();
        int leaf0 = topo.nodeByName("leaf0");
        int spine = topo.nodeByName(pfcRows().get(0)[3]);
        assertThat(topo.nodeName(spine)).isEqualTo("spine0");
        int spine1 = topo.nodeByName("spine1");
        for (FlowRecord f : run.flows()) {
            assertThat(rec.queuedAt).as("flow %d crosses spine0, not spine1", f.id())
                    .contains((long) f.queuePair() << 32 | spine).doesNotContain((long) f.queuePair() << 32 | spine1);
        }
        for (int s = 0; s < n.switchCount(); s++) {
            for (int p = 0; p < n.switchAt(s).portCount(); p++) {
                int node = n.switchAt(s).nodeId();
                int peer = topo.peer(node, p).node();
                boolean expected = node == leaf0 && peer == 0 || node == spine && peer == leaf0;
                long marked = n.switchAt(s).port(p).counter(PortCounter.ECN_MARKED);
                if (expected) {
                    assertThat(marked).as("%s -> %s marks", n.switchAt(s).name(), topo.nodeName(peer)).isPositive();
                    if (node == spine) {
                        int port = p;
                        assertThat(rec.marks).as("no mark at the spine once settled")
                                .filteredOn(m -> m[1] == node && m[2] == port).allMatch(m -> m[0] < settledWindow()[0]);
                    }
                } else {
                    assertThat(marked).as("%s -> %s marks", n.switchAt(s).name(), topo.nodeName(peer)).isZero();
                }
            }
        }
    }

    @Test
    void shouldCutEveryWriteWhileItStillHasMostOfItsDataToSend() {
        for (int f : new int[] {LONG_FLOW, 1, 2, 3, 4, VICTIM}) {
            int qp = flow(f).queuePair();
            List<long[]> sends = rec.sends.get(qp);
            long firstCnp = rec.cnps.get(qp).get(0);
            long lastSend = sends.get(sends.size() - 1)[0];
            long sentBefore = rec.sentBetween(qp, 0, firstCnp);
            assertThat(firstCnp).as("flow %d: first CNP vs last data frame", f).isLessThan(lastSend - Time.us(400));
            assertThat(flow(f).sizeBytes() - sentBefore).as("flow %d: bytes still to send at its first CNP", f)
                    .isGreaterThan(flow(f).sizeBytes() / 2);
        }
        // Almost every cut hit a QP with data still to send: only CNPs for its last packets, still in flight when
        // it sent its last data frame, can arrive later (at most a few per QP, against over a hundred cuts each).
        long cutsWithDataLeft = 0;
        for (int qp = 0; qp < rec.cutsAtLastSend.size(); qp++) {
            long all = sim.network().queuePairs().get(qp).congestionControl().rateCuts();
            assertThat(all - rec.cutsAtLastSend.get(qp)).as("qp %d: cuts after its last data frame", qp)
                    .isLessThanOrEqualTo(3);
            cutsWithDataLeft += rec.cutsAtLastSend.get(qp);
        }
        assertThat((double) cutsWithDataLeft / run.totals().rateCuts()).as("share of cuts with data left")
                .isGreaterThan(0.97);
        assertThat(run.totals().cnpSent()).isEqualTo(run.totals().cnpHandled()).isPositive();
    }

    /** The queue to h0 in the settled window, sampled every 10 us from queues.csv (a row is written on change). */
    private static List<Long> bottleneckSamples(long fromPs, long toPs) {
        List<long[]> changes = new ArrayList<>();
        String[] lines = run.series().queuesCsv().split("\n");
        for (int i = 1; i < lines.length; i++) {
            String[] c = lines[i].split(",");
            if (c[1].equals("leaf0") && c[2].equals("0") && c[3].equals("3")) {
                changes.add(new long[] {Math.round(Double.parseDouble(c[0]) * Time.PS_PER_US), Long.parseLong(c[4])});
            }
        }
        List<Long> samples = new ArrayList<>();
        int i = 0;
        long depth = 0;
        for (long t = fromPs; t < toPs; t += Time.us(10)) {
            while (i < changes.size() && changes.get(i)[0] <= t) {
                depth = changes.get(i++)[1];
            }
            samples.add(depth);
        }
        return samples;
    }

    @Test
    void shouldSettleTheBottleneckQueueBetweenKminAndKmax() {
        long[] w = settledWindow();
        assertThat(w[1] - w[0]).as("settled window").isGreaterThan(Time.us(500));
        List<Long> q = bottleneckSamples(w[0], w[1]);
        long inBand = q.stream().filter(b -> b >= KMIN && b <= KMAX).count();
        // "Mostly between Kmin and Kmax": the queue dips below Kmin for a while as the rates recover.
        assertThat((double) inBand / q.size()).as("share of samples in [Kmin, Kmax]: %s", q).isGreaterThan(0.8);
        assertThat(q.stream().mapToLong(Long::longValue).average().orElseThrow()).isBetween((double) KMIN,
                (double) KMAX);
    }

    @Test
    void shouldShareTheBottleneckNearlyFairlyOnceSettled() {
        long[] w = settledWindow();
        double seconds = (w[1] - w[0]) / 1e12;
        int[] toH0 = {LONG_FLOW, 1, 2, 3, 4};
        double[] gbps = new double[toH0.length];
        double sum = 0;
        double sum2 = 0;
        for (int i = 0; i < toH0.length; i++) {
            gbps[i] = rec.sentBetween(flow(toH0[i]).queuePair(), w[0], w[1]) * 8 / seconds / 1e9;
            sum += gbps[i];
            sum2 += gbps[i] * gbps[i];
        }
        double fair = sum / toH0.length;
        for (int i = 0; i < toH0.length; i++) {
            assertThat(gbps[i]).as("flow %d Gb/s, fair share %.1f", toH0[i], fair).isBetween(0.6 * fair, 1.5 * fair);
        }
        assertThat(sum * sum / (toH0.length * sum2)).as("Jain's index").isGreaterThan(0.95);
        // Payload share of the wire at 4096 B payload: the port to h0 stays busy.
        assertThat(sum).as("aggregate Gb/s into h0").isGreaterThan(90);
    }

    @Test
    void shouldRecoverTheLongWriteTowardLineRateAfterTheIncastEnds() {
        int qp = flow(LONG_FLOW).queuePair();
        long end = incastEndPs();
        long atEnd = rec.rateAt(qp, end);
        long last = rec.sends.get(qp).get(rec.sends.get(qp).size() - 1)[2];
        assertThat(flow(LONG_FLOW).finishPs()).isGreaterThan(end + Time.ms(2));
        assertThat(rec.cnps.get(qp)).as("no CNP after the incast").allMatch(t -> t < end);
        assertThat(last).as("rate at the last data frame vs %d at the incast's end", atEnd).isGreaterThan(atEnd * 3 / 2);
        long previous = 0;
        for (long[] s : rec.sends.get(qp)) {
            if (s[0] >= end) {
                assertThat(s[2]).as("the rate only rises after the incast").isGreaterThanOrEqualTo(previous);
                previous = s[2];
            }
        }
    }

    /**
     * The run says why the long write took 6.6 ms: once the incast ends it is the last flow into h0, alone there,
     * held back by its own rate (DCQCN's slow increase, no CNP) while h0's link carries about a third of its
     * capacity. The summary's "rate held" line gives the three measurements; each is read here from its own source.
     */
    @Test
    void shouldNameTheLongWriteHeldBackByItsOwnRateAloneAfterTheIncast() {
        var topo = sim.network().topology();
        List<HeldByRate> all = HeldByRate.find(run.flows(), run.simulatedPs(), sim.network(), run.series(), run.pfcLog());
        assertThat(all).as("while all five were sending, h0's link was full").isEmpty();
        List<HeldAlone> alone = HeldAlone.find(run.flows(), run.simulatedPs(), sim.network(), run.series(), all);
        assertThat(alone).hasSize(1);
        HeldAlone h = alone.get(0);
        FlowRecord f = flow(LONG_FLOW);
        assertThat(h.flow()).isEqualTo(LONG_FLOW);
        assertThat(topo.nodeName(h.receiver())).isEqualTo("h0");
        long interval = run.series().intervalPs();
        assertThat(h.fromPs()).as("the first sample after the last incast write ended")
                .isGreaterThanOrEqualTo(incastEndPs()).isLessThan(incastEndPs() + interval);
        assertThat(h.toPs()).as("the last sample before its delivery").isLessThanOrEqualTo(f.deliveredPs())
                .isGreaterThan(f.deliveredPs() - interval);
        assertThat(h.notifications()).isZero();
        // The rates: every data frame the QP sent in the window went at a rate within what the line gives.
        int qp = f.queuePair();
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (long[] send : rec.sends.get(qp)) {
            if (send[0] >= h.fromPs() && send[0] <= h.toPs()) {
                lo = Math.min(lo, send[2]);
                hi = Math.max(hi, send[2]);
            }
        }
        assertThat(h.minRateBps()).isLessThanOrEqualTo(lo);
        assertThat(h.maxRateBps()).isGreaterThanOrEqualTo(hi).isLessThan(40_000_000_000L);
        assertThat(h.minRateBps()).isGreaterThan(20_000_000_000L);
        // The link's share, from links.csv's byte counter at the window's two sample times.
        long txFrom = 0;
        long txTo = 0;
        String[] lines = run.series().linksCsv().split("\n");
        for (int i = 1; i < lines.length; i++) {
            String[] c = lines[i].split(",");
            long t = Math.round(Double.parseDouble(c[0]) * 1e6);
            if (c[1].equals("leaf0") && Integer.parseInt(c[2]) == h.port()) {
                txFrom = t <= h.fromPs() ? Long.parseLong(c[3]) : txFrom;
                txTo = t <= h.toPs() ? Long.parseLong(c[3]) : txTo;
            }
        }
        double utilisation = (txTo - txFrom) * 8.0 / (100e9 * ((h.toPs() - h.fromPs()) / 1e12));
        assertThat(h.utilisation()).isEqualTo(utilisation).isBetween(0.25, 0.40);
        assertThat(h.heldShare()).isEqualTo((double) f.rateHeldPs() / f.fctPs());
        assertThat(SummaryText.render(run, null)).contains("rate held   flow 0 (h4->h0), the last into h0, alone"
                + " there from ").contains(" with no congestion notification in that time (rates.csv), while leaf0 port 0"
                + " (towards h0) carried " + SummaryText.percent(utilisation) + " % of its capacity and no port on its path"
                + " more than " + SummaryText.percent(h.pathUtilisation()) + " % (links.csv)");
        assertThat(h.pathUtilisation()).isGreaterThanOrEqualTo(h.utilisation())
                .isLessThanOrEqualTo(HeldByRate.MAX_UTILISATION);
    }

    /** pfc.csv rows: time_us, device, port, peer, priority, kind, ... */
    private static List<String[]> pfcRows() {
        List<String[]> rows = new ArrayList<>();
        String[] lines = run.pfcLog().csv().split("\n");
        for (int i = 1; i < lines.length; i++) {
            rows.add(lines[i].split(","));
        }
        return rows;
    }

    @Test
    void shouldFirePfcAFewTimesAtTheOnsetOnlyFromTheCongestedLeaf() {
        List<String[]> xoffs = pfcRows().stream().filter(r -> r[5].equals("XOFF")).toList();
        assertThat(xoffs).hasSizeBetween(3, 40);
        long[] w = settledWindow();
        for (String[] x : xoffs) {
            assertThat(x[1]).as("the device that pauses").isEqualTo("leaf0");
            long t = Math.round(Double.parseDouble(x[0]) * Time.PS_PER_US);
            assertThat(t).as("XOFF during the incast's onset").isBetween(incastStartPs(), w[0]);
        }
        assertThat(run.totals().ecnMarked()).isGreaterThan(10L * xoffs.size());
    }

    @Test
    void shouldSlowTheVictimByPausesRootedAtAPortNotOnItsWay() {
        Network n = sim.network();
        var topo = n.topology();
        FlowRecord v = flow(VICTIM);
        assertThat(v.src()).isEqualTo(14);
        assertThat(v.dst()).isEqualTo(1);
        // Nothing else goes to h1: its port at leaf0 never marks and no pause is sent toward it.
        assertThat(run.flows()).filteredOn(f -> f.dst() == 1).hasSize(1);
        int leaf0 = topo.nodeByName("leaf0");
        int toH1 = -1;
        for (int p = 0; p < topo.portCount(leaf0); p++) {
            if (topo.peer(leaf0, p).node() == 1) {
                toH1 = p;
            }
        }
        assertThat(n.switchAt(leaf0 - topo.hostCount()).port(toH1).counter(PortCounter.ECN_MARKED)).isZero();
        assertThat(n.switchAt(leaf0 - topo.hostCount()).port(toH1).counter(PortCounter.PAUSE_SENT)).isZero();
        // The pauses: leaf0 paused its port from one spine; the victim's packets queued at that spine's port to
        // leaf0 while it was paused, and that congestion point (the port to h0) is not on the victim's path.
        List<String[]> pfc = pfcRows();
        String pausedSpine = pfc.get(0)[3];
        int spine = topo.nodeByName(pausedSpine);
        int spineToLeaf0 = -1;
        for (int p = 0; p < topo.portCount(spine); p++) {
            if (topo.peer(spine, p).node() == leaf0) {
                spineToLeaf0 = p;
            }
        }
        List<long[]> pauses = new ArrayList<>();
        long xoff = -1;
        for (String[] r : pfc) {
            long t = Math.round(Double.parseDouble(r[0]) * Time.PS_PER_US);
            if (r[1].equals("leaf0") && r[3].equals(pausedSpine)) {
                if (r[5].equals("XOFF") && xoff < 0) {
                    xoff = t;
                } else if (r[5].equals("XON") && xoff >= 0) {
                    pauses.add(new long[] {xoff, t});
                    xoff = -1;
                }
            }
        }
        assertThat(pauses).isNotEmpty();
        int finalSpineToLeaf0 = spineToLeaf0;
        long heldWhilePaused = rec.victimEnqueues.stream()
                .filter(e -> e[1] == spine && e[2] == finalSpineToLeaf0)
                .filter(e -> pauses.stream().anyMatch(p -> e[0] >= p[0] && e[0] <= p[1]))
                .count();
        assertThat(heldWhilePaused).as("victim packets queued at the paused port during a pause").isPositive();
        int toH0 = -1;
        for (int p = 0; p < topo.portCount(leaf0); p++) {
            if (topo.peer(leaf0, p).node() == 0) {
                toH0 = p;
            }
        }
        int finalToH0 = toH0;
        assertThat(rec.victimEnqueues).as("the victim never uses the congested port").noneMatch(e -> e[1] == leaf0
                && e[2] == finalToH0);
        assertThat(rec.victimMarks).as("the victim is marked only in spine0's queue to leaf0")
                .isNotEmpty().allMatch(e -> e[1] == spine && e[2] == finalSpineToLeaf0);
        assertThat(v.slowdown()).as("victim FCT / ideal: 1.1x, the header says").isBetween(1.05, 1.15);
        // "h14's rate is cut too, but only for marks spine0 made on its packets that the pauses held there."
        long[] sources = FlowRecordList.notificationSources(run.flows(), VICTIM);
        assertThat(sources).as("the victim's notifications, one source").hasSize(NotificationSources.FIELDS);
        assertThat(sources[0]).isEqualTo(spine);
        assertThat(sources[1]).isEqualTo(spineToLeaf0);
        assertThat(sources[3]).as("every one on a packet a pause held there").isEqualTo(sources[2]).isPositive();
    }

    /**
     * The victim is a victim of the pauses and of nothing else: the same demo with PFC's threshold out of reach (alpha
     * 8: no XOFF at all) runs its write at 1.00x, while with the pauses it takes 1.1x (the header's counterfactual).
     */
    @Test
    void shouldNotSlowTheVictimAtAllWithoutThePauses() throws Exception {
        String yaml;
        try (var in = ScenarioReader.class.getResourceAsStream("/rocelab/scenario/demo.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(yaml).contains("alpha: 0.125");
        RunResult noPause = Simulation.assemble(new ScenarioReader().read(yaml.replace("alpha: 0.125", "alpha: 8"),
                "demo.yaml", Path.of("."))).run(ProgressListener.NONE);
        assertThat(noPause.totals().pfcPauseSent()).isZero();
        assertThat(noPause.totals().packetsDropped()).isZero();
        FlowRecord alone = noPause.flows().get(VICTIM);
        assertThat(alone.slowdown()).as("the victim without pauses").isLessThan(1.005);
        assertThat(flow(VICTIM).slowdown() - alone.slowdown()).as("what the pauses cost it").isGreaterThan(0.05);
    }

    /**
     * The header's "try": the firmware profile, whose port paces CNPs for all QPs, pauses dozens of times as often
     * (358 PFC frames against 10), the header's figures checked as it prints them.
     */
    @Test
    void shouldPauseOverTenTimesAsOftenWithTheFirmwareProfile() throws Exception {
        String yaml;
        try (var in = ScenarioReader.class.getResourceAsStream("/rocelab/scenario/demo.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String ns3 = "dcqcn: {profile: hpcc-ns3, increase-timer: 55us, cnp-on-ack: false, cnp-interval: 4us}";
        assertThat(yaml).contains(ns3);
        RunResult nvidia = Simulation.assemble(new ScenarioReader().read(yaml.replace(ns3, "dcqcn: {profile: nvidia}"),
                "demo.yaml", Path.of("."))).run(ProgressListener.NONE);
        assertThat(nvidia.totals().packetsDropped()).isZero();
        assertThat(nvidia.totals().pfcPauseSent()).as("dozens of times as often")
                .isGreaterThan(24 * run.totals().pfcPauseSent());
        assertThat(yaml.replace("\n# ", " ")).contains(String.format(Locale.ROOT,
                "dozens of times as often (%,d pause frames against %,d)", nvidia.totals().pfcPauseSent(),
                run.totals().pfcPauseSent()));
    }

    /** The run's own victim analysis (by cause: waits behind pauses traced to their root) names h14 -> h1, only it. */
    @Test
    void shouldNameTheVictimByCauseRootedAtTheCongestedPortToH0() {
        var topo = sim.network().topology();
        List<Victims.Victim> victims = PfcVictims.find(run.pfcLog(),
                run.flows(), run.simulatedPs());
        assertThat(victims).extracting(x -> x.flow().id()).containsExactly(VICTIM);
        var victim = victims.get(0);
        assertThat(victim.root().onPath()).isFalse();
        assertThat(topo.nodeName(victim.root().node())).isEqualTo("leaf0");
        assertThat(topo.peer(victim.root().node(), victim.root().port()).node()).as("root: leaf0's port to h0")
                .isEqualTo(0);
        assertThat(victim.offPathWaitPs()).as("waited behind those pauses, ps")
                .isGreaterThan(Time.us(40));
        // The writes to h0 wait behind the same pauses, but their root is on their way: not victims.
        for (int f : new int[] {LONG_FLOW, 1, 2, 3, 4}) {
            assertThat(run.pfcLog().offPathWaitPs(f)).as("flow %d waits behind off-way pauses", f).isZero();
        }
    }

    /** The README says where the demo's scenario file is (it was only inside the jar), and it is there. */
    @Test
    void shouldTellInTheReadmeWhereTheDemoFileIs() throws Exception {
        String path = "rocelab-scenario/src/main/resources/rocelab/scenario/demo.yaml";
        assertThat(Files.readString(Path.of("..", "README.md"))).contains("`" + path + "`");
        assertThat(Path.of("..", path)).exists();
    }
}
