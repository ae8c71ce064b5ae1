package rocelab.observe.pfc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * {@link PfcLog} keeps every frame in the order sent, XONs with only what an XON has and XOFFs with their causes
 * (rows of their own): frames interleaved XOFF, XON, XOFF, XON read back in that order by index, field and reason,
 * and pfc.csv lists them so, the XON rows without an XOFF's columns; an XOFF still finds the XOFF that paused its
 * group's egress by identity, however many XONs came between.
 */
class PfcLogFramesTest {
    private static Network network() {
        try {
            return Simulation.assemble(new ScenarioReader().read("""
                    name: frames
                    fabric: {mode: roce-lossless, mtu: 1000}
                    topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                    nic: {cc: none}
                    traffic:
                      - {kind: all-to-all, size: 4KB}
                    """, "frames.yaml", null)).network();
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldReadFramesBackInTheOrderSentWithXonsKeptApartFromXoffs() throws Exception {
        Network network = network();
        Topology topo = network.topology();
        int leaf = topo.hostCount(); // leaf0: its port 0 faces host 0
        int spine = topo.hostCount() + 2;
        PfcLog log = new PfcLog(network);
        log.onPfcSent(1_000_000, leaf, 0, 3, 65535, 200_000, 150_000, PfcReason.THRESHOLD, 3_000_000, 8_000_000);
        log.onPfcSent(2_000_000, leaf, 0, 3, 0, 100_000, 150_000, PfcReason.THRESHOLD, 2_000_000, 8_000_000);
        log.onPfcSent(3_000_000, spine, 1, 3, 65535, 210_000, 160_000, PfcReason.REFRESH, 4_000_000, 8_000_000);
        log.onPfcSent(4_000_000, spine, 1, 3, 0, 90_000, 160_000, PfcReason.THRESHOLD, 1_000_000, 8_000_000);

        assertThat(log.frames()).isEqualTo(4);
        long[][] expected = {
            {1_000_000, leaf, 0, 3, 65535, 200_000, 150_000},
            {2_000_000, leaf, 0, 3, 0, 100_000, 150_000},
            {3_000_000, spine, 1, 3, 65535, 210_000, 160_000},
            {4_000_000, spine, 1, 3, 0, 90_000, 160_000}};
        for (int i = 0; i < 4; i++) {
            for (int f = 0; f <= 6; f++) {
                assertThat(log.field(i, f)).as("frame %d field %d", i, f).isEqualTo(expected[i][f]);
            }
        }
        assertThat(List.of(log.reason(0), log.reason(1), log.reason(2), log.reason(3)))
                .containsExactly(PfcReason.THRESHOLD, PfcReason.THRESHOLD, PfcReason.REFRESH, PfcReason.THRESHOLD);
        // The XOFFs are found by their own send times, the XONs are not XOFFs.
        assertThat(log.xoff(leaf, 0, 3, 1_000_000)).isNotNull();
        assertThat(log.xoff(spine, 1, 3, 3_000_000)).isNotNull();
        assertThat(log.xoff(leaf, 0, 3, 2_000_000)).isNull();

        String[] lines = log.csv().split("\n");
        assertThat(lines).hasSize(5);
        assertThat(lines[1]).contains(",XOFF,65535,").contains(",threshold,");
        assertThat(lines[2]).startsWith("2,leaf0,0,").contains(",XON,0,0,100000,150000,,,,,threshold,");
        assertThat(lines[3]).startsWith("3,spine0,1,").contains(",XOFF,65535,").contains(",refresh,");
        assertThat(lines[4]).startsWith("4,spine0,1,").contains(",XON,0,");
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        log.writeCsv(streamed);
        assertThat(streamed.toString(StandardCharsets.UTF_8)).isEqualTo(log.csv());
    }
}
