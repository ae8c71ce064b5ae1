package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.workload.flow.EcmpFabric;
import rocelab.workload.flow.FlowRoute;

/** The flow-level fast mode: closed forms, the packet level's ECMP paths, link events, and its outputs. */
class FlowModelTest {
    private static final String LEAF_SPINE = """
            name: flow-model
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            """;

    private static Simulation flow(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml), Simulation.Model.FLOW);
    }

    @Test
    void shouldGiveALoneFlowItsClosedForm() {
        Simulation s = flow(LEAF_SPINE + "traffic:\n  - {kind: flow, src: 0, dst: 5, size: 7000001B}\n");
        RunResult r = s.run(ProgressListener.NONE);
        IdealFlowTime closed = new IdealFlowTime(s.network(), s.config().nic(),
                s.config().switches().forwardingLatencyPs());
        FlowRecord f = r.flows().get(0);
        assertThat(f.finishPs()).isEqualTo(closed.fctPs(0, 5, 7_000_001));
        assertThat(f.deliveredPs()).isEqualTo(closed.deliveryPs(0, 5, 7_000_001));
        assertThat(r.model()).isEqualTo("flow");
        assertThat(r.packetLevel()).isFalse();
    }

    @Test
    void shouldCountTheRethOnEveryFrameWhenTheRnicsPlaceOutOfOrder() {
        // With nic.ooo every data packet carries its placement address (a RETH, 16 bytes), not only the first. The
        // closed form and the flow level used to count it on the first frame only: a lone 1 MB flow took 99.812 us
        // at packet level against 98.562 us 'alone' (slowdown 1.013) and at flow level.
        String yaml = """
                name: ooo-lone
                fabric: {mode: roce-lossless, mtu: 1024}
                nic: {ooo: true}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us},
                           uplink: {rate: 400Gbps, delay: 2us}}
                traffic:
                  - {kind: flow, src: 0, dst: 3, size: 1000000B}
                """;
        RunResult packet = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        RunResult fluid = flow(yaml).run(ProgressListener.NONE);
        RunResult ideal = Simulation.assemble(Scenarios.parse(yaml), Simulation.Model.IDEAL).run(ProgressListener.NONE);
        FlowRecord p = packet.flows().get(0);
        assertThat(p.finishPs()).isEqualTo(99_811_520L);
        assertThat(p.idealFctPs()).as("the closed form, alone on an idle fabric").isEqualTo(p.fctPs());
        assertThat(fluid.flows().get(0).finishPs()).as("flow level").isEqualTo(p.finishPs());
        assertThat(fluid.flows().get(0).deliveredPs()).isEqualTo(p.deliveredPs());
        assertThat(ideal.flows().get(0).finishPs()).as("the ideal network's bound, tight alone").isEqualTo(p.finishPs());
        // Without ooo at one end the QP goes back N and only the first frame has the RETH: as before.
        RunResult mixed = Simulation.assemble(Scenarios.parse(yaml.replace("nic: {ooo: true}",
                "nic: {ooo: true}\nnics:\n  - {hosts: 3, ooo: false}"))).run(ProgressListener.NONE);
        assertThat(mixed.flows().get(0).idealFctPs()).isEqualTo(mixed.flows().get(0).fctPs()).isLessThan(p.fctPs());
    }

    /** The switch ports a flow's data leaves by, at packet level: those whose data packet counter moved. */
    private static TreeSet<String> packetPath(Simulation s) {
        TreeSet<String> out = new TreeSet<>();
        for (int sw = 0; sw < s.network().switchCount(); sw++) {
            for (int p = 0; p < s.network().switchAt(sw).portCount(); p++) {
                if (s.network().switchAt(sw).port(p).counter(PortCounter.TX_DATA_PACKETS) > 0) {
                    out.add(s.network().switchAt(sw).name() + "/p" + p);
                }
            }
        }
        return out;
    }

    /** The switch ports the flow-level model routes the same flow's QP out of. */
    private static TreeSet<String> flowPath(Simulation s, int src, int dst) {
        PathTiming timing = new PathTiming(s.network().frames(), 4096, 0);
        FlowRoute route = new EcmpFabric(s.network(), timing).route(src, dst, 1000, 0);
        Topology t = s.network().topology();
        TreeSet<String> out = new TreeSet<>();
        for (int link : route.resources()) {
            Topology.Edge e = t.edges().get(link >> 1);
            Topology.End from = (link & 1) == 0 ? e.a() : e.b();
            if (!t.isHost(from.node())) {
                out.add(t.nodeName(from.node()) + "/p" + from.port());
            }
        }
        return out;
    }

    @Test
    void shouldRouteEachFlowOnThePathItsPacketsTake() {
        List<String> mismatches = new ArrayList<>();
        for (int seed = 1; seed <= 6; seed++) {
            for (int[] pair : new int[][] {{0, 4}, {1, 6}, {3, 7}, {2, 5}}) {
                String yaml = LEAF_SPINE.replace("name: flow-model", "name: flow-model\nseed: " + seed)
                        + "traffic:\n  - {kind: flow, src: " + pair[0] + ", dst: " + pair[1] + ", size: 64KB}\n";
                Simulation packet = Scenarios.assemble(yaml);
                packet.run(ProgressListener.NONE);
                TreeSet<String> expected = packetPath(packet);
                TreeSet<String> actual = flowPath(flow(yaml), pair[0], pair[1]);
                if (!expected.equals(actual)) {
                    mismatches.add("seed " + seed + " h" + pair[0] + "->h" + pair[1] + ": packets " + expected
                            + ", flow model " + actual);
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void shouldRouteAQueuePairAlikeWhateverWasAskedBefore() {
        // One router asked for QPs out of order and again (its per-QP entropy is derived once) routes each the way
        // a fresh router does.
        Simulation s = flow(LEAF_SPINE + "traffic:\n  - {kind: flow, src: 0, dst: 5, size: 64KB}\n");
        PathTiming timing = new PathTiming(s.network().frames(), 4096, 0);
        EcmpFabric shared = new EcmpFabric(s.network(), timing);
        int[] queuePairs = {900, 3, 77, 3, 0, 900, 4000, 1, 77};
        Set<List<Integer>> paths = new HashSet<>();
        for (int q : queuePairs) {
            for (int[] pair : new int[][] {{0, 4}, {1, 6}, {3, 7}}) {
                FlowRoute fresh = new EcmpFabric(s.network(), timing).route(pair[0], pair[1], 1000, q);
                FlowRoute again = shared.route(pair[0], pair[1], 1000, q);
                assertThat(again.resources()).containsExactly(fresh.resources());
                paths.add(Arrays.stream(fresh.resources()).boxed().toList());
            }
        }
        // The QPs do not all hash alike, or the comparison would not tell their entropies apart.
        assertThat(paths.size()).isGreaterThan(3);
    }

    @Test
    void shouldShareALinkWhenTwoFlowsHashOntoIt() {
        // With one spine every leaf0 -> leaf1 flow crosses the same uplink: four flows from four hosts share it.
        String yaml = """
                name: collide
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 0, dst: 4, size: 4MB}
                  - {kind: flow, src: 1, dst: 5, size: 4MB}
                  - {kind: flow, src: 2, dst: 6, size: 4MB}
                  - {kind: flow, src: 3, dst: 7, size: 4MB}
                """;
        RunResult flow = flow(yaml).run(ProgressListener.NONE);
        RunResult ideal = Simulation.assemble(Scenarios.parse(yaml), true).run(ProgressListener.NONE);
        for (int i = 0; i < 4; i++) {
            // Ideal: every flow alone (separate RNICs); flow model: a quarter of the uplink each.
            assertThat((double) flow.flows().get(i).fctPs() / ideal.flows().get(i).fctPs()).isBetween(3.9, 4.0);
        }
    }

    @Test
    void shouldWaitForALinkThatComesBackAndRerouteAroundOneThatFails() {
        String single = """
                name: down-up
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 2MB}
                events:
                  - {kind: link-down, a: leaf0, b: spine0, at: 50us}
                  - {kind: link-up, a: leaf0, b: spine0, at: 250us}
                """;
        RunResult r = flow(single).run(ProgressListener.NONE);
        RunResult alone = flow(single.substring(0, single.indexOf("events:"))).run(ProgressListener.NONE);
        // No route for 200 us: the flow stands still and then carries on where it was.
        assertThat(r.flows().get(0).fctPs() - alone.flows().get(0).fctPs()).isEqualTo(200_000_000L);
        String two = single.replace("spines: 1", "spines: 2");
        RunResult rerouted = flow(two).run(ProgressListener.NONE);
        RunResult alone2 = flow(two.substring(0, two.indexOf("events:"))).run(ProgressListener.NONE);
        // With a second spine the routes converge at once: the flow moves over (if it was on spine0) and goes on.
        assertThat(rerouted.flows().get(0).completed()).isTrue();
        assertThat(Math.abs(rerouted.flows().get(0).fctPs() - alone2.flows().get(0).fctPs())).isLessThan(1_000_000);
    }

    @Test
    void shouldBeNoFasterThanTheIdealNetworkForAnyCollective() {
        for (String algorithm : new String[] {"ring", "tree", "halving-doubling"}) {
            RunResult r = flow(LEAF_SPINE + "traffic:\n  - {kind: allreduce, ranks: 0-7, size: 8MB, algorithm: "
                    + algorithm + "}\n  - {kind: alltoall, ranks: 0-7, size: 8MB, start: 3ms}\n")
                    .run(ProgressListener.NONE);
            for (var c : r.collectives()) {
                assertThat(c.timePs()).as(c.algorithm()).isGreaterThanOrEqualTo(c.idealTimePs());
            }
        }
    }

    @Test
    void shouldLeaveOutWhatOnlyPacketsHave() {
        RunResult r = flow(LEAF_SPINE + "traffic:\n  - {kind: incast, senders: 1-3, receiver: 0, size: 1MB}\n")
                .run(ProgressListener.NONE);
        assertThat(r.series()).isNull();
        assertThat(r.pfcLog()).isNull();
        assertThat(r.totals().dataPacketsSent()).as("no packets were simulated").isZero();
        var summary = Summary.of(r);
        assertThat(summary).containsEntry("model", "flow").containsKey("not_modelled")
                .doesNotContainKeys("counters", "max_queue_bytes", "data_packets", "pfc_propagation");
        assertThat((String) summary.get("not_modelled")).as("one traffic class: no scheduler to ignore")
                .doesNotContain("scheduler");
    }

    /**
     * What the run says it leaves out is what its model and mode leave out: an audit found the flow level saying
     * "ECMP collisions' waits" are not modelled where it shares a link among the flows hashed onto it (the packet
     * level's hash), an InfiniBand run listing ECN marks and PFC pauses, the ideal network never saying its fabric is
     * non-blocking (an oversubscribed ring read 12.5 Tb/s of goodput), and spraying's go-back-N on in-order RNICs
     * (11x the flows' times at packet level) unmentioned.
     */
    @Test
    void shouldSayWhatItsModelAndModeLeaveOut() {
        String traffic = "traffic:\n  - {kind: permutation, size: 1MB}\n";
        String roce = (String) Summary.of(flow(LEAF_SPINE + traffic).run(ProgressListener.NONE)).get("not_modelled");
        assertThat(roce).contains("ECN marks, CNPs, PFC pauses", "flows that ECMP hashes onto one link share it, but"
                + " the queue where they meet is not modelled").doesNotContain("credits", "non-blocking", "reordering");
        String ib = (String) Summary.of(flow(LEAF_SPINE.replace("roce-lossless", "infiniband")
                .replace("nic: {cc: dcqcn}\n", "") + traffic).run(ProgressListener.NONE)).get("not_modelled");
        assertThat(ib).contains("waits for credits, FECN and BECN marks").doesNotContain("ECN marks, CNPs", "PFC");
        String ideal = (String) Summary.of(Simulation.assemble(Scenarios.parse(LEAF_SPINE + traffic),
                Simulation.Model.IDEAL).run(ProgressListener.NONE)).get("not_modelled");
        assertThat(ideal).contains("the fabric between the RNICs is non-blocking").doesNotContain("ECMP hashes");
        String sprayed = (String) Summary.of(flow(LEAF_SPINE + "switch: {load-balancing: {mode: spray}}\n" + traffic)
                .run(ProgressListener.NONE)).get("not_modelled");
        assertThat(sprayed).contains("nor is reordering", "go-back-N");
    }

    @Test
    void shouldSayItIgnoresTheSchedulerWhenFlowsOfTwoClassesShareALink() {
        // DWRR 3:1 between classes 3 and 1: at packet level the class-3 flow gets three quarters of h0's link, at
        // flow level both get half, and the run must say the scheduler was not modelled.
        RunResult r = flow("""
                name: two-classes
                fabric: {mode: roce-lossy, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 64MB, ecn: {marking: none}, scheduler: {kind: dwrr, weights: [1, 1, 1, 3, 1, 1, 1, 1]}}
                nic: {cc: none}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 3MB}
                  - {kind: flow, src: 2, dst: 0, size: 3MB, dscp: 10}
                """).run(ProgressListener.NONE);
        assertThat(r.flows().get(0).fctPs()).as("max-min fair, not weighted").isEqualTo(r.flows().get(1).fctPs());
        assertThat((String) Summary.of(r).get("not_modelled"))
                .contains("scheduler (DWRR weights, strict priority) acts only at packet level");
        assertThat(SummaryText.render(r, null)).contains("acts only at packet level")
                .as("one switch, in the singular").contains("fabric   3 hosts, 1 switch\n");
    }

    /**
     * A pause storm is PFC pauses, which the flow level and the ideal network do not have: their runs name the fault
     * as left out, so a run without the storm never reads as a run of it (a flow run of pause-storm-watchdog was 67x
     * faster than its packet run, and said nothing).
     */
    @Test
    void shouldNameAPauseStormAsLeftOutAtFlowLevelAndOnTheIdealNetwork() {
        String yaml = """
                name: storm
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                switch: {pfc: {watchdog: {}}}
                faults:
                  - {kind: pause-storm, host: 0, start: 20us, duration: 2ms}
                events:
                  - {kind: link-down, a: h2, b: switch0, at: 500us}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 1MB}
                """;
        RunResult fluid = flow(yaml).run(ProgressListener.NONE);
        assertThat(fluid.notModelled()).contains("the scenario's pause-storm fault (faults:) is left out")
                .doesNotContain("link event");
        assertThat(SummaryText.render(fluid, null)).contains("pause-storm fault (faults:) is left out");
        RunResult ideal = Simulation.assemble(Scenarios.parse(yaml), Simulation.Model.IDEAL).run(ProgressListener.NONE);
        assertThat(ideal.notModelled()).contains("pause-storm fault (faults:) is left out",
                "the scenario's link event is left out: the ideal network's links never go down");
        RunResult packet = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(packet.notModelled()).isNull();
        RunResult calm = flow(yaml.replaceAll("(?s)faults:.*?events:", "events:")).run(ProgressListener.NONE);
        assertThat(calm.notModelled()).doesNotContain("pause-storm");
    }

    /**
     * A flow whose route a link event took away waits at flow level (rate zero), and the run has nothing left to do
     * before its stop time: it ends at the stop time, as its stop reason says, as the packet level does (it ended 1 ms
     * after its last event, reported as stopped at its stop time).
     */
    @Test
    void shouldLastToTheStopTimeWhenNothingHappensBeforeIt() {
        String yaml = """
                name: cut-off
                fabric: {mode: roce-lossless, mtu: 4096}
                topology:
                  kind: custom
                  hosts: 2
                  switches: [sw0, sw1]
                  link: {rate: 100Gbps, delay: 1us}
                  links:
                    - {a: h0, b: sw0}
                    - {a: h1, b: sw1}
                    - {a: sw0, b: sw1}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 4MiB}
                events:
                  - {kind: link-down, a: sw0, b: sw1, at: 100us}
                run: {stop-at: 5ms}
                """;
        // Nothing pending at all: the run ends because nothing is left to happen, and says so.
        RunResult idle = flow(yaml).run(ProgressListener.NONE);
        assertThat(idle.stopReason()).isEqualTo("no-events");
        assertThat(idle.flows().get(0).completed()).isFalse();
        assertThat(SummaryText.render(idle, null)).contains("1 unfinished when nothing was left to happen")
                .doesNotContain("at stop time");
        // A PFC watchdog's poll pending 100 ms ahead, beyond the stop time: the run lasts to its stop time.
        RunResult fluid = flow(yaml.replace("traffic:", "switch: {pfc: {watchdog: {}}}\ntraffic:"))
                .run(ProgressListener.NONE);
        assertThat(fluid.stopReason()).isEqualTo("stop-at");
        assertThat(fluid.simulatedPs()).isEqualTo(5_000_000_000L);
        assertThat(fluid.flows().get(0).completed()).isFalse();
        assertThat(SummaryText.render(fluid, null)).contains("1 unfinished at stop time");
    }
}
