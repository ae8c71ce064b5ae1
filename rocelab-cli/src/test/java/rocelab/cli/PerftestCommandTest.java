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
                .contains(" TX depth        : 128").contains(" CQ Moderation   : 1\n").contains(" Mtu             : 4096[B]")
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
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-s", "2048M").err())
                .contains("-s 2048M is out of range; expected 1..2147483647");
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-Q", "1025").err())
                .contains("-Q 1025 is out of range; expected 1..1024");
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-x", "65").err())
                .contains("-x 65 is out of range");
        assertThat(CliRun.of("perftest", "ib_write_lat", "--scenario", f, "-N").err())
                .contains("expected no -N with ib_write_lat");
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

    /**
     * perftest's force_dependecies signals every WRITE of a message above 8 KiB unless -Q is given (or -a runs every
     * size): its default ib_write_bw, 64 KiB, runs with CQ Moderation 1. Where the depth limits the rate (a 400 us
     * one-way path, 152 WRITEs in flight to fill it), the moderation of 100 kept in its place left 100 WRITEs waiting
     * on each signalled completion: 43.7 Gb/s instead of 74.9 over 1000 iterations.
     */
    @Test
    void shouldSignalEveryWriteAbove8KiBByDefaultAsPerftest() throws IOException {
        Path far = Files.writeString(dir.resolve("far.yaml"), """
                name: far
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 200us}}
                traffic: []
                """);
        String f = far.toString();
        CliRun byDefault = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "300", "--quiet");
        CliRun one = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "300", "-Q", "1", "--quiet");
        CliRun hundred = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "300", "-Q", "100", "--quiet");
        assertThat(byDefault.exitCode()).as(byDefault.err()).isZero();
        assertThat(byDefault.out()).contains(" CQ Moderation   : 1\n").doesNotContain("Warning");
        assertThat(rows(byDefault.out()).get(0)).containsExactly(rows(one.out()).get(0));
        assertThat(Double.parseDouble(rows(hundred.out()).get(0)[3]))
                .isLessThan(0.8 * Double.parseDouble(rows(byDefault.out()).get(0)[3]));
        // A moderation asked for on a large message is kept, with perftest's warning.
        assertThat(hundred.out()).contains(" CQ Moderation   : 100\n")
                .contains("Warning: Large message requested and CQ moderation enabled");
        // 8 KiB and below, and -a, keep the default of 100; the depth is at most the iterations, the moderation at
        // most the depth.
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "5", "-s", "8192", "--quiet").out())
                .contains(" TX depth        : 5\n").contains(" CQ Moderation   : 5\n");
        assertThat(CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "200", "-s", "8192", "--quiet").out())
                .contains(" TX depth        : 128\n").contains(" CQ Moderation   : 100\n");
    }

    /**
     * The header's numbers as perftest prints them on a ConnectX: GID index 0 on Ethernet without -x, the -x given on
     * InfiniBand; ib_write_lat's inline size 220 B (ctx_set_max_inline); the data exchange "Ethernet" on any link (the
     * TCP socket's; an InfiniBand fabric printed "IB"); and below 0.1 Gb/s six decimals (REPORT_FMT_EXT).
     */
    @Test
    void shouldPrintTheHeaderAndSlowRowsAsPerftest() throws IOException {
        String f = fabric().toString();
        CliRun bw = CliRun.of("perftest", "ib_write_bw", "--scenario", f, "-n", "20", "-s", "2", "-t", "1",
                "--report_gbits", "--quiet");
        assertThat(bw.exitCode()).as(bw.err()).isZero();
        assertThat(bw.out()).contains(" GID index       : 0\n").contains(" Max inline data : 0[B]\n")
                .contains(" Data ex. method : Ethernet\n");
        // One 2-byte WRITE per round trip of about 2 us: 0.008 Gb/s, printed with six decimals.
        assertThat(bw.out()).containsPattern("\n 2          20           0\\.00\\d{4}            0\\.00\\d{4}"
                + "            0\\.\\d{6}\n");
        Path ib = Files.writeString(dir.resolve("ib.yaml"), """
                name: ib
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 500ns}}
                traffic: []
                """);
        CliRun lat = CliRun.of("perftest", "ib_write_lat", "--scenario", ib.toString(), "-n", "10", "-x", "1",
                "--quiet");
        assertThat(lat.exitCode()).as(lat.err()).isZero();
        assertThat(lat.out()).contains(" GID index       : 1\n").contains(" Max inline data : 220[B]\n")
                .contains(" Data ex. method : Ethernet\n");
    }
}
