package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;
import rocelab.scenario.read.ScenarioReader;

/**
 * A PFC deadlock's waits are rooted at the cycle of pauses, not at the congestion points its first pauses started
 * from: the flows caught in the cycle are not victims of one another, and a flow that only waits behind it is the
 * cycle's victim. The log finds the cycle from the pauses in force, as each port reports them; the deadlock detector
 * finds it from the ports' state when the run stalls: the two must name the same queues.
 */
class PauseCycleRootsTest {
    private static final Path RING = Path.of("..", "scenarios", "examples", "pfc-deadlock-ring.yaml");

    @TempDir
    Path tmp;

    /** The ring with a sixth switch on s0: h5 writes to h0 (never crossing the ring), h6 to h1 (across s0 -> s1). */
    private static String ringWithABystander() throws IOException {
        String ring = Files.readString(RING);
        String body = ring.substring(ring.indexOf("name:"));
        return body.replace("hosts: 5", "hosts: 7")
                .replace("switches: [s0, s1, s2, s3, s4]", "switches: [s0, s1, s2, s3, s4, s5]")
                .replace("    - {a: s4, b: s0}\n",
                        "    - {a: s4, b: s0}\n    - {a: h5, b: s5}\n    - {a: h6, b: s5}\n    - {a: s5, b: s0}\n")
                + "  - {kind: flow, src: 5, dst: 0, size: 20MB}\n  - {kind: flow, src: 6, dst: 1, size: 20MB}\n";
    }

    /** The log's cycle in the deadlock detector's words: {@code s0/p1->s1 prio 3}, one per queue. */
    private static List<String> queues(RunResult r, int[] cycle) {
        Topology topo = r.network().topology();
        List<String> out = new ArrayList<>();
        for (int k = 0; k + 1 < cycle.length; k += 2) {
            out.add(topo.nodeName(cycle[k]) + "/p" + cycle[k + 1] + "->" + topo.nodeName(topo.peer(cycle[k],
                    cycle[k + 1]).node()) + " prio " + cycle[cycle.length - 1]);
        }
        return out;
    }

    @Test
    void shouldRootTheWaitsOfADeadlockAtItsCycleAndCallNoFlowInItAVictim() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().read(RING)).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("deadlock");
        PfcLog log = r.pfcLog();
        assertThat(log.cycleCount()).isEqualTo(1);
        assertThat(queues(r, log.cycles().get(0))).as("the detector's cycle")
                .containsExactlyInAnyOrderElementsOf(r.deadlockCycle());
        assertThat(log.victims(r.flows(), r.simulatedPs())).as("every flow crosses the cycle").isEmpty();
        for (FlowRecord f : r.flows()) {
            List<FlowWaits.Root> roots = log.roots(f.id());
            FlowWaits.Root most = roots.get(0);
            assertThat(most.kind()).as("flow %d", f.id()).isEqualTo(PfcLog.ROOT_PAUSE_CYCLE);
            assertThat(most.onPath()).isTrue();
            assertThat(most.waitPs()).as("all but its waits before the cycle closed")
                    .isGreaterThan(log.pausedWaitPs(f.id()) * 99 / 100);
            // Before the cycle closed, each flow waited only behind its own way's congestion points.
            assertThat(roots).allMatch(FlowWaits.Root::onPath);
        }
        // The first round's pauses keep their roots; the cycle holds each of them from when it closed (the example's
        // header says 35.9 us), the same moment for all five.
        for (PfcLog.PauseEdge e : log.propagation(r.simulatedPs())) {
            PfcLog.Xoff first = log.xoff(e.device(), e.port(), e.priority(), e.firstXoffPs());
            assertThat(first.rootKind()).isEqualTo(PfcLog.ROOT_CONGESTION_POINT);
            if (!r.network().topology().isHost(e.peer())) {
                assertThat(first.cycleSincePs()).as("%s's first XOFF", e.device()).isBetween(35_900_000L, 35_999_999L);
            }
        }
        String text = SummaryText.render(r, null);
        assertThat(text).doesNotContain("PFC victims");
        // The first XOFFs stay rooted where they started: the ring's egresses, congested then, each paused by no one.
        Path out = tmp.resolve("ring");
        new RunWriter().write(out, r, Map.of());
        List<String> xoffs = Files.readAllLines(out.resolve("pfc.csv")).stream().filter(l -> l.contains(",XOFF,"))
                .toList();
        assertThat(xoffs.get(0)).contains("port 2 (towards").contains(",0,");
        assertThat(xoffs.stream().filter(l -> l.contains(",refresh"))).as("every refresh, once the cycle holds")
                .isNotEmpty().allMatch(l -> l.contains("the pause cycle s0/p1->s1 -> s1/p2->s2 -> s2/p2->s3 -> "
                        + "s3/p2->s4 -> s4/p2->s0 (priority 3)"));
    }

    @Test
    void shouldNameTheCycleAsTheRootOfAVictimThatNeverCrossesIt() throws Exception {
        String yaml = ringWithABystander();
        RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("deadlock");
        PfcLog log = r.pfcLog();
        List<Victims.Victim> victims = log.victims(r.flows(), r.simulatedPs());
        assertThat(victims).extracting(v -> v.flow().id()).containsExactly(5);
        Victims.Victim v = victims.get(0);
        assertThat(v.root().kind()).isEqualTo(PfcLog.ROOT_PAUSE_CYCLE);
        assertThat(v.root().minHops()).as("held at h5's RNIC and at s5, behind s0's pause").isGreaterThanOrEqualTo(2);
        assertThat(v.root().waitPs()).isGreaterThan(v.offPathWaitPs() * 9 / 10);
        assertThat(SummaryText.render(r, null))
                .contains("PFC victims 1 flow waited behind pauses rooted at a congestion point or a pause cycle off its"
                        + " own way")
                .contains("flow 5 h5->h0 (unfinished): waited behind pauses rooted at the pause cycle s0/p1->s1 -> ");
        // The flow from s5 into the cycle is part of it, not its victim.
        assertThat(log.roots(6).get(0).kind()).isEqualTo(PfcLog.ROOT_PAUSE_CYCLE);
        assertThat(log.roots(6).get(0).onPath()).isTrue();

        // Found from the pauses in force, which the partitions report in one simulator's order: the same on two
        // threads, file for file.
        Simulation two = Simulation.assemble(Scenarios.parse(yaml), Simulation.Model.PACKET, 2);
        assertThat(two.partitions()).isEqualTo(2);
        RunResult r2 = two.run(ProgressListener.NONE);
        new RunWriter().write(tmp.resolve("one"), r, Map.of());
        new RunWriter().write(tmp.resolve("two"), r2, Map.of());
        for (String f : List.of("flows.csv", "pfc.csv")) {
            assertThat(Files.readString(tmp.resolve("two").resolve(f))).as(f)
                    .isEqualTo(Files.readString(tmp.resolve("one").resolve(f)));
        }
    }

    /**
     * A six-switch ring that deadlocks, opens for a few microseconds and closes again, with flows besides it and a
     * stream on a spur (x0) that keeps data moving, so the run goes on to its stop time. s1's XOFF to h1 sent while the
     * cycle was open (rooted then at a congestion point) takes hold after it has closed again: h1 -> h0, whose ACKs
     * cross the cycle, waits behind it, and is not the victim of a congestion point off its way.
     */
    private static final String RING_REOPENED = """
            name: ring6-busy-elsewhere
            fabric: {mode: roce-lossless, mtu: 1000}
            topology:
              kind: custom
              hosts: 10
              switches: [s0, s1, s2, s3, s4, s5, x0]
              link: {rate: 100Gbps, delay: 1us}
              links:
                - {a: h0, b: s0}
                - {a: h1, b: s1}
                - {a: h2, b: s2}
                - {a: h3, b: s3}
                - {a: h4, b: s4}
                - {a: h5, b: s5}
                - {a: h6, b: s0}
                - {a: h7, b: s1}
                - {a: h8, b: x0}
                - {a: h9, b: x0}
                - {a: x0, b: s3}
                - {a: s0, b: s1}
                - {a: s1, b: s2}
                - {a: s2, b: s3}
                - {a: s3, b: s4}
                - {a: s4, b: s5}
                - {a: s5, b: s0}
            switch: {buffer: 1MB, ecn: {marking: none}}
            nic: {cc: none, timeout: 12}
            run: {stop-at: 3ms}
            traffic:
              - {kind: flow, src: 0, dst: 2, size: 20MB}
              - {kind: flow, src: 1, dst: 3, size: 20MB}
              - {kind: flow, src: 2, dst: 4, size: 20MB}
              - {kind: flow, src: 3, dst: 5, size: 20MB}
              - {kind: flow, src: 4, dst: 0, size: 20MB}
              - {kind: flow, src: 5, dst: 1, size: 20MB}
              - {kind: flow, src: 0, dst: 6, size: 2MB, start: 20us}
              - {kind: flow, src: 7, dst: 2, size: 2MB, start: 20us}
              - {kind: flow, src: 1, dst: 0, size: 2MB, start: 20us}
              - {kind: flow, src: 8, dst: 9, size: 40MB}
            """;

    @Test
    void shouldGiveTheCycleTheWaitsBehindAPauseSentWhileItWasOpenThatTookHoldOnceItHadClosedAgain() {
        RunResult r = Simulation.assemble(Scenarios.parse(RING_REOPENED)).run(ProgressListener.NONE);
        PfcLog log = r.pfcLog();
        assertThat(log.cycleCount()).isEqualTo(1);
        List<Victims.Victim> victims = log.victims(r.flows(), r.simulatedPs());
        assertThat(victims).extracting(v -> v.flow().id()).as("h0 -> h6 only: its own way (s0 -> h6) never paused")
                .containsExactly(6);
        assertThat(victims.get(0).root().kind()).isEqualTo(PfcLog.ROOT_PAUSE_CYCLE);
        // h1 -> h0: its waits are the cycle's, which its ACKs cross, but for a few microseconds before it closed.
        FlowWaits.Root most = log.roots(8).get(0);
        assertThat(most.kind()).isEqualTo(PfcLog.ROOT_PAUSE_CYCLE);
        assertThat(most.onPath()).isTrue();
        assertThat(log.offPathWaitPs(8)).isLessThan(log.pausedWaitPs(8) / 100);
    }

    @Test
    void shouldTellWhenACycleHeldThoughDataMovedElsewhereAndWhenAWatchdogBrokeIt() {
        RunResult r = Simulation.assemble(Scenarios.parse(RING_REOPENED)).run(ProgressListener.NONE);
        // The stream on the spur keeps data moving: no stall, so no deadlock ends the run; the cycle is told anyway.
        assertThat(r.stopReason()).isEqualTo("stop-at");
        PfcLog log = r.pfcLog();
        assertThat(log.cycleSpells(0)).containsExactly(35_933_920L, 38_484_320L, 42_681_440L, -1L);
        assertThat(SummaryText.render(r, null)).contains("PFC cycle   the pause cycle s0/p2->s1 -> s1/p3->s2 -> "
                + "s2/p2->s3 -> s3/p3->s4 -> s4/p2->s5 -> s5/p2->s0 (priority 3): all its ports paused together from"
                + " 35.934 to 38.484 us and from 42.681 us to the end of the run (3000.000 us)");
        // Each spell: every port of the cycle paused throughout, as the ports' own paused time shows it.
        for (String q : log.cycleQueues(0)) {
            assertThat(q).endsWith(" prio 3");
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> json = (List<Map<String, Object>>) rocelab.observe.output.Summary.of(r)
                .get("pfc_cycles");
        assertThat(json).hasSize(1);
        assertThat(json.get(0).get("queues")).isEqualTo(log.cycleQueues(0));

        // A PFC watchdog that ignores the pauses of a queue stuck for 300 us opens the cycle (at 400 us, its
        // polls 100 us apart): it closes again and is broken again.
        RunResult watched = Simulation.assemble(Scenarios.parse(RING_REOPENED.replace(
                "switch: {buffer: 1MB, ecn: {marking: none}}", "switch: {buffer: 1MB, ecn: {marking: none}, pfc:"
                        + " {watchdog: {poll: 100us, detection: 300us, restoration: 300us, action: drop}}}")))
                .run(ProgressListener.NONE);
        assertThat(watched.totals().pfcWatchdogStorms()).isPositive();
        long[] spells = watched.pfcLog().cycleSpells(0);
        assertThat(spells.length).isGreaterThan(4);
        assertThat(spells[3]).as("the second spell ends at the watchdog's poll").isEqualTo(400_000_000L);
    }

    /**
     * The deadlocked ring with one of its links taken down at 300 us: the cycle is broken there. Both ends of the dead
     * link forget the pauses on it (no frame could ever lift them), so the cycle's spell ends at 300 us, not when the
     * last XOFF sent before the failure expires (537.7 us, as it did), and the flows, rerouted, complete.
     */
    @Test
    void shouldEndTheCycleWhenOneOfItsLinksGoesDown() throws Exception {
        String ring = Files.readString(RING);
        String yaml = ring.substring(ring.indexOf("name:")).replace("traffic:\n",
                "events:\n  - {kind: link-down, a: s4, b: s0, at: 300us}\ntraffic:\n").replace("size: 20MB", "size: 2MB");
        RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("completed");
        long[] spells = r.pfcLog().cycleSpells(0);
        assertThat(spells[spells.length - 1]).as("the last spell ends as the link goes down").isEqualTo(300_000_000L);
        var s4 = r.network().switchAt(4);
        assertThat(s4.name()).isEqualTo("s4");
        int toS0 = -1;
        for (int p = 0; p < s4.portCount(); p++) {
            if (r.network().topology().nodeName(r.network().topology().peer(s4.nodeId(), p).node()).equals("s0")) {
                toS0 = p;
            }
        }
        assertThat(s4.port(toS0).isPaused(3)).isFalse();

        // The journey of h4 -> h1 (it crosses the dead link): s0's frames to s4 after the failure are lost, and said so.
        Simulation sim = Simulation.assemble(Scenarios.parse(yaml));
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(4).id(), sim.pfcLog());
        rec.attach();
        RunResult again = sim.run(ProgressListener.NONE);
        FlowRecord f = again.flows().get(4);
        rec.completed(f.finishPs(), f.src());
        String text = new JourneyText(sim.network(), sim.pfcLog()).render(f, rec.events(), -1, 0, Long.MAX_VALUE,
                100_000);
        assertThat(text).contains("s0 sends PFC XON to s4 for priority 3 on a link that is down: the frame is lost,"
                + " and s4 forgot the pauses on that port when its link went down");
    }
}
