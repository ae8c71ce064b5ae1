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
import rocelab.observe.victim.FlowWaits;

/**
 * A link event moves a flow onto the congested port a pause was rooted at: its waits behind that root are a
 * victim's before the move and its own after. An audit's run (4:1 incast into h4 from leaf0, and h1 -> h5 on
 * spine0 until leaf0 - spine0 went down at 100 us) called all 529.8 us of h1 -> h5's waits a victim's, 423.5 us of them
 * behind leaf0 port 5 "NOT on its way", though from 108 us on its packets left leaf0 by that port (the place of a root
 * was decided by the flow's first wait behind it and kept); and its journey said "on this flow's own way" of the waits
 * behind that root before the move (asked along the routes the run ended with).
 */
class RerouteVictimTest {
    private static final String SCENARIO = """
            name: reroute-victim
            seed: 1
            fabric: {mode: roce-lossless, mtu: 4096, vlan: false}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 2MB}
            nic: {cc: none, timeout: 10, retry-count: 7}
            traffic:
              - {kind: incast, senders: 0-3, receiver: 4, size: 2MB}
              - {kind: flow, src: 1, dst: 5, size: 2MB, start: 5us}
            events:
              - {kind: link-down, a: leaf0, b: spine0, at: 100us}
            """;
    private static final int VICTIM = 4;
    private static final long LINK_DOWN_PS = 100_000_000L;

    @Test
    void shouldTellAWaitBehindARootAsItsOwnOnlyOnceALinkEventHasMovedTheFlowThere() {
        Simulation sim = Simulation.assemble(Scenarios.parse(SCENARIO));
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(VICTIM).id(), sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(VICTIM);
        rec.completed(f.finishPs(), f.src());
        int leaf0 = sim.network().topology().hostCount();
        List<FlowWaits.Root> roots = r.pfcLog().roots(VICTIM);
        // leaf0 port 5 (towards spine1): off its way while the flow crossed spine0, on it after the reroute.
        assertThat(roots).anyMatch(x -> x.node() == leaf0 && x.port() == 5 && x.way() == FlowWaits.Way.OFF
                && x.waitPs() < 50_000_000L);
        assertThat(roots).anyMatch(x -> x.node() == leaf0 && x.port() == 5 && x.way() == FlowWaits.Way.ON
                && x.waitPs() > 300_000_000L);
        assertThat(r.pfcLog().offPathWaitPs(VICTIM)).as("not its waits behind its own way after the move")
                .isLessThan(r.pfcLog().pausedWaitPs(VICTIM) / 2);
        // Its journey: a wait behind leaf0 port 5 is its own way's only after the link went down.
        String text = new JourneyText(sim.network(), r.pfcLog()).render(f, rec.events(), -1, 0, Long.MAX_VALUE,
                100_000);
        List<JourneyEvent> waits = rec.events().stream().filter(e -> e.kind() == JourneyEvent.Kind.WAITED).toList();
        assertThat(waits).anyMatch(e -> e.timePs() < LINK_DOWN_PS).anyMatch(e -> e.timePs() > LINK_DOWN_PS);
        for (String line : text.split("\n")) {
            if (!line.contains("rooted at leaf0 port 5 (towards spine1)") || !line.contains("behind a pause")) {
                continue;
            }
            double at = Double.parseDouble(line.trim().split(" ")[0]);
            if (at < 100) {
                assertThat(line).as("before the reroute").doesNotContain("own way");
            } else {
                assertThat(line).as("after the reroute").contains("on this flow's own way");
            }
        }
        assertThat(text).contains("36.785 us  h1's RNIC held its data 8.693 us behind a pause (paused by leaf0's XOFF of"
                + " 25.068 us, rooted at leaf0 port 5 (towards spine1))");
    }
}
