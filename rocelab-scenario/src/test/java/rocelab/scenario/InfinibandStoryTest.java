package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.engine.Time;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.probe.PfcProbe;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.RunWriter;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * What rocelab tells about an InfiniBand flow is InfiniBand's: no UDP source port (an IB packet has no UDP/IP header;
 * switches forward it by its destination LID), in the journey and in flows.csv; and the journey tells the waits for
 * credits of link-level flow control (who waited, how long, on which lane, for whose buffer), as the transmitters that
 * waited reported them, adding up to what their PortXmitWait counted.
 */
class InfinibandStoryTest {
    /** A 4-to-1 incast and a flow beside it, on 100 Gb/s links (the reproducer of the wrong story). */
    static final String INCAST = """
            name: ib-incast
            fabric: {mode: %s}
            topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            traffic:
              - {kind: incast, senders: 1-4, receiver: 0, size: 512KB}
              - {kind: flow, src: 5, dst: 1, size: 512KB}
            """;

    @TempDir
    Path tmp;

    /** The simulation, the flow's record and its journey text. */
    record Told(Simulation sim, RunResult result, FlowRecord flow, List<JourneyEvent> events, String text) {}

    static Told journey(String yaml, int flow) {
        Simulation sim = Scenarios.assemble(yaml);
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                sim.pfcLog() == null ? PfcProbe.NONE : sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        rec.completed(f.finishPs(), f.src());
        List<JourneyEvent> events = rec.eventsOf(f.startPs(), f.finishPs());
        String text = new JourneyText(sim.network(), sim.pfcLog()).render(f, events, -1, 0, Long.MAX_VALUE, 10_000);
        return new Told(sim, r, f, events, text);
    }

    @Test
    void shouldTellNoUdpSourcePortButTheDestinationLidWhenTheFabricIsInfiniband() {
        Told ib = journey(INCAST.formatted("infiniband"), 0);
        assertThat(ib.text()).startsWith("journey of flow 0: h1 -> h0, 512,000 bytes, RC QP 0")
                .doesNotContain("UDP").contains("by their destination LID, h0's LID 1)").contains("HCA")
                .doesNotContain("RNIC");
        Told roce = journey(INCAST.formatted("roce-lossless"), 0);
        int port = roce.sim().network().queuePairs().get(0).entropy();
        assertThat(roce.text()).contains("RC QP 0 (UDP source port " + port + ")");
    }

    @Test
    void shouldSayHowASwitchPicksAmongEqualCostPortsOnInfinibandWithoutAUdpPort() {
        Told ib = journey("""
                name: ib-two-spines
                fabric: {mode: infiniband}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 64KB}
                """, 0);
        assertThat(ib.text()).doesNotContain("UDP").contains("it keeps the QP on one, picked by a hash of its"
                + " endpoints and its path entropy");
        Told single = journey(INCAST.formatted("infiniband"), 0);
        assertThat(single.text()).as("one port towards h0 at the one switch: no choice to tell")
                .doesNotContain("equal-cost");
    }

    @Test
    void shouldLeaveUdpSportEmptyInFlowsCsvOnInfinibandAndFillItOnRoce() throws Exception {
        Map<String, List<String[]>> rows = new HashMap<>();
        for (String mode : List.of("infiniband", "roce-lossless")) {
            Simulation sim = Scenarios.assemble(INCAST.formatted(mode));
            RunResult r = sim.run(ProgressListener.NONE);
            Path dir = tmp.resolve(mode);
            new RunWriter(Integer.MAX_VALUE).write(dir, r, Map.of());
            List<String> lines = Files.readAllLines(dir.resolve("flows.csv"));
            // InfiniBand names the wait columns for credits; they keep their places.
            assertThat(lines.get(0)).as("the schema keeps its columns, in place").isEqualTo("flow_id,src,dst,size_bytes,"
                    + "start_us,finish_us,fct_us,delivered_us,ideal_fct_us,slowdown,status,qp,udp_sport,"
                    + (mode.equals("infiniband") ? "credit_wait_us,victim_wait_us,credit_root,credit_victim,"
                    : "paused_wait_us,victim_wait_us,pause_root,pfc_victim,") + "ecmp_wait_us,rate_held_us,qp_wait_us,delivered_bytes");
            rows.put(mode, lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList());
            for (String[] row : rows.get(mode)) {
                int qp = Integer.parseInt(row[11]);
                String expected = mode.equals("infiniband") ? ""
                        : Integer.toString(sim.network().queuePairs().get(qp).entropy());
                assertThat(row[12]).as("%s flow %s udp_sport", mode, row[0]).isEqualTo(expected);
            }
            // The folder reads back (rocelab report OUTDIR), the empty column included.
            assertThat(ReportWriter.write(dir)).exists();
        }
        assertThat(rows.get("infiniband")).hasSize(5);
        assertThat(rows.get("roce-lossless")).allSatisfy(row -> assertThat(Integer.parseInt(row[12]))
                .isBetween(0xC000, 0xFFFF));
    }

    @Test
    void shouldLeaveUdpSportEmptyOnInfinibandAtFlowLevelToo() {
        RunResult r = Simulation.assemble(Scenarios.parse(INCAST.formatted("infiniband")), Simulation.Model.FLOW, 1)
                .run(ProgressListener.NONE);
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.hasUdpSourcePort()).isFalse());
        RunResult roce = Simulation.assemble(Scenarios.parse(INCAST.formatted("roce-lossless")),
                Simulation.Model.FLOW, 1).run(ProgressListener.NONE);
        assertThat(roce.flows()).allSatisfy(f -> assertThat(f.hasUdpSourcePort()).isTrue());
    }

    private static final long PS_PER_BYTE = 80; // 100 Gb/s
    /** LRH + BTH + ICRC + VCRC, and the start and end delimiters on the wire. */
    private static final int IB_WIRE_OVERHEAD = 8 + 12 + 4 + 2 + 2;

    private static List<JourneyEvent> creditWaits(Told t) {
        return t.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.CREDIT_WAIT).toList();
    }

    private static long sum(List<JourneyEvent> waits) {
        return waits.stream().mapToLong(JourneyEvent::value).sum();
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }

    /**
     * A 2-to-1 incast at line rate (no congestion control): once the switch's input buffer for a sender's port is
     * full, the sender's HCA waits for credits before nearly every packet. Each wait names the packet it held, which
     * leaves the HCA at that moment; together they are the HCA's credit-stall time on VL 3 (its PortXmitWait); and as
     * the HCA is, until its last packet, either sending or waiting for credits, they are its time to the last packet
     * less the wire time of what it sent before it (its data, and at most all its 8-byte flow-control packets).
     */
    @Test
    void shouldTellTheSendersWaitsForCreditsInAnIncastAsItsHcaCountedThem() {
        Told t = journey("""
                name: ib-2to1
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-2, receiver: 0, size: 512000B}
                """, 0);
        var net = t.sim().network();
        long endPs = net.simulator().nowPs();
        List<JourneyEvent> waits = creditWaits(t);
        assertThat(waits).hasSizeGreaterThan(50).allSatisfy(e -> {
            assertThat(e.node()).as("h1's HCA").isEqualTo(1);
            assertThat(e.flag()).as("its data, not an ACK").isFalse();
            var w = (JourneyEvent.CreditWait) e.cause();
            assertThat(w.vl()).isEqualTo(3);
            assertThat(t.events()).as("PSN %d left when its wait ended", w.psn()).anyMatch(s -> s.kind()
                    == JourneyEvent.Kind.SEND && s.psn() == w.psn() && s.timePs() == e.timePs());
        });
        long stalled = net.nic(1).creditGate().stallPs(3, endPs);
        assertThat(stalled).as("h1's PortXmitWait on VL 3").isGreaterThan(Time.us(20));
        assertThat(sum(waits)).as("the journey's waits, h1 sending flow 0 alone").isEqualTo(stalled);
        // Closed form: the last packet starts after the 124 before it (the first with a RETH) and the waits.
        long lastSendPs = t.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.SEND && e.psn() == 124)
                .findFirst().orElseThrow().timePs();
        long dataPs = (4096 + 16 + IB_WIRE_OVERHEAD + 123L * (4096 + IB_WIRE_OVERHEAD)) * PS_PER_BYTE;
        long flowControlPs = net.nic(1).creditReturn().updatesSent(3) * (6 + 2) * PS_PER_BYTE;
        assertThat(sum(waits)).isBetween(lastSendPs - dataPs - flowControlPs, lastSendPs - dataPs);
        assertThat(t.text()).contains("  waited for credits (InfiniBand link-level flow control) at h1's HCA "
                + us(stalled) + " us on VL 3 (" + us(stalled) + " us summed over hops)")
                .contains("h1's HCA held PSN " + ((JourneyEvent.CreditWait) waits.get(0).cause()).psn() + " for "
                        + us(waits.get(0).value()) + " us waiting for credits on VL 3: switch0's 65,536-byte VL 3"
                        + " input buffer on its port from h1 had no room for the packet")
                .contains("more waits for credits from " + us(waits.get(1).timePs()) + " to "
                        + us(waits.get(waits.size() - 1).timePs()) + " us ("
                        + (waits.size() - 1) + " at h1's HCA behind switch0 port 0 (towards h0), "
                        + us(sum(waits) - waits.get(0).value()) + " us)");
        // The last packet's hops begin with its own wait at the HCA, told with the packet it held.
        JourneyEvent last = waits.get(waits.size() - 1);
        assertThat(((JourneyEvent.CreditWait) last.cause()).psn()).isEqualTo(124);
        String hops = t.text().substring(t.text().indexOf("the last packet (PSN 124), hop by hop:"));
        assertThat(hops).contains(us(lastSendPs) + " us  h1's HCA held PSN 124 for " + us(last.value())
                + " us waiting for credits on VL 3").contains(us(lastSendPs) + " us  h1's HCA sent it");
        assertThat(hops.indexOf("held PSN 124")).isLessThan(hops.indexOf("h1's HCA sent it"));
        String story = t.text().substring(t.text().indexOf("what happened to the flow, in time order:"));
        int told = story.indexOf("h1's HCA held PSN");
        assertThat(story.indexOf("h1 starts sending")).as("in time order").isLessThan(told);
        assertThat(story.indexOf("flow complete")).isGreaterThan(told);
    }

    /**
     * The receiver's HCA drains at half the line rate: the switch's queue towards it waits for the HCA's credits, its
     * input buffer from the sender fills, and the sender waits for the switch's: congestion spreads upstream, one
     * buffer at a time, and the journey tells it in that order, each hop's waits adding up to its PortXmitWait.
     */
    @Test
    void shouldTellASwitchQueueWaitingForTheReceiversCreditsBeforeTheSenderWaitsForTheSwitchs() {
        Told t = journey("""
                name: ib-slow-receiver
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, rx: {rate: 50Gbps}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 1MB}
                """, 0);
        var net = t.sim().network();
        long endPs = net.simulator().nowPs();
        List<JourneyEvent> waits = creditWaits(t);
        List<JourneyEvent> atSwitch = waits.stream().filter(e -> e.node() == 2).toList();
        List<JourneyEvent> atHca = waits.stream().filter(e -> e.node() == 1).toList();
        assertThat(atSwitch.size() + atHca.size()).isEqualTo(waits.size());
        assertThat(atSwitch).isNotEmpty().allSatisfy(e -> assertThat(e.port()).as("towards h0").isZero());
        assertThat(sum(atSwitch)).isEqualTo(net.switchAt(0).port(0).creditGate().stallPs(3, endPs)).isPositive();
        assertThat(sum(atHca)).isEqualTo(net.nic(1).creditGate().stallPs(3, endPs)).isPositive();
        assertThat(atSwitch.get(0).timePs()).as("the switch waits first").isLessThan(atHca.get(0).timePs());
        assertThat(t.text()).contains("switch0: the flow's packets waited " + us(atSwitch.get(0).value())
                + " us in the queue towards h0 for credits on VL 3: h0's HCA's 65,536-byte VL 3 receive buffer had no"
                + " room for the packet").contains("waited for credits (InfiniBand link-level flow control) at switch0"
                + " towards h0 " + us(sum(atSwitch)) + " us on VL 3, h1's HCA " + us(sum(atHca)) + " us on VL 3");
        String story = t.text().substring(t.text().indexOf("what happened to the flow, in time order:"));
        assertThat(story.indexOf("switch0: the flow's packets waited")).isLessThan(story.indexOf("h1's HCA held PSN"));
    }

    /**
     * The flow completes when its last ACK arrives: held at the switch behind data for a receiver whose buffer is
     * full (h1 drains at half the line rate what h2 sends it), the ACK's wait for credits is the flow's too.
     */
    @Test
    void shouldTellTheLastAckWaitingForCreditsOnItsWayBack() {
        Told t = journey("""
                name: ib-ack
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, rx: {rate: 50Gbps}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 64KB, start: 20us}
                  - {kind: flow, src: 2, dst: 1, size: 2MB}
                """, 0);
        List<JourneyEvent> waits = creditWaits(t);
        assertThat(waits).hasSize(1);
        JourneyEvent ack = waits.get(0);
        assertThat(ack.flag()).as("an ACK").isTrue();
        assertThat(((JourneyEvent.CreditWait) ack.cause()).psn()).as("the ACK of the last packet").isEqualTo(15);
        assertThat(ack.node()).isEqualTo(3);
        assertThat(ack.port()).as("towards h1").isEqualTo(1);
        assertThat(t.events()).as("it reaches h1 after it left").anyMatch(e -> e.kind()
                == JourneyEvent.Kind.ACK_ARRIVED && e.psn() == 15 && e.timePs() > ack.timePs());
        assertThat(t.text()).contains("switch0: the flow's last ACK waited " + us(ack.value()) + " us in the queue"
                + " towards h1 for credits on VL 3: h1's HCA's 65,536-byte VL 3 receive buffer had no room for it")
                .contains("at switch0 towards h1 " + us(ack.value()) + " us on VL 3 (its last ACK)");
    }

    @Test
    void shouldTellNoWaitForCreditsOnRoce() {
        Told roce = journey(INCAST.formatted("roce-lossless"), 0);
        assertThat(creditWaits(roce)).isEmpty();
        assertThat(roce.text()).doesNotContain("credits");
    }

    /**
     * A flow the summary names an IB victim is one in flows.csv too, with the same wait off its way and root: the
     * columns were PFC's alone, and the infiniband-incast example's victim read victim_wait_us 0 and pfc_victim false
     * beside the summary's 1170.753 us.
     */
    @Test
    void shouldTellAnIbVictimInFlowsCsvAsTheSummaryDoes() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("infiniband-incast"))
                .run(ProgressListener.NONE);
        var victims = r.creditLog().victims(r.flows(), r.simulatedPs());
        assertThat(victims).isNotEmpty();
        Path dir = tmp.resolve("ib-victims");
        new RunWriter(Integer.MAX_VALUE).write(dir, r, Map.of());
        List<String> lines = Files.readAllLines(dir.resolve("flows.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        for (var v : victims) {
            String[] row = lines.get(1 + v.flow().id()).split(",", -1);
            assertThat(row[header.indexOf("credit_victim")]).isEqualTo("true");
            assertThat(Double.parseDouble(row[header.indexOf("victim_wait_us")]))
                    .isEqualTo(Math.round(v.offPathWaitPs() / 1e3) / 1e3, org.assertj.core.data.Offset.offset(0.0015));
            assertThat(row[header.indexOf("credit_root")]).isEqualTo(r.creditLog().rootName(v.root()));
            assertThat(Double.parseDouble(row[header.indexOf("credit_wait_us")])).isGreaterThan(0);
        }
        long named = lines.stream().skip(1).filter(l -> l.split(",", -1)[header.indexOf("credit_victim")]
                .equals("true")).count();
        assertThat(named).isEqualTo(victims.size());
    }

    /**
     * A BECN that finds its QP's CCT index at ccti-limit raises nothing (Annex A10 caps the increase), so the journey
     * does not say the congestion control reacted, and the summary's "CCT index raises" (rate_cuts) leave it out:
     * an audit's 4-to-1 incast at ccti-limit 12 told "its congestion control reacts" with no change after it, and
     * counted every BECN as a raise.
     */
    @Test
    void shouldTellABecnAtTheCctiLimitAsRaisingNothing() {
        Told t = journey("""
                name: ib-cc-at-limit
                fabric:
                  mode: infiniband
                  infiniband: {vl-buffer: 32KiB, fecn: {threshold: 20KiB, marking-rate: 1, packet-size: 1KiB}}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                nic:
                  cc: ib-cc
                  ib-cc: {ccti-increase: 3, ccti-limit: 12, ccti-min: 1, ccti-timer: 4us, cct-step: 200ns}
                traffic:
                  - {kind: incast, senders: 1-4, receiver: 0, size: 1MiB}
                """, 0);
        long handled = t.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.CNP_HANDLED).count();
        long raised = t.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.RATE
                && ((JourneyEvent.RateChange) e.cause()).cause() == RateCause.BECN).count();
        assertThat(raised).isPositive().isLessThan(handled);
        assertThat(t.text()).contains("its CCT index is at its ccti-limit already, so it raises nothing");
        assertThat(t.text().split("congestion control reacts", -1).length - 1).isEqualTo((int) raised);
        long raises = 0;
        var qps = t.sim().network().queuePairs();
        for (int q = 0; q < qps.size(); q++) {
            raises += qps.get(q).congestionControl().rateCuts();
        }
        assertThat(t.result().totals().rateCuts()).isEqualTo(raises).isLessThan(t.result().totals().cnpHandled());
    }
}
