package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.fabric.nic.NotificationSources;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;
import rocelab.scenario.read.ScenarioReader;

/**
 * A PFC victim whose own rate held it back is told the congestion notifications its sender heard in its life, by the
 * port that marked the packet each answers (carried by the notification), and whether it waited behind the pauses at
 * that port: the congestion that spread to its way marked it there. lossless-dcqcn's victim, flow 15 (h9->h1), is
 * marked at two ports, both where it waited. The counts are checked against the flow's journey, which hears each
 * notification as its sender handles it.
 */
class VictimNotificationsTest {
    @Test
    void shouldTellTheVictimsNotificationsByTheMarksPortAsItsJourneyHandledThem() throws Exception {
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("lossless-dcqcn"));
        int flow = 15;
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(),
                sim.pfcLog() == null ? PfcProbe.NONE : sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        Victims.Victim v = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs()).stream()
                .filter(x -> x.flow().id() == flow).findFirst().orElseThrow();
        assertThat(f.rateHeldPs()).isPositive();

        // What the journey heard: each notification its sender handled in the flow's life, with its mark's port and
        // whether a pause held the marked packet there.
        Map<Long, Long> heard = new HashMap<>();
        Map<Long, Long> heardHeld = new HashMap<>();
        for (JourneyEvent e : rec.events()) {
            if (e.kind() == JourneyEvent.Kind.CNP_HANDLED && e.timePs() >= f.startPs() && e.timePs() <= f.finishPs()) {
                JourneyEvent.Notice n = (JourneyEvent.Notice) e.cause();
                heard.merge(key(n.markNode(), n.markPort()), 1L, Long::sum);
                heardHeld.merge(key(n.markNode(), n.markPort()), n.markHeldByPause() ? 1L : 0L, Long::sum);
            }
        }
        int fields = NotificationSources.FIELDS;
        long[] told = v.notificationSources();
        Map<Long, Long> byPort = new HashMap<>();
        Map<Long, Long> heldByPort = new HashMap<>();
        long total = 0;
        for (int i = 0; i < told.length; i += fields) {
            byPort.put(key((int) told[i], (int) told[i + 1]), told[i + 2]);
            heldByPort.put(key((int) told[i], (int) told[i + 1]), told[i + 3]);
            total += told[i + 2];
            if (i > 0) {
                assertThat(told[i + 2]).isLessThanOrEqualTo(told[i + 2 - fields]); // most first
            }
        }
        assertThat(byPort).isEqualTo(heard);
        assertThat(heldByPort).isEqualTo(heardHeld);
        assertThat(byPort).hasSizeGreaterThanOrEqualTo(2);
        // The flow waited behind pauses at every port a pause held one of its marked packets at.
        for (int i = 0; i < told.length; i += fields) {
            if (told[i + 3] > 0) {
                int node = (int) told[i];
                int port = (int) told[i + 1];
                assertThat(v.hops()).anyMatch(h -> !h.others() && h.node() == node && h.port() == port);
            }
        }

        Topology topo = sim.network().topology();
        String line = SummaryText.render(r, null).lines().filter(l -> l.startsWith("            flow 15 "))
                .findFirst().orElseThrow();
        assertThat(line).contains(String.format(Locale.ROOT, "; its sender heard %,d congestion notifications in its"
                + " life: ", total));
        List<FlowWaits.Hop> hops = v.hops();
        for (int i = 0; i < told.length; i += fields) {
            int node = (int) told[i];
            int port = (int) told[i + 1];
            long n = told[i + 2];
            long held = told[i + 3];
            assertThat(node).isNotNegative();
            String name = topo.nodeName(node) + " port " + port + " (towards "
                    + topo.nodeName(topo.peer(node, port).node()) + ")";
            boolean waited = hops.stream().anyMatch(h -> !h.others() && h.node() == node && h.port() == port);
            String after = held == n ? " on packets the pauses held there"
                    : held > 0 ? String.format(Locale.ROOT, ", %,d of them on packets the pauses held there", held)
                    : waited ? ", where it waited behind pauses" : "";
            assertThat(line).contains(String.format(Locale.ROOT, "%,d for marks at %s%s", n, name, after));
        }
        assertThat(heldByPort.values().stream().mapToLong(Long::longValue).sum())
                .as("lossless-dcqcn's victim is marked on packets the pauses held").isPositive();

        // summary.json lists the same, with whether it waited there.
        @SuppressWarnings("unchecked")
        Map<String, Object> row = ((List<Map<String, Object>>) Summary.of(r).get("pfc_victims")).stream()
                .filter(x -> x.get("flow_id").equals(flow)).findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> marks = (List<Map<String, Object>>) row.get("notifications_by_mark");
        assertThat(marks).hasSize(told.length / fields);
        for (Map<String, Object> m : marks) {
            int node = topo.nodeByName((String) m.get("device"));
            assertThat(m.get("notifications")).isEqualTo(byPort.get(key(node, (Integer) m.get("port"))));
            assertThat(m.get("held_by_pause")).isEqualTo(heldByPort.get(key(node, (Integer) m.get("port"))));
        }
    }

    @Test
    void shouldTellNoNotificationsWhereTheFabricMarksNothing() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("lossless-pfc-only"))
                .run(ProgressListener.NONE);
        List<Victims.Victim> victims = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs());
        assertThat(victims).isNotEmpty();
        for (Victims.Victim v : victims) {
            assertThat(v.notificationSources()).isNullOrEmpty();
        }
        assertThat(SummaryText.render(r, null)).doesNotContain("congestion notification");
    }

    private static long key(int node, int port) {
        return (long) node << 32 | (port & 0xffffffffL);
    }
}
