package rocelab.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.nccl.NcclTests;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.Collective;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;

/**
 * {@code rocelab nccl-tests OP}: the nccl-tests table for a collective on the scenario's fabric, every host a rank,
 * so a simulated fabric can be compared line by line with a measured one.
 */
@Command(name = "nccl-tests", mixinStandardHelpOptions = true,
        description = {"nccl-tests over a simulated fabric: OP is the nccl-tests binary without _perf"
                + " (all_reduce, all_gather, reduce_scatter, alltoall, alltoallv, broadcast, reduce, sendrecv).",
            "Every host of the scenario's topology is a rank; the scenario's own traffic and jobs are not run (the file"
                + " is still read and checked whole, as by run).",
            "Each size runs warm-up plus timed iterations back to back on a fresh fabric.",
            "In-place and out-of-place move the same bytes, so both columns show the same run."})
final class NcclTestsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "OP", description = "all_reduce, all_gather, reduce_scatter, alltoall, "
            + "alltoallv, broadcast, reduce or sendrecv (a trailing _perf is accepted).")
    String op;

    @Option(names = "--algorithm", paramLabel = "ALGO",
            description = "Algorithm, as NCCL_ALGO chooses it: ring, halving-doubling, recursive-doubling, tree,"
                    + " hierarchical (all_reduce); ring, halving-doubling, hierarchical (all_gather, reduce_scatter);"
                    + " direct, pairwise, pxn (alltoall, alltoallv); ring (broadcast, reduce); direct (sendrecv)"
                    + " (default: ring, or direct for alltoall, alltoallv and sendrecv).")
    String algorithm;

    @Option(names = "--qps-per-connection", defaultValue = "1", paramLabel = "N",
            description = "Queue pairs per connection, whole messages round-robin (NCCL_IB_QPS_PER_CONNECTION; "
                    + "default: ${DEFAULT-VALUE}).")
    int qps;

    @Option(names = "--zipf", defaultValue = "0", paramLabel = "EXPONENT",
            description = "alltoallv: Zipf exponent of the destinations' popularity; SIZE is what each rank sends, "
                    + "the size column the largest send or receive (default: ${DEFAULT-VALUE}, even).")
    double zipf;

    @Option(names = "--skew-seed", defaultValue = "1", paramLabel = "SEED",
            description = "alltoallv: seed that places the hot destinations (default: ${DEFAULT-VALUE}).")
    long skewSeed;

    @Option(names = "--channels", defaultValue = "1", paramLabel = "N",
            description = "Channels per collective, each with its own connections (default: ${DEFAULT-VALUE}).")
    int channels;

    // nccl-tests' own flags keep their nccl-tests meaning: accepted where the simulation honours them, refused with
    // the reason where it cannot.
    @Option(names = {"-a", "--average"}, defaultValue = "1", paramLabel = "0-3",
            description = "nccl-tests' way of combining the ranks' times, each from the barrier after the warm-up to"
                    + " that rank's last iteration's end: 0 rank 0's, 1 their mean, 2 the least, 3 the most, the whole"
                    + " collective's (default: ${DEFAULT-VALUE}, as nccl-tests).")
    String average;

    @Option(names = {"-c", "--check"}, defaultValue = "0", paramLabel = "0/1",
            description = "nccl-tests' result check: only 0 (the simulation moves no data to check; #wrong is N/A).")
    String check;

    @Option(names = {"-g", "--ngpus"}, defaultValue = "1", paramLabel = "N",
            description = "nccl-tests' GPUs per thread: only 1 (every host of the scenario is one rank).")
    int gpus;

    @Option(names = {"-t", "--nthreads"}, defaultValue = "1", paramLabel = "N",
            description = "nccl-tests' threads per process: only 1 (every host of the scenario is one rank).")
    int threads;

    @Option(names = {"-d", "--datatype"}, defaultValue = "float", paramLabel = "TYPE",
            description = "nccl-tests' data type: only float (sizes are counted in 4-byte elements).")
    String datatype;

    @Option(names = {"-o", "--op"}, defaultValue = "sum", paramLabel = "OP",
            description = "nccl-tests' reduction: sum, prod, min, max or avg, shown in the redop column (the"
                    + " network moves the same bytes for each).")
    String redop;

    @Option(names = {"-r", "--root"}, defaultValue = "0", paramLabel = "RANK",
            description = "Root rank of broadcast and reduce (default: ${DEFAULT-VALUE}).")
    int root;

    @Option(names = "--scenario", paramLabel = "FILE",
            description = "Scenario supplying fabric and topology (default: the built-in demo's fabric).")
    Path scenario;

    @Option(names = {"-b", "--minbytes"}, defaultValue = "32M", paramLabel = "SIZE",
            description = "Smallest size, e.g. 8, 1K, 256M (default: ${DEFAULT-VALUE}).")
    String minBytes;

    @Option(names = {"-e", "--maxbytes"}, defaultValue = "32M", paramLabel = "SIZE",
            description = "Largest size (default: ${DEFAULT-VALUE}).")
    String maxBytes;

    // nccl-tests' defaults: a factor of 1 steps by --stepbytes instead (its common.cu: stepFactor 1, stepBytes 1M),
    // so a command copied from a cluster without -f gives the lines nccl-tests would (an audit: -b 1M -e 64M gave 7
    // sizes here, 64 there).
    @Option(names = {"-f", "--stepfactor"}, defaultValue = "1", paramLabel = "FACTOR",
            description = "Multiply the size by this between lines; 0 or 1 (the default, as in nccl-tests): add"
                    + " --stepbytes instead.")
    int factor;

    @Option(names = {"-i", "--stepbytes"}, defaultValue = "1M", paramLabel = "SIZE",
            description = "Add this to the size between lines when --stepfactor is 0 or 1 (default: ${DEFAULT-VALUE}).")
    String stepBytes;

    @Option(names = {"-n", "--iters"}, defaultValue = "20", paramLabel = "N",
            description = "Timed iterations per size (default: ${DEFAULT-VALUE}).")
    int iters;

    // nccl-tests' default since its warm-up moved ahead of the sizes (common.cu: warmup_iters = 1); each size then
    // makes one untimed call before its timer, which one warm-up run on this size's fresh fabric stands for.
    @Option(names = {"-w", "--warmup_iters"}, defaultValue = "1", paramLabel = "N",
            description = "Warm-up iterations per size, not timed, each size on a fresh fabric (default:"
                    + " ${DEFAULT-VALUE}, as nccl-tests).")
    int warmup;

    @Option(names = {"-q", "--quiet"},
            description = "No progress on stderr (the table on stdout is the same; not an nccl-tests flag).")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        CollectiveOp operation = CollectiveOp.ofNcclName(op.endsWith("_perf") ? op.substring(0, op.length() - 5) : op);
        long min;
        long max;
        long step;
        Algorithm algo;
        try {
            if (operation == null || !offered(operation)) {
                throw new IllegalArgumentException("OP '" + op + "' is not supported; expected one of: "
                        + String.join(", ", Arrays.stream(CollectiveOp.values())
                                .filter(NcclTestsCommand::offered).map(CollectiveOp::ncclName).toList()));
            }
            algo = algorithm == null ? Collectives.defaultAlgorithm(operation) : Algorithm.ofKey(algorithm);
            if (algo == null || !Collectives.supports(operation, algo)) {
                throw new IllegalArgumentException("--algorithm '" + algorithm + "' is not an algorithm of "
                        + operation.ncclName() + "; expected one of: " + Collectives.algorithmsOf(operation));
            }
            nativeFlags();
            if (channels < 1 || channels > 64) {
                throw new IllegalArgumentException("--channels " + channels + " is out of range; expected 1..64");
            }
            if (qps < 1 || qps > Collective.MAX_QPS_PER_CONNECTION) {
                throw new IllegalArgumentException("--qps-per-connection " + qps + " is out of range; expected 1.."
                        + Collective.MAX_QPS_PER_CONNECTION);
            }
            if (!(zipf >= 0 && zipf <= 10)) {
                throw new IllegalArgumentException("--zipf " + zipf + " is out of range; expected 0..10");
            }
            if (zipf != 0 && operation != CollectiveOp.ALL_TO_ALLV) {
                throw new IllegalArgumentException("--zipf skews alltoallv only; expected OP alltoallv");
            }
            min = size("-b", minBytes);
            max = size("-e", maxBytes);
            if (max < min) {
                throw new IllegalArgumentException("-e " + maxBytes + " is smaller than -b " + minBytes
                        + "; expected maxbytes >= minbytes");
            }
            // Checked even with one size (-b = -e): a step that cannot be taken is refused, whatever the sizes.
            if (factor < 0) {
                throw new IllegalArgumentException("-f " + factor + " is negative; expected a factor of at least 2,"
                        + " or 0 or 1 to step by -i bytes");
            }
            step = size("-i", stepBytes);
            if (iters < 1) {
                throw new IllegalArgumentException("-n " + iters + " is too small; expected at least 1 timed iteration");
            }
            if (warmup < 0) {
                throw new IllegalArgumentException("-w " + warmup + " is negative; expected 0 or more warm-up"
                        + " iterations");
            }
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        ScenarioConfig fabric;
        try {
            ScenarioReader reader = new ScenarioReader();
            // The command brings its own traffic: a fabric-only scenario (traffic: []) is enough.
            fabric = scenario == null ? reader.readDemo() : reader.fabricOnly().read(scenario);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        int ranks = NcclTests.ranks(fabric);
        if (root < 0 || root >= ranks) {
            err.println("error: --root " + root + " is out of range; expected a rank 0.." + (ranks - 1));
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        NcclTests.Options options = new NcclTests.Options(algo, channels, operation.rooted() ? root : 0, qps, zipf,
                skewSeed);
        try {
            Collectives.check(NcclTests.call(operation, ranks, NcclTests.alignedSize(operation, max, ranks) > 0
                    ? NcclTests.alignedSize(operation, max, ranks) : max, options));
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        out.printf(Locale.ROOT, "# rocelab nccl-tests %s: %d ranks (one per host) on scenario '%s'%n",
                operation.ncclName(), ranks, fabric.name());
        out.printf(Locale.ROOT, "# minBytes %d maxBytes %d step: %d(%s) warmup iters: %d iters: %d"
                + " validation: 0 algorithm: %s channels: %d%s%s%n#%n", min, max, factor > 1 ? factor : step,
                factor > 1 ? "factor" : "bytes", warmup, iters, algo.key(),
                channels, qps > 1 ? " qps-per-connection: " + qps : "",
                zipf > 0 ? String.format(Locale.ROOT, " zipf: %s seed: %d (size: largest send or receive)",
                        zipf, skewSeed) : "");
        out.println("#                                                              out-of-place"
                + "                       in-place");
        out.println("#       size         count      type   redop    root     time   algbw   busbw #wrong"
                + "     time   algbw   busbw #wrong");
        out.println("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)        "
                + "    (us)  (GB/s)  (GB/s)");
        out.flush();
        double busSum = 0;
        int lines = 0;
        List<Long> steps = sizes(min, max, factor, step);
        int sizes = steps.size();
        // Progress of the sweep on stderr only: the table on stdout stays exactly nccl-tests' format.
        Progress progress = Progress.of(err, quiet);
        int sizeIndex = 0;
        for (long requested : steps) {
            sizeIndex++;
            long size = NcclTests.alignedSize(operation, requested, ranks);
            if (size == 0) {
                // Below one element per rank nccl-tests still calls NCCL, with a count of 0, and prints the line:
                // size and count 0, bandwidths 0, and those zeros count in its Avg bus bandwidth. The call moves
                // nothing on the network, so its simulated time is 0 (a real one's is the host's few microseconds).
                String none = String.format(Locale.ROOT, "%7s  %6s  %6s    N/A", number(0, 7), number(0, 6),
                        number(0, 6));
                out.printf(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d  %s  %s%n", 0, 0, "float",
                        operation.redop().equals("none") ? "none" : redop, operation.rooted() ? root : -1, none, none);
                lines += 2;
                continue;
            }
            progress.label(String.format(Locale.ROOT, "size %d B (%d of %d)", size, sizeIndex, sizes));
            NcclTests.Row r = NcclTests.measure(fabric, operation, size, warmup, iters, options,
                    NcclTests.Average.of(Integer.parseInt(average)), progress);
            progress.done();
            if (!r.completed()) {
                out.printf(Locale.ROOT, "# %d B did not complete before the scenario's run.stop-at%n", size);
                continue;
            }
            // nccl-tests' writeBenchmarkLineBody, "  %7s  %6s  %6s    N/A" after the root column: two spaces before
            // each time (a third here pushed both halves a character right of the header's columns).
            String half = String.format(Locale.ROOT, "%7s  %6s  %6s    N/A", number(r.timeUs(), 7),
                    number(r.algbwGBps(), 6), number(r.busbwGBps(), 6));
            out.printf(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d  %s  %s%n", r.sizeBytes(), r.count(), "float",
                    operation.redop().equals("none") ? "none" : redop, operation.rooted() ? root : -1, half, half);
            out.flush();
            busSum += 2 * r.busbwGBps();
            lines += 2;
        }
        // nccl-tests prints the average with %g (six significant digits, trailing zeros dropped).
        out.printf(Locale.ROOT, "# Out of bounds values : 0 OK%n# Avg bus bandwidth    : %s %n#%n",
                general(lines == 0 ? 0 : busSum / lines));
        out.flush();
        return 0;
    }

    /**
     * A number in a column of {@code width} characters as nccl-tests prints it (its {@code getFloatStr}): two decimals
     * while they fit, then one, then none, then an exponent, so that a time of 10 ms or more keeps its column
     * (131,775.71 us was printed with two decimals, a character wider than the column, shifting the line; nccl-tests
     * prints 131776).
     */
    static String number(double value, int width) {
        // getFloatStr tries each format and keeps the first whose text fits, so a value that rounds up to one more
        // digit (9,999.996 us: "10000.00") drops a decimal as the digit count alone would not tell.
        for (String decimals : List.of(".2f", ".1f", ".0f")) {
            String text = String.format(Locale.ROOT, "%" + width + decimals, value);
            if (text.length() <= width) {
                return text;
            }
        }
        return String.format(Locale.ROOT, "%" + width + (width >= 7 ? ".1e" : ".0e"), value);
    }

    /**
     * A number as C's {@code %g} prints it (six significant digits, trailing zeros and a bare point dropped, an
     * exponent below 1e-4 or from 1e6), which Java's {@code %g} does not: it keeps the zeros.
     */
    static String general(double value) {
        if (value == 0 || !Double.isFinite(value)) {
            return value == 0 ? "0" : Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        BigDecimal rounded = new BigDecimal(value).round(new MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            String mantissa = plain(rounded.movePointLeft(exponent));
            return String.format(Locale.ROOT, "%se%s%02d", mantissa, exponent < 0 ? "-" : "+", Math.abs(exponent));
        }
        return plain(rounded);
    }

    private static String plain(BigDecimal d) {
        String text = d.toPlainString();
        return text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
    }

    /** Checks nccl-tests' own flags: what the simulation honours is accepted, the rest refused with the reason. */
    private void nativeFlags() {
        if (!average.matches("[0-3]")) {
            throw new IllegalArgumentException("-a " + average + " is nccl-tests' --average (0..3), not the"
                    + " algorithm; expected --algorithm " + average);
        }
        if (!check.equals("0")) {
            throw new IllegalArgumentException(check.matches("1") ? "-c 1 asks nccl-tests to check the results, but"
                    + " the simulation moves no data to check (#wrong is N/A); expected -c 0 or no -c"
                    : "-c " + check + " is nccl-tests' --check (0 or 1), not the channels; expected --channels "
                            + check + " for " + check + " channels per collective");
        }
        if (gpus != 1 || threads != 1) {
            throw new IllegalArgumentException((gpus != 1 ? "-g " + gpus : "-t " + threads) + " asks for several"
                    + " GPUs per process, but every host of the scenario is one rank; expected -g 1 -t 1 (for more"
                    + " ranks, a topology with more hosts)");
        }
        if (!datatype.equals("float")) {
            throw new IllegalArgumentException("-d " + datatype + " is not simulated: sizes are counted in 4-byte"
                    + " float elements (the network time depends on the bytes only); expected -d float");
        }
        if (!List.of("sum", "prod", "min", "max", "avg").contains(redop)) {
            throw new IllegalArgumentException("-o " + redop + " is not one reduction; expected sum, prod, min, max"
                    + " or avg (the network moves the same bytes for each)");
        }
    }

    /** Collectives with an nccl-tests binary: every available one but Barrier, which moves no data. */
    private static boolean offered(CollectiveOp op) {
        return Collectives.available(op) && op != CollectiveOp.BARRIER;
    }

    /**
     * The sizes of the sweep, as nccl-tests steps them: {@code min}, then each {@code factor} times the one before when
     * the factor is above 1, else the one before plus {@code stepBytes} (at least 1), up to {@code max}; a step beyond
     * what a long holds ends the sweep rather than wrapping round.
     */
    static List<Long> sizes(long min, long max, int factor, long stepBytes) {
        List<Long> sizes = new ArrayList<>();
        for (long requested = min; requested <= max; ) {
            sizes.add(requested);
            if (factor > 1 ? requested > max / factor : requested > max - stepBytes) {
                break;
            }
            requested = factor > 1 ? requested * factor : requested + stepBytes;
        }
        return sizes;
    }

    /** A size the nccl-tests way (8, 1K, 256M, 1G: powers of 1024), or with a rocelab unit (64MiB, 1MB). */
    private static long size(String flag, String text) {
        long v;
        try {
            // nccl-tests' parsesize reads a double ("%lf %1s"), so 1.5M is 1,572,864 bytes, truncated to whole ones.
            v = ToolSize.parse(text, true);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException(flag + " '" + text + "' is not a size; expected bytes such as 8, 1K,"
                    + " 256M or 1G");
        }
        if (v < 1) {
            // A size all the same, below the smallest (a size under one element per rank is skipped, not refused).
            throw new IllegalArgumentException(flag + " '" + text + "' is too small; expected a size of at least 1"
                    + " byte");
        }
        return v;
    }
}
