package rocelab.observe.pfc;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.probe.PortCounter;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * The cause an XOFF's row names (bytes by egress port, the egress holding most and its bytes, the top flows, and
 * whether that egress is paused itself, which makes the parent) is the same whether found from the switch's queues
 * linked by ingress ({@code IngressLists}) or by walking every packet queued at the switch, the definition: both are
 * computed at every PFC frame a switch sends, in incasts and all-to-alls on lossless fabrics, the watchdog's drops
 * included.
 */
class PfcCauseTest {
    /** Notes every switch PFC frame both ways and compares the two notes field by field. */
    private static final class BothWays implements PfcProbe {
        private final PfcCapture capture;
        private final long[] linked = new long[PfcCapture.WIDTH];
        private final long[] walked = new long[PfcCapture.WIDTH];
        int xoffs;
        int withFlows;
        int pausedEgress;

        BothWays(Network network) {
            this.capture = new PfcCapture(network, null);
        }

        @Override
        public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes,
                long thresholdBytes, PfcReason reason, long poolUsedBytes, long poolBytes) {
            capture.capture(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes,
                    poolBytes, linked, 0, false);
            capture.capture(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes,
                    poolBytes, walked, 0, true);
            assertThat(linked).as("XOFF of node %d port %d at %d ps", node, port, nowPs).isEqualTo(walked);
            if (quanta > 0) {
                xoffs++;
                if (walked[PfcCapture.ROW + PfcLog.F_TOP] >= 0) {
                    withFlows++;
                }
                if (walked[PfcCapture.XOFF_SENT] >= 0) {
                    pausedEgress++;
                }
            }
        }
    }

    /** As the PFC log does: each switch links its queues by ingress at its first XOFF, with what is queued then. */
    private static BothWays run(ScenarioConfig config) {
        return run(Simulation.assemble(config));
    }

    private static BothWays run(Simulation sim) {
        Network network = sim.network();
        BothWays probe = new BothWays(network);
        for (int s = 0; s < network.switchCount(); s++) {
            network.switchAt(s).linkQueuesByIngressAtFirstXoff();
            network.switchAt(s).pfcProbe(probe);
        }
        sim.run(ProgressListener.NONE);
        return probe;
    }

    @Test
    void shouldLinkTheQueuesOfASwitchOnlyFromItsFirstXoff() {
        // The incast's receiver leaf pauses its hosts; the spines and the other leaves send no XOFF.
        Simulation sim = Simulation.assemble(yaml("""
                name: cause-first-xoff
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch:
                  buffer: 1MB
                  ecn: {marking: none}
                  pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-3, receiver: 0, size: 256KB}
                """));
        BothWays b = run(sim);
        assertThat(b.xoffs).isPositive();
        Network network = sim.network();
        int linked = 0;
        for (int s = 0; s < network.switchCount(); s++) {
            var sw = network.switchAt(s);
            boolean paused = false;
            for (int p = 0; p < sw.portCount(); p++) {
                // A switch's first pause frame is an XOFF.
                paused |= sw.port(p).counter(PortCounter.PAUSE_SENT) > 0;
            }
            assertThat(sw.ingressLists() != null).as("switch %d", s).isEqualTo(paused);
            linked += paused ? 1 : 0;
        }
        assertThat(linked).isEqualTo(1);
    }

    private static ScenarioConfig yaml(String text) {
        try {
            return new ScenarioReader().read(text, "cause.yaml", null);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static ScenarioConfig example(String name) {
        try {
            return new ScenarioReader().readExample(name);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldNameTheSameCauseAsTheWalkInTheLosslessExamples() {
        for (String name : new String[] {"lossless-pfc-only", "lossless-dcqcn", "pfc-deadlock-ring"}) {
            BothWays b = run(example(name));
            assertThat(b.xoffs).as(name).isPositive();
            assertThat(b.withFlows).as(name).isPositive();
        }
    }

    @Test
    void shouldNameTheSameCauseAsTheWalkWhenTheWatchdogDropsQueuedPackets() {
        BothWays b = run(example("pause-storm-watchdog"));
        assertThat(b.xoffs).isPositive();
    }

    @Test
    void shouldNameAPausedEgressAsTheWalkDoesInAnIncastBehindAnIncast() {
        // Two leaves' senders into one receiver: the spine's and the leaf's XOFFs both, the first paused behind
        // the second.
        BothWays b = run(yaml("""
                name: cause-incast
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch:
                  buffer: 1MB
                  ecn: {marking: none}
                  pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-11, receiver: 0, size: 256KB}
                  - {kind: flow, src: 5, dst: 9, size: 256KB}
                """));
        assertThat(b.xoffs).isPositive();
        assertThat(b.pausedEgress).as("an XOFF behind a paused egress (a parent)").isPositive();
    }

    /**
     * Random leaf-spine all-to-alls and incasts, with and without DCQCN, spraying or ECMP, buffers of 1 to 2.5 MB
     * with a dynamic threshold low enough that every sample pauses. With alphas of 1/16 and 1/32 a sample could run
     * without an XOFF (2 senders into one host through 2.5 MB, with DCQCN: leaves 2, spines 2, hosts per leaf 2,
     * shape 3, seed 823), which made this property fail now and then; with 1/32 and 1/64 every combination of the
     * parameters' ranges, seeds 1 to 420 (every case of the seed's residues), paused (30,240 runs, once).
     */
    @Property(tries = 12)
    void shouldNameTheSameCauseAsTheWalkInRandomLosslessFabrics(@ForAll @IntRange(min = 2, max = 4) int leaves,
            @ForAll @IntRange(min = 1, max = 3) int spines, @ForAll @IntRange(min = 2, max = 4) int hostsPerLeaf,
            @ForAll @IntRange(min = 0, max = 3) int shape, @ForAll @IntRange(min = 1, max = 1000) int seed) {
        int hosts = leaves * hostsPerLeaf;
        // A lone all-to-all congests only where the uplinks are oversubscribed: one spine.
        String traffic = switch (shape) {
            case 0 -> "  - {kind: all-to-all, size: 512KiB}\n";
            case 1 -> "  - {kind: incast, senders: 1-" + (hosts - 1) + ", receiver: 0, size: 384KB}\n";
            case 2 -> "  - {kind: all-to-all, size: 64KiB}\n  - {kind: incast, senders: 1-" + (hosts - 1)
                    + ", receiver: 0, size: 256KB}\n";
            default -> "  - {kind: incast, senders: 2-" + (hosts - 1) + ", receiver: 1, size: 256KB}\n"
                    + "  - {kind: flow, src: 0, dst: " + (hosts - 1) + ", size: 256KB}\n";
        };
        BothWays b = run(yaml("name: cause-random\nseed: " + seed + "\n"
                + "fabric: {mode: roce-lossless, mtu: " + (seed % 2 == 0 ? 4096 : 1000) + "}\n"
                + "topology: {kind: leaf-spine, leaves: " + leaves + ", spines: " + (shape == 0 ? 1 : spines)
                + ", hosts-per-leaf: "
                + hostsPerLeaf + ", link: {rate: 100Gbps, delay: 1us}}\n"
                + "switch:\n  buffer: " + (1024 + seed % 4 * 512) + "KB\n"
                + "  ecmp: {mode: " + (seed % 3 == 0 ? "spray" : "ecmp") + "}\n"
                // A small alpha: every sample pauses, so no sample compares nothing (see above).
                + "  pfc: {threshold: dynamic, alpha: " + (seed % 7 < 4 ? "0.015625" : "0.03125") + ", headroom: auto}\n"
                + "nic: {cc: " + (seed % 5 < 2 ? "none" : "dcqcn") + "}\n"
                + "traffic:\n" + traffic));
        assertThat(b.xoffs).as("the buffer is small enough to pause").isPositive();
    }
}
