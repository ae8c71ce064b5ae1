package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.NicCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * Multi-plane fabrics from a scenario: the shipped example's header claims, the flow level against the packet
 * level, the same run for the same seed, names that say the plane, and the reader's refusals.
 */
class MultiPlaneScenarioTest {
    private static String example() {
        try (InputStream in = ScenarioReader.class.getResourceAsStream(
                "/rocelab/scenario/examples/multi-plane-permutation.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static RunResult run(String yaml, Simulation.Model model) {
        return Simulation.assemble(Scenarios.parse(yaml), model).run(ProgressListener.NONE);
    }

    private static long maxFct(RunResult r) {
        return r.flows().stream().mapToLong(FlowRecord::fctPs).max().orElseThrow();
    }

    private static double p50Fct(RunResult r) {
        long[] f = r.flows().stream().mapToLong(FlowRecord::fctPs).sorted().toArray();
        return f[(f.length - 1) / 2];
    }

    private static String perQp(String yaml) {
        assertThat(yaml).contains("plane-selection: spray");
        return yaml.replace("plane-selection: spray", "plane-selection: per-qp");
    }

    @Test
    void shouldShowWhatTheExampleHeaderSays() {
        String yaml = example();
        RunResult spray = run(yaml, Simulation.Model.PACKET);
        assertThat(spray.flows()).hasSize(16).allMatch(FlowRecord::completed);
        assertThat(spray.flows()).allSatisfy(f -> assertThat(f.slowdown()).isLessThan(1.1));
        assertThat(maxFct(spray) / 1e6).as("FCT p99 (us)").isBetween(48.0, 55.0);
        assertThat(spray.totals().packetsDropped()).isZero();
        // one 800G plane: within 3 %
        String single = yaml.replace("  planes: 2", "").replace("  plane-selection: spray         # or per-qp", "");
        assertThat(single.lines().filter(l -> !l.trim().startsWith("#"))).noneMatch(l -> l.contains("planes:"))
                .noneMatch(l -> l.contains("plane-selection"));
        RunResult one = run(single, Simulation.Model.PACKET);
        assertThat((double) maxFct(spray) / maxFct(one)).isBetween(0.98, 1.03);
        // per-QP: each flow on one 400G plane, about 1.8x as long, p50 about 90 us
        RunResult perQp = run(perQp(yaml), Simulation.Model.PACKET);
        assertThat(p50Fct(perQp) / p50Fct(spray)).isBetween(1.7, 1.9);
        assertThat(p50Fct(perQp) / 1e6).isBetween(85.0, 95.0);
        // the per-port columns of nics.csv add up to the RNIC's data bytes
        var nic = spray.network().nic(0);
        assertThat(nic.portDataBytes(0) + nic.portDataBytes(1))
                .isEqualTo(nic.counter(NicCounter.TX_DATA_BYTES));
        assertThat(nic.portDataBytes(0)).isPositive();
        assertThat(nic.portDataBytes(1)).isPositive();
    }

    @Test
    void shouldAgreeWithThePacketLevelAtFlowLevel() {
        for (String yaml : new String[] {example(), perQp(example())}) {
            RunResult packet = run(yaml, Simulation.Model.PACKET);
            RunResult flow = run(yaml, Simulation.Model.FLOW);
            double ratio = (double) maxFct(packet) / maxFct(flow);
            assertThat(ratio).as(yaml).isBetween(1.0, 1.08);
            assertThat(p50Fct(packet) / p50Fct(flow)).as(yaml).isBetween(1.0, 1.05);
        }
    }

    @Test
    void shouldGiveTheIdealNetworkTheSumOfThePlanes() {
        // A flow alone: sprayed at 800G, per-QP at one plane's 400G (the flows' ideal FCT says so).
        RunResult spray = run(example(), Simulation.Model.FLOW);
        RunResult perQp = run(perQp(example()), Simulation.Model.FLOW);
        FlowRecord a = spray.flows().get(0);
        FlowRecord b = perQp.flows().get(0);
        double ratio = (double) b.idealFctPs() / a.idealFctPs();
        assertThat(ratio).isBetween(1.8, 2.0);
    }

    @Test
    void shouldKeepTheIdealBoundBelowThePacketLevelWithPlanes() {
        // The bound takes a sprayed message at all its planes' rate together and a per-QP one at its plane's; at
        // one plane's rate alone a sprayed flow's bound would be about twice its packet-level FCT.
        for (String yaml : new String[] {example(), perQp(example())}) {
            RunResult packet = run(yaml, Simulation.Model.PACKET);
            RunResult ideal = run(yaml, Simulation.Model.IDEAL);
            assertThat(ideal.flows()).hasSameSizeAs(packet.flows());
            for (int i = 0; i < packet.flows().size(); i++) {
                FlowRecord p = packet.flows().get(i);
                FlowRecord b = ideal.flows().get(i);
                assertThat(b.id()).isEqualTo(p.id());
                assertThat(b.fctPs()).as(yaml.contains("plane-selection: spray") ? "spray" : "per-qp").isLessThanOrEqualTo(p.fctPs())
                        .isGreaterThan(p.idealFctPs() * 9 / 10);
            }
        }
    }

    @Test
    void shouldGiveTheSameRunForTheSameSeed() {
        String yaml = example().replace("name: multi-plane-permutation", "name: multi-plane-permutation\nseed: 3");
        long a = fingerprint(yaml);
        long b = fingerprint(yaml);
        long c = fingerprint(yaml.replace("seed: 3", "seed: 4"));
        assertThat(a).isEqualTo(b);
        assertThat(c).isNotEqualTo(a);
    }

    private static long fingerprint(String yaml) {
        Simulation sim = Scenarios.assemble(yaml);
        sim.simulator().enableFingerprint();
        sim.run(ProgressListener.NONE);
        return sim.simulator().fingerprint();
    }

    @Test
    void shouldNameEverySwitchByItsPlaneAndFailAPlanesLinkByName() {
        String yaml = perQp(example()).replace("traffic:", "events:\n  - {kind: link-down, a: h0, b: p0.leaf0, at: 10us}\ntraffic:");
        RunResult r = run(yaml, Simulation.Model.PACKET);
        var t = r.network().topology();
        assertThat(t.nodeName(t.hostCount())).isEqualTo("p0.leaf0");
        assertThat(t.nodeByName("p1.spine3")).isPositive();
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        // h0's QP lived on plane 0 (QP 0) and moved to plane 1 when its port there went down
        FlowRecord fromH0 = r.flows().stream().filter(f -> f.src() == 0).min(Comparator.comparingLong(FlowRecord::id))
                .orElseThrow();
        assertThat(r.network().nic(0).portDataBytes(1)).isPositive();
        assertThat(fromH0.completed()).isTrue();
        assertThat(r.network().linkLosses()).isPositive();
    }

    /**
     * A sprayed flow into a host whose plane-0 port goes down at 10 us: the flow level timed a sprayed flow over plane
     * 0 and, finding no route there, left it waiting at rate zero for good (unfinished, the run ending with no
     * events), while plane 1 carried it at packet level (84.5 us). It now goes on over plane 1: 1 MB in the first
     * 10 us at 800 Gb/s, the other 3,095,746 wire bytes at 400 Gb/s, then the path's latency over 400 Gb/s links.
     */
    @Test
    void shouldCarryASprayedFlowOverTheOtherPlaneWhenItsDestinationsPlaneZeroPortGoesDown() {
        String yaml = """
                name: mp-cut
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, planes: 2, plane-selection: spray, link: {rate: 800Gbps, delay: 1us}}
                switch: {load-balancing: {mode: adaptive}}
                nic: {ooo: true}
                events:
                  - {kind: link-down, a: h0, b: p0.leaf0, at: 10us}
                traffic:
                  - {kind: flow, src: 2, dst: 0, size: 4MB}
                """;
        FlowRecord flow = run(yaml, Simulation.Model.FLOW).flows().get(0);
        FlowRecord packet = run(yaml, Simulation.Model.PACKET).flows().get(0);
        assertThat(flow.completed()).isTrue();
        assertThat(packet.completed()).isTrue();
        assertThat(flow.fctPs() / 1e6).isCloseTo(10 + 3_095_746 * 8 / 400e3 + 8.26, within(0.01));
        assertThat((double) packet.fctPs() / flow.fctPs()).isBetween(1.0, 1.1);
    }

    @Test
    void shouldRefuseBadPlaneSettingsWithTheirPlace() {
        String base = "name: x\nfabric: {mode: roce-lossless}\ntopology: {kind: leaf-spine, leaves: 2, spines: 1,"
                + " hosts-per-leaf: 2, %s link: {rate: 100Gbps}}\ntraffic: [{kind: permutation, size: 1MB}]\n";
        refuse(base.formatted("planes: 0,"), 3, "planes");
        refuse(base.formatted("planes: 3,"), 3, "does not split into 3 equal planes");
        refuse(base.formatted("plane-selection: sprayed,"), 3, "per-qp");
        refuse(base.formatted("planes: 2, plane-selection: random,"), 3, "per-qp");
        refuse(base.formatted("planes: 2,").replace("roce-lossless", "infiniband"), 3, "Ethernet (RoCEv2) fabrics only");
        refuse("name: x\nfabric: {mode: roce-lossless}\ntopology: {kind: custom, hosts: 2, switches: [s], planes: 2,"
                + " links: [{a: h0, b: s}, {a: h1, b: s}], link: {rate: 100Gbps}}\ntraffic: []\n", 3, "planes");
    }

    @Test
    void shouldCountEachPlanesPauseOfAnRnicOnceInThePauseSpread() {
        // Two incasts into h0 give every sender a QP on each plane; each plane's leaf pauses the sender's port on it.
        // The spread's edge from a leaf to an RNIC was the RNIC's paused time over all its ports: p0.leaf0 -> h1 and
        // p1.leaf0 -> h1 each said 1,195.7 us, twice what either port was paused, and the edges added up to 25,146 us
        // of a 15,000 us total.
        RunResult r = Scenarios.assemble("""
                name: mp-incast
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, planes: 2, link: {rate: 200Gbps, delay: 1us}}
                switch: {buffer: 2MB, ecn: {marking: none}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-7, receiver: 0, size: 2MB}
                  - {kind: incast, senders: 1-7, receiver: 0, size: 2MB}
                """).run(ProgressListener.NONE);
        var net = r.network();
        var spread = r.pfcLog().propagation(net.simulator().nowPs());
        assertThat(spread.stream().mapToLong(e -> e.pausedPs()).sum()).as("the edges add up to the total")
                .isEqualTo(r.totals().pausedPs());
        var topo = net.topology();
        for (var e : spread) {
            if (topo.isHost(e.peer())) {
                int plane = topo.peer(e.device(), e.port()).port();
                assertThat(e.pausedPs()).as("%s -> %s", topo.nodeName(e.device()), topo.nodeName(e.peer()))
                        .isEqualTo(net.nic(e.peer()).pausedPs(plane, e.priority(), net.simulator().nowPs()))
                        .isLessThan(net.nic(e.peer()).counter(NicCounter.RX_PAUSE_DURATION_PS));
            }
        }
    }

    private static void refuse(String yaml, int line, String message) {
        assertThatThrownBy(() -> new ScenarioReader().read(yaml, "bad.yaml", Path.of(".")))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((ScenarioException) e).line()).isEqualTo(line));
    }
}
