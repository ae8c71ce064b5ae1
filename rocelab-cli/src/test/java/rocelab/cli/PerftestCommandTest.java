package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab perftest}: perftest's header and table on a simulated fabric, and clear errors for bad flags. */
class PerftestCommandTest {
    @TempDir
    Path dir;

    /** Four hosts on one switch, 100 Gb/s, MTU 4096 B, no VLAN tag. */
    private Path fabric() throws IOException {
        return Files.writeString(dir.resolve("f.yaml"), """
                name: four
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 500ns}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 1MB}
                """);
    }

    /** The data lines of the table (perftest's: they start with a space and a number), split into columns. */
    private static List<String[]> rows(String out) {
        return out.lines().filter(l -> l.matches(" \\d.*")).map(l -> l.strip().split("\\s+")).toList();
    }

    @Test
    void shouldPrintPerftestsBandwidthTableInGbits() throws IOException {
        CliRun run = CliRun.of("perftest", "ib_write_bw", "--scenario", fabric().toString(), "--client", "h3",
                "--server", "2", "-n", "1000", "-q", "2", "--report_gbits", "-d", "mlx5_1", "-x", "3", "-F");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("                    RDMA_Write BW Test")
                .contains(" Number of qps   : 2\t\tTransport type : IB")
                .contains("Device         : mlx5_1")
                .contains(" TX depth        : 128").contains(" CQ Moderation   : 100").contains(" Mtu             : 4096[B]")
                .contains(" Link type       : Ethernet")
                .contains(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]")
                .contains("h3 writes to h2");
        List<String[]> rows = rows(run.out());
        assertThat(rows).hasSize(1);
        String[] r = rows.get(0);
        assertThat(r[0]).isEqualTo("65536");
        assertThat(r[1]).isEqualTo("2000");
        // 16 packets of 4096 B, each with 82 B of headers, preamble and gap, the first with a 16 B RETH.
        double payloadGbps = 100.0 * 65536 / (65536 + 16 * 82 + 16);
        assertThat(Double.parseDouble(r[3])).isCloseTo(payloadGbps, within(0.05));
        assertThat(Double.parseDouble(r[2])).isGreaterThanOrEqualTo(Double.parseDouble(r[3]));
        assertThat(Double.parseDouble(r[4])).isCloseTo(Double.parseDouble(r[3]) * 1e9 / 8 / 65536 / 1e6,
                within(0.0001));
    }

    @Test
    void shouldPrintOneLatencyLinePerSizeWithAll() throws IOException {
        CliRun run = CliRun.of("perftest", "ib_write_lat", "--scenario", fabric().toString(), "-a", "-n", "20",
                "--quiet");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("RDMA_Write Latency Test").contains(" TX depth        : 1")
                .contains("t_typical[usec]");
        List<String[]> rows = rows(run.out());
        assertThat(rows).extracting(x -> x[0]).hasSize(23).startsWith("2", "4").endsWith("8388608");
        // Two links of 500 ns: a 2-byte WRITE's one way is 1 us and 16 ns of serialisation.
        assertThat(Double.parseDouble(rows.get(0)[4])).isCloseTo(1.016, within(0.01));
        // 8 MiB: 2048 packets after the first hop's store and forward, at the link's payload rate.
        double bigUs = 8388608 * 8 / (100e3 * 4096 / (4096 + 82.0)) + 1.0;
        assertThat(Double.parseDouble(rows.get(22)[4])).isCloseTo(bigUs, within(bigUs * 0.002));
    }

    @Test
    void shouldRefuseWhatItCannotSimulateWithTheReason() throws IOException {
        String f = fabric().toString();
        assertThat(CliRun.of("perftest", "ib_read_bw", "--scenario", f)).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("RDMA WRITEs only");
        });
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-m", "1024").err())
                .contains("-m 1024 is not the fabric's MTU (4096 B");
        assertThat(CliRun.of("perftest", "ib_write_lat", "--scenario", f, "-b").err()).contains("a ping-pong, both ways");
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "--client", "h9").err())
                .contains("--client h9 is not a host of the fabric; expected 0..3");
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-s", "16M").err())
                .contains("-s 16M is out of range; expected 1..8388608");
        assertThat(CliRun.of("perftest", "ib_write_lat", "--scenario", f, "-q", "2").err())
                .contains("ib_write_lat runs on one QP");
        CliRun few = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "3");
        assertThat(few.exitCode()).isEqualTo(2);
        assertThat(few.err()).contains("-n 3 is too few; expected at least 5").doesNotContain("Exception");
        assertThat(few.out()).isEmpty();
    }

    @Test
    void shouldSumBothDirectionsWithB() throws IOException {
        String f = fabric().toString();
        CliRun one = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "300", "--report_gbits", "--quiet");
        CliRun both = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "300", "--report_gbits", "-b",
                "--quiet");
        assertThat(both.exitCode()).as(both.err()).isZero();
        assertThat(both.out()).contains("RDMA_Write Bidirectional BW Test");
        double single = Double.parseDouble(rows(one.out()).get(0)[3]);
        double duplex = Double.parseDouble(rows(both.out()).get(0)[3]);
        // Both directions of the link are busy, each also carrying the other side's ACKs.
        assertThat(duplex).isBetween(1.9 * single, 2 * single);
        assertThat(rows(both.out()).get(0)[1]).isEqualTo("300");
    }

    @Test
    void shouldTakeATypeOfServiceOfOneByte() throws IOException {
        String f = fabric().toString();
        CliRun tos = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "200", "-T", "106", "--quiet");
        assertThat(tos.exitCode()).as(tos.err()).isZero();
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-T", "300").err())
                .contains("-T 300 is out of range");
        Path ib = Files.writeString(dir.resolve("ib.yaml"), """
                name: ib
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 500ns}}
                traffic: []
                """);
        CliRun onIb = CliRun.of("perftest", "ib_write_lat", "--scenario", ib.toString(), "-T", "106");
        assertThat(onIb.exitCode()).isEqualTo(2);
        assertThat(onIb.err()).contains("which an InfiniBand fabric's packets do not carry");
        CliRun ibLat = CliRun.of("perftest", "ib_write_lat", "--scenario", ib.toString(), "-n", "10", "--quiet");
        assertThat(ibLat.exitCode()).as(ibLat.err()).isZero();
        assertThat(ibLat.out()).contains(" Link type       : IB").doesNotContain("GID index");
    }
}
