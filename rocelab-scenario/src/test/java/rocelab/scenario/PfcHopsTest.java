package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.victim.FlowWaits;

/**
 * A flow's waits behind pauses, hop by hop, on a fat tree (a flow between pods crosses its RNIC and five switch
 * egress ports), so that flows use the second chunk of their hop slots: each flow's hops are distinct, and what it
 * waited at its hops is what it waited behind its roots (every wait goes to one hop and one root), which fails
 * if two flows' slots overlap.
 */
class PfcHopsTest {
    @Test
    void shouldAddEachFlowsWaitsToItsOwnHopsAndRoots() {
        RunResult r = Scenarios.assemble("""
                name: pfc-hops
                seed: 3
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: fat-tree, k: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 1MB, pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}}
                nic: {cc: none}
                traffic:
                  - {kind: all-to-all, size: 200KB}
                  - {kind: incast, senders: 4-15, receiver: 0, size: 400KB}
                """).run(ProgressListener.NONE);
        PfcLog log = r.pfcLog();
        assertThat(log.frames()).as("PFC frames").isPositive();
        int beyondFirstChunk = 0;
        for (FlowRecord f : r.flows()) {
            List<FlowWaits.Hop> hops = log.waits(f.id());
            Set<Long> seen = new HashSet<>();
            for (FlowWaits.Hop h : hops) {
                assertThat(seen.add((long) h.node() << 32 | h.port() & 0xFFFFFFFFL)).as("flow %d hop", f.id()).isTrue();
            }
            long atRoots = log.roots(f.id()).stream().mapToLong(FlowWaits.Root::waitPs).sum();
            assertThat(atRoots).as("flow %d: waits at its roots and at its hops", f.id())
                    .isEqualTo(log.pausedWaitPs(f.id()));
            beyondFirstChunk += hops.size() > 4 ? 1 : 0;
        }
        assertThat(beyondFirstChunk).as("flows that waited at more than four hops").isPositive();
    }
}
