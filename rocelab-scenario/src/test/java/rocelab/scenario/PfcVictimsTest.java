package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * Victims by cause: a flow is a victim only when it waited behind pauses rooted at a congestion point off its own
 * way, so flows into a congested receiver (or through their own bottleneck) never are, however slow; every XOFF
 * names its ingress queue, threshold, flows and root.
 */
class PfcVictimsTest {
    private static RunResult run(String example) {
        try {
            return Simulation.assemble(new ScenarioReader().readExample(example)).run(ProgressListener.NONE);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * The (switch node, port) pairs a flow's data leaves by, followed hop by hop from its sender's switch by each
     * switch's own forwarding choice (a switch the flow never reaches is not on it, whatever it would do).
     */
    static List<List<Integer>> dataWay(RunResult r, int src, int dst, int entropy) {
        var topo = r.network().topology();
        List<List<Integer>> way = new ArrayList<>();
        int node = topo.peer(src, 0).node();
        while (!topo.isHost(node) && way.size() < 64) {
            var sw = r.network().switchAt(node - topo.hostCount());
            int out = -1;
            for (int p = 0; p < sw.portCount(); p++) {
                if (sw.forwardsThrough(src, dst, entropy, p)) {
                    out = p;
                    break;
                }
            }
            assertThat(out).as("a route from %s towards h%d", topo.nodeName(node), dst).isNotNegative();
            way.add(List.of(node, out));
            node = topo.peer(node, out).node();
        }
        assertThat(node).isEqualTo(dst);
        return way;
    }

    /** Each victim's evidence holds: an off-way root, waits at least the minimum share of its time, hops that add up. */
    static void assertTrueAndBounded(RunResult r) {
        List<Victims.Victim> victims = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs());
        for (Victims.Victim v : victims) {
            assertThat(v.root()).as("flow %d names its root", v.flow().id()).isNotNull();
            assertThat(v.root().onPath()).isFalse();
            assertThat(v.offPathWaitPs()).isLessThanOrEqualTo(v.waitPs())
                    .isGreaterThanOrEqualTo((long) (PfcVictims.MIN_SHARE * v.flow().fctPs()));
            assertThat(v.hops().stream().mapToLong(FlowWaits.Hop::offPathWaitPs).sum()).isEqualTo(v.offPathWaitPs());
            var root = r.pfcLog().roots(v.flow().id()).stream().filter(x -> !x.onPath()).findFirst().orElseThrow();
            assertThat(root).isEqualTo(v.root());
            if (!r.network().topology().isHost(root.node())) {
                var qp = r.network().queuePairs().get(v.flow().queuePair());
                assertThat(dataWay(r, qp.sourceHost(), qp.destinationHost(), qp.entropy()))
                        .as("the flow does not leave by its root port").doesNotContain(List.of(root.node(), root.port()));
            }
        }
        // The victims every output shares are these, made once for the run's flows and end.
        assertThat(r.pfcLog().victims(r.flows(), r.simulatedPs())).isEqualTo(victims)
                .isSameAs(r.pfcLog().victims(r.flows(), r.simulatedPs()));
        for (FlowRecord f : r.flows()) {
            // The sums flows.csv prints are the sums of the hops the victims list.
            assertThat(r.pfcLog().pausedWaitPs(f.id()))
                    .isEqualTo(r.pfcLog().waits(f.id()).stream().mapToLong(FlowWaits.Hop::waitPs).sum());
            assertThat(r.pfcLog().offPathWaitPs(f.id()))
                    .isEqualTo(r.pfcLog().waits(f.id()).stream().mapToLong(FlowWaits.Hop::offPathWaitPs).sum());
        }
        for (FlowRecord f : r.flows()) {
            // Waits of a flow's packets through one pause count once: at any hop, never more than the flow's time.
            long lived = f.completed() ? f.fctPs() : r.simulatedPs() - f.startPs();
            assertThat(r.pfcLog().waits(f.id())).as("flow %d", f.id())
                    .allSatisfy(h -> assertThat(h.waitPs()).isLessThanOrEqualTo(lived).isGreaterThanOrEqualTo(
                            h.offPathWaitPs()));
        }
        String text = SummaryText.render(r, null);
        if (victims.isEmpty()) {
            assertThat(text).doesNotContain("PFC victims");
            return;
        }
        // The victims' lines, up to the next part of the summary (the ECMP collisions, or the peak queue).
        int start = text.indexOf("PFC victims");
        int ecmp = text.indexOf("\nECMP ", start);
        String section = text.substring(start, ecmp >= 0 ? ecmp + 1 : text.indexOf("peak queue"));
        assertThat(section).startsWith("PFC victims " + victims.size() + (victims.size() == 1
                ? " flow waited behind pauses rooted at a congestion point off its own way there and back"
                : " flows waited behind pauses rooted at a congestion point off their own way there and back"))
                .doesNotContain(" more");
        long lines = section.lines().filter(l -> l.startsWith("            flow ")).count();
        assertThat(lines).isEqualTo(Numbers.shown(victims.size(), 5));
        Map<String, Object> json = Summary.of(r);
        assertThat(json.get("pfc_victim_count")).isEqualTo(victims.size());
        assertThat((List<?>) json.get("pfc_victims")).hasSize(Math.min(20, victims.size()));
        assertLostAndRootsTold(section, victims, (List<?>) json.get("pfc_victims"), "victim_wait_us");
    }

    /**
     * What a victim lost against an idle fabric is told beside its waits, from flows.csv's figures (an audit's victim
     * had 495 us of waits summed over hops, but finished 82 us later than its ideal); summary.json's rows give the
     * root it waited behind most with its part of the waits, and the other roots with theirs, which add up.
     */
    static void assertLostAndRootsTold(String section, List<Victims.Victim> victims, List<?> rows, String offKey) {
        for (int i = 0; i < Numbers.shown(victims.size(), 5); i++) {
            FlowRecord f = victims.get(i).flow();
            String line = section.lines().filter(l -> l.startsWith("            flow " + f.id() + " ")).findFirst()
                    .orElseThrow();
            if (f.completed()) {
                long lost = f.fctPs() - f.idealFctPs();
                assertThat(lost).isPositive();
                assertThat(line).contains(String.format(Locale.ROOT, " us summed over hops; it finished %.3f us later"
                        + " than on an idle fabric", lost / 1e6)).endsWith(")");
                if (f.rateHeldPs() > 0) {
                    assertThat(line).contains(String.format(Locale.ROOT, "; besides these waits, its own rate held it"
                            + " back %.3f us", f.rateHeldPs() / 1e6));
                }
            } else {
                assertThat(line).endsWith(" us summed over hops)");
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            FlowRecord f = victims.get(i).flow();
            Map<?, ?> row = (Map<?, ?>) rows.get(i);
            assertThat(row.get("flow_id")).isEqualTo(f.id());
            assertThat(row.get("lost_us")).isEqualTo(f.completed() ? Numbers.micros(f.fctPs() - f.idealFctPs()) : null);
            long sum = ps(row.get("root_wait_us"));
            for (Object o : (List<?>) row.get("other_roots")) {
                long part = ps(((Map<?, ?>) o).get("root_wait_us"));
                assertThat(part).isLessThanOrEqualTo(ps(row.get("root_wait_us")));
                sum += part;
            }
            assertThat(sum).as("flow %d's roots' waits", f.id()).isEqualTo(ps(row.get(offKey)));
        }
    }

    private static long ps(Object us) {
        return new BigDecimal(us.toString()).movePointRight(6).longValueExact();
    }

    @Test
    void shouldNotNameTheFlowIntoTheStarvedClassAVictimInTheSchedulerExample() {
        RunResult r = run("lint-l16-scheduler-starves-roce");
        FlowRecord roce = r.flows().get(0);
        assertThat(roce.dst()).isZero();
        assertThat(r.pfcLog().pausedWaitPs(0)).as("h4 -> h0 waited behind pauses").isPositive();
        assertThat(r.pfcLog().roots(0)).as("rooted where its own class is starved: on its own way")
                .isNotEmpty().allMatch(FlowWaits.Root::onPath);
        assertThat(PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs())).isEmpty();
        assertTrueAndBounded(r);
    }

    @Test
    void shouldNotNameFlowsIntoTheirOwnIncastTargetInTheCnpQueueExample() {
        RunResult r = run("lint-l10-cnp-in-data-queue");
        assertThat(r.flows().stream().filter(f -> f.dst() == 4).mapToLong(f -> r.pfcLog().pausedWaitPs(f.id())).sum())
                .as("flows into h4 waited behind pauses").isPositive();
        assertThat(PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs()))
                .noneMatch(v -> v.flow().dst() == 4 || v.flow().dst() == 0);
        assertTrueAndBounded(r);
    }

    /** h4 -> h0 beside a 5-to-1 incast into {@code receiver} (h4: its own sender; h5: a neighbour of it). */
    private static RunResult lastAckBesideIncastInto(int receiver) {
        String senders = receiver == 4 ? "[1, 2, 3, 5, 6, 7]" : "[1, 2, 3, 6, 7]";
        String yaml = """
                name: last-ack-behind-pauses
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 2MB, ecn: {marking: none}}
                nic: {cc: none}
                traffic:
                  - {kind: flow, src: 4, dst: 0, size: 200KB}
                  - {kind: incast, senders: %s, receiver: %d, size: 2MB}
                """.formatted(senders, receiver);
        try {
            return Simulation.assemble(new ScenarioReader().read(yaml, "last-ack-behind-pauses", null))
                    .run(ProgressListener.NONE);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldCountTheWaitOfAFlowsLastAckBehindPausesOfAnIncastItDoesNotTakePartIn() {
        // h4 -> h0 is idle all the way, but its last ACK must cross the spine port and leaf0's uplink that the incast
        // into h5 (h4's neighbour on leaf1) keeps paused: the receiver has all the data long before the sender learns
        // it, and the congestion (leaf1's port to h5) is on neither the data's way nor the ACK's.
        RunResult r = lastAckBesideIncastInto(5);
        FlowRecord f = r.flows().get(0);
        List<FlowWaits.Hop> hops = r.pfcLog().waits(f.id());
        assertThat(hops).as("only its last ACK waited, on its way back").isNotEmpty().allMatch(FlowWaits.Hop::acks);
        long waited = r.pfcLog().pausedWaitPs(f.id());
        // One ACK crosses its hops one after the other: its waits fit between delivery and completion.
        assertThat(waited).isPositive().isLessThanOrEqualTo(f.finishPs() - f.deliveredPs());
        List<Victims.Victim> victims = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs());
        assertThat(victims).as("a victim of the incast into h5, through its last ACK")
                .anyMatch(v -> v.flow().id() == f.id() && v.offPathWaitPs() == waited);
        assertThat(victims).allMatch(v -> v.flow().id() == f.id());
        String text = SummaryText.render(r, null);
        assertThat(text).contains("flow 0 h4->h0").contains("(its last ACK)").contains("not on its way to h0 or back");
        assertTrueAndBounded(r);
    }

    @Test
    void shouldNotCallAFlowAVictimWhenItsLastAckWaitsForAnIncastIntoItsOwnSender() {
        // The same, but the incast goes into h4, the flow's sender: its last ACK waits behind pauses rooted at leaf1's
        // port to h4, which the ACK itself leaves by, as every incast flow's data does. Its own way's congestion (the
        // wait is counted), not head-of-line blocking by someone else's.
        RunResult r = lastAckBesideIncastInto(4);
        FlowRecord f = r.flows().get(0);
        assertThat(r.pfcLog().waits(f.id())).isNotEmpty().allMatch(FlowWaits.Hop::acks);
        assertThat(r.pfcLog().pausedWaitPs(f.id())).isPositive();
        assertThat(r.pfcLog().roots(f.id())).isNotEmpty().allMatch(FlowWaits.Root::onPath);
        assertThat(PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs())).noneMatch(v -> v.flow().id() == f.id());
        assertTrueAndBounded(r);
    }

    @Test
    void shouldNameAnInjectedPauseStormAsTheRootNotAReceiveBufferTheRnicDoesNotHave() {
        // h0 (no slow receive pipeline, so no receive buffer to fill) storms pause frames: the waits behind them are
        // rooted at its storm, and a flow into h0 is not its victim while flows elsewhere are.
        RunResult r = Simulation.assemble(Scenarios.parse("""
                name: storm-root
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                faults:
                  - {kind: pause-storm, host: 0, start: 20us, duration: 300us}
                traffic:
                  - {kind: flow, src: 3, dst: 0, size: 2MB}
                  - {kind: flow, src: 4, dst: 1, size: 2MB}
                """)).run(ProgressListener.NONE);
        for (FlowRecord f : r.flows()) {
            for (FlowWaits.Root root : r.pfcLog().roots(f.id())) {
                assertThat(r.pfcLog().rootName(root.node(), root.port())).as("flow %d", f.id())
                        .isEqualTo("h0's pause storm").doesNotContain("receive buffer");
            }
        }
        assertThat(r.pfcLog().roots(0)).as("into h0: on its own way").isNotEmpty().allMatch(FlowWaits.Root::onPath);
        // The spread starts at the storm: h0 paused leaf0 from the storm's start, for the storm's length (its XON
        // ends it), and every port and RNIC paused is one edge of the spread, so its pauses add up to the total.
        var edges = r.pfcLog().propagation(r.network().simulator().nowPs());
        assertThat(edges.get(0)).extracting(PfcLog.PauseEdge::firstXoffPs, PfcLog.PauseEdge::device,
                PfcLog.PauseEdge::hop, PfcLog.PauseEdge::pausedPs).containsExactly(20_000_000L, 0, 0, 300_000_000L);
        assertThat(r.pfcLog().rootName(edges.get(0).rootNode(), edges.get(0).rootPort())).isEqualTo("h0's pause storm");
        assertThat(edges.stream().mapToLong(PfcLog.PauseEdge::pausedPs).sum()).isEqualTo(r.totals().pausedPs());
        assertThat(SummaryText.render(r, null)).containsPattern("20.000 us  h0 +leaf0 +3 +0 +300.000 us");
        assertTrueAndBounded(r);
    }

    @Test
    void shouldRootEveryPauseOfASlowReceiverAtItsReceiveBufferNotAtThePortsThatClearItsBacklog() {
        // h0 takes 25 Gb/s; h4 -> h0 and h5 -> h1 (100 Gb/s each) share spine0's 200 Gb/s port to leaf0, fed by a
        // 400 Gb/s uplink. Without the slow receiver nothing ever pauses (the offered load is no port's more than its
        // rate): every pause is h0's receive buffer's doing. But when a pause was lifted, spine0's port (and leaf0's to
        // h0) cleared the backlog it had held at line rate while the ports before sent theirs at 400 Gb/s; XOFFs sent
        // then were rooted at that unpaused port, "the congestion point", and h5 -> h1's waits behind spine0's port
        // (124 of its 328 us) counted as its own way's congestion, not as a victim's. A port that clears a pause's
        // backlog, fed by hosts that cannot together send faster than it sends, is held by that pause (InfiniBand
        // roots such a backlog's credit stalls where the stall came from, and names h0's HCA for all of them).
        String yaml = """
                name: slow-receiver-backlog
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us},
                  uplink: {rate: 400Gbps, delay: 1us}}
                links:
                  - {a: spine0, b: leaf0, rate: 200Gbps}
                switch: {buffer: 2MB, ecn: {marking: none}, pfc: {threshold: dynamic, alpha: 0.125}}
                nic: {cc: none}
                nics:
                  - {hosts: 0, rx: {rate: 25Gbps, buffer: 256KB}}
                traffic:
                  - {kind: flow, src: 4, dst: 0, size: 1MB}
                  - {kind: flow, src: 5, dst: 1, size: 1MB}
                """;
        Simulation sim;
        try {
            sim = Simulation.assemble(new ScenarioReader().read(yaml, "slow-receiver-backlog", null));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
        JourneyRecorder journey = new JourneyRecorder(sim.network(), sim.driver().queuePair(1).id(), sim.pfcLog());
        journey.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        List<String> xoffs = r.pfcLog().csv().lines().skip(1).filter(l -> l.contains(",XOFF,")).toList();
        assertThat(xoffs).isNotEmpty().allMatch(l -> l.contains(",h0's receive buffer,"));
        for (FlowRecord f : r.flows()) {
            for (FlowWaits.Root root : r.pfcLog().roots(f.id())) {
                assertThat(r.pfcLog().rootName(root.node(), root.port())).as("flow %d", f.id())
                        .isEqualTo("h0's receive buffer");
            }
        }
        FlowRecord victim = r.flows().get(1);
        Victims.Victim v = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs()).stream()
                .filter(x -> x.flow().id() == victim.id()).findFirst().orElseThrow();
        assertThat(v.offPathWaitPs()).as("all its waits a victim's").isEqualTo(r.pfcLog().pausedWaitPs(victim.id()));
        assertTrueAndBounded(r);
        journey.completed(victim.finishPs(), victim.src());
        String text = new JourneyText(sim.network(), sim.pfcLog()).render(victim, journey.events(), -1, 0,
                Long.MAX_VALUE, 100_000);
        assertThat(text).contains("spine0 sends PFC XOFF to leaf1").contains("that port's pause had been lifted, but it"
                + " still queued the backlog that pause held back: rooted at h0's receive buffer, 2 pause hops away")
                .doesNotContain("that port was not paused: it is the congestion point").doesNotContain("on its own way");
    }

    @Test
    void shouldRecordTheIngressQueueThresholdFlowsAndRootOfEveryXoff() {
        RunResult r = run("lossless-pfc-only");
        var topo = r.network().topology();
        List<String> rows = r.pfcLog().csv().lines().skip(1).toList();
        assertThat(rows).isNotEmpty();
        int xoffs = 0;
        for (String row : rows) {
            String[] c = row.split(",", -1);
            if (!c[5].equals("XOFF")) {
                continue;
            }
            xoffs++;
            long bytes = Long.parseLong(c[8]);
            long threshold = Long.parseLong(c[9]);
            assertThat(threshold).isPositive();
            assertThat(c[11]).as("root of %s", row).isNotEmpty();
            long top = 0;
            for (String t : c[13].split(" ")) {
                if (!t.isEmpty()) {
                    int flow = Integer.parseInt(t.split(":")[0]);
                    top += Long.parseLong(t.split(":")[1]);
                    assertThat(flow).isBetween(0, r.flows().size() - 1);
                }
            }
            assertThat(top).as("the named flows' bytes are in the group: %s", row).isLessThanOrEqualTo(bytes);
            if (c[1].startsWith("leaf") || c[1].startsWith("spine")) {
                assertThat(c[10]).as("the egress port most of the bytes waited for").isNotEmpty();
            }
        }
        assertThat(xoffs).isPositive();
        // leaf0's first XOFF is rooted at its own port towards h0; a spine's XOFF to leaf1 one pause hop from it.
        PfcLog.Xoff first = null;
        for (var e : r.pfcLog().propagation(r.network().simulator().nowPs())) {
            if (topo.nodeName(e.device()).equals("leaf0")) {
                first = r.pfcLog().xoff(e.device(), e.port(), e.priority(), e.firstXoffPs());
                break;
            }
        }
        assertThat(first).isNotNull();
        assertThat(r.pfcLog().rootName(first.rootNode(), first.rootPort())).isEqualTo("leaf0 port 0 (towards h0)");
        assertThat(first.depth()).isZero();
        assertTrueAndBounded(r);
    }

    @Test
    void shouldSayHowManyPauseHopsFromItsRootEachWaitOfAVictimWas() {
        // A 3-tier fat tree: twelve hosts of pods 1-3 write to h0, h5 -> h1 beside them. The congestion at pod0-edge0's
        // port to h0 pauses pod0-agg0 (1 hop), which pauses core0 (2), pod1-agg0 (3), pod1-edge0 (4) and h5's RNIC
        // (5): h5 -> h1 waits behind that root at each of them. Before, the line gave the hops of its first wait only
        // ("1 pause hop away"), as if every wait listed were one pause from the root.
        RunResult r = Scenarios.assemble("""
                name: fat-tree-victim
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: fat-tree, k: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB, ecn: {marking: none}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 4-15, receiver: 0, size: 2MB}
                  - {kind: flow, src: 5, dst: 1, size: 2MB}
                """).run(ProgressListener.NONE);
        Victims.Victim v = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs()).stream()
                .filter(x -> x.flow().id() == 12).findFirst().orElseThrow();
        assertThat(r.pfcLog().rootName(v.root().node(), v.root().port())).isEqualTo("pod0-edge0 port 0 (towards h0)");
        assertThat(v.root().minHops()).isEqualTo(1);
        assertThat(v.root().maxHops()).as("at h5's RNIC").isEqualTo(5);
        assertThat(v.root().hops()).isBetween(v.root().minHops(), v.root().maxHops());
        assertThat(SummaryText.render(r, null)).contains("flow 12 h5->h1").contains(
                "rooted at pod0-edge0 port 0 (towards h0), 1-5 pause hops away, not on its way to h1 or back");
        assertTrueAndBounded(r);
    }

    @Test
    void shouldGiveEachRootOffItsWayItsOwnShareOfAVictimsWaits() {
        // lossless-pfc-only's victim h9 -> h1 waited behind pauses rooted at leaf0's port to h0 (4,942 us) and at
        // leaf1's port to spine0 (428 us). Its line named the first only, then listed every off-way wait (5,371 us) as
        // if all were behind it.
        RunResult r = run("lossless-pfc-only");
        Victims.Victim v = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs()).get(0);
        assertThat(v.offPathRoots()).hasSizeGreaterThan(1).allMatch(x -> !x.onPath());
        assertThat(v.offPathRoots().stream().mapToLong(FlowWaits.Root::waitPs).sum()).isEqualTo(v.offPathWaitPs());
        StringBuilder roots = new StringBuilder();
        for (int i = 0; i < v.offPathRoots().size(); i++) {
            FlowWaits.Root x = v.offPathRoots().get(i);
            roots.append(i == 0 ? "" : i == v.offPathRoots().size() - 1 ? ", and at " : ", at ")
                    .append(r.pfcLog().rootName(x.node(), x.port())).append(", ").append(PfcVictims.away(x))
                    .append(String.format(Locale.ROOT, ", %.3f us", x.waitPs() / 1e6));
        }
        assertThat(SummaryText.render(r, null)).contains("flow 15 h9->h1 x").contains(
                ": waited behind pauses rooted at " + roots + ", none on its way to h1 or back: at ");
        assertTrueAndBounded(r);
    }

    /**
     * A lossless leaf-spine with one spine (800 Gb/s uplinks, so the congestion is at leaf0's ports to its hosts) and
     * {@code incasts} incasts of four 1 MB writes from leaf1's hosts into h0, h1, ... of leaf0, 400 us apart, beside
     * a long write from leaf1 to leaf0's host {@code incasts} through the same spine: it waits behind the pauses of
     * each incast in turn, each rooted at another port of leaf0, none on its way.
     */
    private static String incastsInTurn(int incasts, int hostsPerLeaf, String victimSize) {
        return incastsInTurn(incasts, hostsPerLeaf, victimSize, incasts);
    }

    /** As above, the incasts from the {@code smallFrom}-th on (from 0) of 200 KB writes. */
    private static String incastsInTurn(int incasts, int hostsPerLeaf, String victimSize, int smallFrom) {
        StringBuilder b = new StringBuilder("""
                name: incasts-in-turn
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us},
                  uplink: {rate: 800Gbps, delay: 1us}}
                switch: {buffer: 4MB, ecn: {marking: none}, pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                """.formatted(hostsPerLeaf));
        for (int k = 0; k < incasts; k++) {
            b.append("  - {kind: incast, senders: ").append(hostsPerLeaf + 1).append('-').append(hostsPerLeaf + 4)
                    .append(", receiver: ").append(k).append(k < smallFrom ? ", size: 1MB" : ", size: 200KB")
                    .append(", start: ").append(400 * k).append("us}\n");
        }
        b.append("  - {kind: flow, src: ").append(hostsPerLeaf).append(", dst: ").append(incasts).append(", size: ")
                .append(victimSize).append("}\n");
        return b.toString();
    }

    /** {@code leaf0 port 2 (towards h2), 1-3 pause hops away, 659.032 us}: a root as a victim's line names it. */
    private static String rootWords(RunResult r, FlowWaits.Root x) {
        return r.pfcLog().rootName(x.node(), x.port()) + ", " + PfcVictims.away(x)
                + String.format(Locale.ROOT, ", %.3f us", x.waitPs() / 1e6);
    }

    @Test
    void shouldNameTheFourthRootOffAVictimsWayRatherThanCountIt() {
        // Four incasts in turn: the long write waited behind pauses rooted at leaf0's ports to h0, h1, h2 and h3. Its
        // line named three and said "and at 1 more, 656.030 us" for the fourth; it names the fourth as the others.
        RunResult r = Scenarios.assemble(incastsInTurn(4, 8, "16MB")).run(ProgressListener.NONE);
        int victim = r.flows().size() - 1;
        Victims.Victim v = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs()).stream()
                .filter(x -> x.flow().id() == victim).findFirst().orElseThrow();
        List<FlowWaits.Root> roots = v.offPathRoots();
        assertThat(roots).hasSize(4).noneMatch(FlowWaits.Root::others);
        assertThat(roots).extracting(x -> r.pfcLog().rootName(x.node(), x.port())).containsExactlyInAnyOrder(
                "leaf0 port 0 (towards h0)", "leaf0 port 1 (towards h1)", "leaf0 port 2 (towards h2)",
                "leaf0 port 3 (towards h3)");
        assertThat(roots.stream().mapToLong(FlowWaits.Root::waitPs).sum()).isEqualTo(v.offPathWaitPs());
        String line = Victims.describe(r.network().topology(), v, PfcVictims.wording(r.pfcLog()));
        assertThat(line).contains(": waited behind pauses rooted at " + rootWords(r, roots.get(0)) + ", at "
                + rootWords(r, roots.get(1)) + ", at " + rootWords(r, roots.get(2)) + ", and at "
                + rootWords(r, roots.get(3)) + ", none on its way to h4 or back: at ").doesNotContain("more");
        assertThat(SummaryText.render(r, null)).contains(line);
        assertTrueAndBounded(r);
    }

    @Test
    void shouldTellTheWaitsBehindRootsNotKeptApartInTheirOwnWordsNeverAsOneMore() {
        // Eight incasts in turn, the last two small: the long write met eight roots off its way, more than it keeps
        // apart (seven); the waits behind the last of them are told together, named by none, and are few. Left among
        // the rest they were counted as one of "and at 4 more" (five roots at least); the line tells them in their own
        // words and counts only the roots it does not name among "n more".
        RunResult r = Scenarios.assemble(incastsInTurn(8, 12, "32MB", 6)).run(ProgressListener.NONE);
        int victim = r.flows().size() - 1;
        Victims.Victim v = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs()).stream()
                .filter(x -> x.flow().id() == victim).findFirst().orElseThrow();
        List<FlowWaits.Root> roots = v.offPathRoots();
        List<FlowWaits.Root> plain = roots.stream().filter(x -> !x.others()).toList();
        FlowWaits.Root others = roots.stream().filter(FlowWaits.Root::others).findFirst().orElseThrow();
        assertThat(plain).hasSizeGreaterThan(4);
        assertThat(roots.indexOf(others)).as("fewer waits than the first three roots'").isGreaterThan(2);
        String line = Victims.describe(r.network().topology(), v, PfcVictims.wording(r.pfcLog()));
        long rest = plain.subList(3, plain.size()).stream().mapToLong(FlowWaits.Root::waitPs).sum();
        assertThat(line).contains("at " + Victims.OTHERS + String.format(Locale.ROOT, ", %.3f us",
                others.waitPs() / 1e6))
                .contains(rootWords(r, plain.get(0)), rootWords(r, plain.get(1)), rootWords(r, plain.get(2)))
                .contains(String.format(Locale.ROOT, "and at %d more, %.3f us, none on its way",
                        plain.size() - 3, rest / 1e6));
    }

    @Test
    void shouldTellTheWaitsBehindRootsNotKeptApartAsTheFourthInTheirOwnWords() {
        // A flow that keeps three roots apart (as in a run of more than 65,536 flows) waits behind five off its way:
        // the fourth's and fifth's waits are the "other congestion points". Left over as the fourth entry, they were counted as
        // "and at 1 more", as if one root; they are told in their own words, which name none. The roots are the
        // congestion points of the four-incast run, its long write the flow (its real record and names).
        RunResult r = Scenarios.assemble(incastsInTurn(4, 8, "16MB")).run(ProgressListener.NONE);
        int victim = r.flows().size() - 1;
        var topo = r.network().topology();
        int spine = -1;
        int leaf0 = -1;
        for (int n = 0; n < topo.nodeCount(); n++) {
            spine = topo.nodeName(n).equals("spine0") ? n : spine;
            leaf0 = topo.nodeName(n).equals("leaf0") ? n : leaf0;
        }
        FlowWaits w = new FlowWaits((qp, kind, node, port) -> FlowWaits.Way.OFF, PfcLog.ROOTS_PER_FLOW_OF_MANY);
        long clock = 0;
        int[] port = {0, 1, 2, 3, 5};
        long[] us = {400, 300, 200, 60, 40};
        for (int k = 0; k < port.length; k++) {
            // Behind the root at leaf0's port to h_port[k] for us[k] us, at spine0's port to leaf0, one hop away: the
            // fourth and fifth roots share the last slot.
            long wait = us[k] * 1_000_000L;
            w.add(victim, 0, spine, 0, false, clock, clock + wait, 0, leaf0, port[k], 1);
            clock += wait;
        }
        List<Victims.Victim> found = Victims.find(w, r.flows(), r.simulatedPs());
        assertThat(found).singleElement();
        Victims.Victim v = found.get(0);
        assertThat(v.offPathRoots()).hasSize(4);
        assertThat(v.offPathRoots().get(3).others()).isTrue();
        String line = Victims.describe(topo, v, PfcVictims.wording(r.pfcLog()));
        assertThat(line).contains(": waited behind pauses rooted at leaf0 port 0 (towards h0), 1 pause hop away,"
                + " 400.000 us, at leaf0 port 1 (towards h1), 1 pause hop away, 300.000 us, at leaf0 port 2 (towards h2),"
                + " 1 pause hop away, 200.000 us, and at other congestion points (more than a flow keeps apart),"
                + " 100.000 us, none on its way to h4 or back").doesNotContain("more,");
    }
}
