package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.Summary;

/** Same scenario and seed: byte-identical outputs and event stream. Another seed: other ECMP choices. */
class DeterminismTest {
    private static final String PERMUTATION = """
            name: perm
            seed: 7
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 500KB}
            nic: {cc: none, timeout: 8}
            traffic:
              - {kind: permutation, size: 400KB}
              - {kind: incast, senders: 1-6, receiver: 0, size: 100KB, start: 5us}
            """;

    @TempDir
    Path tmp;

    private Path runInto(ScenarioConfig config, String dir, long[] fingerprint) throws IOException {
        Simulation sim = Simulation.assemble(config);
        sim.simulator().enableFingerprint();
        RunResult r = sim.run(ProgressListener.NONE);
        fingerprint[0] = sim.simulator().fingerprint();
        Path out = tmp.resolve(dir);
        new RunWriter().write(out, r, Map.of());
        return out;
    }

    @Test
    void shouldWriteIdenticalFilesWhenRunTwiceWithTheSameSeed() throws IOException {
        long[] f1 = new long[1];
        long[] f2 = new long[1];
        Path a = runInto(Scenarios.parse(PERMUTATION), "a", f1);
        Path b = runInto(Scenarios.parse(PERMUTATION), "b", f2);
        assertThat(f1[0]).isEqualTo(f2[0]);
        for (String file : new String[] {"flows.csv", "ports.csv", "nics.csv", "rates.csv", "queues.csv", "manifest.json"}) {
            assertThat(Files.readAllBytes(a.resolve(file))).as(file).isEqualTo(Files.readAllBytes(b.resolve(file)));
        }
        assertThat(withoutWallClock(a)).isEqualTo(withoutWallClock(b));
    }

    @Test
    void shouldWriteIdenticalFilesWhenAnInfinibandRunRunsTwice() throws IOException {
        String ib = PERMUTATION.replace("mode: roce-lossy, mtu: 1000", "mode: infiniband, mtu: 1000, infiniband: {fecn: {}}")
                .replace("switch: {buffer: 500KB}\n", "").replace("cc: none", "cc: ib-cc");
        long[] f1 = new long[1];
        long[] f2 = new long[1];
        Path a = runInto(Scenarios.parse(ib), "ib-a", f1);
        Path b = runInto(Scenarios.parse(ib), "ib-b", f2);
        assertThat(f1[0]).isEqualTo(f2[0]);
        for (String file : new String[] {"flows.csv", "ports.csv", "nics.csv", "vl.csv", "queues.csv"}) {
            assertThat(Files.readAllBytes(a.resolve(file))).as(file).isEqualTo(Files.readAllBytes(b.resolve(file)));
        }
        assertThat(withoutWallClock(a)).isEqualTo(withoutWallClock(b)).contains("\"infiniband\"");
    }

    @Test
    void shouldWriteIdenticalFilesWhenASprayedRunWithSelectiveRepeatRunsTwice() throws IOException {
        String ooo = PERMUTATION.replace("switch: {buffer: 500KB}", "switch: {buffer: 500KB, ecmp: {mode: spray}}")
                .replace("timeout: 8", "timeout: 8, ooo: true, ooo-reorder: 16");
        long[] f1 = new long[1];
        long[] f2 = new long[1];
        Path a = runInto(Scenarios.parse(ooo), "ooo-a", f1);
        Path b = runInto(Scenarios.parse(ooo), "ooo-b", f2);
        assertThat(f1[0]).isEqualTo(f2[0]);
        for (String file : new String[] {"flows.csv", "ports.csv", "nics.csv", "rates.csv", "queues.csv", "manifest.json"}) {
            assertThat(Files.readAllBytes(a.resolve(file))).as(file).isEqualTo(Files.readAllBytes(b.resolve(file)));
        }
        assertThat(withoutWallClock(a)).isEqualTo(withoutWallClock(b));
        JsonNode counters = new ObjectMapper().readTree(a.resolve(RunWriter.SUMMARY).toFile()).get("counters");
        assertThat(counters.get("selective_retransmitted_packets").asLong()).isPositive();
        assertThat(counters.get("out_of_sequence").asLong()).isPositive();
        runInto(Scenarios.parse(ooo).withSeed(8), "ooo-c", f2);
        assertThat(f1[0]).as("another seed, other spraying choices").isNotEqualTo(f2[0]);
    }

    @Test
    void shouldChangeEcmpChoicesWhenTheSeedChanges() throws IOException {
        long[] f1 = new long[1];
        long[] f2 = new long[1];
        ScenarioConfig base = Scenarios.parse(PERMUTATION);
        Path a = runInto(base, "s7", f1);
        Path b = runInto(base.withSeed(8), "s8", f2);
        assertThat(f1[0]).isNotEqualTo(f2[0]);
        assertThat(Files.readString(a.resolve("ports.csv"))).isNotEqualTo(Files.readString(b.resolve("ports.csv")));
        assertThat(Files.readString(a.resolve("manifest.json")))
                .isNotEqualTo(Files.readString(b.resolve("manifest.json")));
    }

    private static String withoutWallClock(Path dir) throws IOException {
        ObjectNode summary = (ObjectNode) new ObjectMapper().readTree(dir.resolve(RunWriter.SUMMARY).toFile());
        for (String key : Summary.WALL_CLOCK_KEYS) {
            assertThat(summary.has(key)).as(key).isTrue();
            summary.remove(key);
        }
        return summary.toString();
    }
}
