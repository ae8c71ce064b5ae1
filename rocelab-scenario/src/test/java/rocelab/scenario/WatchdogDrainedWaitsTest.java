package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.victim.FlowWaits;
import rocelab.scenario.read.ScenarioReader;

/**
 * A packet the PFC watchdog drains from a paused queue waited there behind the pauses, and its flow's paused wait says
 * so at that hop (an audit: pause-storm-watchdog's flow 2 "waited behind pauses ... at h6's RNIC 1175.029 us (1175.029
 * us summed over hops ...", its paused_wait_us exactly h6's RNIC's paused time, while its packets sat in leaf1's queue
 * towards spine0 and spine0's queue towards leaf0, both paused, until the watchdog dropped them at 1500 us; flow 1 had
 * its spine0 wait only because one of its packets was sent, not drained, when the watchdog lifted that pause).
 */
class WatchdogDrainedWaitsTest {
    private static final int PRIORITY = 3;

    /** The port of switch {@code node} towards {@code peer}. */
    private static int portTowards(Topology topo, int node, int peer) {
        for (int p = 0; p < topo.portCount(node); p++) {
            if (topo.peer(node, p).node() == peer) {
                return p;
            }
        }
        throw new AssertionError(topo.nodeName(node) + " has no port towards " + topo.nodeName(peer));
    }

    @Test
    void shouldCountTheWaitsOfPacketsTheWatchdogDrainedAtTheHopsWhereTheyWaited() throws Exception {
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("pause-storm-watchdog"));
        int followed = 2;
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(followed).id(), followed,
                sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        PfcLog log = r.pfcLog();
        Topology topo = sim.network().topology();
        int leaf0 = topo.nodeByName("leaf0");
        int leaf1 = topo.nodeByName("leaf1");
        int spine0 = topo.nodeByName("spine0");
        int[][] drained = {{leaf1, portTowards(topo, leaf1, spine0)}, {spine0, portTowards(topo, spine0, leaf0)}};
        for (int flow : new int[] {1, 2}) {
            // The watchdog dropped the flow's packets from both queues, each held paused by the storm's spreading.
            assertThat(log.watchdogDrops(flow)).as("flow %d", flow)
                    .extracting(PfcLog.WatchdogDrops::node, PfcLog.WatchdogDrops::port)
                    .contains(tuple(drained[0][0], drained[0][1]), tuple(drained[1][0], drained[1][1]));
            List<FlowWaits.Hop> hops = log.waits(flow);
            for (int[] at : drained) {
                var port = sim.network().switchAt(at[0] - topo.hostCount()).port(at[1]);
                long paused = port.counter(PortCounter.PAUSED_PS);
                FlowWaits.Hop hop = hops.stream().filter(h -> h.node() == at[0] && h.port() == at[1] && !h.acks())
                        .findFirst().orElseThrow(() -> new AssertionError("flow " + flow + " has no wait at "
                                + topo.nodeName(at[0]) + " port " + at[1]));
                // The flow's packets were queued there from (nearly) the moment the pause took hold until the drain
                // (spine0's first XOFF to leaf1, at 160.8 us, already held 143,370 B of flow 2 towards leaf0): its
                // wait is nearly all the port's paused time, and never more.
                assertThat(hop.waitPs()).as("flow %d at %s port %d", flow, topo.nodeName(at[0]), at[1])
                        .isLessThanOrEqualTo(paused).isGreaterThan(paused * 99 / 100);
                assertThat(hop.offPathWaitPs()).as("off its way: rooted at h0's pause storm").isEqualTo(hop.waitPs());
            }
            // The flow's paused wait (flows.csv paused_wait_us) is its waits summed over hops, these included.
            assertThat(log.pausedWaitPs(flow)).isEqualTo(hops.stream().mapToLong(FlowWaits.Hop::waitPs).sum());
        }
        // The journey tells the same waits at those hops, part by part (each XOFF's share), as at every other hop.
        List<JourneyEvent> waited = rec.eventsOf(0, r.simulatedPs()).stream()
                .filter(e -> e.kind() == JourneyEvent.Kind.WAITED).toList();
        for (int[] at : drained) {
            long told = waited.stream().filter(e -> e.node() == at[0] && e.port() == at[1])
                    .mapToLong(JourneyEvent::value).sum();
            long counted = log.waits(followed).stream().filter(h -> h.node() == at[0] && h.port() == at[1])
                    .mapToLong(FlowWaits.Hop::waitPs).sum();
            assertThat(told).as("journey at %s port %d", topo.nodeName(at[0]), at[1]).isEqualTo(counted);
        }
        assertThat(waited.stream().mapToLong(JourneyEvent::value).sum()).isEqualTo(log.pausedWaitPs(followed));
        // A drained packet that was queued there behind an ECMP collision tells that wait too, at its drop, as a sent
        // one tells it as it leaves (flows.csv ecmp_wait_us).
        List<JourneyEvent> all = rec.eventsOf(0, r.simulatedPs());
        Set<String> drops = all.stream().filter(e -> e.kind() == JourneyEvent.Kind.DROP)
                .map(e -> e.timePs() + "/" + e.node() + "/" + e.port() + "/" + e.psn()).collect(Collectors.toSet());
        assertThat(all).filteredOn(e -> e.kind() == JourneyEvent.Kind.ECMP_WAIT
                && drops.contains(e.timePs() + "/" + e.node() + "/" + e.port() + "/" + e.psn()))
                .as("collision waits told by drained packets").isNotEmpty();
    }
}
