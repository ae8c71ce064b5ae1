package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;

/**
 * A degraded NIC cable is in the ideal network (an idle fabric of this fabric's links), so the GPUs' wait leaves out
 * what it costs: an audit's 8-rank ring with one cable at 25 Gb/s among 100 Gb/s ones had an ideal 3.4x the healthy
 * fabric's, a GPU wait of 1 ms per iteration, and no output named the cable, while the ideal model's note said
 * oversubscription cost nothing. The run now names it on its {@code ideal} line, in summary.json and the report.
 */
class IdealSlowLinksOutputTest {
    private static final String JOB = """
            name: slownic
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {watchdog: {}}}
            nic: {cc: dcqcn}
            jobs:
              - name: dp
                hosts: 0-3
                parallelism: {dp: 4}
                iterations: 2
                warmup: 1
                program:
                  - {id: fwd, op: compute, duration: 50us}
                  - {id: grads, op: allreduce, group: dp, size-total: 1MiB}
            """;
    private static final String SLOW = JOB + "links:\n  - {a: h2, b: leaf1, rate: 25Gbps}\n";

    @TempDir
    Path tmp;

    @Test
    void shouldNameTheSlowCableTheIdealHasAndShowItsIdealHeldToItsRate() throws Exception {
        RunResult healthy = Simulation.assemble(Scenarios.parse(JOB), Simulation.Model.FLOW).run(ProgressListener.NONE);
        RunResult slow = Simulation.assemble(Scenarios.parse(SLOW), Simulation.Model.FLOW).run(ProgressListener.NONE);
        String text = SummaryText.render(slow, null);
        assertThat(SummaryText.render(healthy, null)).doesNotContain("\nideal ");
        assertThat(text).contains("\nideal       the ideal network these figures compare against is an idle fabric of"
                + " this fabric's links, these slow ones too: h2-leaf1 at 25 Gb/s (the other 3 host links: 100 Gb/s);"
                + " a message over them is held to their rate (and delay) there as in the run, so the network penalty,"
                + " GPU wait and every ideal figure leave their rate out and count only what the run lost beyond it"
                + " (sharing them, or a queue a faster sender builds in front of them and its congestion control's"
                + " answer)\n");
        // What the line says, shown by the run's own ideal: each of the ring's 2(n-1) steps carries S/n into and out
        // of h2 at no more than 25 Gb/s, so the call's ideal is at least 2(n-1)/n x S at 25 Gb/s (payload alone).
        double bytes = 2.0 * 3 / 4 * (1 << 20);
        CollectiveRecord call = slow.collectives().get(0);
        assertThat(call.idealTimePs() / 1e12).isGreaterThan(bytes * 8 / 25e9);
        // On the healthy fabric the same call's ideal is under half that: the cable, not the call, sets it.
        assertThat(healthy.collectives().get(0).idealTimePs() / 1e12).isLessThan(bytes * 8 / 25e9 / 2);

        Map<String, Object> json = Summary.of(slow);
        assertThat(json).containsKey("ideal_slow_links");
        assertThat(Summary.of(healthy)).doesNotContainKey("ideal_slow_links");
        @SuppressWarnings("unchecked")
        Map<String, Object> links = (Map<String, Object>) json.get("ideal_slow_links");
        assertThat((List<?>) links.get("links")).singleElement().satisfies(o -> {
            Map<?, ?> l = (Map<?, ?>) o;
            assertThat(l.get("link")).isEqualTo("h2-leaf1");
            assertThat(l.get("role")).isEqualTo("host links");
            assertThat(l.get("others")).isEqualTo(3);
            assertThat(((Number) l.get("rate_gbps")).doubleValue()).isEqualTo(25);
            assertThat(((Number) l.get("role_rate_gbps")).doubleValue()).isEqualTo(100);
        });

        Path dir = tmp.resolve("slow");
        ReportWriter.writeRun(dir, slow, Map.of());
        assertThat(Files.readString(dir.resolve("report.html")).replace("&#39;", "'"))
                .contains("<b>Slow links in the ideal network</b>: the ideal network these figures compare against")
                .contains("h2-leaf1 at 25 Gb/s");
    }

    @Test
    void shouldNotSayTheIdealModelsSlowTierCostsNothing() {
        String slowUplinks = JOB.replace("link: {rate: 100Gbps, delay: 1us}}",
                "link: {rate: 100Gbps, delay: 1us}, uplink: {rate: 25Gbps}}");
        RunResult r = Simulation.assemble(Scenarios.parse(slowUplinks), Simulation.Model.IDEAL).run(ProgressListener.NONE);
        assertThat(r.notModelled()).doesNotContain("neither oversubscription nor ECMP collisions cost anything")
                .contains("sharing a link costs nothing here, neither an ECMP collision's nor an oversubscribed"
                        + " tier's, but every link's own rate and delay are the fabric's")
                .contains("this fabric's slow links, in the ideal as in the run: the 4 links between switches 1 and"
                        + " 2 hops from the hosts (as leaf0-spine0) at 25 Gb/s, under the host links' 100 Gb/s");
    }

    /**
     * Audit: one 2 MiB send from a 100 Gb/s host into one behind a 25 Gb/s cable, alone on the fabric. The GPU waited
     * on the network (DCQCN cut the sender's rate at the queue it built in front of the cable) though nothing shared
     * the cable, and the ideal line said the wait was "only what sharing them costs".
     */
    @Test
    void shouldNotSayTheWaitIsOnlySharingWhenALoneFlowLosesTimeAtTheSlowCable() {
        String yaml = """
                name: lone-step
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                links:
                  - {a: h3, b: leaf1, rate: 25Gbps}
                switch: {pfc: {watchdog: {}}}
                nic: {cc: dcqcn}
                jobs:
                  - name: pair
                    hosts: [0, 3]
                    parallelism: {dp: 2}
                    program:
                      - {id: s, op: send, peer: dp+1, size: 2MiB, when: "dp == 0"}
                      - {id: r, op: recv, peer: dp-1, when: "dp == 1"}
                """;
        RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(r.flows()).hasSize(1);
        assertThat(r.jobs().get(0).networkWaitUs()).as("the lone flow's loss, no sharing").isGreaterThan(10);
        String text = SummaryText.render(r, null);
        assertThat(text).contains("\nideal ").doesNotContain("only what sharing them costs")
                .contains("a queue a faster sender builds in front of them");
    }
}
