package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.switching.Switch;
import rocelab.observe.RunResult;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.report.ReportWriter;
import rocelab.observe.victim.Victims;
import rocelab.scenario.read.ScenarioReader;

/**
 * A drop is told with its cause as the switch held it at that moment (an audit: lossy-incast's flow 2 "leaf1 dropped
 * PSN 121 (buffer_full)", no port and no cause, while its 107 drops were at leaf1 port 5, the port the summary called
 * idle, for lack of the buffer that the ECMP collision's queue on port 4 held; pause-storm-watchdog's victims "besides
 * these waits, its QP sent 1,524 packets again", the packets the PFC watchdog dropped on queues held paused by the
 * same pause storm).
 */
class DropCauseTest {
    /** The switch of that name. */
    private static Switch named(Simulation sim, String name) {
        for (int s = 0; s < sim.network().switchCount(); s++) {
            if (sim.network().switchAt(s).name().equals(name)) {
                return sim.network().switchAt(s);
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void shouldTellATieBetweenTheBufferHolderAndTheDropsOwnQueue() throws Exception {
        // An audit: lossy-incast's flow 7 was dropped at leaf2 port 5 "and port 4's queue (towards spine0) held 498,960
        // bytes of it", read as port 4's doing, while port 5's own queue held as much: the switch names the first of
        // the queues holding the most.
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("lossy-incast"));
        int flow = 7;
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                sim.pfcLog() == null ? PfcProbe.NONE : sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        List<JourneyEvent> events = rec.eventsOf(0, r.simulatedPs());
        String text = new JourneyText(sim.network(), sim.pfcLog(), null, r.ecmpLog()).render(f, events, -1, 0,
                Long.MAX_VALUE, 100_000);
        int ties = 0;
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.BufferHeld h && h.port() >= 0 && h.port() != e.port()) {
                assertThat(h.ownBytes()).as("its own queue, read at the drop").isBetween(0L, h.bytes());
                ties += h.ownBytes() == h.bytes() ? 1 : 0;
            }
        }
        assertThat(ties).as("drops where both queues held the most").isPositive();
        assertThat(text).contains("port 4's queue (towards spine0) held 498,960 bytes of it, as much as this port's own"
                + " queue of that class");
    }

    @Test
    void shouldTellTheBufferHolderAgainstThePoolAndTheHeadroomWhenALosslessClassHoldsHeadroom() {
        // An audit: a lossy flow (class 1) dropped beside a lossless incast that pauses (class 3) was told "the shared
        // buffer was full (83,898 of its 84,292 bytes in use) and that port's own queue of class 3 held 202,842 bytes
        // of it": the class 3 queue counts its packets in the lossless headroom, which the pool's use does not.
        ScenarioConfig config = Scenarios.parse("""
                name: lossy-beside-lossless
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps, delay: 1us}}
                switch:
                  buffer: 400KB
                  ecn: {marking: none}
                  pfc: {threshold: dynamic, alpha: 0.25, headroom: auto}
                nic: {cc: none, timeout: 6}
                traffic:
                  - {kind: incast, senders: 1-4, receiver: 0, size: 500KB}
                  - {kind: flow, src: 5, dst: 0, size: 300KB, dscp: 10}
                """);
        Simulation sim = Simulation.assemble(config);
        int flow = 4;
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                sim.pfcLog() == null ? PfcProbe.NONE : sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        List<JourneyEvent> events = rec.eventsOf(0, r.simulatedPs());
        List<JourneyEvent.BufferHeld> held = events.stream().filter(e -> e.cause() instanceof JourneyEvent.BufferHeld)
                .map(e -> (JourneyEvent.BufferHeld) e.cause()).toList();
        assertThat(held).as("the lossy flow's drops for a full buffer").isNotEmpty();
        // The case the words were false in: the holder held more than the pool had in use, its headroom included.
        JourneyEvent.BufferHeld over = held.stream().filter(h -> h.bytes() > h.poolUsedBytes()).findFirst()
                .orElseThrow();
        for (JourneyEvent.BufferHeld h : held) {
            assertThat(h.bytes()).as("a queue holds part of the pool and the headroom in use")
                    .isLessThanOrEqualTo(h.poolUsedBytes() + h.headroomUsedBytes());
        }
        String text = new JourneyText(sim.network(), sim.pfcLog(), null, r.ecmpLog()).render(f, events, -1, 0,
                Long.MAX_VALUE, 100_000);
        assertThat(text).contains(String.format(Locale.ROOT, "the shared buffer was full (%,d of its %,d bytes in"
                + " use, and %,d more in the lossless priorities' headroom) and that port's own queue of class %d"
                + " held %,d bytes of those %,d", over.poolUsedBytes(), over.poolBytes(), over.headroomUsedBytes(),
                over.tc(), over.bytes(), over.poolUsedBytes() + over.headroomUsedBytes()));
        assertThat(text).doesNotContain(String.format(Locale.ROOT, "held %,d bytes of it", over.bytes()));
    }

    @Test
    void shouldTellAFullBufferDropsPortAndTheQueueThatHeldTheBuffer(@TempDir Path tmp) throws Exception {
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("lossy-incast"));
        int flow = 2;
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                PfcProbe.NONE);
        rec.ecmpTo(sim.ecmpLog());
        rec.attach();
        Switch leaf1 = named(sim, "leaf1");
        // The oracle: at each drop, the egress queues' own bytes (the FIFOs, not the buffer's accounting), the largest.
        List<long[]> seen = new ArrayList<>();
        leaf1.journeyProbe(new JourneyProbe() {
            @Override
            public void onBufferFullDrop(long nowPs, int node, int port, Packet packet, int holderPort, int holderTc,
                    long holderBytes, long poolUsedBytes, long poolBytes) {
                long most = 0;
                int at = -1;
                for (int p = 0; p < leaf1.portCount(); p++) {
                    for (int tc = 0; tc < 8; tc++) {
                        if (leaf1.port(p).queuedBytes(tc) > most) {
                            most = leaf1.port(p).queuedBytes(tc);
                            at = p;
                        }
                    }
                }
                if (packet.queuePair() == rec.queuePair()) {
                    seen.add(new long[] {nowPs, packet.psn(), at, most});
                }
                rec.onBufferFullDrop(nowPs, node, port, packet, holderPort, holderTc, holderBytes, poolUsedBytes,
                        poolBytes);
            }

            @Override
            public void onEnqueue(long nowPs, int node, int inPort, int port, long queueBytes, Packet packet) {
                rec.onEnqueue(nowPs, node, inPort, port, queueBytes, packet);
            }
        });
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        List<JourneyEvent> events = rec.eventsOf(f.startPs(), f.finishPs());
        List<JourneyEvent> drops = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.DROP
                && e.node() == leaf1.nodeId()).toList();
        assertThat(drops).as("flow 2's drops at leaf1, each told once").hasSize(seen.size()).isNotEmpty();
        for (int i = 0; i < drops.size(); i++) {
            JourneyEvent d = drops.get(i);
            JourneyEvent.BufferHeld h = (JourneyEvent.BufferHeld) d.cause();
            assertThat(d.psn()).isEqualTo(seen.get(i)[1]);
            assertThat(h.port()).as("the fullest queue at the drop").isEqualTo((int) seen.get(i)[2]);
            assertThat(h.bytes()).isEqualTo(seen.get(i)[3]).isLessThanOrEqualTo(h.poolUsedBytes());
            assertThat(h.poolUsedBytes() + 4096).as("full: no room for a packet").isGreaterThan(h.poolBytes());
        }
        // The audit's case: dropped at port 5, the buffer held by port 4's queue (the collision's).
        JourneyEvent first = drops.get(0);
        JourneyEvent.BufferHeld h = (JourneyEvent.BufferHeld) first.cause();
        assertThat(first.port()).isNotEqualTo(h.port());
        String text = new JourneyText(sim.network(), null, null, sim.ecmpLog()).render(f, events, -1, 0,
                Long.MAX_VALUE, 100_000);
        String towards = sim.network().topology().nodeName(sim.network().topology().peer(leaf1.nodeId(),
                first.port()).node());
        String holderTowards = sim.network().topology().nodeName(sim.network().topology().peer(leaf1.nodeId(),
                h.port()).node());
        assertThat(text).contains(String.format(Locale.ROOT, "leaf1 dropped PSN %d at port %d (towards %s)"
                + " (buffer_full): the shared buffer was full (%,d of its %,d bytes in use) and port %d's queue"
                + " (towards %s) held %,d bytes of it", first.psn(), first.port(), towards, h.poolUsedBytes(),
                h.poolBytes(), h.port(), holderTowards, h.bytes()));

        // The summary's collision at that port names those drops: the log heard the same drops as the journey, and
        // ports.csv counts at least them at that port.
        long atHolder = drops.stream().filter(d -> ((JourneyEvent.BufferHeld) d.cause()).port() == h.port()
                && d.port() == first.port()).count();
        EcmpLog.Collision c = r.ecmpLog().collisions(r.flows()).stream().filter(x -> x.node() == leaf1.nodeId()
                && x.port() == h.port()).findFirst().orElseThrow();
        assertThat(c.starved()).anySatisfy(x -> {
            assertThat(x.flow()).isEqualTo(flow);
            assertThat(x.port()).isEqualTo(first.port());
            assertThat(x.packets()).isEqualTo(atHolder);
        });
        assertThat(leaf1.port(first.port()).counter(PortCounter.DROPPED_BUFFER_FULL))
                .isGreaterThanOrEqualTo(c.starvedPackets());
        String summary = SummaryText.render(r, null);
        assertThat(summary).contains(String.format(Locale.ROOT, "; while that queue held the most of leaf1's full"
                + " shared buffer, leaf1 dropped %,d packets of flow 2 (h6->h0) headed for its port %d (towards %s) for"
                + " lack of room (buffer_full)", atHolder, first.port(), towards));
        // The remedy's note no longer reads as if the collision did no harm.
        assertThat(summary).contains("would move their queue there, not remove it, though here the queue also filled"
                + " its switch's shared buffer");
        ReportWriter.writeRun(tmp, r, Map.of());
        assertThat(Files.readString(tmp.resolve("summary.json"))).contains("\"buffer_full_drops_elsewhere\"");
    }

    @Test
    void shouldTellTheWatchdogsDropsWithThePausesRootNotBesidesTheWaits() throws Exception {
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("pause-storm-watchdog"));
        int flow = 2;
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        PfcLog log = r.pfcLog();
        List<PfcLog.WatchdogDrops> drops = log.watchdogDrops(flow);
        assertThat(drops).isNotEmpty();
        // Every watchdog drop of a port is one of the flows' (the counter is the switch's own): none is lost.
        for (PfcLog.WatchdogDrops d : drops) {
            long all = 0;
            for (FlowRecord x : r.flows()) {
                all += log.watchdogDrops(x.id()).stream().filter(y -> y.node() == d.node() && y.port() == d.port())
                        .mapToLong(PfcLog.WatchdogDrops::packets).sum();
            }
            var sw = sim.network().switchAt(d.node() - sim.network().hostCount());
            assertThat(all).isEqualTo(sw.port(d.port()).counter(PortCounter.DROPPED_PFC_WATCHDOG));
        }
        // The journey has each of them, with the same port and the same root, by the XOFF each carried.
        List<JourneyEvent> told = rec.eventsOf(f.startPs(), f.finishPs()).stream()
                .filter(e -> e.cause() instanceof JourneyEvent.WatchdogDrop).toList();
        assertThat((long) told.size()).isEqualTo(drops.stream().mapToLong(PfcLog.WatchdogDrops::packets).sum());
        for (JourneyEvent e : told) {
            JourneyEvent.WatchdogDrop w = (JourneyEvent.WatchdogDrop) e.cause();
            var far = sim.network().topology().peer(e.node(), e.port());
            PfcLog.Xoff x = log.xoff(far.node(), far.port(), w.priority(), w.xoffSentPs());
            assertThat(x).as("the XOFF that held the queue, by identity").isNotNull();
            assertThat(drops).anyMatch(d -> d.node() == e.node() && d.port() == e.port()
                    && d.rootNode() == x.rootNode() && d.rootPort() == x.rootPort() && d.hops() <= x.depth() + 1);
        }
        // The victim line: the resends and the timeout go with the watchdog's drops and the root it shares with the
        // waits, not "besides these waits".
        Victims.Victim v = PfcVictims.find(log, r.flows(), r.simulatedPs()).stream()
                .filter(x -> x.flow().id() == flow).findFirst().orElseThrow();
        PfcLog.WatchdogDrops most = drops.get(0);
        String line = PfcVictims.describe(log, sim.network().topology(), v);
        var topo = sim.network().topology();
        assertThat(line).doesNotContain("besides these waits, its QP").contains(String.format(Locale.ROOT,
                "its QP sent %,d packets again and %d local ACK timeout%s expired after the PFC watchdog at %s port %d"
                        + " (towards %s) dropped %,d of its packets from a queue held paused by pauses rooted at %s,"
                        + " %d pause hops away, a root of these waits", f.resentPackets(), f.ackTimeouts(),
                f.ackTimeouts() == 1 ? "" : "s", topo.nodeName(most.node()), most.port(),
                topo.nodeName(topo.peer(most.node(), most.port()).node()), most.packets(),
                log.rootName(most.rootKind(), most.rootNode(), most.rootPort()), most.hops()));
        assertThat(v.offPathRoots()).anyMatch(x -> x.node() == most.rootNode() && x.port() == most.rootPort());
    }
}
