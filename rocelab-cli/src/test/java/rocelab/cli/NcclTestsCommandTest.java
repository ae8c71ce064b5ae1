package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab nccl-tests}: the nccl-tests table on a simulated fabric, and clear errors for bad flags. */
class NcclTestsCommandTest {
    @TempDir
    Path dir;

    private Path fabric() throws IOException {
        return Files.writeString(dir.resolve("f.yaml"), """
                name: eight
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 1MB}
                """);
    }

    /** The data lines of the table, split into columns. */
    private static List<String[]> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#")).map(l -> l.strip().split("\\s+")).toList();
    }

    @Test
    void shouldPrintOneLinePerSizeWithTheNcclTestsColumns() throws IOException {
        CliRun run = CliRun.of("nccl-tests", "all_reduce", "--scenario", fabric().toString(), "-b", "1K", "-e", "4M",
                "-f", "4", "-n", "2", "-w", "1");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String[]> rows = rows(run.out());
        assertThat(rows).extracting(r -> r[0]).containsExactly("1024", "4096", "16384", "65536", "262144",
                "1048576", "4194304");
        for (String[] r : rows) {
            assertThat(r).hasSize(13);
            assertThat(Long.parseLong(r[1])).isEqualTo(Long.parseLong(r[0]) / 4);
            assertThat(Arrays.asList(r[2], r[3], r[4])).containsExactly("float", "sum", "-1");
            double time = Double.parseDouble(r[5]);
            double algbw = Double.parseDouble(r[6]);
            double busbw = Double.parseDouble(r[7]);
            assertThat(algbw).isCloseTo(Long.parseLong(r[0]) / time / 1e3, org.assertj.core.data.Offset.offset(0.01));
            assertThat(busbw).isCloseTo(algbw * 14 / 8, org.assertj.core.data.Offset.offset(0.01));
        }
        // Bus bandwidth grows with size towards the link's payload rate (12.25 GB/s at 100G, MTU 4096).
        double last = Double.parseDouble(rows.get(rows.size() - 1)[7]);
        assertThat(last).isBetween(11.0, 12.25);
        assertThat(run.out()).contains("# Avg bus bandwidth    : ");
    }

    @Test
    void shouldRejectUnknownOpAndBadSizesWithExitCodeTwo() throws IOException {
        String f = fabric().toString();
        CliRun op = CliRun.of("nccl-tests", "alltoall_v", "--scenario", f);
        assertThat(op.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(op.err()).startsWith("error: OP 'alltoall_v' is not supported; expected one of: all_reduce");
        CliRun size = CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-b", "lots");
        assertThat(size.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(size.err()).startsWith("error: -b 'lots' is not a size");
        CliRun order = CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-b", "1M", "-e", "1K");
        assertThat(order.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(order.err()).doesNotContain("Exception");
    }
}
