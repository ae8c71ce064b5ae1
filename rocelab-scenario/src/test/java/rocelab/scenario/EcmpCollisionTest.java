package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.switching.Switch;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * ECMP collisions named by identity: a switch that hashed a flow's packet onto a port, into a queue where another
 * flow's packet was ahead, while an equal-cost port was idle, says so, with the port, the flows and the wait; where the
 * hash kept the flows apart, where the switches spread per packet, or where the equal-cost port was busy, nothing is
 * named.
 */
class EcmpCollisionTest {
    @TempDir
    Path tmp;

    /**
     * Two 1 MB flows from leaf0 to leaf1 of a 2 x 2 leaf-spine, h0 -> h2 and h1 -> h3. With seed 1 their QPs' UDP source
     * ports (drawn from the seed) hash onto the same uplink of leaf0 and the other carries nothing of theirs; with seed
     * 4 onto different uplinks (checked below, from the switches' own hash, before anything is claimed).
     */
    private static String twoFlows(long seed, String balancing) {
        return """
                name: ecmp-collision
                seed: %d
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                switch: {load-balancing: {mode: %s}}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 1MB}
                  - {kind: flow, src: 1, dst: 3, size: 1MB}
                """.formatted(seed, balancing);
    }

    private static Switch leaf0(Simulation sim) {
        for (int s = 0; s < sim.network().switchCount(); s++) {
            if (sim.network().switchAt(s).name().equals("leaf0")) {
                return sim.network().switchAt(s);
            }
        }
        throw new AssertionError("no leaf0");
    }

    /** The uplink of leaf0 the switch's ECMP hash gives flow {@code flow}'s data. */
    private static int hashedUplink(Simulation sim, int flow) {
        QueuePair qp = sim.driver().queuePair(flow);
        int port = leaf0(sim).forwardingPort(qp.sourceHost(), qp.destinationHost(), qp.entropy());
        assertThat(port).as("leaf0 hashes flow %d onto one port", flow).isNotNegative();
        return port;
    }

    private String name(Simulation sim, int port) {
        var topo = sim.network().topology();
        return topo.nodeName(topo.peer(leaf0(sim).nodeId(), port).node());
    }

    @Test
    void shouldNameTheUplinkBothFlowsWereHashedOntoTheIdleOneAndTheirWaits() throws IOException {
        Simulation sim = Scenarios.assemble(twoFlows(1, "ecmp"));
        int shared = hashedUplink(sim, 0);
        assertThat(hashedUplink(sim, 1)).as("seed 1 hashes both flows onto one uplink").isEqualTo(shared);
        int[] candidates = leaf0(sim).candidates(2);
        assertThat(candidates).hasSize(2).contains(shared);
        int idle = candidates[0] == shared ? candidates[1] : candidates[0];
        // The journey of flow 0 follows its packets; it keeps the ECMP log informed.
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(0).id(), 0, PfcProbe.NONE)
                .ecmpTo(sim.ecmpLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(f -> f.completed());
        int node = leaf0(sim).nodeId();
        // The other uplink really was idle: it sent no data at all, and the shared one was never paused.
        assertThat(leaf0(sim).port(idle).counter(PortCounter.TX_DATA_PACKETS)).isZero();
        assertThat(leaf0(sim).port(shared).pausedPs(3, r.simulatedPs())).isZero();

        EcmpLog log = r.ecmpLog();
        List<EcmpLog.Collision> found = log.collisions(r.flows());
        assertThat(found).hasSize(1);
        EcmpLog.Collision c = found.get(0);
        assertThat(c.node()).isEqualTo(node);
        assertThat(c.port()).isEqualTo(shared);
        assertThat(c.idlePorts()).extracting(EcmpLog.Idle::port).containsExactly(idle);
        assertThat(c.flows()).extracting(f -> f.flow().id()).containsExactlyInAnyOrder(0, 1);
        assertThat(c.pairs()).allMatch(p -> p.flow() + p.ahead() == 1 && p.flow() != p.ahead())
                .extracting(EcmpLog.Pair::flow).contains(0, 1);
        assertThat(c.pairsLeftOut()).isZero();

        // Flow 0's wait, from the times its packets joined and left leaf0's queue as the journey recorded them: the union
        // of the intervals (the port was never paused, so none of it is a pause's) is the log's figure, to the ps.
        List<long[]> intervals = new ArrayList<>();
        List<JourneyEvent> events = rec.eventsOf(r.flows().get(0).startPs(), r.flows().get(0).finishPs());
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.EcmpWait w) {
                assertThat(e.node()).isEqualTo(node);
                assertThat(e.port()).isEqualTo(shared);
                assertThat(w.collision()).as("each wait has the collision its packet joined behind").isNotNull();
                assertThat(w.collision().idlePort()).isEqualTo(idle);
                assertThat(w.collision().aheadFlow()).isEqualTo(1);
                intervals.add(new long[] {w.enqueuedPs(), e.timePs()});
                assertThat(e.timePs() - w.enqueuedPs()).isEqualTo(w.toPs() - w.fromPs());
            }
        }
        assertThat(intervals).hasSizeGreaterThan(100);
        long union = 0;
        long upTo = Long.MIN_VALUE;
        for (long[] i : intervals) {
            union += Math.max(0, i[1] - Math.max(i[0], upTo));
            upTo = Math.max(upTo, i[1]);
        }
        assertThat(log.waitPs(0)).isEqualTo(union).isLessThan(r.flows().get(0).fctPs());
        assertThat(c.flows().stream().mapToLong(EcmpLog.FlowAt::waitPs).sum()).isEqualTo(c.waitPs())
                .isEqualTo(log.waitPs(0) + log.waitPs(1));

        // The printed summary names the port, both flows, the idle port and the waits.
        String summary = SummaryText.render(r, null);
        String shared0 = name(sim, shared);
        String idle0 = name(sim, idle);
        assertThat(summary).contains("ECMP        collisions at 1 port:")
                .contains(String.format("leaf0 hashed flows %s onto its port %d (towards %s) while its equal-cost port"
                        + " %d (towards %s) was idle: their packets waited in that queue for ", log.waitPs(1)
                        > log.waitPs(0) ? "1 (h1->h3) and 0 (h0->h2)" : "0 (h0->h2) and 1 (h1->h3)", shared, shared0,
                        idle, idle0))
                .contains(String.format("%.3f us (flow 0)", log.waitPs(0) / 1e6))
                .contains(String.format("%.3f us (flow 1)", log.waitPs(1) / 1e6))
                .contains("each behind packets of the other");

        // flows.csv and summary.json carry the same figures.
        Path dir = tmp.resolve("run");
        new RunWriter(Integer.MAX_VALUE).write(dir, r, Map.of());
        List<String> rows = Files.readAllLines(dir.resolve("flows.csv"));
        assertThat(rows.get(0)).endsWith(",pfc_victim,ecmp_wait_us,rate_held_us,qp_wait_us,delivered_bytes");
        assertThat(rows.get(1).split(",", -1)[17]).isEqualTo(Numbers.micros(log.waitPs(0)).toPlainString());
        String json = Files.readString(dir.resolve(RunWriter.SUMMARY));
        assertThat(json).contains("\"ecmp_collision_count\": 1", "\"switch\": \"leaf0\"", "\"port\": " + shared,
                "\"towards\": \"" + idle0 + "\"");

        // The journey says so at the hop, and sums the flow's collision waits in its header.
        String text = new JourneyText(sim.network(), null, null, log).render(r.flows().get(0), events, -1, 0,
                Long.MAX_VALUE, 60);
        assertThat(text).contains(String.format("waited behind ECMP collisions at leaf0 towards %s %.3f us", shared0,
                log.waitPs(0) / 1e6))
                .contains("leaf0 hashed it onto its port towards " + shared0 + ", where its packets queued behind packets"
                        + " of flow 1 (h1->h3), while its equal-cost port towards " + idle0 + " was idle")
                .contains("leaf0 had hashed it onto this port among equal-cost ports: it joined the queue")
                .contains("behind the collision");
    }

    @Test
    void shouldNameNoCollisionWhenTheHashKeepsTheFlowsApart() {
        Simulation sim = Scenarios.assemble(twoFlows(4, "ecmp"));
        assertThat(hashedUplink(sim, 1)).as("seed 4 hashes the flows onto different uplinks")
                .isNotEqualTo(hashedUplink(sim, 0));
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.ecmpLog()).as("leaf0 hashes: collisions are looked for").isNotNull();
        assertThat(r.ecmpLog().collisions(r.flows())).isEmpty();
        assertThat(r.flows()).allMatch(f -> r.ecmpLog().waitPs(f.id()) == 0);
        assertThat(SummaryText.render(r, null)).doesNotContain("ECMP  ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"spray", "adaptive", "flowlet"})
    void shouldNameNoCollisionWhereTheSwitchesDoNotHash(String mode) throws IOException {
        RunResult r = Scenarios.assemble(twoFlows(1, mode)).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(f -> f.completed());
        assertThat(r.ecmpLog()).as("no switch hashes among equal-cost ports").isNull();
        assertThat(SummaryText.render(r, null)).doesNotContain("ECMP  ");
        Path dir = tmp.resolve(mode);
        new RunWriter(Integer.MAX_VALUE).write(dir, r, Map.of());
        for (String row : Files.readAllLines(dir.resolve("flows.csv")).subList(1, 3)) {
            assertThat(row.split(",", -1)[17]).as("ecmp_wait_us").isEqualTo("0");
        }
        assertThat(Files.readString(dir.resolve(RunWriter.SUMMARY))).doesNotContain("ecmp_collision");
    }

    /**
     * Three flows from leaf0 to leaf1 of a 2 x 2 leaf-spine with three hosts per leaf: with seed 4, flows 0 and 1 hash
     * onto one uplink and flow 2, four times longer, onto the other, which it keeps busy back to back until after both
     * are done. The two share a port, but no equal-cost port was ever idle: no collision is named.
     */
    private static final String BUSY = """
            name: ecmp-busy
            seed: 4
            fabric: {mode: roce-lossless}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 3, link: {rate: 100Gbps, delay: 1us}}
            observe: {sample-interval: 0}
            traffic:
              - {kind: flow, src: 0, dst: 3, size: 1MB}
              - {kind: flow, src: 1, dst: 4, size: 1MB}
              - {kind: flow, src: 2, dst: 5, size: 4MB}
            """;

    @Test
    void shouldNameNoCollisionWhenTheEqualCostPortIsBusy() {
        Simulation sim = Scenarios.assemble(BUSY);
        int shared = hashedUplink(sim, 0);
        assertThat(hashedUplink(sim, 1)).isEqualTo(shared);
        assertThat(hashedUplink(sim, 2)).isNotEqualTo(shared);
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows().get(2).finishPs()).as("the other uplink's flow outlasts the two")
                .isGreaterThan(Math.max(r.flows().get(0).finishPs(), r.flows().get(1).finishPs()));
        assertThat(r.flows().get(0).slowdown()).as("the two did share a port").isGreaterThan(1.5);
        assertThat(r.ecmpLog().collisions(r.flows())).isEmpty();
        assertThat(r.flows()).allMatch(f -> r.ecmpLog().waitPs(f.id()) == 0);
        assertThat(SummaryText.render(r, null)).doesNotContain("ECMP  ");
    }

    @Test
    void shouldNameTheFlowThatArrivedBehindAnotherOnceTheEqualCostPortFellIdle() {
        // Seed 1: flows 0 and 2 share one uplink, flow 1 has the other to itself until it ends (about 83 us). Flow 0 has
        // sent everything by then, all of it while the other uplink was busy; its packets still queued when that
        // uplink falls idle wait beside an idle port from then on (the switch looks when the port falls idle). Flow 2
        // (4 MB) goes on arriving behind flow 0's packets, now with the other uplink idle: both are named.
        Simulation sim = Scenarios.assemble(BUSY.replace("seed: 4", "seed: 1"));
        int shared = hashedUplink(sim, 0);
        assertThat(hashedUplink(sim, 2)).isEqualTo(shared);
        assertThat(hashedUplink(sim, 1)).isNotEqualTo(shared);
        RunResult r = sim.run(ProgressListener.NONE);
        EcmpLog log = r.ecmpLog();
        assertThat(log.waitPs(1)).isZero();
        assertThat(log.waitPs(2)).isPositive();
        // Flow 0 waited from the moment flow 1's uplink fell idle (after flow 1's last packet left it, so after flow
        // 1's delivery less one hop at most) until its own last packet left, before its own delivery.
        FlowRecord f0 = r.flows().get(0);
        FlowRecord f1 = r.flows().get(1);
        assertThat(log.waitPs(0)).isPositive().isLessThanOrEqualTo(f0.deliveredPs() - f1.deliveredPs());
        EcmpLog.Collision c = log.collisions(r.flows()).get(0);
        assertThat(c.port()).isEqualTo(shared);
        assertThat(c.flows()).extracting(f -> f.flow().id()).containsExactlyInAnyOrder(2, 0);
        Set<Integer> ahead = new TreeSet<>();
        c.pairs().forEach(p -> ahead.add(p.ahead()));
        assertThat(ahead).contains(0);
        assertThat(log.describe(c, r.flows())).contains("2 (h2->h5)", "0 (h0->h3)", "onto its port " + shared);
    }

    /**
     * Seed 2 on a lossy 2 x 2 leaf-spine with six hosts a leaf: flows 0 to 3 (500 KB each) and 4 (4 MB) share one
     * uplink of leaf0, flow 5 (600 KB, 2 us earlier) has the other to itself, back to back, until after flows 0 to 3
     * have sent everything (checked below). Their packets were queued while no equal-cost port was idle; those still
     * queued when the other uplink falls idle wait beside it from then. Flow 4 goes on arriving behind their packets
     * once the other uplink is idle: it collides behind each of the four, which are named as the flows ahead.
     */
    private static final String FOUR_AHEAD = """
            name: ecmp-four-ahead
            seed: 2
            fabric: {mode: roce-lossy}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 6, link: {rate: 100Gbps, delay: 1us}}
            observe: {sample-interval: 0}
            traffic:
              - {kind: flow, src: 0, dst: 6, size: 500KB, start: 2us}
              - {kind: flow, src: 1, dst: 7, size: 500KB, start: 2us}
              - {kind: flow, src: 2, dst: 8, size: 500KB, start: 2us}
              - {kind: flow, src: 3, dst: 9, size: 500KB, start: 2us}
              - {kind: flow, src: 4, dst: 10, size: 4MB, start: 2us}
              - {kind: flow, src: 5, dst: 11, size: 600KB}
            """;

    @Test
    void shouldNameEveryOneOfFourFlowsAheadThatDidNotWaitThemselves() {
        Simulation sim = Scenarios.assemble(FOUR_AHEAD);
        int shared = hashedUplink(sim, 4);
        for (int f = 0; f < 4; f++) {
            assertThat(hashedUplink(sim, f)).as("flow %d on flow 4's uplink", f).isEqualTo(shared);
        }
        assertThat(hashedUplink(sim, 5)).isNotEqualTo(shared);
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(f -> f.completed());
        assertThat(r.totals().packetsDropped()).isZero();
        EcmpLog log = r.ecmpLog();
        assertThat(log.waitPs(5)).as("flow 5 had its uplink to itself").isZero();
        for (int f = 0; f < 4; f++) {
            // Waiting beside the idle uplink only from when flow 5's last packet had left it.
            assertThat(log.waitPs(f)).as("flow %d", f).isPositive()
                    .isLessThanOrEqualTo(r.flows().get(f).deliveredPs() - r.flows().get(5).deliveredPs());
        }
        List<EcmpLog.Collision> found = log.collisions(r.flows());
        assertThat(found).hasSize(1);
        EcmpLog.Collision c = found.get(0);
        assertThat(c.port()).isEqualTo(shared);
        assertThat(c.flows()).extracting(f -> f.flow().id()).contains(4);
        // Five flows each behind the others: more (flow, flow ahead) pairs than a port keeps; flow 4's are the four.
        Set<Integer> ahead = new TreeSet<>();
        c.pairs().stream().filter(p -> p.flow() == 4).forEach(p -> ahead.add(p.ahead()));
        assertThat(ahead).isNotEmpty().isSubsetOf(0, 1, 2, 3);
        String line = log.describe(c, r.flows());
        assertThat(line).startsWith("leaf0 hashed flows 4 (h4->h10)");
        assertThat(SummaryText.render(r, null)).contains(line);
    }

    /** {@code n} 1 MB flows from leaf0 to leaf1 of a 2 x 2 leaf-spine, {@code perLeaf} hosts a leaf: h_i -> h_(i+perLeaf). */
    private static String flowsAcross(int n, long seed, int perLeaf) {
        StringBuilder b = new StringBuilder("""
                name: ecmp-many
                seed: %d
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us}}
                observe: {sample-interval: 0}
                traffic:
                """.formatted(seed, perLeaf));
        for (int i = 0; i < n; i++) {
            b.append("  - {kind: flow, src: ").append(i).append(", dst: ").append(i + perLeaf).append(", size: 1MB}\n");
        }
        return b.toString();
    }

    /** The one collision of a run where leaf0 hashed every one of the flows onto one uplink (checked). */
    private static EcmpLog.Collision everyFlowOnOneUplink(Simulation sim, RunResult r, int n) {
        int shared = hashedUplink(sim, 0);
        for (int f = 1; f < n; f++) {
            assertThat(hashedUplink(sim, f)).as("the seed hashes flow %d onto flow 0's uplink", f).isEqualTo(shared);
        }
        List<EcmpLog.Collision> found = r.ecmpLog().collisions(r.flows());
        assertThat(found).hasSize(1);
        assertThat(found.get(0).flows()).hasSize(n);
        return found.get(0);
    }

    @Test
    void shouldNameTheOneFlowLeftOverInTheSummaryLineRatherThanCountIt() {
        // Four flows on one uplink: the line names three and counted the fourth ("and 1 more"); it names all four.
        Simulation sim = Scenarios.assemble(flowsAcross(4, 4, 4));
        RunResult r = sim.run(ProgressListener.NONE);
        EcmpLog.Collision c = everyFlowOnOneUplink(sim, r, 4);
        List<String> named = new ArrayList<>();
        List<String> waits = new ArrayList<>();
        for (EcmpLog.FlowAt f : c.flows()) {
            named.add(f.flow().id() + " (h" + f.flow().src() + "->h" + f.flow().dst() + ")");
            waits.add(String.format(Locale.ROOT, "%.3f us (flow %d)", f.waitPs() / 1e6, f.flow().id()));
        }
        String line = r.ecmpLog().describe(c, r.flows());
        assertThat(line).startsWith("leaf0 hashed flows " + String.join(", ", named.subList(0, 3)) + " and "
                + named.get(3) + " onto its port ")
                .contains("their packets waited in that queue for " + String.join(", ", waits.subList(0, 3)) + " and "
                        + waits.get(3) + ", each behind packets of another of them")
                .doesNotContain("more");
        assertThat(SummaryText.render(r, null)).contains(line);
    }

    @Test
    void shouldNameTheOneFlowLeftOverInTheJourneyRatherThanCountIt() {
        // Five flows on one uplink: flow 0's journey names the four it queued behind (it counted the fourth).
        Simulation sim = Scenarios.assemble(flowsAcross(5, 2, 6));
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(0).id(), 0, PfcProbe.NONE)
                .ecmpTo(sim.ecmpLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        everyFlowOnOneUplink(sim, r, 5);
        List<Integer> behind = r.ecmpLog().behind(0, leaf0(sim).nodeId(), hashedUplink(sim, 0));
        assertThat(behind).hasSize(4).doesNotContain(0);
        List<JourneyEvent> events = rec.eventsOf(r.flows().get(0).startPs(), r.flows().get(0).finishPs());
        String text = new JourneyText(sim.network(), null, null, r.ecmpLog()).render(r.flows().get(0), events, -1, 0,
                Long.MAX_VALUE, 60);
        // Named in the order of what each added to flow 0's wait there (its packets' waits, by the collision each
        // joined), the most first.
        Map<Long, Long> added = new java.util.HashMap<>();
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.EcmpWait w && w.collision() != null) {
                added.merge(w.collision().aheadFlow(), w.newPs(), Long::sum);
            }
        }
        assertThat(added.keySet()).containsExactlyInAnyOrderElementsOf(behind.stream().map(Long::valueOf).toList());
        List<String> with = added.entrySet().stream().sorted(Map.Entry.<Long, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).map(x -> "flow " + x.getKey() + " (h" + x.getKey() + "->h"
                        + (x.getKey() + 6) + ")").toList();
        assertThat(text).contains("where its packets queued behind packets of " + String.join(", ", with.subList(0, 3))
                + " and " + with.get(3) + ", while its equal-cost port").doesNotContain("1 more");
    }

    @Test
    void shouldNameTheFlowsAFlowWaitedBehindMostInItsJourneyNotTheFirstTheSwitchKept() throws Exception {
        // An audit: websearch-load's flow 154 was told "queued behind packets of flow 99 (h26->h13), flow 187
        // (h24->h21)": the first pairs leaf6 kept of 16 for all its flows, 378 of the flow's 2,687 us there; flows 230
        // and 313, behind which it waited 1,842 us, were not named.
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("websearch-load"));
        int flow = 154;
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                PfcProbe.NONE).ecmpTo(sim.ecmpLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        List<JourneyEvent> events = rec.eventsOf(f.startPs(), f.finishPs());
        Map<Long, Long> added = new java.util.HashMap<>();
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.EcmpWait w && w.collision() != null) {
                added.merge(w.collision().aheadFlow(), w.newPs(), Long::sum);
            }
        }
        long most = added.entrySet().stream().max(Map.Entry.<Long, Long>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))).orElseThrow().getKey();
        assertThat(added.values().stream().mapToLong(Long::longValue).sum()).as("the parts add up to ecmp_wait_us")
                .isEqualTo(r.ecmpLog().waitPs(flow));
        String text = new JourneyText(sim.network(), null, null, r.ecmpLog()).render(f, events, -1, 0, Long.MAX_VALUE,
                60);
        assertThat(text).contains("where its packets queued behind packets of flow " + most + " (");
    }

    @Test
    void shouldNameTheOneFlowLeftOverInTheReportsCollisionTableRatherThanCountIt() throws IOException {
        // Six flows on one uplink: the report's table names five and counted the sixth; it names all six.
        Simulation sim = Scenarios.assemble(flowsAcross(6, 33, 6));
        RunResult r = sim.run(ProgressListener.NONE);
        EcmpLog.Collision c = everyFlowOnOneUplink(sim, r, 6);
        Path dir = tmp.resolve("six");
        ReportWriter.writeRun(dir, r, Map.of());
        String html = Files.readString(dir.resolve("report.html"));
        String table = html.substring(html.indexOf("<h3>ECMP collisions</h3>"));
        table = table.substring(0, table.indexOf("</table>"));
        for (EcmpLog.FlowAt f : c.flows()) {
            assertThat(table).contains("flow " + f.flow().id() + " (h" + f.flow().src() + "-&gt;h" + f.flow().dst() + ") ");
        }
        assertThat(table).doesNotContain("1 more");
    }

    /**
     * Flows from leaf0 to leaf1 of a leaf-spine with {@code spines} spines and {@code spines + 1} hosts a leaf, h_i ->
     * h_(i + spines + 1), of {@code sizes[i]} bytes each, on a lossy fabric (no pause holds a queue).
     */
    private static String acrossSpines(long seed, int spines, long[] sizes) {
        StringBuilder b = new StringBuilder("""
                name: ecmp-idle-ports
                seed: %d
                fabric: {mode: roce-lossy}
                topology: {kind: leaf-spine, leaves: 2, spines: %d, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us}}
                observe: {sample-interval: 0}
                traffic:
                """.formatted(seed, spines, spines + 1));
        for (int i = 0; i < sizes.length; i++) {
            b.append("  - {kind: flow, src: ").append(i).append(", dst: ").append(i + spines + 1).append(", size: ")
                    .append(sizes[i]).append("}\n");
        }
        return b.toString();
    }

    /**
     * A run where flows 0 and 1 (2 MB each) share one uplink of leaf0 and flows 2.. each have one of its other uplinks
     * to themselves, every one of them (checked from the switch's hash), the flow on the first of them in the switch's
     * order the longest (200 KB times the uplinks after it, itself included) and so on, all shorter than flows 0 and 1: as each ends, its uplink is the first idle one of leaf0's equal-cost ports, and the
     * switch, which names the first idle one at a collision, finds a different one idle. Flows 0 and 1 collide while
     * each of the {@code spines - 1} other uplinks is idle in turn. Returns the run; {@code siblings} gets the uplinks
     * in the switch's order.
     */
    private static RunResult idleInTurn(long seed, int spines, List<Integer> siblings) {
        long[] sizes = new long[spines + 1];
        Arrays.fill(sizes, 1_000_000);
        Simulation first = Scenarios.assemble(acrossSpines(seed, spines, sizes));
        int shared = hashedUplink(first, 0);
        assertThat(hashedUplink(first, 1)).as("the seed hashes flows 0 and 1 onto one uplink").isEqualTo(shared);
        for (int c : leaf0(first).candidates(spines + 1)) {
            if (c != shared) {
                siblings.add(c);
            }
        }
        List<Integer> others = new ArrayList<>();
        for (int f = 2; f <= spines; f++) {
            others.add(hashedUplink(first, f));
        }
        assertThat(others).as("the seed hashes each other flow onto an uplink of its own, every one but flow 0's")
                .containsExactlyInAnyOrderElementsOf(siblings);
        sizes[0] = 2_000_000;
        sizes[1] = 2_000_000;
        for (int f = 2; f <= spines; f++) {
            sizes[f] = 200_000L * (siblings.size() - siblings.indexOf(others.get(f - 2)));
        }
        Simulation sim = Scenarios.assemble(acrossSpines(seed, spines, sizes));
        for (int f = 0; f <= spines; f++) {
            assertThat(hashedUplink(sim, f)).as("sizes change no flow's hash").isEqualTo(hashedUplink(first, f));
        }
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(f -> f.completed());
        assertThat(r.totals().packetsDropped()).isZero();
        return r;
    }

    @Test
    void shouldNameTheFifthIdleEqualCostPortRatherThanSayAnother() throws IOException {
        // Six spines: leaf0's five other uplinks each found idle at a collision of flows 0 and 1. The log kept four and
        // counted the fifth, and the line said "or another"; it keeps it and names it.
        List<Integer> siblings = new ArrayList<>();
        RunResult r = idleInTurn(805, 6, siblings);
        assertThat(siblings).hasSize(5);
        List<EcmpLog.Collision> found = r.ecmpLog().collisions(r.flows());
        assertThat(found).hasSize(1);
        EcmpLog.Collision c = found.get(0);
        assertThat(c.flows()).extracting(f -> f.flow().id()).containsExactlyInAnyOrder(0, 1);
        assertThat(c.idlePorts()).extracting(EcmpLog.Idle::port).containsExactlyInAnyOrderElementsOf(siblings);
        assertThat(c.idleLeftOut()).isZero();
        String line = r.ecmpLog().describe(c, r.flows());
        List<String> named = new ArrayList<>();
        for (EcmpLog.Idle i : c.idlePorts()) {
            named.add("port " + i.port() + " (towards spine" + (i.port() - 7) + ")");
        }
        assertThat(line).contains("while one of its equal-cost ports was idle (" + String.join(", ", named.subList(0, 4))
                + " or " + named.get(4) + "): their packets").doesNotContain("another");
        assertThat(SummaryText.render(r, null)).contains(line);
        // Flow 0's journey names the five too (it said "one of its equal-cost port towards spine0 or ... or spine3").
        List<String> towards = new ArrayList<>();
        for (EcmpLog.Idle i : c.idlePorts()) {
            towards.add("spine" + (i.port() - 7));
        }
        String journey = new JourneyText(r.network(), null, null, r.ecmpLog()).render(r.flows().get(0), List.of(), -1,
                0, Long.MAX_VALUE, 60);
        assertThat(journey).contains("while one of its equal-cost ports (towards " + String.join(", ",
                towards.subList(0, 4)) + " or " + towards.get(4) + ") was idle: an ECMP collision");
        Path dir = tmp.resolve("five");
        ReportWriter.writeRun(dir, r, Map.of());
        String json = Files.readString(dir.resolve(RunWriter.SUMMARY));
        assertThat(json).doesNotContain("idle_left_out_collisions");
        String html = Files.readString(dir.resolve("report.html"));
        String table = html.substring(html.indexOf("<h3>ECMP collisions</h3>"));
        table = table.substring(0, table.indexOf("</table>"));
        for (int p : siblings) {
            assertThat(table).contains("port " + p + " (towards spine" + (p - 7) + ")");
        }
        assertThat(table).doesNotContain("another");
    }

    @Test
    void shouldSayAnotherOnlyForTwoIdlePortsOrMoreNotNamed() throws IOException {
        // Seven spines: six other uplinks found idle. The line names the four found most often and says "another" for
        // the two or more it does not name (the fifth kept and the sixth counted); summary.json says how many
        // collisions found an idle port it does not list, and the report's table tells them as the line does.
        List<Integer> siblings = new ArrayList<>();
        RunResult r = idleInTurn(1769, 7, siblings);
        assertThat(siblings).hasSize(6);
        EcmpLog.Collision c = r.ecmpLog().collisions(r.flows()).get(0);
        assertThat(c.idlePorts()).hasSize(5);
        assertThat(siblings).containsAll(c.idlePorts().stream().map(EcmpLog.Idle::port).toList());
        assertThat(c.idleLeftOut()).isPositive();
        List<String> named = new ArrayList<>();
        for (EcmpLog.Idle i : c.idlePorts().subList(0, 4)) {
            named.add("port " + i.port() + " (towards spine" + (i.port() - 8) + ")");
        }
        String line = r.ecmpLog().describe(c, r.flows());
        assertThat(line).contains("while one of its equal-cost ports was idle (" + String.join(", ", named)
                + " or another): their packets");
        // The journey named the five kept as if the idle port were always among them; it says "another" too.
        List<String> towards = new ArrayList<>();
        for (EcmpLog.Idle i : c.idlePorts().subList(0, 4)) {
            towards.add("spine" + (i.port() - 8));
        }
        String journey = new JourneyText(r.network(), null, null, r.ecmpLog()).render(r.flows().get(0), List.of(), -1,
                0, Long.MAX_VALUE, 60);
        assertThat(journey).contains("while one of its equal-cost ports (towards " + String.join(", ", towards)
                + " or another) was idle: an ECMP collision");
        Path dir = tmp.resolve("six");
        ReportWriter.writeRun(dir, r, Map.of());
        String json = Files.readString(dir.resolve(RunWriter.SUMMARY));
        assertThat(json).contains("\"idle_left_out_collisions\": " + c.idleLeftOut());
        String html = Files.readString(dir.resolve("report.html"));
        String table = html.substring(html.indexOf("<h3>ECMP collisions</h3>"));
        table = table.substring(0, table.indexOf("</table>"));
        assertThat(table).contains(String.join(", ", named) + ", another</td>");
    }

    /**
     * A 16-host fat tree (k = 4) whose permutation, with seed 3, has flows whose data never leaves their pod but whose
     * last ACK, on its way back, was hashed up into a queue behind other flows' data (checked below from the flows'
     * own waits). Such a flow is named by its last ACK in every place that names the collision: the summary's line,
     * summary.json and the report's table.
     */
    private static final String FAT_TREE = """
            name: ecmp-last-ack
            seed: 3
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: fat-tree, k: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            observe: {sample-interval: 0}
            traffic:
              - {kind: permutation, size: 2MB}
            """;

    @Test
    void shouldNameAFlowWhoseOnlyPacketAtACollisionWasItsLastAckByThatAck() throws IOException {
        Simulation sim = Scenarios.assemble(FAT_TREE);
        RunResult r = sim.run(ProgressListener.NONE);
        var topo = sim.network().topology();
        int ackOnly = 0;
        int data = 0;
        for (EcmpLog.Collision c : r.ecmpLog().collisions(r.flows())) {
            String line = r.ecmpLog().describe(c, r.flows());
            for (EcmpLog.FlowAt f : c.flows()) {
                // What waited there, from the flow's own waits at that port: its data, its last ACK or both.
                long ackWait = 0;
                long dataWait = 0;
                for (var h : r.ecmpLog().waits(f.flow().id())) {
                    if (h.node() == c.node() && h.port() == c.port()) {
                        if (h.acks()) {
                            ackWait += h.waitPs();
                        } else {
                            dataWait += h.waitPs();
                        }
                    }
                }
                assertThat(f.lastAckWaitPs()).isEqualTo(ackWait);
                assertThat(f.waitPs()).isEqualTo(ackWait + dataWait);
                String label = f.flow().id() + " (" + topo.nodeName(f.flow().src()) + "->"
                        + topo.nodeName(f.flow().dst()) + ")";
                if (c.flows().indexOf(f) >= EcmpLog.named(c.flows().size(), 3)) {
                    continue;
                }
                if (dataWait == 0) {
                    ackOnly++;
                    assertThat(line).contains("the last ACK of flow " + label)
                            .contains(" us (flow " + f.flow().id() + "'s last ACK)");
                    assertThat(f.packets()).isEqualTo("last_ack");
                } else {
                    data++;
                    assertThat(line).doesNotContain("the last ACK of flow " + label);
                }
            }
        }
        assertThat(ackOnly).as("seed 3 makes a collision where a flow waited by its last ACK alone").isPositive();
        assertThat(data).isPositive();
        Path dir = tmp.resolve("fat-tree");
        ReportWriter.writeRun(dir, r, Map.of());
        String json = Files.readString(dir.resolve("summary.json"));
        assertThat(json).contains("\"packets\": \"last_ack\"").contains("\"packets\": \"data\"");
        String html = Files.readString(dir.resolve("report.html"));
        assertThat(html.substring(html.indexOf("<h3>ECMP collisions</h3>"))).contains("the last ACK of flow ");
    }
}
