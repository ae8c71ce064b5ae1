package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code --pcap-flow} and {@code --pcap-qp} let into a capture. A ring AllReduce of three ranks sends each
 * rank's four steps as four messages (flows) on one queue pair, so a flow is not its queue pair.
 */
class PcapSelectionTest {
    private static final String RING = """
            name: ring
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
            traffic:
              - {kind: allreduce, ranks: 0-2, size: 30KB}
            """;

    @TempDir
    Path dir;

    /** Each captured frame's BTH opcode and PSN (untagged frames: BTH at 42, PSN at 51..53); PFC frames left out. */
    private static List<int[]> roceFrames(Path pcap) throws Exception {
        byte[] bytes = Files.readAllBytes(pcap);
        List<int[]> frames = new ArrayList<>();
        for (int at = 24; at < bytes.length; ) {
            int len = (bytes[at + 8] & 0xff) | (bytes[at + 9] & 0xff) << 8 | (bytes[at + 10] & 0xff) << 16;
            int f = at + 16;
            boolean pfc = (bytes[f + 12] & 0xff) == 0x88 && (bytes[f + 13] & 0xff) == 0x08;
            if (!pfc) {
                int psn = (bytes[f + 51] & 0xff) << 16 | (bytes[f + 52] & 0xff) << 8 | (bytes[f + 53] & 0xff);
                frames.add(new int[] {bytes[f + 42] & 0xff, psn});
            }
            at = f + len;
        }
        return frames;
    }

    @Test
    void shouldCaptureOnlyTheFlowsOwnMessageWhenItsQueuePairCarriesOthers() throws Exception {
        Path scenario = dir.resolve("ring.yaml");
        Files.writeString(scenario, RING);
        Path pcap = dir.resolve("flow4.pcap");
        CliRun run = CliRun.of("run", scenario.toString(), "--out", dir.resolve("o").toString(), "--pcap",
                pcap.toString(), "--pcap-flow", "4", "-q");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> flows = Files.readAllLines(dir.resolve("o").resolve("flows.csv"));
        assertThat(flows.get(5)).as("flow 4 shares qp 1 with flows 1, 7 and 10").startsWith("4,1,2,10000,");
        // Flow 4 is the second message of its queue pair: PSNs 10..19, each data packet and each ACK (one per
        // packet) on two links (host to switch, switch to host). Its other messages' PSNs are 0..9 and 20..39.
        List<int[]> frames = roceFrames(pcap);
        assertThat(frames).hasSize(2 * 10 + 2 * 10);
        for (int[] f : frames) {
            assertThat(f[1]).as("PSN of a frame with opcode %d", f[0]).isBetween(10, 19);
        }
    }

    /** A --pcap naming a folder above the output folder was said to be the output folder itself. */
    @Test
    void shouldSayWhatTheFolderIsWhenThePcapNamesTheOutputFolderOrOneAboveIt() throws Exception {
        Path scenario = dir.resolve("ring.yaml");
        Files.writeString(scenario, RING);
        Path out = dir.resolve("runs").resolve("o");
        CliRun above = CliRun.of("run", scenario.toString(), "--out", out.toString(), "--pcap",
                dir.resolve("runs").toString(), "-q");
        assertThat(above.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(above.errorLines()).containsExactly("error: --pcap " + dir.resolve("runs")
                + ": is a folder that holds the run's output folder " + out + "; expected a file name (e.g. "
                + dir.resolve("runs").resolve("trace.pcap") + ")");
        CliRun same = CliRun.of("run", scenario.toString(), "--out", out.toString(), "--pcap", out.toString(), "-q");
        assertThat(same.errorLines()).containsExactly("error: --pcap " + out
                + ": is the run's output folder; expected a file name (e.g. trace.pcap)");
    }

    @Test
    void shouldRefuseAQueuePairTheRunDoesNotHave() throws Exception {
        Path scenario = dir.resolve("ring.yaml");
        Files.writeString(scenario, RING);
        CliRun run = CliRun.of("run", scenario.toString(), "--out", dir.resolve("o").toString(), "--pcap",
                dir.resolve("x.pcap").toString(), "--pcap-qp", "3", "-q");
        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).containsExactly("error: --pcap-qp 3 does not exist; expected 0..2 (qp in flows.csv)");
        assertThat(run.err()).doesNotContain("Exception");
        assertThat(dir.resolve("x.pcap")).doesNotExist();
    }
}
