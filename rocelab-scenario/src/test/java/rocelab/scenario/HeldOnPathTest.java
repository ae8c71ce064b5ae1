package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.HeldAlone;
import rocelab.observe.flow.HeldByRate;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;

/**
 * A flow behind a full uplink is held to that link's share by its congestion control, which is its job: it is not
 * told as held back by its rate while the link had room, however little the receiver's own link carried (audit b2:
 * one spine, four 100G hosts per leaf over one 100G uplink, printed "rate held" for every flow while the uplink was
 * 83 % busy).
 */
class HeldOnPathTest {
    private static final String ONE_SPINE = """
            name: one-spine
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {watchdog: {}}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: flow, src: 0, dst: 4, size: 16MB}
              - {kind: flow, src: 1, dst: 5, size: 16MB}
              - {kind: flow, src: 2, dst: 6, size: 16MB}
              - {kind: flow, src: 3, dst: 7, size: 16MB}
            """;

    @Test
    void shouldNotBlameCongestionControlWhenAnUplinkOnThePathIsFull() {
        RunResult r = Simulation.assemble(Scenarios.parse(ONE_SPINE)).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        // The flows' rates held them back most of their lives, and each receiver's own link had room...
        assertThat(r.flows()).allMatch(f -> f.rateHeldPs() > f.fctPs() / 2);
        // ...but leaf0's one uplink (towards spine0), which all four crossed, was busy: measured here from links.csv.
        Topology topo = r.network().topology();
        int uplink = -1;
        int leaf0 = topo.nodeByName("leaf0");
        for (int p = 0; p < topo.portCount(leaf0); p++) {
            if (topo.nodeName(topo.peer(leaf0, p).node()).equals("spine0")) {
                uplink = p;
            }
        }
        long first = r.flows().stream().mapToLong(FlowRecord::startPs).max().orElseThrow();
        long last = r.flows().stream().mapToLong(FlowRecord::deliveredPs).min().orElseThrow();
        long interval = r.series().intervalPs();
        long from = (first + interval - 1) / interval * interval;
        long to = last / interval * interval;
        long[] tx = r.series().txBytesAt(new int[] {leaf0 - topo.hostCount(), leaf0 - topo.hostCount()}, new int[] {uplink, uplink}, new long[] {from, to});
        assertThat((tx[1] - tx[0]) * 8.0 / (100e9 * ((to - from) / 1e12))).isGreaterThan(HeldByRate.MAX_UTILISATION);

        List<HeldByRate> held = HeldByRate.find(r.flows(), r.simulatedPs(), r.network(), r.series(), r.pfcLog());
        assertThat(held).isEmpty();
        assertThat(HeldAlone.find(r.flows(), r.simulatedPs(), r.network(), r.series(), held)).isEmpty();
        assertThat(SummaryText.render(r, null)).doesNotContain("rate held").doesNotContain("congestion control allowed");
        assertThat(Summary.of(r).get("held_alone")).isEqualTo(List.of());
    }
}
