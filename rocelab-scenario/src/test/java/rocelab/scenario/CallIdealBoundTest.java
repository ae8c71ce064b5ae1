package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.SummaryText;

/**
 * A job's call is timed from its last member's entry, and its ideal time must be a bound of that. An outside audit's
 * MoE dispatch: rank 7 first receives 1 MB from rank 6 across an uplink that three background flows share, so it
 * enters the skewed AlltoAllv some 600 us after the others, which have sent most of the hot expert's bytes by then.
 * The call with every member entering at once (what the ideal time was) took 893.2 us on the ideal network, and the
 * run's call 735.2 us (packet level) and 652.4 us (flow level): a "network slowdown" below 1. The bound now copies the
 * call with each member entering when it did in the run.
 */
class CallIdealBoundTest {
    private static final String LATE_MEMBER = """
            name: late-member
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 10, link: {rate: 100Gbps, delay: 1us},
                       uplink: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            switch: {ecn: {marking: red, kmin: 100KB, kmax: 400KB, pmax: 0.2}}
            jobs:
              - name: moe
                hosts: [0, 1, 2, 3, 4, 5, 6, 10]
                parallelism: {ep: 8}
                iterations: 1
                program:
                  - {id: tx, op: send, peer: {ep: 7}, size: 1MB, when: "ep == 6"}
                  - {id: rx, op: recv, peer: {ep: 6}, when: "ep == 7"}
                  - {id: disp, op: alltoallv, group: ep, size-total: 4MB, skew: {zipf: 1.2, seed: 3}}
            traffic:
              - {kind: flow, src: 7, dst: 11, size: 10MB}
              - {kind: flow, src: 8, dst: 12, size: 10MB}
              - {kind: flow, src: 9, dst: 13, size: 10MB}
            """;

    @Test
    void shouldBoundACallFromItsLastMembersEntryWithItsMembersEnteringAsTheyDid() {
        for (Simulation.Model model : new Simulation.Model[] {Simulation.Model.PACKET, Simulation.Model.FLOW}) {
            RunResult r = Simulation.assemble(Scenarios.parse(LATE_MEMBER), model).run(ProgressListener.NONE);
            CollectiveRecord disp = r.collectives().stream().filter(c -> c.name().startsWith("moe/disp"))
                    .findFirst().orElseThrow();
            assertThat(disp.completed()).isTrue();
            assertThat(disp.idealTimePs()).as("%s", model).isPositive().isLessThanOrEqualTo(disp.timePs());
            assertThat(disp.networkSlowdown()).as("%s", model).isGreaterThanOrEqualTo(1.0);
            if (model == Simulation.Model.PACKET) {
                // The ranks' waits, each against its own ideal span, add up to more than the job lost (0.695 ms
                // against 0.465 at this writing): the summary says why, so the two do not read as a contradiction.
                var job = r.jobs().get(0);
                assertThat(job.networkWaitUs() * 1e6).isGreaterThan(job.networkPenaltyPs());
                assertThat(SummaryText.render(r, null))
                        .contains("; each rank against its own ideal, not one schedule, so more than the job's penalty of");
            }
        }
        // On the ideal network itself the call is its own bound.
        RunResult ideal = Simulation.assemble(Scenarios.parse(LATE_MEMBER), Simulation.Model.IDEAL)
                .run(ProgressListener.NONE);
        CollectiveRecord call = ideal.collectives().stream().filter(c -> c.name().startsWith("moe/disp"))
                .findFirst().orElseThrow();
        assertThat(call.idealTimePs()).isEqualTo(call.timePs());
    }
}
