package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.workload.collective.PairSizes;

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

    /** nccl-tests' warm-up default is one run (common.cu: warmup_iters = 1; it was 5 here). */
    @Test
    void shouldWarmUpOnceByDefaultAsNcclTests() throws IOException {
        CliRun run = CliRun.of("nccl-tests", "all_reduce", "--scenario", fabric().toString(), "-b", "1K", "-e", "1K",
                "-n", "1", "-q");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains(" warmup iters: 1 iters: 1 ");
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

    /**
     * Times and bandwidths take nccl-tests' widths whatever their size (its getFloatStr): fewer decimals as the integer
     * part grows, so that a 1 GiB AllReduce at 100G (131,775.71 us) keeps its column instead of pushing the line right.
     */
    @Test
    void shouldFormatNumbersAsNcclTestsDoes() {
        assertThat(NcclTestsCommand.number(15.06, 7)).isEqualTo("  15.06");
        assertThat(NcclTestsCommand.number(616.66, 7)).isEqualTo(" 616.66");
        assertThat(NcclTestsCommand.number(9999.5, 7)).isEqualTo("9999.50");
        assertThat(NcclTestsCommand.number(32950.70, 7)).isEqualTo("32950.7");
        assertThat(NcclTestsCommand.number(131775.71, 7)).isEqualTo(" 131776");
        assertThat(NcclTestsCommand.number(1234567.0, 7)).isEqualTo("1234567");
        assertThat(NcclTestsCommand.number(12345678.0, 7)).isEqualTo("1.2e+07");
        assertThat(NcclTestsCommand.number(0.0, 6)).isEqualTo("  0.00");
        assertThat(NcclTestsCommand.number(48.5, 6)).isEqualTo(" 48.50");
        assertThat(NcclTestsCommand.number(1234.5, 6)).isEqualTo("1234.5");
        assertThat(NcclTestsCommand.number(12345.0, 6)).isEqualTo(" 12345");
    }

    @Test
    void shouldPrintTheSizeAndCountNcclTestsPrintsOnTwelveRanks() throws IOException {
        // nccl-tests trims each rank's share to 16 bytes: on 12 ranks -b 1M runs 1,048,512 bytes, 21,844 elements per
        // rank (rocelab printed 1,048,560 and 21,845).
        Path twelve = Files.writeString(dir.resolve("twelve.yaml"), Files.readString(fabric())
                .replace("hosts: 8", "hosts: 12"));
        CliRun run = CliRun.of("nccl-tests", "all_gather", "--scenario", twelve.toString(), "-b", "1M", "-e", "1M",
                "-n", "1", "-w", "0", "-q");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(rows(run.out())).singleElement().satisfies(r -> assertThat(List.of(r[0], r[1]))
                .containsExactly("1048512", "21844"));
        // A fractional size, as nccl-tests' parsesize reads it: 1.5M is 1,572,864 bytes (rocelab refused it).
        CliRun half = CliRun.of("nccl-tests", "all_reduce", "--scenario", twelve.toString(), "-b", "1.5M", "-e",
                "1.5M", "-n", "1", "-w", "0", "-q");
        assertThat(half.exitCode()).as(half.err()).isZero();
        assertThat(rows(half.out())).singleElement().satisfies(r -> assertThat(r[0]).isEqualTo("1572864"));
    }

    /**
     * Below one element per rank nccl-tests calls NCCL with a count of 0 and prints the line, size and count 0,
     * bandwidths 0, counted in its average (common.cu's TimeTest has no skip; BenchTime adds the busbw of every line):
     * rocelab left the size out with a comment and averaged the other lines only (all_gather on 12 ranks, -b 64 -e 256
     * -f 2: 64 B and 128 B are below the smallest, 192 B, so the average is half of 256 B's busbw). The average takes
     * nccl-tests' %g (rocelab printed %.4f: 186.4471 where nccl-tests prints 186.447).
     */
    @Test
    void shouldPrintZeroLinesBelowTheSmallestSizeAndAverageThemAsNcclTests() throws IOException {
        Path twelve = Files.writeString(dir.resolve("twelve.yaml"), Files.readString(fabric())
                .replace("hosts: 8", "hosts: 12"));
        CliRun small = CliRun.of("nccl-tests", "all_gather", "--scenario", twelve.toString(), "-b", "64", "-e", "256",
                "-f", "2", "-n", "2", "-w", "1", "-q");
        assertThat(small.exitCode()).as(small.err()).isZero();
        assertThat(small.out()).doesNotContain("skipped")
                .contains("           0             0     float    none      -1     0.00    0.00    0.00    N/A"
                        + "     0.00    0.00    0.00    N/A\n");
        List<String[]> rows = rows(small.out());
        assertThat(rows).extracting(r -> r[0]).containsExactly("0", "0", "192");
        // Character for character: two spaces before each time column, as writeBenchmarkLineBody prints them.
        String half = "  [ \\d.]{7}  [ \\d.]{6}  [ \\d.]{6}    N/A";
        assertThat(small.out().lines().filter(l -> l.contains(" 192 ")))
                .singleElement().asString().matches("         192             4     float    none      -1" + half + half);
        double busbw = Double.parseDouble(rows.get(2)[7]);
        String average = small.out().lines().filter(l -> l.startsWith("# Avg bus bandwidth")).findFirst().orElseThrow();
        assertThat(Double.parseDouble(average.split(":")[1].strip())).isCloseTo(busbw / 3, within(0.005));
    }

    /**
     * nccl-tests' time is each rank's own (from the barrier to its last iteration's end) combined by -a, the mean by
     * default (common.cu: {@code average = 1}, {@code Allreduce(args, &deltaSec, average)}). rocelab refused -a and
     * reported the last rank's end, -a 3: a 64 KiB broadcast on 8 ranks read 25.35 us where the ranks' mean is 21.23
     * (the root is done first, the chain's tail last).
     */
    @Test
    void shouldCombineTheRanksTimesAsNcclTestsAverage() throws IOException {
        String f = fabric().toString();
        double[] time = new double[5];
        for (int a = 0; a <= 4; a++) {
            List<String> args = new ArrayList<>(List.of("nccl-tests", "broadcast", "--scenario", f, "-b", "64K", "-e",
                    "64K", "-n", "2", "-w", "1", "-q"));
            if (a < 4) {
                args.addAll(List.of("-a", Integer.toString(a)));
            }
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertThat(run.exitCode()).as(run.err()).isZero();
            time[a] = Double.parseDouble(rows(run.out()).get(0)[5]);
        }
        assertThat(time[4]).as("the default is the mean").isEqualTo(time[1]);
        assertThat(time[2]).isLessThan(time[1]);
        assertThat(time[1]).isLessThan(time[3] * 0.95);
        assertThat(time[0]).as("the root, rank 0, is done first").isEqualTo(time[2]);
    }

    /** C's %g, as nccl-tests prints its Avg bus bandwidth: six significant digits, no trailing zeros. */
    @Test
    void shouldPrintTheAverageAsCsPercentG() {
        assertThat(NcclTestsCommand.general(186.4471234)).isEqualTo("186.447");
        assertThat(NcclTestsCommand.general(46.25)).isEqualTo("46.25");
        assertThat(NcclTestsCommand.general(12.0)).isEqualTo("12");
        assertThat(NcclTestsCommand.general(0.853486)).isEqualTo("0.853486");
        assertThat(NcclTestsCommand.general(0.00001234)).isEqualTo("1.234e-05");
        assertThat(NcclTestsCommand.general(1234567.0)).isEqualTo("1.23457e+06");
        assertThat(NcclTestsCommand.general(0)).isEqualTo("0");
        // getFloatStr keeps the first format whose text fits: a value rounding up to another digit drops a decimal.
        assertThat(NcclTestsCommand.number(9999.996, 7)).isEqualTo("10000.0");
        assertThat(NcclTestsCommand.number(999.996, 6)).isEqualTo("1000.0");
        assertThat(NcclTestsCommand.number(1234567.0, 6)).isEqualTo(" 1e+06");
    }

    @Test
    void shouldRunOnAFabricOnlyScenario() throws IOException {
        Path f = Files.writeString(dir.resolve("fabric-only.yaml"), """
                name: fabric-only
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                traffic: []
                """);

        CliRun run = CliRun.of("nccl-tests", "all_reduce", "--scenario", f.toString(), "-b", "64K", "-e", "64K", "-n",
                "1", "-w", "0", "-o", "max");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(rows(run.out())).singleElement().satisfies(r -> assertThat(r[3]).isEqualTo("max"));
        assertThat(CliRun.of("run", f.toString(), "--out", dir.resolve("o").toString()).err())
                .as("run still needs a workload").contains("traffic is empty");
    }

    @Test
    void shouldTakeQuietAsTheOtherCommandsDo() throws IOException {
        // The README's "-q silences it" of the progress holds for nccl-tests too (it was an unknown option).
        Path f = Files.writeString(dir.resolve("quiet.yaml"), """
                name: quiet
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                traffic: []
                """);
        CliRun run = CliRun.of("nccl-tests", "all_reduce", "--scenario", f.toString(), "-b", "64K", "-e", "64K", "-n",
                "1", "-w", "0", "-q");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(rows(run.out())).hasSize(1);
    }

    @Test
    void shouldKeepTheNcclTestsMeaningOfItsOwnFlags() throws IOException {
        String f = fabric().toString();
        assertThat(CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-c", "4").err()).isEqualTo("error: -c 4 is"
                + " nccl-tests' --check (0 or 1), not the channels; expected --channels 4 for 4 channels per"
                + " collective\n");
        assertThat(CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-c", "1").err())
                .contains("the simulation moves no data to check");
        assertThat(CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-g", "8").err())
                .contains("-g 8 asks for several GPUs per process, but every host of the scenario is one rank");
        assertThat(CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-d", "half").err())
                .contains("-d half is not simulated", "expected -d float");
        assertThat(CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-a", "tree").err()).isEqualTo("error: -a"
                + " tree is nccl-tests' --average (0..3), not the algorithm; expected --algorithm tree\n");
        assertThat(CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-o", "all").exitCode())
                .isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        CliRun accepted = CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-c", "0", "-g", "1", "-d", "float",
                "--channels", "2", "-b", "64K", "-e", "64K", "-n", "1", "-w", "0");
        assertThat(accepted.exitCode()).as(accepted.err()).isZero();
        assertThat(accepted.out()).contains("channels: 2");
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
        // 0 is a size, below the smallest: said so, as the scenario reader says a size is too small.
        for (String zero : List.of("0", "0B")) {
            CliRun small = CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-b", zero);
            assertThat(small.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
            assertThat(small.err()).isEqualTo("error: -b '" + zero + "' is too small; expected a size of at least 1"
                    + " byte\n");
        }
        assertThat(CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-e", "9999999999G").err())
                .startsWith("error: -e '9999999999G' is not a size");
        CliRun order = CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-b", "1M", "-e", "1K");
        assertThat(order.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(order.err()).doesNotContain("Exception");
        // A step that cannot be taken is refused even when -b equals -e and there is no step to take.
        CliRun zero = CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-b", "1M", "-e", "1M", "-i", "0");
        assertThat(zero.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(zero.err()).startsWith("error: -i '0' is too small; expected a size of at least 1 byte");
        // Each count is named on its own (it was "-n must be at least 1 and -w at least 0" for either).
        CliRun iters = CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-n", "0");
        assertThat(iters.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(iters.err()).startsWith("error: -n 0 is too small; expected at least 1 timed iteration");
        CliRun warm = CliRun.of("nccl-tests", "all_gather", "--scenario", f, "-w", "-2");
        assertThat(warm.err()).startsWith("error: -w -2 is negative; expected 0 or more warm-up iterations");
    }

    @Test
    void shouldStepByBytesWithoutAFactorAsNcclTestsDoes() throws IOException {
        // nccl-tests' defaults are -f 1 and -i 1M: "-b 1M -e 3M" prints 1, 2 and 3 MiB (here it printed 1 and 2 MiB,
        // a factor of 2 being the default). A negative factor is refused, even for one size.
        String f = fabric().toString();
        for (String[] args : new String[][] {{}, {"-f", "1"}, {"-f", "0"}}) {
            List<String> cmd = new ArrayList<>(List.of("nccl-tests", "all_reduce", "--scenario", f, "-b", "1M", "-e",
                    "3M", "-n", "1", "-w", "0", "-q"));
            cmd.addAll(List.of(args));
            CliRun run = CliRun.of(cmd.toArray(new String[0]));
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("# minBytes 1048576 maxBytes 3145728 step: 1048576(bytes) ");
            assertThat(run.out().lines().filter(l -> !l.startsWith("#")).map(l -> l.strip().split("\\s+")[0]))
                    .containsExactly("1048576", "2097152", "3145728");
        }
        CliRun factor = CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-b", "1M", "-e", "3M", "-f", "2", "-n",
                "1", "-w", "0", "-q");
        assertThat(factor.out()).contains("step: 2(factor) ");
        CliRun negative = CliRun.of("nccl-tests", "all_reduce", "--scenario", f, "-b", "1M", "-e", "1M", "-f", "-3");
        assertThat(negative.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(negative.err()).isEqualTo("error: -f -3 is negative; expected a factor of at least 2, or 0 or 1 to"
                + " step by -i bytes\n");
        assertThat(negative.out()).isEmpty();
    }

    @Test
    void shouldStepTheSizesWithoutWrappingRound() {
        assertThat(NcclTestsCommand.sizes(8, 256, 2, 1)).containsExactly(8L, 16L, 32L, 64L, 128L, 256L);
        assertThat(NcclTestsCommand.sizes(1 << 20, 256 << 20, 4, 1)).containsExactly(1L << 20, 4L << 20, 16L << 20,
                64L << 20, 256L << 20);
        assertThat(NcclTestsCommand.sizes(5, 100, 3, 1)).containsExactly(5L, 15L, 45L);
        assertThat(NcclTestsCommand.sizes(7, 7, 2, 1)).containsExactly(7L);
        // 5 GiB x 2e9 is past a long: one size, not a wrapped product stepping up a byte at a time.
        assertThat(NcclTestsCommand.sizes(5L << 30, 100L << 30, 2_000_000_000, 1)).containsExactly(5L << 30);
        assertThat(NcclTestsCommand.sizes(Long.MAX_VALUE - 1, Long.MAX_VALUE, 2, 1))
                .containsExactly(Long.MAX_VALUE - 1);
        assertThat(NcclTestsCommand.sizes(Long.MAX_VALUE, Long.MAX_VALUE, 2, 1)).containsExactly(Long.MAX_VALUE);
        // A factor of 0 or 1 adds the step bytes, as nccl-tests does; a sum past a long ends the sweep too.
        assertThat(NcclTestsCommand.sizes(1 << 20, 4 << 20, 1, 1 << 20)).containsExactly(1L << 20, 2L << 20, 3L << 20,
                4L << 20);
        assertThat(NcclTestsCommand.sizes(8, 20, 0, 5)).containsExactly(8L, 13L, 18L);
        assertThat(NcclTestsCommand.sizes(Long.MAX_VALUE - 1, Long.MAX_VALUE, 1, 5))
                .containsExactly(Long.MAX_VALUE - 1);
    }

    @Test
    void shouldPrintTheRootForBroadcastAndReduceAndMinusOneOtherwise() throws IOException {
        String f = fabric().toString();
        for (String op : new String[] {"broadcast", "reduce"}) {
            // -a 3: the closed form below is the last rank's end (nccl-tests' default, -a 1, is the ranks' mean).
            CliRun run = CliRun.of("nccl-tests", op, "-r", "3", "--scenario", f, "-b", "16M", "-e", "16M", "-n", "1",
                    "-w", "0", "-a", "3");
            assertThat(run.exitCode()).as(run.err()).isZero();
            String[] row = rows(run.out()).get(0);
            assertThat(row[4]).isEqualTo("3");
            // busbw = algbw for the chain: S / (S/B + 6 chunks of 512 KiB / B + 7 hops of about 2.1 us) at the
            // 12.25 GB/s payload rate, about 10.2 GB/s.
            assertThat(row[7]).isEqualTo(row[6]);
            double b = 12.25e9;
            double expected = (16 << 20) / ((16 << 20) / b + 6 * (512 << 10) / b + 7 * 2.1e-6) / 1e9;
            assertThat(Double.parseDouble(row[7])).isCloseTo(expected, org.assertj.core.data.Offset.offset(0.3));
        }
        CliRun other = CliRun.of("nccl-tests", "sendrecv", "--scenario", f, "-b", "1M", "-e", "1M", "-n", "1");
        assertThat(rows(other.out()).get(0)[4]).isEqualTo("-1");
    }

    @Test
    void shouldRunEveryNewAlgorithmAndReportTheSkewedAlltoAllvSize() throws IOException {
        String f = fabric().toString();
        for (String[] a : new String[][] {{"all_reduce", "tree"}, {"all_reduce", "halving-doubling"},
            {"all_gather", "halving-doubling"}, {"reduce_scatter", "halving-doubling"}, {"alltoall", "pairwise"},
            {"alltoall", "direct"}}) {
            CliRun run = CliRun.of("nccl-tests", a[0], "--algorithm", a[1], "--scenario", f, "-b", "256K", "-e", "256K", "-n",
                    "1", "-w", "0", "--qps-per-connection", "2");
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("algorithm: " + a[1]).contains("qps-per-connection: 2");
            assertThat(rows(run.out())).hasSize(1);
        }
        CliRun skew = CliRun.of("nccl-tests", "alltoallv", "--zipf", "1.2", "--scenario", f, "-b", "1M", "-e", "1M",
                "-n", "1", "-w", "0");
        assertThat(skew.exitCode()).as(skew.err()).isZero();
        // The size column is the hottest rank's receive (nccl-tests' AlltoAllv size), more than the 1 MiB each sends.
        long size = Long.parseLong(rows(skew.out()).get(0)[0]);
        assertThat(size).isEqualTo(PairSizes.zipf(8, 1 << 20, 1.2, 1).ncclSize())
                .isGreaterThan(1L << 20);
    }

    @Test
    void shouldRejectAlgorithmsThatCannotRunAndOpsWithoutData() throws IOException {
        Path six = Files.writeString(dir.resolve("six.yaml"), """
                name: six
                fabric: {mode: roce-lossless}
                topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps}}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 1MB}
                """);
        CliRun hd = CliRun.of("nccl-tests", "all_gather", "--algorithm", "halving-doubling", "--scenario", six.toString());
        assertThat(hd.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(hd.err()).startsWith("error: AllGather halving-doubling needs a power-of-two number of ranks, got 6");
        CliRun tree = CliRun.of("nccl-tests", "all_gather", "--algorithm", "tree", "--scenario", six.toString());
        assertThat(tree.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(tree.err()).startsWith("error: --algorithm 'tree' is not an algorithm of all_gather");
        CliRun barrier = CliRun.of("nccl-tests", "barrier", "--scenario", six.toString());
        assertThat(barrier.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        CliRun zipf = CliRun.of("nccl-tests", "alltoall", "--zipf", "1", "--scenario", six.toString());
        assertThat(zipf.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(zipf.err()).startsWith("error: --zipf skews alltoallv only");
    }
}
