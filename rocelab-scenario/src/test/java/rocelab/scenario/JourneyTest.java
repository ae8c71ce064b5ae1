package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.scenario.read.ScenarioReader;

/** The journey of a flow tells the chain in causal order: marks, the CNPs they caused, rate cuts, completion. */
class JourneyTest {
    private static Object[] journey(ScenarioConfig config, int flow) {
        Simulation sim = Simulation.assemble(config);
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(),
                sim.pfcLog() == null ? PfcProbe.NONE : sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        rec.completed(f.finishPs(), f.src());
        return new Object[] {sim, rec.events(), f, r};
    }

    @Test
    void shouldTellMarksCnpsAndCutsInCausalOrderWhenFollowingADemoFlow() {
        Object[] j = journey(new ScenarioReader().readDemo(), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        FlowRecord f = (FlowRecord) j[2];
        long sends = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.SEND).count();
        assertThat(sends).as("every data packet, once (lossless)").isEqualTo((f.sizeBytes() + 4095) / 4096);
        JourneyEvent cnp = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.CNP_SENT).findFirst().orElseThrow();
        assertThat(events).as("the CNP's packet was marked before it").anyMatch(e -> e.kind() == JourneyEvent.Kind.MARK
                && e.psn() == cnp.psn() && e.timePs() < cnp.timePs());
        assertThat(events.get(events.size() - 1).kind()).isEqualTo(JourneyEvent.Kind.COMPLETED);
        String text = new JourneyText(((Simulation) j[0]).network()).render(f, events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("journey of flow 0: h4 -> h0", "the first packet (PSN 0), hop by hop:",
                "h0 received it", "marked CE and still forwarded", "sends a CNP back for PSN", "<- marked at",
                "gets the CNP", "flow complete");
        int mark = text.indexOf("marked CE and still forwarded");
        int cnpLine = text.indexOf("sends a CNP back");
        int handled = text.indexOf("gets the CNP");
        assertThat(mark).isLessThan(cnpLine);
        assertThat(cnpLine).isLessThan(handled);
    }

    @Test
    void shouldNameAnXoffsRootOnceWhenItIsOnTheFlowsOwnWay() {
        // An audit: the demo's flow 0 read "paused by leaf0's XOFF of 338.598 us, rooted at leaf0 port 0 (towards h0);
        // for this flow rooted at leaf0 port 0 (towards h0), on its way, which held at least half as many of that
        // ingress's bytes as the port holding most": the root twice, its port compared with itself.
        Object[] j = journey(new ScenarioReader().readDemo(), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        Simulation sim = (Simulation) j[0];
        String text = new JourneyText(sim.network(), sim.pfcLog(), null, null).render((FlowRecord) j[2], events, -1,
                0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("rooted at leaf0 port 0 (towards h0); on this flow's own way)")
                .doesNotContain("rooted at leaf0 port 0 (towards h0); for this flow rooted at leaf0 port 0");
    }

    @Test
    void shouldNotCallACnpsArrivalMoreOfTheCnpsSentBeforeIt() throws Exception {
        // An audit: lossless-dcqcn's flow 15 showed two "h1 sends the CNP flag" lines and "... 3 more like these", of
        // which one was h9's RNIC getting a CNP (the rate cut after it names that CNP).
        Object[] j = journey(new ScenarioReader().readExample("lossless-dcqcn"), 15);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        Simulation sim = (Simulation) j[0];
        String text = new JourneyText(sim.network(), sim.pfcLog(), null, ((RunResult) j[3]).ecmpLog())
                .render((FlowRecord) j[2], events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("... 3 more (2 CNPs sent, 1 CNP handled) until 900.944 us");
    }

    @Test
    void shouldCountTheSwitchesOfAnHpccFlowsWayFromOne() throws Exception {
        // A CC audit: HPCC's rate changes said "at hop 0", the INT record's index, for the first switch on the way.
        String scenario = """
                name: hpcc-2to1
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 3, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: hpcc}
                traffic:
                  - {kind: flow, src: 0, dst: 4, size: 1MB}
                  - {kind: flow, src: 2, dst: 4, size: 1MB}
                """;
        Object[] j = journey(new ScenarioReader().read(scenario, "hpcc.yaml", Path.of(".")), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        Simulation sim = (Simulation) j[0];
        String text = new JourneyText(sim.network(), sim.pfcLog(), null, null).render((FlowRecord) j[2], events, -1,
                0, Long.MAX_VALUE, 100_000);
        // The way h0 -> leaf0 -> spine0 -> leaf2 -> h4 crosses three switches; the flows from leaf0 and leaf1 meet at
        // the second, spine0's port to leaf2, where the queue builds (leaf2 then forwards one link's worth to h4).
        assertThat(text).contains("HPCC INT feedback (utilisation").contains("at switch 2 of its way")
                .doesNotContain("at switch 0 of its way").doesNotContain("at hop");
    }

    @Test
    void shouldTellTheOneLineBeyondMaxLinesRatherThanCountIt() {
        // --max-lines one short of the story: it printed "... 1 more lines" in place of that line; it prints the line.
        Object[] j = journey(new ScenarioReader().readDemo(), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        JourneyText text = new JourneyText(((Simulation) j[0]).network());
        String all = text.render((FlowRecord) j[2], events, -1, 0, Long.MAX_VALUE, 10_000);
        String story = all.substring(all.indexOf("what happened to the flow"));
        int lines = (int) story.lines().count() - 1;
        assertThat(lines).isGreaterThan(5);
        assertThat(text.render((FlowRecord) j[2], events, -1, 0, Long.MAX_VALUE, lines - 1)).isEqualTo(all)
                .doesNotContain("more lines");
        assertThat(text.render((FlowRecord) j[2], events, -1, 0, Long.MAX_VALUE, lines - 2))
                .contains("  ... 2 more lines (--max-lines, or --json for every event)");
    }

    @Test
    void shouldShowThePausesOnTheVictimsPathWhenPfcDoesTheWork() throws Exception {
        Object[] j = journey(new ScenarioReader().readExample("lossless-pfc-only"), 15);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        String text = new JourneyText(((Simulation) j[0]).network()).render((FlowRecord) j[2], events, -1, 0,
                Long.MAX_VALUE, 10_000);
        assertThat(text).contains("journey of flow 15: h9 -> h1", "sends PFC XOFF to h9 for priority 3",
                "sends XON to", "flow complete");
        String packet = new JourneyText(((Simulation) j[0]).network()).render((FlowRecord) j[2], events, 100, 0,
                Long.MAX_VALUE, 10);
        assertThat(packet).contains("packet PSN 100, every transmission, hop by hop:", "h1 received it");
    }

    /**
     * The demo's victim (flow 5, h14 -> h1) waits behind leaf0's pauses at spine0. Every one of its packets held there
     * reports its interval on spine0's paused clock, and those overlap: the journey tells each stretch of paused time
     * once, so its waits at each hop add up to the flow's wait there in the PFC log (flows.csv's paused_wait_us), and
     * it claims no PSN for them (the probe names the flow, not the packet).
     */
    @Test
    void shouldTellEachStretchOfAFlowsPausedWaitOnceAsThePfcLogCountsIt() {
        Object[] j = journey(new ScenarioReader().readDemo(), 5);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        RunResult r = (RunResult) j[3];
        var hops = r.pfcLog().waits(5);
        assertThat(hops).as("the demo's victim waits behind pauses").isNotEmpty();
        for (var hop : hops) {
            long told = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.WAITED && e.node() == hop.node()
                    && e.port() == hop.port()).mapToLong(JourneyEvent::value).sum();
            assertThat(told).as("waits told at node %d port %d", hop.node(), hop.port()).isEqualTo(hop.waitPs());
        }
        assertThat(events).filteredOn(e -> e.kind() == JourneyEvent.Kind.WAITED).isNotEmpty()
                .allMatch(e -> e.psn() == -1);
        String text = new JourneyText(((Simulation) j[0]).network(), r.pfcLog()).render((FlowRecord) j[2], events, -1, 0,
                Long.MAX_VALUE, 10_000);
        assertThat(text).contains("spine0: the flow's packets waited in the queue towards leaf0").doesNotContain(
                "PSN 5 waited");
    }

    @Test
    void shouldTellSelectiveNaksAndResendsOfAlonePsnsWithOutOfOrderPlacement() {
        ScenarioConfig config = Scenarios.parse("""
                name: ooo-journey
                seed: 5
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts-per-leaf: 8, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 200KB, ecmp: {mode: spray}}
                nic: {cc: none, timeout: 10, ooo: true, ooo-reorder: 16}
                traffic:
                  - {kind: incast, senders: 0-7, receiver: 8, size: 300KB}
                """);
        Object[] j = journey(config, 3);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        Simulation sim = (Simulation) j[0];
        FlowRecord f = (FlowRecord) j[2];
        var qp = sim.network().queuePairs().get(f.queuePair());
        assertThat(qp.selectiveRepeat()).isTrue();
        assertThat(qp.selectiveNaks()).as("this QP was asked for gaps").isPositive();
        long naks = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.NAK_ARRIVED && e.flag()).count();
        long resends = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.SEND && e.flag()).count();
        assertThat(naks).as("selective NAKs that reached the sender").isPositive().isLessThanOrEqualTo(qp.selectiveNaks());
        assertThat(resends).isEqualTo(qp.selectiveRetransmissions());
        String text = new JourneyText(sim.network()).render(f, events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains(String.format(Locale.ROOT, "out-of-order placement (nic.ooo): %,d packets"
                + " placed out of sequence, %,d duplicates, %,d selective retransmissions, %,d selective NAKs",
                qp.outOfSequence(), qp.duplicates(), qp.selectiveRetransmissions(), qp.selectiveNaks()))
                .contains("gets a selective NAK: the receiver has every PSN before", "alone (selective repeat)")
                .doesNotContain("go-back-N");
        // The NAK line names the range it carried, by identity: the first selective NAK's PSN is re-sent after it.
        JourneyEvent nak = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.NAK_ARRIVED && e.flag())
                .findFirst().orElseThrow();
        assertThat(events).anyMatch(e -> e.kind() == JourneyEvent.Kind.SEND && e.flag() && e.psn() == nak.psn()
                && e.timePs() >= nak.timePs());
    }

    /** An incast on lossy RoCE whose senders recover by go-back-N: NAKs, and one local ACK timeout each. */
    private static final String LOSSY = """
            name: lossy-go-back-n
            seed: 8
            fabric: {mode: roce-lossy, mtu: 1024}
            topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 200KB, ecn: {marking: none}}
            nic: {cc: none, timeout: 8}
            traffic:
              - {kind: incast, senders: 1-5, receiver: 0, size: 300KB}
            """;

    private static long count(String text, String what) {
        return text.lines().filter(l -> l.contains(what)).count();
    }

    /**
     * Under go-back-N every recovery (a NAK, or the local ACK timeout) is reported by the QP that makes it, and every
     * packet sent again names the recovery it belongs to; the journey tells each recovery once, with the packets re-sent
     * for it, not one line per re-sent packet, and names the local ACK timeout when it fires for the followed QP (the
     * RNIC's own counter of timeouts agrees: one QP per sender). Most of these flows' time is the timeout's wait, and
     * the journey says so.
     */
    @Test
    void shouldTellEachGoBackNRecoveryOnceAndTheLocalAckTimeoutThatFiredForTheFollowedQp() {
        for (int flow = 0; flow < 5; flow++) {
            Object[] j = journey(Scenarios.parse(LOSSY), flow);
            @SuppressWarnings("unchecked")
            List<JourneyEvent> events = (List<JourneyEvent>) j[1];
            Simulation sim = (Simulation) j[0];
            FlowRecord f = (FlowRecord) j[2];
            var nic = sim.network().nic(f.src());
            long timeouts = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.RECOVERY && e.flag()).count();
            long naks = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.NAK_ARRIVED).count();
            long recoveries = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.RECOVERY).count();
            assertThat(timeouts).as("flow %d: the timeouts its RNIC counted", flow)
                    .isEqualTo(nic.counter(NicCounter.LOCAL_ACK_TIMEOUT_ERR)).isPositive();
            assertThat(naks).as("flow %d: NAKs", flow).isPositive();
            assertThat(recoveries).isEqualTo(naks + timeouts);
            // Every re-sent packet names the latest recovery before it, and lies in the range that recovery went back over.
            Map<Integer, JourneyEvent.Recovery> byNumber = new HashMap<>();
            int latest = 0;
            long resent = 0;
            for (JourneyEvent e : events) {
                if (e.cause() instanceof JourneyEvent.Recovery r) {
                    assertThat(r.number()).isEqualTo(++latest);
                    byNumber.put(r.number(), r);
                    if (r.timeout()) {
                        assertThat(r.timerStartPs() + r.timeoutPs()).as("the timer ran its whole length")
                                .isEqualTo(e.timePs());
                    }
                } else if (e.kind() == JourneyEvent.Kind.SEND && e.flag()) {
                    resent++;
                    JourneyEvent.Resend r = (JourneyEvent.Resend) e.cause();
                    assertThat(r.recovery()).isEqualTo(latest);
                    assertThat(e.psn()).isBetween(byNumber.get(latest).fromPsn(), byNumber.get(latest).sentThroughPsn());
                }
            }
            assertThat(resent).isEqualTo(nic.counter(NicCounter.RETRANSMITTED_PACKETS)).isGreaterThan(10 * recoveries);
            String text = new JourneyText(sim.network()).render(f, events, -1, 0, Long.MAX_VALUE, 100_000);
            assertThat(count(text, "re-sends")).as("one line per recovery, not per packet:%n%s", text)
                    .isEqualTo(recoveries);
            assertThat(count(text, "goes back to PSN")).isEqualTo(recoveries);
            assertThat(count(text, "local ACK timeout (1048.576 us) fired: no new ACK since")).isEqualTo(timeouts);
            Matcher m = Pattern.compile("re-sends PSNs? [0-9-]+ \\(([0-9,]+) (packets?|of the)").matcher(text);
            long told = 0;
            while (m.find()) {
                told += Long.parseLong(m.group(1).replace(",", ""));
            }
            assertThat(told).as("the re-sent packets the lines count").isEqualTo(resent);
            long waited = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.RECOVERY && e.flag())
                    .mapToLong(e -> e.timePs() - ((JourneyEvent.Recovery) e.cause()).timerStartPs()).sum();
            assertThat(2 * waited).as("the timeouts' wait is most of the FCT").isGreaterThan(f.fctPs());
            assertThat(text).contains(String.format(Locale.ROOT, "its QP's local ACK timeout (1048.576 us)"
                    + " fired %d time%s: %.3f us with no new ACK before", timeouts, timeouts == 1 ? "" : "s",
                    waited / 1e6), "most of the flow's time passed waiting for it");
        }
    }

    /**
     * Sprayed packets and their ACKs and NAKs pass each other: a NAK can arrive after an ACK that already acknowledged
     * the PSN it asks for. Such a stale NAK must not send the requester back over acknowledged packets.
     */
    @Test
    void shouldNotGoBackOverAcknowledgedPacketsWhenAStaleNakArrivesAfterALaterAck() {
        ScenarioConfig config = Scenarios.parse("""
                name: stale-nak
                seed: 3
                fabric: {mode: roce-lossless, mtu: 1024}
                topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB, load-balancing: {mode: spray}, ecn: {marking: none}}
                nic: {cc: none}
                traffic:
                  - {kind: flow, src: 0, dst: 4, size: 2MB}
                  - {kind: flow, src: 4, dst: 0, size: 2MB}
                  - {kind: incast, senders: [1, 2, 5, 6], receiver: 7, size: 1MB}
                  - {kind: incast, senders: [3, 5], receiver: 1, size: 1MB}
                """);
        long stale = 0;
        for (int flow = 0; flow < 2; flow++) {
            @SuppressWarnings("unchecked")
            List<JourneyEvent> events = (List<JourneyEvent>) journey(config, flow)[1];
            long acknowledged = -1;
            for (JourneyEvent e : events) {
                switch (e.kind()) {
                    case ACK_ARRIVED -> acknowledged = Math.max(acknowledged, e.psn());
                    case NAK_ARRIVED -> stale += e.psn() <= acknowledged ? 1 : 0;
                    case RECOVERY -> assertThat(((JourneyEvent.Recovery) e.cause()).fromPsn())
                            .as("flow %d goes back to an unacknowledged PSN", flow).isGreaterThan(acknowledged);
                    case SEND -> assertThat(!e.flag() || e.psn() > acknowledged)
                            .as("flow %d re-sent PSN %d after it was acknowledged", flow, e.psn()).isTrue();
                    default -> { }
                }
            }
        }
        assertThat(stale).as("the scenario has stale NAKs to ignore").isPositive();
    }

    /**
     * The flow completes with its last packet's ACK: when that ACK waits in a queue on its way back (here behind an
     * incast into h5 at leaf0's uplink), only the last packet's hops show it, so the journey tells them too.
     */
    @Test
    void shouldFollowTheLastPacketAndTheAckTheFlowCompletesWith() {
        Object[] j = journey(Scenarios.parse("""
                name: ack-queued
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 8MB, ecn: {marking: none}}
                nic: {cc: none}
                traffic:
                  - {kind: flow, src: 4, dst: 0, size: 200KB}
                  - {kind: incast, senders: [1, 2, 3], receiver: 5, size: 2MB}
                """), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        FlowRecord f = (FlowRecord) j[2];
        String text = new JourneyText(((Simulation) j[0]).network()).render(f, events, -1, 0, Long.MAX_VALUE, 1000);
        long last = (f.sizeBytes() + 4095) / 4096 - 1;
        assertThat(text).contains("the last packet (PSN " + last + "), hop by hop:");
        String section = text.substring(text.indexOf("the last packet"), text.indexOf("what happened"));
        Matcher m = Pattern.compile("leaf0 \\(ACK\\): queued towards spine0 behind ([0-9,]+) bytes").matcher(section);
        assertThat(m.find()).as(section).isTrue();
        assertThat(Long.parseLong(m.group(1).replace(",", ""))).as("the incast's data ahead of the last ACK")
                .isGreaterThan(100_000);
        assertThat(section).endsWith("h4 received the ACK for PSN " + last + "\n\n");
    }

    /**
     * A ring's QP carries one step's flow after another: the journey of one flow tells that flow's packets, waits and
     * notifications only (an outside probe found the story of the QP's other flows told as flow 5's).
     */
    @Test
    void shouldTellOneFlowOfAQueuePairThatCarriesSeveral() {
        ScenarioConfig config = Scenarios.parse("""
                name: ring-with-background
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 2MB}
                nic: {cc: none}
                traffic:
                  - {kind: allreduce, ranks: [0, 1, 4, 5], size: 4MB}
                  - {kind: incast, senders: [2, 3, 6], receiver: 7, size: 2MB}
                """);
        int flow = 5;
        Simulation sim = Simulation.assemble(config);
        int qp = sim.driver().queuePair(flow).id();
        JourneyRecorder rec = new JourneyRecorder(sim.network(), qp, flow, sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        assertThat(r.flows().stream().filter(x -> x.queuePair() == f.queuePair())).as("flows on its QP").hasSizeGreaterThan(1);
        rec.completed(f.finishPs(), f.src());
        List<JourneyEvent> events = rec.eventsOf(f.startPs(), f.finishPs());
        long packets = (f.sizeBytes() + 4095) / 4096;
        assertThat(events.stream().filter(e -> e.kind() == JourneyEvent.Kind.SEND && !e.flag())).as("its first sends")
                .hasSize((int) packets);
        long low = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.SEND).mapToLong(JourneyEvent::psn).min()
                .orElseThrow();
        assertThat(low).as("a flow after others on its QP").isPositive();
        assertThat(events).allMatch(e -> e.timePs() >= f.startPs() && e.timePs() <= f.finishPs());
        long waited = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.WAITED).mapToLong(JourneyEvent::value)
                .sum();
        assertThat(waited).as("its waits are its paused_wait_us").isEqualTo(r.pfcLog().pausedWaitPs(flow)).isPositive();
        String text = new JourneyText(sim.network(), r.pfcLog()).render(f, events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("the first packet (PSN " + low + "), hop by hop:",
                "the last packet (PSN " + (low + packets - 1) + "), hop by hop:");
    }

    /**
     * A pause of a priority the flow's sender does not send its data on (DSCP 10 maps to class 1 at the switch, the
     * RNIC sends on priority 3) does not hold the flow: the journey must not say the sender stopped.
     */
    @Test
    void shouldNotSayTheSenderStoppedWhenThePausedPriorityIsNotItsOwn() {
        Object[] j = journey(Scenarios.parse("""
                name: other-priority
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 8MB, pfc: {priorities: [3, 1]}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: incast, senders: 1-2, receiver: 0, size: 2MB}
                  - {kind: incast, senders: 3-4, receiver: 0, size: 2MB, dscp: 10}
                """), 2);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        RunResult r = (RunResult) j[3];
        FlowRecord f = (FlowRecord) j[2];
        assertThat(f.src()).isEqualTo(3);
        assertThat(r.pfcLog().pausedWaitPs(f.id())).as("never held by the pauses of priority 1").isZero();
        String text = new JourneyText(((Simulation) j[0]).network(), r.pfcLog()).render(f, events, -1, 0,
                Long.MAX_VALUE, 10_000);
        assertThat(text).contains("switch0 sends PFC XOFF to h3 for priority 1",
                "h3 may not send priority 1 on that port for up to 335.539 us (the flow's data leaves h3 on priority 3:"
                        + " not held by it)").doesNotContain("stops sending");
    }

    /** An ACK dropped on its way back is told as the ACK, not as the data packet it acknowledges (which arrived). */
    @Test
    void shouldTellADroppedAckAsTheAckNotAsItsDataPacket() {
        Object[] j = journey(Scenarios.parse("""
                name: ack-dropped
                fabric: {mode: roce-lossy, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 5us}}
                nic: {cc: none, timeout: 5, retry-count: 2}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 1MB}
                events:
                  - {kind: link-down, a: h1, b: switch0, at: 20us}
                  - {kind: link-up, a: h1, b: switch0, at: 200us}
                """), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        List<JourneyEvent> ackDrops = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.DROP && e.flag()
                && "no_route".equals(e.detail())).toList();
        assertThat(ackDrops).as("ACKs to h1 with no route while its link is down").isNotEmpty();
        for (JourneyEvent d : ackDrops) {
            assertThat(events).as("PSN %d arrived before its ACK was dropped", d.psn()).anyMatch(e ->
                    e.kind() == JourneyEvent.Kind.DATA_ARRIVED && e.psn() == d.psn() && e.timePs() < d.timePs());
        }
        String text = new JourneyText(((Simulation) j[0]).network()).render((FlowRecord) j[2], events, -1, 0,
                Long.MAX_VALUE, 10_000);
        // Shortened among the losses on the down link: counted as ACKs, and no data PSN is called dropped.
        assertThat(text).containsPattern(ackDrops.size() + " ACKs dropped by switch0 arriving on port \\d+ \\(from"
                + " h0\\) \\(no_route\\)")
                .doesNotContain("switch0 dropped PSN " + ackDrops.get(0).psn() + " ");
        String hops = new JourneyText(((Simulation) j[0]).network()).render((FlowRecord) j[2], events,
                ackDrops.get(0).psn(), 0, Long.MAX_VALUE, 10_000);
        assertThat(hops).containsPattern("switch0 dropped its ACK arriving on port \\d+ \\(from h0\\) \\(no_route\\)");
    }

    /**
     * Frames lost on a link that is down are told as lost there, by identity (the link tells the journey each frame
     * it loses): h1's data on its own link, the ACKs to h1 on the way back; and the link's going down and up. Every
     * frame h1's RNIC lost (its counter) is one of the two flows' losses at h1, and every frame switch0's port to h1
     * lost is one of theirs there.
     */
    @Test
    void shouldTellFramesLostOnALinkThatIsDownAndTheLinkEvents() {
        ScenarioConfig config = Scenarios.parse("""
                name: host-link-down
                fabric: {mode: roce-lossy, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 5us}}
                nic: {cc: none, timeout: 5, retry-count: 2}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 1MB}
                  - {kind: flow, src: 2, dst: 1, size: 1MB}
                events:
                  - {kind: link-down, a: h1, b: switch0, at: 20us}
                  - {kind: link-up, a: h1, b: switch0, at: 200us}
                """);
        // One recorder per run (a run has one journey probe): the same seed, so the same run twice.
        Object[][] runs = {journey(config, 0), journey(config, 1)};
        Simulation sim = (Simulation) runs[1][0];
        int h1 = 1;
        int switch0 = sim.network().topology().hostCount();
        int toH1 = sim.network().topology().peer(h1, 0).port();
        long lostAtH1 = 0;
        long lostAtSwitchToH1 = 0;
        for (Object[] run : runs) {
            @SuppressWarnings("unchecked")
            List<JourneyEvent> events = (List<JourneyEvent>) run[1];
            for (JourneyEvent e : events) {
                if (e.kind() == JourneyEvent.Kind.DROP && "link_down".equals(e.detail())) {
                    if (e.node() == h1) {
                        assertThat(e.timePs()).isBetween(20_000_000L, 200_000_000L);
                        lostAtH1++;
                    } else {
                        assertThat(e.node()).isEqualTo(switch0);
                        assertThat(e.port()).isEqualTo(toH1);
                        lostAtSwitchToH1++;
                    }
                }
            }
        }
        assertThat(lostAtH1).as("h1's RNIC's frames lost on its down link, told by the flows' journeys")
                .isEqualTo(sim.network().nic(h1).counter(NicCounter.TX_LOST_LINK_DOWN)).isPositive();
        assertThat(lostAtSwitchToH1).as("switch0's frames to h1 lost on the link")
                .isEqualTo(sim.network().switchAt(0).port(toH1).counter(
                        PortCounter.DROPPED_LINK_DOWN)).isPositive();
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events0 = (List<JourneyEvent>) runs[0][1];
        String text = new JourneyText(((Simulation) runs[0][0]).network()).render((FlowRecord) runs[0][2], events0, -1,
                0, Long.MAX_VALUE, 10_000);
        int down = text.indexOf("20.000 us  the link h1 - switch0 goes down");
        int firstLoss = text.indexOf("lost on the link h1 -> switch0, which is down", text.indexOf("what happened"));
        int up = text.indexOf("200.000 us  the link h1 - switch0 comes back up");
        assertThat(down).as(text).isPositive();
        assertThat(firstLoss).isGreaterThan(down);
        assertThat(up).isGreaterThan(firstLoss);
        assertThat(text).contains("PSNs lost on the link h1 -> switch0", "ACKs lost on the link switch0 -> h1");
        // The last packet's first send was lost at h1: its hops say so.
        assertThat(text).containsPattern("h1's RNIC sent it at 100.0 Gb/s\\n +[0-9.]+ us  it was lost on the link"
                + " h1 -> switch0, which is down");
    }

    /** A QP whose receiver is cut off times out until its retries are spent; the journey tells it failing, and why. */
    @Test
    void shouldTellTheQueuePairFailingWhenItsLocalAckTimeoutFindsTheRetriesSpent() {
        Object[] j = journey(Scenarios.parse("""
                name: retries-spent
                seed: 1
                fabric: {mode: roce-lossy, mtu: 1024}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 4, retry-count: 1}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 100KB}
                events:
                  - {kind: link-down, a: switch0, b: h1, at: 3us}
                """), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        FlowRecord f = (FlowRecord) j[2];
        assertThat(f.failed()).isTrue();
        List<JourneyEvent.Recovery> timeouts = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.RECOVERY)
                .map(e -> (JourneyEvent.Recovery) e.cause()).toList();
        assertThat(timeouts).hasSize(2).allMatch(JourneyEvent.Recovery::timeout);
        assertThat(timeouts.get(0).failed()).isFalse();
        assertThat(timeouts.get(1).failed()).isTrue();
        String text = new JourneyText(((Simulation) j[0]).network()).render(f, events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("FAILED: the QP exhausted its retries", "(go-back-N, retry 1 of 1)",
                "local ACK timeout (65.536 us) fired: no new ACK since 0.000 us (the timer restarted at 65.536 us, when it"
                        + " last fired), and its one retry is spent: the QP"
                        + " fails (retry exceeded)");
    }

    /**
     * A slow receiver's own XOFF names no egress port: an audit read "h1 sends PFC XOFF to switch0 (its ingress holds
     * 100,890 bytes; threshold 100,000 bytes; that port was not paused: it is the congestion point)", a port never
     * named. It is the RNIC's receive buffer, its pipeline behind, that is the congestion point.
     */
    @Test
    void shouldTellASlowReceiversXoffByItsReceiveBufferNotByAPort() {
        Object[] j = journey(Scenarios.parse("""
                name: slow-receiver
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB, ecn: {marking: none}}
                nic: {cc: none}
                nics:
                  - {hosts: 1, rx: {rate: 25Gbps, buffer: 200KB}}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 2MB}
                  - {kind: flow, src: 0, dst: 2, size: 1MB, start: 10us}
                """), 0);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        String text = new JourneyText(((Simulation) j[0]).network(), ((RunResult) j[3]).pfcLog())
                .render((FlowRecord) j[2], events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("h1 sends PFC XOFF to switch0 for priority 3 (its receive buffer holds 100,890 bytes;"
                + " XOFF level 100,000 bytes; its receive pipeline had not taken them yet: it is the congestion point)");
        assertThat(text).doesNotContain("h1 sends PFC XOFF to switch0 for priority 3 (its ingress holds");
        // The switch's own XOFF, further up, still names its port and that it was paused.
        assertThat(text).contains("switch0 sends PFC XOFF to h0 for priority 3 (its ingress holds ", "queued mostly"
                + " towards h1", "that port was paused: rooted at h1's receive buffer, 1 pause hop away");
    }

    /**
     * Every wait the journey tells names the XOFF that held it, and that XOFF is told too, when it was sent after the
     * flow's first packet: an audit's 3-tier pause tree (an incast two switches away, the victim starting 20 us later)
     * told s2's XON to s1 and the wait "paused by s2's XOFF of 20.054 us", but not that XOFF, sent just before the
     * victim's first packet reached s1 (its ports were gathered as the story went).
     */
    @Test
    void shouldTellTheXoffOfEveryWaitItNamesWhenTheFlowHadStarted() {
        Object[] j = journey(Scenarios.parse("""
                name: three-tier-pause-tree
                fabric: {mode: roce-lossless, mtu: 1000}
                topology:
                  kind: custom
                  hosts: 6
                  switches: [s0, s1, s2]
                  link: {rate: 100Gbps, delay: 1us}
                  links:
                    - {a: h0, b: s0}
                    - {a: h1, b: s0}
                    - {a: h2, b: s0}
                    - {a: h3, b: s1}
                    - {a: h4, b: s2}
                    - {a: h5, b: s2}
                    - {a: s0, b: s1, rate: 400Gbps}
                    - {a: s1, b: s2, rate: 400Gbps}
                switch: {buffer: 4MB, ecn: {marking: none}}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-3, receiver: 4, size: 1MB}
                  - {kind: flow, src: 0, dst: 5, size: 1MB, start: 20us}
                """), 3);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        Simulation sim = (Simulation) j[0];
        FlowRecord f = (FlowRecord) j[2];
        String text = new JourneyText(sim.network(), ((RunResult) j[3]).pfcLog())
                .render(f, events, -1, 0, Long.MAX_VALUE, 100_000);
        Matcher m = Pattern.compile("paused by (\\S+)'s XOFF of ([0-9.]+) us").matcher(text);
        int named = 0;
        while (m.find()) {
            double sentUs = Double.parseDouble(m.group(2));
            if (sentUs * 1e6 >= f.startPs()) {
                named++;
                assertThat(text).as("the XOFF a wait names").contains(String.format(Locale.ROOT, "%s us  %s sends PFC"
                        + " XOFF to ", m.group(2), m.group(1)));
            }
        }
        assertThat(named).as("waits naming an XOFF sent after the flow's post").isPositive();
        assertThat(text).contains("20.054 us  s2 sends PFC XOFF to s1 for priority 3");
    }

    /** "its ingress holds X bytes; threshold Y bytes" in a journey's XOFF line. */
    private static final Pattern HOLDS = Pattern.compile("its ingress holds ([0-9,]+) bytes; threshold ([0-9,]+) bytes");

    /**
     * Static thresholds that add up to more than the buffer: the switch pauses senders whose ingress is far under its
     * XOFF threshold, because its shared pool is full. The switch says so when it decides (the buffer knows which
     * rule it applied), and the journey tells it so instead of a threshold the ingress did not reach; a refresh is
     * told as a refresh, never with a threshold. Checked over every PFC frame of the run: a pause starts with a first
     * XOFF whose reason is the threshold or the full pool, later XOFFs before its XON are refreshes.
     */
    @Test
    void shouldTellAPauseThatAFullSharedPoolCausedFromOneTheThresholdCaused() {
        Object[] j = journey(Scenarios.parse("""
                name: static-thresholds-over-the-buffer
                seed: 1
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 1500KB, ecn: {marking: none}, pfc: {threshold: static, xoff: 400KB, xon: 300KB}}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-7, receiver: 0, size: 1MB}
                """), 3);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        Simulation sim = (Simulation) j[0];
        RunResult r = (RunResult) j[3];
        assertPausesStartAndRefreshAsTheirReasonsSay(events);
        List<JourneyEvent> poolFull = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.PAUSED
                && ((JourneyEvent.Pause) e.cause()).reason() == PfcReason.SHARED_POOL_FULL).toList();
        assertThat(poolFull).as("pauses the full pool caused").isNotEmpty();
        for (JourneyEvent e : poolFull) {
            JourneyEvent.Pause p = (JourneyEvent.Pause) e.cause();
            assertThat(e.value()).as("the ingress was under its threshold").isLessThanOrEqualTo(p.thresholdBytes());
            assertThat(p.poolBytes() - p.poolUsedBytes()).as("no room for a packet").isBetween(0L, 4200L);
        }
        String text = new JourneyText(sim.network(), r.pfcLog()).render((FlowRecord) j[2], events, -1, 0,
                Long.MAX_VALUE, 10_000);
        assertThat(text).contains("switch0's shared pool was full: ", " bytes (the buffer less the reserved headroom) in"
                + " use, no room for the arriving packet, while this ingress held ", "under its 400,000-byte XOFF"
                + " threshold; most of them flow 3");
        assertNoPauseToldWithAThresholdItsIngressDidNotReach(text);
        // pfc.csv says it too: every XOFF row under its threshold is a refresh or the full pool's, by its reason.
        List<String[]> rows = r.pfcLog().csv().lines().skip(1).map(l -> l.split(",", -1)).toList();
        assertThat(r.pfcLog().csv().lines().findFirst().orElseThrow()).endsWith(",top_flows,reason,egress_bytes");
        assertThat(rows).anyMatch(c -> c[c.length - 2].equals("shared_pool_full"));
        for (String[] c : rows) {
            String reason = c[c.length - 2];
            if (c[5].equals("XON")) {
                assertThat(reason).isEqualTo("resume");
            } else if (Long.parseLong(c[8]) < Long.parseLong(c[9])) {
                assertThat(reason).as("an XOFF under its threshold").isIn("refresh", "shared_pool_full");
            }
        }
    }

    /** The same on a dynamic threshold with refreshes (lossless-pfc-only): first XOFFs and refreshes told apart. */
    @Test
    void shouldTellARefreshOfAPauseAsARefreshNotAsAThresholdCrossed() throws Exception {
        Object[] j = journey(new ScenarioReader().readExample("lossless-pfc-only"), 15);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        assertPausesStartAndRefreshAsTheirReasonsSay(events);
        assertThat(events).as("refreshes").anyMatch(e -> e.cause() instanceof JourneyEvent.Pause p
                && p.reason() == PfcReason.REFRESH);
        String text = new JourneyText(((Simulation) j[0]).network(), ((RunResult) j[3]).pfcLog())
                .render((FlowRecord) j[2], events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("sends PFC XOFF to h9 for priority 3 again, a refresh while the pause holds (its"
                + " ingress holds ");
        assertNoPauseToldWithAThresholdItsIngressDidNotReach(text);
    }

    /**
     * Per device, port and priority, in time order: an XOFF while not paused starts a pause (threshold, full pool or
     * an RNIC's receive buffer), an XOFF while paused is a refresh, XON ends it. A threshold pause holds at least the
     * threshold.
     */
    private static void assertPausesStartAndRefreshAsTheirReasonsSay(List<JourneyEvent> events) {
        Map<Long, Boolean> paused = new HashMap<>();
        int starts = 0;
        for (JourneyEvent e : events) {
            if (!(e.cause() instanceof JourneyEvent.Pause p)) {
                continue;
            }
            long key = ((long) e.node() << 32) | ((long) e.port() << 8) | e.psn();
            boolean was = paused.getOrDefault(key, false);
            if (e.kind() == JourneyEvent.Kind.RESUMED) {
                assertThat(p.reason()).isEqualTo(PfcReason.RESUME);
                paused.put(key, false);
                continue;
            }
            if (was) {
                assertThat(p.reason()).as("XOFF of node %d port %d at %d ps while paused", e.node(), e.port(),
                        e.timePs()).isEqualTo(PfcReason.REFRESH);
            } else {
                starts++;
                assertThat(p.reason()).as("XOFF of node %d port %d at %d ps", e.node(), e.port(), e.timePs())
                        .isIn(PfcReason.THRESHOLD, PfcReason.SHARED_POOL_FULL, PfcReason.RECEIVE_BUFFER);
                if (p.reason() == PfcReason.THRESHOLD) {
                    assertThat(e.value()).isGreaterThanOrEqualTo(p.thresholdBytes());
                }
            }
            paused.put(key, true);
        }
        assertThat(starts).isPositive();
    }

    /**
     * A QP sends its messages in the order they were posted. A 2-rank AlltoAll of 768 KiB posts each pair's 384 KiB as
     * three 128 KiB WRITEs at once on one QP (NCCL's P2P chunks): the third waits while the QP sends the first two, 64
     * packets at 100 Gb/s, and its FCT (from its post) includes that wait. Its journey says so, by the flows its QP's
     * packets carried between its post and its first packet; the first WRITE waited for no one and has no such line.
     */
    @Test
    void shouldSayBehindWhichFlowsOfItsQpAFlowWaitedBeforeItsFirstPacket() throws Exception {
        ScenarioConfig config = new ScenarioReader().read("""
                name: qp-fifo
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: alltoall, ranks: 0-1, size: 768KiB}
                """, "qp-fifo.yaml", null);
        Simulation sim = Simulation.assemble(config);
        int qp = sim.driver().queuePair(0).id();
        assertThat(sim.driver().queuePair(1).id()).isEqualTo(qp);
        assertThat(sim.driver().queuePair(2).id()).isEqualTo(qp);
        JourneyRecorder rec = new JourneyRecorder(sim.network(), qp, 2, PfcProbe.NONE);
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(2);
        assertThat(f.startPs()).isEqualTo(r.flows().get(0).startPs()).isEqualTo(r.flows().get(1).startPs());
        rec.completed(f.finishPs(), f.src());
        List<JourneyRecorder.QueuedBehind> behind = rec.queuedBehind(f.startPs());
        assertThat(behind).extracting(JourneyRecorder.QueuedBehind::flow).containsExactly(0L, 1L);
        assertThat(behind).extracting(JourneyRecorder.QueuedBehind::packets).as("every packet of both: 128 KiB each")
                .containsExactly(32, 32);
        assertThat(behind).extracting(JourneyRecorder.QueuedBehind::resent).containsExactly(0, 0);
        assertThat(behind.get(1).lastSentPs()).isLessThan(rec.firstSendPs());
        // 64 frames of 4,194 bytes on the wire (4,096 of payload, 78 of headers, 20 of preamble and gap; the first of
        // each WRITE 16 more for its RETH) at 100 Gb/s before its first packet can start.
        long frames = 64L * (4096 + 78 + 20) + 2 * 16;
        assertThat(rec.firstSendPs() - f.startPs()).isGreaterThanOrEqualTo(frames * 8 * 10);
        List<JourneyEvent> events = rec.eventsOf(f.startPs(), f.finishPs());
        String text = new JourneyText(sim.network()).queuedBehind(behind, rec.firstSendPs())
                .render(f, events, -1, 0, Long.MAX_VALUE, 5);
        String waited = String.format(Locale.ROOT, "%.3f", (rec.firstSendPs() - f.startPs()) / 1e6);
        assertThat(text).contains("its first packet left at " + waited + " us, " + waited + " us after it was posted",
                "QP " + qp + " sends its messages in the order they were posted, and until then it was sending flow 0"
                        + " (32 packets from 0.000 to ", " and flow 1 (32 packets from ");

        // The first WRITE was posted on an idle QP: no such line.
        Simulation again = Simulation.assemble(config);
        JourneyRecorder rec0 = new JourneyRecorder(again.network(), qp, 0, PfcProbe.NONE);
        rec0.attach();
        FlowRecord f0 = again.run(ProgressListener.NONE).flows().get(0);
        rec0.completed(f0.finishPs(), f0.src());
        assertThat(rec0.queuedBehind(f0.startPs())).isEmpty();
        assertThat(new JourneyText(again.network()).queuedBehind(rec0.queuedBehind(f0.startPs()), rec0.firstSendPs())
                .render(f0, rec0.eventsOf(f0.startPs(), f0.finishPs()), -1, 0, Long.MAX_VALUE, 5))
                .doesNotContain("its first packet left at");
    }

    private static void assertNoPauseToldWithAThresholdItsIngressDidNotReach(String text) {
        Matcher m = HOLDS.matcher(text);
        while (m.find()) {
            assertThat(Long.parseLong(m.group(1).replace(",", ""))).as("%s", m.group())
                    .isGreaterThanOrEqualTo(Long.parseLong(m.group(2).replace(",", "")));
        }
        assertThat(text.lines().filter(l -> l.contains("a refresh while the pause holds")))
                .allMatch(l -> !l.contains("; threshold"));
    }

    /**
     * lossy-incast's flow 7 loses packets and recovers by go-back-N: a packet arriving after a gap is not "received" as
     * if taken; the journey says the responder expects another PSN and discards it, and the PSN it names is the one the
     * responder asked for (its NAK's).
     */
    @Test
    void shouldSayAnArrivalOutOfSequenceIsDiscardedByGoBackN() throws Exception {
        Object[] j = journey(new ScenarioReader().readExample("lossy-incast"), 7);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        List<JourneyEvent> ahead = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.DATA_ARRIVED
                && e.detail() != null && e.detail().startsWith("ahead ")).toList();
        assertThat(ahead).as("arrivals past a gap").isNotEmpty();
        for (JourneyEvent e : ahead) {
            long expected = Long.parseLong(e.detail().substring("ahead ".length()));
            assertThat(e.psn()).isGreaterThan(expected);
            // The responder asked for that PSN: a NAK naming it reached the sender after the gap opened.
            assertThat(events).anyMatch(n -> n.kind() == JourneyEvent.Kind.NAK_ARRIVED && n.psn() == expected);
        }
        String text = new JourneyText(((Simulation) j[0]).network()).render((FlowRecord) j[2], events, -1, 0,
                Long.MAX_VALUE, 100_000);
        assertThat(text).contains("received it, out of sequence (it expects PSN "
                + ahead.get(0).detail().substring("ahead ".length()) + "): go-back-N discards it");
    }

    /**
     * ib-cc cuts the rate as it handles a BECN: the journey tells the BECN's handling first, with the rate until then,
     * and the cut after it at the same instant (it told the cut first, and the handling with the rate after it).
     */
    @Test
    void shouldTellABecnBeforeTheRateCutItCauses() throws Exception {
        Object[] j = journey(new ScenarioReader().readExample("infiniband-incast"), 15);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        int handled = -1;
        for (int i = 0; i < events.size() && handled < 0; i++) {
            if (events.get(i).kind() == JourneyEvent.Kind.CNP_HANDLED && events.get(i).flag()) {
                handled = i;
            }
        }
        assertThat(handled).as("a BECN its control reacted to").isNotNegative();
        JourneyEvent h = events.get(handled);
        JourneyEvent cut = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.RATE && e.timePs() == h.timePs())
                .findFirst().orElseThrow();
        assertThat(events.indexOf(cut)).isGreaterThan(handled);
        JourneyEvent.RateChange change = (JourneyEvent.RateChange) cut.cause();
        assertThat(h.value()).as("the rate until the BECN").isEqualTo(change.fromBps());
        assertThat(change.toBps()).isLessThan(change.fromBps());
    }

    /**
     * A CE-marked packet that got no CNP: the journey says why, from the notification point's own state (an audit found
     * lossy-incast's PSN 45 marked and unanswered with no word of it). lossy-incast's receiver paces CNPs per port.
     */
    @Test
    void shouldSayWhyACeMarkedPacketGotNoCnp() throws Exception {
        Object[] j = journey(new ScenarioReader().readExample("lossy-incast"), 7);
        @SuppressWarnings("unchecked")
        List<JourneyEvent> events = (List<JourneyEvent>) j[1];
        FlowRecord f = (FlowRecord) j[2];
        JourneyEvent withheld = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.CNP_WITHHELD).findFirst()
                .orElseThrow();
        assertThat(withheld.psn()).isEqualTo(45);
        assertThat(withheld.flag()).as("per port").isTrue();
        assertThat(withheld.timePs() - withheld.value()).isPositive().isLessThan(Long.parseLong(withheld.detail()));
        // The mark it answers for came first, and no CNP of this QP went out for that PSN.
        assertThat(events).anyMatch(e -> e.kind() == JourneyEvent.Kind.MARK && e.psn() == 45
                && e.timePs() < withheld.timePs());
        assertThat(events).noneMatch(e -> e.kind() == JourneyEvent.Kind.CNP_SENT && e.psn() == 45);
        String text = new JourneyText(((Simulation) j[0]).network()).render(f, events, -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("h0 sends no CNP for PSN 45, CE-marked: its port (for this QP or another) generated one"
                + " 3.677 us before (at 109.968 us), within its 4.000 us interval per port");
    }
}
