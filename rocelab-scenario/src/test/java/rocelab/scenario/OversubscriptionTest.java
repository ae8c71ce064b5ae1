package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * The fabric line gives each oversubscribed tier's ratio (the closed form of scenario-format.md) and, at packet level,
 * the bound of its busiest switch's uplinks from the ports' own counters, beside the flows' time; a 1:1 fabric says
 * nothing of it.
 */
class OversubscriptionTest {
    private static RunResult run(String yaml) {
        try {
            return Simulation.assemble(new ScenarioReader().read(yaml, "over.yaml", null)).run(ProgressListener.NONE);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static String fabric(int leaves, int hostsPerLeaf, int spines, String size) {
        return """
                name: over
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: %d, spines: %d, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 8MB}
                nic: {cc: none}
                traffic:
                  - {kind: all-to-all, size: %s}
                """.formatted(leaves, spines, hostsPerLeaf, size);
    }

    @Test
    void shouldGiveTheRatioAndTheUplinksBoundFromTheirCountersOnATwoToOneAllToAll() {
        int leaves = 4;
        int hostsPerLeaf = 4;
        int spines = 2;
        RunResult r = run(fabric(leaves, hostsPerLeaf, spines, "512KB"));
        // scenario-format.md: hosts-per-leaf x link rate / (spines x parallel-uplinks x uplink rate).
        double ratio = hostsPerLeaf * 100.0 / (spines * 100.0);
        String text = SummaryText.render(r, "out");
        assertThat(text).contains("fabric   16 hosts, 6 switches; leaf uplinks " + (long) ratio + ":1 oversubscribed");
        Map<String, Object> s = Summary.of(r);
        @SuppressWarnings("unchecked")
        Map<String, Object> tier = (Map<String, Object>) ((List<Object>) s.get("oversubscription")).get(0);
        assertThat(new BigDecimal(String.valueOf(tier.get("ratio_max"))).doubleValue()).isEqualTo(ratio);
        // The bound: the busiest leaf and direction's uplink bytes (frames plus 20 B of preamble and gap each), from
        // the ports' counters, over the two uplinks' 200 Gb/s.
        var topo = r.network().topology();
        long most = 0;
        String where = null;
        for (int leaf = 0; leaf < leaves; leaf++) {
            int node = topo.hostCount() + leaf;
            long up = 0;
            long down = 0;
            for (int p = hostsPerLeaf; p < hostsPerLeaf + spines; p++) {
                var out = r.network().switchAt(leaf).port(p);
                up += out.counter(PortCounter.TX_BYTES) + 20 * out.counter(PortCounter.TX_PACKETS);
                var far = topo.peer(node, p);
                var in = r.network().switchAt(far.node() - topo.hostCount()).port(far.port());
                down += in.counter(PortCounter.TX_BYTES) + 20 * in.counter(PortCounter.TX_PACKETS);
            }
            if (Math.max(up, down) > most) {
                most = Math.max(up, down);
                where = topo.nodeName(node);
            }
        }
        assertThat(tier.get("bound_switch")).isEqualTo(where);
        assertThat(((Number) tier.get("bound_bytes")).longValue()).isEqualTo(most);
        // At least every cross-leaf data frame of one leaf: 4 x 12 flows of 512,000 B in frames of 4,096 B of payload
        // with 62 B of headers (the first one 16 more, its RETH) and 20 B of framing.
        long packets = (512_000 + 4095) / 4096;
        long dataWire = hostsPerLeaf * (leaves - 1) * hostsPerLeaf * (512_000 + packets * (62 + 20) + 16);
        assertThat(most).isGreaterThanOrEqualTo(dataWire);
        double boundUs = most * 8 / 200e9 * 1e6;
        assertThat(new BigDecimal(String.valueOf(tier.get("bound_us"))).doubleValue())
                .isCloseTo(boundUs, org.assertj.core.data.Offset.offset(1e-3));
        long first = r.flows().stream().mapToLong(FlowRecord::startPs).min().orElseThrow();
        long last = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        double flowsUs = (last - first) / 1e6;
        double hostUs = new BigDecimal(String.valueOf(tier.get("host_link_bound_us"))).doubleValue();
        boolean pace = boundUs > hostUs && boundUs >= 0.8 * flowsUs;
        assertThat(tier.get("set_the_pace")).isEqualTo(pace);
        // The 2:1 tier of an all-to-all: a host sends 15 x 512,000 B, its leaf's uplinks carry 48 flows' bytes over
        // twice a host link's rate: 8/5 of a host's time, and the run is held to it.
        assertThat(boundUs).isGreaterThan(hostUs);
        assertThat(pace).isTrue();
        assertThat(text).contains(": the leaf uplinks set the pace");
    }

    /**
     * An oversubscribed tier whose uplinks carried nothing (every flow stayed under one leaf) has no bound to tell: the
     * line says that no frame crossed them, from their counters, rather than a bound of 0 us.
     */
    @Test
    void shouldSayThatNoFrameCrossedTheUplinksWhenEveryFlowStayedUnderItsLeaf() {
        RunResult r = run(fabric(2, 4, 1, "64KB").replace("{kind: all-to-all, size: 64KB}",
                "{kind: flow, src: 0, dst: 1, size: 64KB}\n  - {kind: flow, src: 6, dst: 5, size: 64KB}"));
        String text = SummaryText.render(r, "out");
        assertThat(text).contains("fabric   8 hosts, 3 switches; leaf uplinks 4:1 oversubscribed\n"
                + "         no frame crossed the leaf uplinks in either direction (links.csv): no flow left its leaf, so"
                + " their oversubscription cost this run nothing\n").doesNotContain("uplinks carried");
        var topo = r.network().topology();
        for (int s = topo.hostCount(); s < topo.nodeCount(); s++) {
            for (int p = 0; p < topo.portCount(s); p++) {
                if (!topo.isHost(topo.peer(s, p).node())) {
                    assertThat(r.network().switchAt(s - topo.hostCount()).port(p).counter(PortCounter.TX_BYTES))
                            .as("switch %d port %d", s, p).isZero();
                }
            }
        }
        // With one flow across, the bound is told again.
        RunResult across = run(fabric(2, 4, 1, "64KB").replace("{kind: all-to-all, size: 64KB}",
                "{kind: flow, src: 0, dst: 5, size: 64KB}"));
        assertThat(SummaryText.render(across, "out")).contains("uplinks carried").doesNotContain("no frame crossed");
    }

    @Test
    void shouldSayNothingOfOversubscriptionOnANonBlockingFabric() {
        RunResult r = run(fabric(2, 2, 2, "64KB"));
        assertThat(Summary.of(r)).doesNotContainKey("oversubscription");
        assertThat(SummaryText.render(r, "out")).contains("fabric   4 hosts, 4 switches\n")
                .doesNotContain("oversubscribed");
    }
}
