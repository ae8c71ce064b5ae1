package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;
import rocelab.scenario.read.ScenarioReader;

/**
 * The root of a wait for InfiniBand credits, by identity: the buffer that had no room names what it held (the egress
 * its packets waited for, and that egress's own root when it was held back by credits in turn) on the credit update
 * that ends the wait. A flow whose waits were rooted off its own round trip is an IB victim, told as PFC victims are.
 */
class CreditRootsTest {
    /** A flow's journey and the run it was recorded in. */
    record Told(Simulation sim, RunResult result, FlowRecord flow, List<JourneyEvent> events, String text) {}

    static Told journey(Simulation sim, int flow) {
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                PfcProbe.NONE).creditsTo(sim.creditLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        rec.completed(f.finishPs(), f.src());
        List<JourneyEvent> events = rec.eventsOf(f.startPs(), f.finishPs());
        String text = new JourneyText(sim.network(), null, sim.creditLog()).render(f, events, -1, 0, Long.MAX_VALUE,
                100_000);
        return new Told(sim, r, f, events, text);
    }

    private static Simulation example(String name, String from, String to) {
        try {
            ScenarioReader reader = new ScenarioReader();
            ScenarioConfig c = reader.readExample(name);
            if (from == null) {
                return Simulation.assemble(c);
            }
            String yaml = new String(ScenarioReader.class.getResourceAsStream("/rocelab/scenario/examples/" + name + ".yaml")
                    .readAllBytes(), StandardCharsets.UTF_8);
            return Scenarios.assemble(yaml.replace(from, to).replaceAll("(?m)^  ib-cc: .*\\n", ""));
        } catch (Exception e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static int node(Topology topo, String name) {
        for (int n = 0; n < topo.nodeCount(); n++) {
            if (topo.nodeName(n).equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name);
    }

    private static int portTowards(Topology topo, int node, int peer) {
        for (int p = 0; p < topo.portCount(node); p++) {
            if (topo.peer(node, p).node() == peer) {
                return p;
            }
        }
        throw new AssertionError("no port of " + node + " towards " + peer);
    }

    private static List<Victims.Victim> victims(RunResult r) {
        return r.creditLog().victims(r.flows(), r.simulatedPs());
    }

    /**
     * infiniband-incast.yaml's header: a 15:1 incast with a victim, h9 -> h1, that shares a spine link with the incast
     * but not its receiver; the port toward h0 is the root of congestion; without ib-cc the victim waits behind the
     * incast, and with it several times less. Its waits for credits are rooted at leaf0's port towards h0, off its way,
     * and no incast flow is a victim (the root is on its own way).
     */
    @Test
    void shouldNameTheVictimOfTheInfinibandIncastExampleRootedAtThePortTowardsItsReceiver() {
        RunResult r = example("infiniband-incast", null, null).run(ProgressListener.NONE);
        Topology topo = r.network().topology();
        int leaf0 = node(topo, "leaf0");
        int toH0 = portTowards(topo, leaf0, 0);
        List<Victims.Victim> victims = victims(r);
        assertThat(victims).extracting(v -> v.flow().id()).containsExactly(15);
        Victims.Victim v = victims.get(0);
        assertThat(v.flow().src()).isEqualTo(9);
        assertThat(v.flow().dst()).isEqualTo(1);
        assertThat(v.root().kind()).isEqualTo(CreditRoot.CONGESTION);
        assertThat(v.root().node()).isEqualTo(leaf0);
        assertThat(v.root().port()).isEqualTo(toH0);
        assertThat(v.root().onPath()).isFalse();
        int spine1 = node(topo, "spine1");
        assertThat(v.hops()).as("it waited on the spine link it shares with the incast").anyMatch(h -> h.node() == spine1
                && h.port() == portTowards(topo, spine1, leaf0) && h.offPathWaitPs() > 0);
        assertThat(v.offPathWaitPs()).isGreaterThan((long) (Victims.MIN_SHARE * v.flow().fctPs()));
        for (FlowRecord f : r.flows()) {
            if (f.dst() == 0) {
                assertThat(r.creditLog().flowWaits().roots(f.id())).as("incast flow %d", f.id())
                        .anyMatch(x -> x.node() == leaf0 && x.port() == toH0 && x.onPath());
            }
        }
        String text = SummaryText.render(r, null);
        assertThat(text).contains("IB victims  1 flow waited for credits rooted at a congestion point off its own way"
                + " there and back:\n            flow 15 h9->h1 x" + String.format(Locale.ROOT, "%.1f",
                v.flow().slowdown()) + ": waited for credits rooted at leaf0 port " + toH0 + " (towards h0), ")
                .contains("on its way to h1 or back: at ").doesNotContain("PFC victims");
        Map<String, Object> json = Summary.of(r);
        assertThat(json.get("ib_victim_count")).isEqualTo(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> row = ((List<Map<String, Object>>) json.get("ib_victims")).get(0);
        assertThat(row).containsEntry("flow_id", 15).containsEntry("root", "leaf0 port " + toH0 + " (towards h0)")
                .containsKey("credit_wait_us").containsKey("victim_wait_us");

        RunResult without = example("infiniband-incast", "cc: ib-cc", "cc: none").run(ProgressListener.NONE);
        List<Victims.Victim> worse = victims(without);
        assertThat(worse).extracting(x -> x.flow().id()).contains(15);
        Victims.Victim w = worse.stream().filter(x -> x.flow().id() == 15).findFirst().orElseThrow();
        assertThat(w.root().node()).isEqualTo(leaf0);
        assertThat(w.root().port()).isEqualTo(toH0);
        assertThat(w.offPathWaitPs()).as("with ib-cc it waits several times less behind the incast")
                .isGreaterThan(4 * v.offPathWaitPs());
        // Without ib-cc the input buffers fill back to the senders. A spine's port towards leaf0 is fed by one input (leaf1)
        // at its own rate, so it cannot be a congestion point: it only passes on leaf0's stalls (it stalls for leaf0's
        // credits between bursts, and has just sent when it grants credits upstream). It was named one, and incast flows
        // its victims. The congestion points are leaf0's port towards h0 and, where ECMP puts more flows on it than it
        // carries, a leaf1 uplink.
        Topology withoutTopo = without.network().topology();
        for (FlowRecord f : without.flows()) {
            for (FlowWaits.Root root : without.creditLog().flowWaits().roots(f.id())) {
                if (!root.others() && root.kind() == CreditRoot.CONGESTION) {
                    assertThat(withoutTopo.nodeName(root.node())).as("flow %d's root", f.id()).startsWith("leaf");
                }
            }
        }
        assertThat(worse).as("victims").allMatch(x -> x.flow().dst() != 0);
    }

    /** Four senders into h0, one of them across the spine, and h5 -> h1 beside it across the same spine. */
    static final String TWO_HOPS = """
            name: ib-two-hops
            fabric: {mode: infiniband, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            traffic:
              - {kind: incast, senders: 1-4, receiver: 0, size: 2MB}
              - {kind: flow, src: 5, dst: 1, size: 1MB}
            """;

    /**
     * The congestion point is leaf0's port towards h0. The spine's queue towards leaf0 waits for leaf0's buffer, full
     * of packets for h0 (one credit hop); leaf1's queue towards the spine waits for the spine's buffer, full of packets
     * for leaf0, held back in turn: its root is two credit hops away, and h5 -> h1, which never crosses leaf0's port
     * towards h0, is its victim; the incast flows, rooted at their own receiver's port, are not.
     */
    @Test
    void shouldTraceAWaitToACongestionPointTwoCreditHopsAwayAndNameTheFlowBesideTheIncastItsVictim() {
        Told t = journey(Scenarios.assemble(TWO_HOPS), 4);
        Topology topo = t.sim().network().topology();
        int leaf0 = node(topo, "leaf0");
        int leaf1 = node(topo, "leaf1");
        int spine0 = node(topo, "spine0");
        int toH0 = portTowards(topo, leaf0, 0);
        int toSpine = portTowards(topo, leaf1, spine0);
        List<JourneyEvent> atLeaf1 = t.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.CREDIT_WAIT
                && e.node() == leaf1 && e.port() == toSpine).toList();
        assertThat(atLeaf1).isNotEmpty();
        long twoAway = atLeaf1.stream().map(e -> ((JourneyEvent.CreditWait) e.cause()).root()).filter(root -> CreditRoot
                .kind(root) == CreditRoot.CONGESTION && CreditRoot.node(root) == leaf0 && CreditRoot.port(root) == toH0
                && CreditRoot.depth(root) == 2).count();
        assertThat(twoAway).as("waits at leaf1 rooted at leaf0 -> h0, two credit hops away").isPositive();
        JourneyEvent first = atLeaf1.stream().filter(e -> CreditRoot.depth(((JourneyEvent.CreditWait) e.cause()).root())
                == 2).findFirst().orElseThrow();
        int spineToLeaf0 = portTowards(topo, spine0, leaf0);
        assertThat(CreditRoot.holder(((JourneyEvent.CreditWait) first.cause()).root())).isEqualTo(spineToLeaf0);
        assertThat(t.text()).contains("leaf1: the flow's packets waited ").contains(" us in the queue towards spine0 for"
                + " credits on VL 3: spine0's 65,536-byte VL 3 input buffer on its port from leaf1 had no room for the"
                + " packet, full of packets for spine0 -> leaf0, held back by credits in turn; the root: leaf0 port "
                + toH0 + " (towards h0), the congestion point, 2 credit hops away")
                .contains("spine0: the flow's packets waited ").contains(" us in the queue towards leaf0 for credits on"
                        + " VL 3: leaf0's 65,536-byte VL 3 input buffer on its port from spine0 had no room for the"
                        + " packet, full of packets for leaf0 -> h0, the congestion point")
                .containsPattern("us for credits rooted at leaf0 port " + toH0 + " \\(towards h0\\), [0-9-]+ credit hops?"
                        + " away: NOT on its way to h1 or back \\(a victim's wait\\)");
        RunResult r = t.result();
        assertThat(victims(r)).extracting(v -> v.flow().id()).containsExactly(4);
        Victims.Victim v = victims(r).get(0);
        assertThat(v.root().node()).isEqualTo(leaf0);
        assertThat(v.root().port()).isEqualTo(toH0);
        assertThat(v.root().maxHops()).isGreaterThanOrEqualTo(2);
        for (int f = 0; f < 4; f++) {
            assertThat(r.creditLog().flowWaits().offPathWaitPs(f)).as("incast flow %d waits behind its own receiver", f).isZero();
            assertThat(r.creditLog().flowWaits().waitPs(f)).as("incast flow %d waited for credits", f).isPositive();
        }
    }

    /**
     * A 4:1 incast from leaf1 into h0 and h9 -> h1 beside it. ECMP puts three of the incast flows and h9 -> h1 on leaf1's
     * uplink to spine1: four 100G senders into one 100G port, a congestion point of its own on h9 -> h1's way; the one
     * incast flow via spine0 makes leaf0's port towards h0 congested until it finishes (about 162 us), and its credits
     * stall leaf1's uplink (through spine1) until about 170 us.
     */
    static final String BESIDE_AN_ECMP_COLLISION = """
            name: ib-incast4
            fabric: {mode: infiniband, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 5, link: {rate: 100Gbps, delay: 1us}}
            traffic:
              - {kind: incast, senders: 5-8, receiver: 0, size: 1MB}
              - {kind: flow, src: 9, dst: 1, size: 1MB}
            """;

    /**
     * A port that stalled keeps its stall's root only while the backlog that stall held back is still queued. leaf1's
     * uplink to spine1 stalls for leaf0's credits until about 170 us, then sends at line rate with a queue of about 220 KB
     * for the rest of the run: four senders into one port. Its queue then is its own, so h9's HCA, waiting for leaf1's
     * buffer full of packets for that uplink, waits behind it, on h9 -> h1's own way; the waits were all rooted at
     * leaf0's port towards h0 (2-3 credit hops away, off its way), making h9 -> h1 a victim of 365 us of waits.
     */
    @Test
    void shouldRootWaitsBehindAPortOversubscribedByItsOwnInputsAtItOnceItsStallsBacklogHasLeft() {
        Told t = journey(Scenarios.assemble(BESIDE_AN_ECMP_COLLISION), 4);
        Topology topo = t.sim().network().topology();
        int leaf0 = node(topo, "leaf0");
        int leaf1 = node(topo, "leaf1");
        int spine1 = node(topo, "spine1");
        int toH0 = portTowards(topo, leaf0, 0);
        int uplink = portTowards(topo, leaf1, spine1);
        RunResult r = t.result();
        assertThat(r.flows()).allMatch(f -> f.finishPs() > 0);
        // Leaf1's uplink stops waiting for credits once leaf0's port towards h0 is no longer congested.
        List<JourneyEvent> late = t.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.CREDIT_WAIT
                && e.node() == node(topo, "h9") && e.timePs() > 200_000_000L).toList();
        assertThat(late).as("h9's HCA waits after 200 us").hasSizeGreaterThan(100);
        assertThat(late).as("each rooted at leaf1's uplink, the congestion point").allSatisfy(e -> {
            long root = ((JourneyEvent.CreditWait) e.cause()).root();
            assertThat(CreditRoot.kind(root)).isEqualTo(CreditRoot.CONGESTION);
            assertThat(CreditRoot.node(root)).isEqualTo(leaf1);
            assertThat(CreditRoot.port(root)).isEqualTo(uplink);
        });
        assertThat(r.creditLog().flowWaits().roots(4)).anyMatch(x -> x.node() == leaf1 && x.port() == uplink
                && x.kind() == CreditRoot.CONGESTION && x.onPath() && x.waitPs() > 100_000_000L);
        // Before that it waited behind the congestion at h0, through the uplink's stalls: still a victim of it.
        Victims.Victim v = victims(r).stream().filter(x -> x.flow().id() == 4).findFirst().orElseThrow();
        assertThat(v.root().node()).isEqualTo(leaf0);
        assertThat(v.root().port()).isEqualTo(toH0);
        assertThat(v.offPathWaitPs()).as("its waits rooted at h0's port").isLessThan(250_000_000L);
        assertThat(t.text()).contains("us for credits rooted at leaf1 port " + uplink + " (towards spine1), 1 credit hop"
                + " away: on its own way (to h1 or back)");
        // No spine port is named a congestion point: each is fed by one leaf at its own rate.
        for (FlowRecord f : r.flows()) {
            for (FlowWaits.Root root : r.creditLog().flowWaits().roots(f.id())) {
                if (!root.others() && root.kind() == CreditRoot.CONGESTION) {
                    assertThat(topo.nodeName(root.node())).as("flow %d's root", f.id()).startsWith("leaf");
                }
            }
        }
    }

    /**
     * A 2-to-1 incast on one switch: the senders' HCAs wait for the switch's input buffers, full of packets for h0,
     * the congestion point on each flow's own way: no victim, and the journey says so.
     */
    @Test
    void shouldNameNoVictimWhenEveryWaitIsRootedOnTheFlowsOwnWay() {
        Told t = journey(Scenarios.assemble("""
                name: ib-2to1
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-2, receiver: 0, size: 512000B}
                """), 0);
        RunResult r = t.result();
        assertThat(victims(r)).isEmpty();
        List<FlowWaits.Root> roots = r.creditLog().flowWaits().roots(0);
        assertThat(roots).isNotEmpty().allSatisfy(x -> assertThat(x.onPath()).isTrue());
        assertThat(roots.get(0).kind()).isEqualTo(CreditRoot.CONGESTION);
        assertThat(roots.get(0).node()).isEqualTo(3);
        assertThat(roots.get(0).port()).as("switch0 towards h0").isZero();
        assertThat(roots.stream().mapToLong(FlowWaits.Root::waitPs).sum()).isEqualTo(r.creditLog().flowWaits()
                .waitPs(0));
        assertThat(t.text()).contains("switch0's 65,536-byte VL 3 input buffer on its port from h1 had no room for the"
                + " packet, full of packets for switch0 -> h0, the congestion point")
                .contains("us for credits rooted at switch0 port 0 (towards h0), 1 credit hop away: on its own way (to h0"
                        + " or back)").doesNotContain("victim");
        assertThat(SummaryText.render(r, null)).doesNotContain("victims");
    }

    /**
     * The HCA's wait for credits for a flow's last ACK: h0 sends h2 a long write that h2 drains at half the line rate,
     * so the switch's input buffer from h0 (exactly 16 full-size packets) fills with it and h0's lane has no credit
     * left, not even the one block an ACK needs. The ACK of h1's one-packet write to h0 waits at h0's HCA, behind the
     * switch's queue towards h2, held back by h2's receive buffer: a root off the flow's way, so the flow is a victim
     * by its last ACK.
     */
    @Test
    void shouldTellTheReceiversHcaHoldingTheLastAckForCreditsAndItsRoot() {
        Told t = journey(Scenarios.assemble("""
                name: ib-hca-ack
                fabric: {mode: infiniband, mtu: 4096, infiniband: {vl-buffer: 66560B}}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                nics: [{hosts: 2, rx: {rate: 50Gbps}}]
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 4096000B}
                  - {kind: flow, src: 1, dst: 0, size: 1000B, start: 60us}
                """), 1);
        List<JourneyEvent> atHca = t.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.CREDIT_WAIT
                && e.node() == 0).toList();
        assertThat(atHca).hasSize(1);
        JourneyEvent ack = atHca.get(0);
        assertThat(ack.flag()).as("the flow's last ACK").isTrue();
        long root = ((JourneyEvent.CreditWait) ack.cause()).root();
        assertThat(CreditRoot.kind(root)).isEqualTo(CreditRoot.RECEIVER);
        assertThat(CreditRoot.node(root)).isEqualTo(2);
        assertThat(CreditRoot.depth(root)).isEqualTo(2);
        assertThat(t.text()).contains("h0's HCA held the flow's last ACK for " + String.format(Locale.ROOT,
                "%.3f", ack.value() / 1e6) + " us waiting for credits on VL 3: switch0's 66,560-byte VL 3 input buffer"
                + " on its port from h0 had no room for it, full of packets for switch0 -> h2, held back by credits in"
                + " turn; the root: h2's HCA (its receive buffer), 2 credit hops away")
                .contains("at h0's HCA " + String.format(Locale.ROOT, "%.3f", ack.value() / 1e6)
                        + " us on VL 3 (its last ACK)");
        RunResult r = t.result();
        assertThat(victims(r)).extracting(v -> v.flow().id()).containsExactly(1);
        assertThat(victims(r).get(0).hops()).singleElement().satisfies(h -> {
            assertThat(h.node()).isZero();
            assertThat(h.acks()).isTrue();
        });
        assertThat(SummaryText.render(r, null)).contains("flow 1 h1->h0").contains("waited for credits rooted at h2's"
                + " HCA (its receive buffer), 2 credit hops away, not on its way to h0 or back: at h0's HCA ")
                .contains(" us (its last ACK)");
    }

    /**
     * infiniband-incast's victim, flow 15 (h9 -> h1), leaves leaf1 by its port towards spine1. Some of its waits at h9's
     * HCA were behind leaf1's buffer full of packets for its port towards spine0, held back by credits whose root that
     * port had not been told yet: where they were rooted is not known, so the journey claims neither way for them (it
     * said "on its own way" by default). Every other root is on its way exactly when the flow's packets or ACKs were
     * queued at that port, as the journey recorded them (or it is h9's or h1's HCA).
     */
    @Test
    void shouldSayARootIsOnTheFlowsWayOnlyWhenItsPacketsOrAcksLeftByItAndNothingOfARootNotKnownYet() {
        Told t = journey(example("infiniband-incast", null, null), 15);
        FlowRecord f = t.flow();
        Topology topo = t.sim().network().topology();
        Set<Long> way = new HashSet<>();
        for (JourneyEvent e : t.events()) {
            if (e.kind() == JourneyEvent.Kind.ENQUEUE) {
                way.add((long) e.node() << 32 | e.port());
            }
        }
        int leaf1 = node(topo, "leaf1");
        assertThat(way).as("its data leave leaf1 towards spine1, not spine0")
                .contains((long) leaf1 << 32 | portTowards(topo, leaf1, node(topo, "spine1")))
                .doesNotContain((long) leaf1 << 32 | portTowards(topo, leaf1, node(topo, "spine0")));
        List<String> told = t.text().lines().filter(l -> l.matches(" {4}[0-9.]+ us for credits .*")).toList();
        List<FlowWaits.Root> roots = t.result().creditLog().flowWaits().roots(f.id());
        assertThat(told).hasSameSizeAs(roots);
        assertThat(roots).as("a root not known yet among its waits").anyMatch(r -> r.kind() == CreditRoot.UNKNOWN);
        for (FlowWaits.Root r : roots) {
            String head = String.format(Locale.ROOT, "    %.3f us for credits ", r.waitPs() / 1e6);
            String named = Victims.named(t.result().creditLog().wording(), r);
            String line = told.stream().filter(l -> l.startsWith(head) && l.contains(named)).findFirst().orElseThrow();
            if (r.kind() == CreditRoot.UNKNOWN) {
                assertThat(line).as("a root not known yet").doesNotContain("on its own way").doesNotContain(
                        "NOT on its way").doesNotContain("rooted at").contains("where they were rooted is not known, nor"
                                + " whether on its way to h1 or back");
                assertThat(r.onPath()).isFalse();
                assertThat(r.offPath()).isFalse();
                continue;
            }
            boolean onWay = topo.isHost(r.node()) ? r.node() == f.src() || r.node() == f.dst()
                    : way.contains((long) r.node() << 32 | r.port());
            assertThat(line).as("%s", named).contains(onWay ? ": on its own way (to h1 or back)"
                    : ": NOT on its way to h1 or back (a victim's wait)");
            assertThat(r.onPath()).isEqualTo(onWay);
        }
        assertThat(t.text()).contains(" us for credits behind leaf1 port " + portTowards(topo, leaf1, node(topo,
                "spine0")) + " (towards spine0), held back by credits from further on (not known yet), 1 credit hop away:"
                + " where they were rooted is not known, nor whether on its way to h1 or back (leaf1 port "
                + portTowards(topo, leaf1, node(topo, "spine0")) + " itself is not on it)");
        // Its waits behind the root not known yet are not a victim's: its victim's wait is what is known off its way.
        long known = roots.stream().filter(FlowWaits.Root::offPath).mapToLong(FlowWaits.Root::waitPs).sum();
        assertThat(t.result().creditLog().flowWaits().offPathWaitPs(f.id())).isEqualTo(known);
    }
}
