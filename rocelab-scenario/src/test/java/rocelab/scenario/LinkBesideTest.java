package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.SummaryText;

/**
 * A collective slowed by other traffic on a link inside the fabric (an audit's case: a two-rank AllReduce beside two
 * 32 MB writes through one 4:1 uplink took 3.3x its ideal, and its line named nothing). The call now names the other
 * items whose data crossed a link between switches while its own did, and for how long: counted here again from
 * flows.csv's records (post to delivery) and the fabric's shape (one spine: two flows across the leaves share an
 * uplink when they leave the same leaf, a downlink when they reach the same one). Traffic that stays in its leaf, or
 * crosses the uplink after the call, is not named; nor is a host's own link, which the RNIC view covers, nor a link
 * beyond a switch that sprays packets (which of its ports they took is not kept), nor anything in a run with link
 * events (whose routes changed during the run).
 */
class LinkBesideTest {
    private static final String BASE = """
            name: link-beside
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: allreduce, ranks: [0, 4], size: 16MB}
            """;

    private static RunResult run(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
    }

    @Test
    void shouldNameTheItemsThatSharedAnUplinkWithTheCallAndForHowLong() {
        RunResult alone = run(BASE);
        assertThat(alone.collectives().get(0).onLinks()).isEqualTo(CollectiveRecord.OnLinks.NONE);
        int callFlows = alone.flows().size();

        RunResult r = run(BASE + "  - {kind: flow, src: 1, dst: 5, size: 32MB}\n"
                + "  - {kind: flow, src: 2, dst: 6, size: 16MB, start: 200us}\n");
        CollectiveRecord call = r.collectives().get(0);
        // h1 and h2 are not the call's hosts: nothing of theirs is on its RNICs.
        assertThat(call.beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        List<FlowRecord> own = r.flows().subList(0, callFlows);
        long item2 = shared(own, List.of(r.flows().get(callFlows)), call);
        long item3 = shared(own, List.of(r.flows().get(callFlows + 1)), call);
        assertThat(item2).isPositive();
        assertThat(item3).isPositive().isLessThan(item2);
        assertThat(call.onLinks().items()).isEqualTo(2);
        assertThat(call.onLinks().longest()).isEqualTo("traffic item 2");
        assertThat(call.onLinks().overlapPs()).isEqualTo(item2);
        // Both of its flows' ports (leaf0's uplink, the spine's port to leaf1) are shared for as long: the first.
        assertThat(call.onLinks().at()).isEqualTo("leaf0 port 4 (towards spine0)");
        assertThat(SummaryText.render(r, null)).contains("; the ideal is the call alone, and 2 other items of the"
                + " workload sent data through links between switches that its flows' data crossed, at the same time"
                + " (traffic item 2 for ");
    }

    @Test
    void shouldNameNothingThatStayedInItsLeafOrCrossedAfterTheCall() {
        RunResult inLeaf = run(BASE + "  - {kind: flow, src: 1, dst: 2, size: 32MB}\n"
                + "  - {kind: flow, src: 5, dst: 6, size: 32MB}\n");
        assertThat(inLeaf.collectives().get(0).onLinks()).isEqualTo(CollectiveRecord.OnLinks.NONE);
        assertThat(SummaryText.render(inLeaf, null)).doesNotContain("links between switches");

        // Into one of the call's hosts from its own leaf: the RNIC view names it; the host's link is not inside the
        // fabric, so the links' view does not name it again.
        RunResult intoHost = run(BASE + "  - {kind: flow, src: 5, dst: 4, size: 32MB}\n");
        assertThat(intoHost.collectives().get(0).beside().items()).isEqualTo(1);
        assertThat(intoHost.collectives().get(0).onLinks()).isEqualTo(CollectiveRecord.OnLinks.NONE);

        // A leaf that sprays packets over its uplinks: which of them the call's packets took is not kept, so no link
        // from there on is claimed (the same writes share its uplinks as above).
        RunResult sprayed = run(BASE.replace("spines: 1", "spines: 2") + "  - {kind: flow, src: 1, dst: 5, size: 32MB}\n"
                + "switch: {ecmp: {mode: spray}}\n");
        assertThat(sprayed.collectives().get(0).onLinks()).isEqualTo(CollectiveRecord.OnLinks.NONE);

        // A run with link events: the routes at its end are not the ones its flows had, so no link is claimed (here an
        // event on a link nobody uses, after the call).
        RunResult withEvents = run(BASE + "  - {kind: flow, src: 1, dst: 5, size: 32MB}\n"
                + "events:\n  - {kind: link-down, a: h7, b: leaf1, at: 9ms}\n");
        assertThat(withEvents.collectives().get(0).beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        assertThat(withEvents.collectives().get(0).onLinks()).isEqualTo(CollectiveRecord.OnLinks.NONE);

        RunResult later = run(BASE + "  - {kind: flow, src: 1, dst: 5, size: 1MB, start: 5ms}\n");
        CollectiveRecord call = later.collectives().get(0);
        assertThat(call.endPs()).isLessThan(5_000_000_000L);
        assertThat(call.onLinks()).isEqualTo(CollectiveRecord.OnLinks.NONE);
    }

    @Test
    void shouldNameTheTrafficThatSharedAJobsCallsLinks() {
        RunResult r = run("""
                name: job-link-beside
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                jobs:
                  - name: j
                    hosts: [0, 4]
                    parallelism: {dp: 2}
                    program:
                      - {id: grads, op: allreduce, group: dp, size-total: 16MB}
                traffic:
                  - {kind: flow, src: 1, dst: 5, size: 32MB}
                """);
        CollectiveRecord call = r.collectives().stream().filter(c -> c.job().equals("j")).findFirst().orElseThrow();
        List<FlowRecord> own = r.flows().stream().filter(f -> f.src() % 4 == 0 && f.dst() % 4 == 0).toList();
        List<FlowRecord> other = r.flows().stream().filter(f -> f.src() == 1).toList();
        assertThat(own).isNotEmpty();
        assertThat(other).hasSize(1);
        assertThat(call.onLinks().items()).isEqualTo(1);
        assertThat(call.onLinks().longest()).isEqualTo("traffic item 1");
        assertThat(call.onLinks().overlapPs()).isEqualTo(shared(own, other, call)).isPositive();
        assertThat(call.onLinks().at()).isEqualTo("leaf0 port 4 (towards spine0)");
    }

    /**
     * How long, within the call, one of {@code others} and one of the call's flows were on one link between the
     * switches together: the union of the pairwise intersections of their spans, for the pairs that share a link
     * (both cross the leaves, from the same leaf or to the same leaf; four hosts per leaf).
     */
    private static long shared(List<FlowRecord> own, List<FlowRecord> others, CollectiveRecord call) {
        List<long[]> spans = new ArrayList<>();
        for (FlowRecord c : own) {
            for (FlowRecord o : others) {
                boolean cross = c.src() / 4 != c.dst() / 4 && o.src() / 4 != o.dst() / 4;
                if (!cross || c.src() / 4 != o.src() / 4 && c.dst() / 4 != o.dst() / 4) {
                    continue;
                }
                long a = Math.max(Math.max(c.startPs(), o.startPs()), call.startPs());
                long b = Math.min(Math.min(c.deliveredPs(), o.deliveredPs()), call.endPs());
                if (a < b) {
                    spans.add(new long[] {a, b});
                }
            }
        }
        spans.sort((x, y) -> Long.compare(x[0], y[0]));
        long union = 0;
        long from = 0;
        long to = 0;
        for (long[] s : spans) {
            if (s[0] > to) {
                union += to - from;
                from = s[0];
                to = s[1];
            } else {
                to = Math.max(to, s[1]);
            }
        }
        return union + to - from;
    }
}
