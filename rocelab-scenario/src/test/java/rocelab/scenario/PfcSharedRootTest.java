package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.switching.Switch;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.victim.FlowWaits;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * An XOFF's cause is its ingress group's bytes by egress port, and a flow's wait behind it is its own way's (not a
 * victim's) when the port its packets leave that switch by held at least half as many of them as the port holding
 * most: then the wait goes to that port when it was not paused. Checked against what the switch itself held at each
 * XOFF, seen by a probe beside the PFC log (every packet queued at the paused class, by ingress, and the switch's own
 * ingress counter), not against a run's numbers.
 */
class PfcSharedRootTest {
    /** What a switch held for the pausing group at one of its XOFFs: bytes by egress, paused egresses, its counter. */
    record Seen(int node, int port, int priority, long timePs, long[] byEgress, boolean[] paused, long counter) {
        long top() {
            long top = 0;
            for (long b : byEgress) {
                top = Math.max(top, b);
            }
            return top;
        }
    }

    /** Hands every frame to the log and notes, at each switch XOFF, the group's queued bytes by egress port. */
    private static final class Beside implements PfcProbe {
        private final PfcProbe log;
        private final Network network;
        final List<Seen> seen = new ArrayList<>();

        Beside(PfcProbe log, Network network) {
            this.log = log;
            this.network = network;
        }

        @Override
        public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes,
                long thresholdBytes, PfcReason reason, long poolUsedBytes, long poolBytes) {
            if (quanta > 0 && !network.topology().isHost(node)) {
                Switch sw = network.switchAt(node - network.topology().hostCount());
                long[] by = new long[sw.portCount()];
                boolean[] paused = new boolean[sw.portCount()];
                for (int e = 0; e < sw.portCount(); e++) {
                    EgressPort out = sw.port(e);
                    paused[e] = out.isPaused(priority);
                    for (Packet p = out.firstQueued(priority); p != null; p = out.queuedAfter(priority, p)) {
                        if (p.ingressPort() == port) {
                            by[e] += p.frameBytes();
                        }
                    }
                }
                seen.add(new Seen(node, port, priority, nowPs, by, paused, sw.buffer().ingressBytes(port, priority)));
            }
            log.onPfcSent(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes,
                    poolBytes);
        }

        @Override
        public void onPausedWait(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
                boolean ack, long fromClockPs, long toClockPs, long xoffSentPs) {
            log.onPausedWait(nowPs, node, port, priority, queuePair, flowCookie, ack, fromClockPs, toClockPs,
                    xoffSentPs);
        }

        @Override
        public void onPauseInForce(long nowPs, int node, int port, int priority, long xoffSentPs, long clockPs) {
            log.onPauseInForce(nowPs, node, port, priority, xoffSentPs, clockPs);
        }
    }

    private record Run(RunResult result, List<Seen> seen) {}

    private static Run run(ScenarioConfig config) {
        Simulation sim = Simulation.assemble(config);
        Network network = sim.network();
        Beside beside = new Beside(sim.pfcLog(), network);
        for (int s = 0; s < network.switchCount(); s++) {
            network.switchAt(s).pfcProbe(beside);
        }
        return new Run(sim.run(ProgressListener.NONE), beside.seen);
    }

    /**
     * Every XOFF's kept egress bytes are the switch's own (most first, the top's and every port holding at least half
     * as many), adding up to no more than its ingress counter; and for every flow whose sender that switch paused,
     * the log's verdict on a wait behind it is the rule's, from the probe's bytes: its own way's when the flow's port
     * held at least half the top's (rooted there when not paused), else the XOFF's root. Returns how many of those
     * verdicts went the flow's way although the port holding most was off its way.
     */
    private static int assertVerdictsByShares(Run run) {
        RunResult r = run.result();
        Network network = r.network();
        PfcLog log = r.pfcLog();
        int ownThoughTopElsewhere = 0;
        for (Seen s : run.seen()) {
            PfcLog.Xoff x = log.xoff(s.node(), s.port(), s.priority(), s.timePs());
            assertThat(x).isNotNull();
            long sum = 0;
            int holding = 0;
            for (long b : s.byEgress()) {
                sum += b;
                holding += b > 0 ? 1 : 0;
            }
            assertThat(sum).as("queued bytes of the group at %d ps", s.timePs()).isLessThanOrEqualTo(s.counter());
            assertThat(x.sharedPorts()).isEqualTo(holding);
            for (int k = 0; k < x.sharePorts().length; k++) {
                assertThat(x.shareBytes()[k]).isEqualTo(s.byEgress()[x.sharePorts()[k]]);
                if (k > 0) {
                    assertThat(x.shareBytes()[k]).isLessThanOrEqualTo(x.shareBytes()[k - 1]);
                }
            }
            if (holding > 0) {
                assertThat(x.shareBytes()[0]).isEqualTo(s.top());
            }
            Switch sw = network.switchAt(s.node() - network.topology().hostCount());
            int peer = network.topology().peer(s.node(), s.port()).node();
            if (!network.topology().isHost(peer) || x.rootKind() != PfcLog.ROOT_CONGESTION_POINT || holding == 0) {
                continue;
            }
            for (FlowRecord f : r.flows()) {
                if (f.src() != peer) {
                    continue;
                }
                var qp = network.queuePairs().get(f.queuePair());
                int way = sw.forwardingPort(qp.sourceHost(), qp.destinationHost(), qp.entropy());
                boolean substantial = 2 * s.byEgress()[way] >= s.top();
                PfcLog.WaitCause c = log.waitCause(s.node(), s.port(), s.priority(), s.timePs(), f.queuePair(),
                        false, s.timePs());
                if (substantial && !s.paused()[way]) {
                    assertThat(c.ownWay()).as("flow %d behind the XOFF of %d ps", f.id(), s.timePs()).isTrue();
                    assertThat(List.of(c.node(), c.port(), c.depth())).isEqualTo(List.of(s.node(), way, 1));
                    if (s.byEgress()[way] < s.top()) {
                        ownThoughTopElsewhere++;
                    }
                } else if (!substantial) {
                    assertThat(c.ownWay()).as("flow %d behind the XOFF of %d ps", f.id(), s.timePs()).isFalse();
                    assertThat(List.of(c.node(), c.port(), c.depth())).isEqualTo(List.of(x.rootNode(), x.rootPort(),
                            x.depth() + 1));
                }
            }
        }
        return ownThoughTopElsewhere;
    }

    @Test
    void shouldTellFlow15sWaitBehindAPauseItsOwnUplinkHalfMadeAsItsOwn() {
        Run run = run(example("lossless-pfc-only"));
        assertThat(assertVerdictsByShares(run)).isPositive();
        RunResult r = run.result();
        var topo = r.network().topology();
        int leaf1 = topo.peer(9, 0).node();
        FlowRecord f15 = r.flows().get(15);
        var qp = r.network().queuePairs().get(f15.queuePair());
        int uplink = r.network().switchAt(leaf1 - topo.hostCount())
                .forwardingPort(qp.sourceHost(), qp.destinationHost(), qp.entropy());
        // Its first XOFF: most of h9's bytes towards spine0, nearly as many towards its own uplink: its own wait.
        Seen first = run.seen().stream().filter(s -> s.node() == leaf1 && s.port() == 1).findFirst().orElseThrow();
        assertThat(first.byEgress()[uplink]).isLessThan(first.top());
        assertThat(2 * first.byEgress()[uplink]).isGreaterThanOrEqualTo(first.top());
        // The log's roots for it: its own uplink, on its way, with a wait; what stays off its way is its victim wait.
        List<FlowWaits.Root> roots = r.pfcLog().roots(15);
        assertThat(roots).anySatisfy(root -> {
            assertThat(List.of(root.node(), root.port())).isEqualTo(List.of(leaf1, uplink));
            assertThat(root.onPath()).isTrue();
            assertThat(root.waitPs()).isPositive();
        });
        long offWay = roots.stream().filter(x -> !x.onPath()).mapToLong(FlowWaits.Root::waitPs).sum();
        assertThat(r.pfcLog().offPathWaitPs(15)).isEqualTo(offWay);
        PfcVictimsTest.assertTrueAndBounded(r);
    }

    @Test
    void shouldNotCallAFlowAVictimOfTheOtherUplinkWhenItsOwnHeldAsMuchOnATwoToOneAllToAll() {
        Run run = run(yaml("""
                name: a2a-2to1
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 1MB}
                nic: {cc: none}
                traffic:
                  - {kind: all-to-all, size: 256KB}
                """));
        assertThat(run.seen()).isNotEmpty();
        assertThat(assertVerdictsByShares(run)).isPositive();
        PfcVictimsTest.assertTrueAndBounded(run.result());
    }

    private static ScenarioConfig yaml(String text) {
        try {
            return new ScenarioReader().read(text, "shared-root.yaml", null);
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
}
