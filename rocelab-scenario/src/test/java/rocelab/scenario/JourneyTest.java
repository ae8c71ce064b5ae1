package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.PfcProbe;
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
        assertThat(text).contains(String.format(java.util.Locale.ROOT, "out-of-order placement (nic.ooo): %,d packets"
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
}
