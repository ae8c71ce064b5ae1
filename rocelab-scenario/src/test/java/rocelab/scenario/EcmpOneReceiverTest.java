package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * The ECMP collision lines point at spraying and adaptive routing; in an incast every colliding flow goes to one
 * receiver, whose port stays their bottleneck, and spreading them only moves the queue there (an audit re-ran
 * lint-l9 adaptive: no faster, the peak queue moved to leaf0's port towards h0). The summary, summary.json and the
 * report say so when every collision port's packets went to one receiver, and not otherwise.
 */
class EcmpOneReceiverTest {
    @Test
    void shouldSayThatSpreadingMovesTheQueueWhenEveryCollidingPacketGoesToOneReceiver(@TempDir Path tmp)
            throws Exception {
        RunResult incast = Simulation.assemble(new ScenarioReader().readExample("lint-l9-np-off"))
                .run(ProgressListener.NONE);
        var found = incast.ecmpLog().collisions(incast.flows());
        assertThat(found).isNotEmpty().allSatisfy(c -> {
            assertThat(c.flows()).allSatisfy(f -> assertThat(f.flow().dst()).isZero());
            assertThat(EcmpLog.bottleneckReceiver(c, incast.network().topology(), incast.series())).isZero();
        });
        String note = "went to one receiver (h0) whose port carried at least 90 % of its capacity while they were"
                + " sending (links.csv): its port stays their bottleneck, so spreading them over the idle ports would"
                + " move their queue there, not remove it";
        assertThat(SummaryText.render(incast, null)).contains(note);
        ReportWriter.writeRun(tmp, incast, Map.of());
        assertThat(Files.readString(tmp.resolve("summary.json"))).contains("\"receiver\": \"h0\"");
        assertThat(Files.readString(tmp.resolve("report.html"))).contains(note);

        // A permutation: each port's colliding flows go to different hosts, so nothing is said.
        RunResult permutation = Simulation.assemble(new ScenarioReader().read(Path.of("..", "scenarios", "bench",
                "bench-B.yaml"))).run(ProgressListener.NONE);
        assertThat(permutation.ecmpLog().collisions(permutation.flows()))
                .anyMatch(c -> EcmpLog.bottleneckReceiver(c, permutation.network().topology(), permutation.series()) < 0);
        assertThat(SummaryText.render(permutation, null)).contains("ECMP keeps every packet").doesNotContain(note);
    }

    /**
     * Audit a3 (one 200 us uplink under a ring AllReduce): last ACKs to h7 waited 0.3-4.4 us behind h3->h4 data at
     * leaf0's uplink; every packet there went to h7, but h7's port was not their bottleneck (an ACK's wait is removed,
     * not moved, by spreading it), and the run printed "its port stays their bottleneck". It is not said of ACKs.
     */
    @Test
    void shouldNotCallTheReceiversPortTheBottleneckOfLastAcks() {
        RunResult r = Simulation.assemble(Scenarios.parse("""
                name: long-uplink
                fabric: {mode: roce-lossless, mtu: 4096}
                topology:
                  kind: custom
                  hosts: 8
                  switches: [leaf0, leaf1, spine0, spine1]
                  link: {rate: 100Gbps, delay: 1us}
                  links:
                    - {a: h0, b: leaf0}
                    - {a: h1, b: leaf0}
                    - {a: h2, b: leaf0}
                    - {a: h3, b: leaf0}
                    - {a: h4, b: leaf1}
                    - {a: h5, b: leaf1}
                    - {a: h6, b: leaf1}
                    - {a: h7, b: leaf1}
                    - {a: leaf0, b: spine0}
                    - {a: leaf0, b: spine1}
                    - {a: leaf1, b: spine0, delay: 200us}
                    - {a: leaf1, b: spine1}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: allreduce, ranks: 0-7, size: 64MB}
                """)).run(ProgressListener.NONE);
        var found = r.ecmpLog().allCollisions(r.flows());
        assertThat(found).isNotEmpty().allSatisfy(c -> {
            assertThat(c.flows()).allMatch(EcmpLog.FlowAt::lastAckOnly)
                    .allSatisfy(f -> assertThat(r.network().topology().nodeName(f.flow().src())).isEqualTo("h7"));
            assertThat(EcmpLog.bottleneckReceiver(c, r.network().topology(), r.series())).isEqualTo(-1);
        });
        assertThat(SummaryText.render(r, null)).doesNotContain("stays their bottleneck");
    }
}
