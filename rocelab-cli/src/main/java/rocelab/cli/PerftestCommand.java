package rocelab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.perftest.Perftest;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.traffic.PerftestTraffic;

/**
 * {@code rocelab perftest ib_write_bw|ib_write_lat}: perftest's table for RDMA WRITEs between two hosts of the
 * scenario's fabric, with perftest's flags and defaults, so that a fabric's simulated figures can be set beside the
 * ones the tool gives on real hosts.
 */
@Command(name = "perftest", mixinStandardHelpOptions = true,
        description = {"perftest over a simulated fabric: TEST is ib_write_bw or ib_write_lat. The client (--client)"
                + " writes to the server (--server); the scenario's own traffic and jobs are not run (the file is still"
                + " read and checked whole, as by run).",
            "Each size runs on a fresh fabric. perftest's flags keep their meaning: -s, -a, -n, -q, -t, -Q, -N,"
                + " --report_gbits, -b, -T/--tclass (DSCP << 2), -m (must be the fabric's MTU), -d and -x (shown only; GID index 0 on Ethernet without -x).",
            "The times are the fabric's and the RNICs': the host's own time (PCIe, the driver, polling) is not"
                + " simulated, so a real host's latency adds about a microsecond or two."})
final class PerftestCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TEST", description = "ib_write_bw or ib_write_lat.")
    String test;

    @Option(names = "--scenario", paramLabel = "FILE",
            description = "Scenario supplying fabric and topology (default: the built-in demo's fabric).")
    Path scenario;

    @Option(names = "--server", defaultValue = "0", paramLabel = "HOST",
            description = "The host perftest's server runs on, the WRITEs' target (index or hN; default: ${DEFAULT-VALUE}).")
    String server;

    @Option(names = "--client", defaultValue = "1", paramLabel = "HOST",
            description = "The host perftest's client runs on, the writer (index or hN; default: ${DEFAULT-VALUE}).")
    String client;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE",
            description = "Message size (default: 65536 for ib_write_bw, 2 for ib_write_lat; at most 2^31 - 1, as"
                    + " perftest: a large one simulates for long).")
    String size;

    @Option(names = {"-a", "--all"}, description = "Every size from 2 to 2^23 bytes, one line each.")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "N",
            description = "Iterations (default: 5000 for ib_write_bw, 1000 for ib_write_lat; at least 5).")
    Integer iters;

    @Option(names = {"-q", "--qp"}, defaultValue = "1", paramLabel = "N",
            description = "QPs, each with its own iterations (ib_write_bw; default: ${DEFAULT-VALUE}).")
    int qps;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N",
            description = "WRITEs a QP keeps outstanding (default: 128 for ib_write_bw, 1 for ib_write_lat).")
    Integer txDepth;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N",
            description = "A completion every N WRITEs (ib_write_bw; 1..1024, lowered to the TX depth; default: 100,"
                    + " but 1 for a message above 8192 B unless -a, as perftest).")
    Integer cqMod;

    @Option(names = {"-N", "--noPeak"}, description = "Do not measure the peak bandwidth (ib_write_bw).")
    boolean noPeak;

    @Option(names = "--report_gbits", description = "Bandwidth in Gb/s instead of MiB/s.")
    boolean gbits;

    @Option(names = {"-T", "--tos", "--tclass"}, paramLabel = "TOS",
            description = "The IP type of service of the WRITEs and their ACKs: DSCP << 2 (e.g. 106 for DSCP 26;"
                    + " default: the scenario's nic.dscp).")
    Integer tos;

    @Option(names = {"-m", "--mtu"}, paramLabel = "MTU",
            description = "The path MTU: accepted when it is the fabric's (fabric.mtu), which sets it.")
    Integer mtu;

    @Option(names = {"-d", "--ib-dev"}, defaultValue = "mlx5_0", paramLabel = "DEV",
            description = "Device name, shown in the header only (default: ${DEFAULT-VALUE}).")
    String device;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX",
            description = "GID index 0..64, shown in the header only (default: 0 on Ethernet, none on InfiniBand).")
    Integer gidIndex;

    @Option(names = {"-F", "--CPU-freq"}, description = "Accepted for perftest's sake: there is no CPU to warn about.")
    boolean cpuFreq;

    @Option(names = {"-b", "--bidirectional"},
            description = "ib_write_bw: the server writes to the client at the same time; the figures are both sides'"
                    + " summed, as perftest sums them.")
    boolean bidirectional;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS",
            description = "Not offered: the tests run by iterations.")
    Integer duration;

    @Option(names = "--quiet", description = "No progress on stderr (the table on stdout is the same).")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * perftest's largest {@code -s} (its parser takes up to {@code UINT_MAX / 2}; {@code MAX_SIZE}, 8 MiB, is only
     * where {@code -a} stops) and fewest iterations ({@code MIN_ITER}).
     */
    static final long MAX_SIZE = 2_147_483_647;
    static final int MIN_ITER = 5;
    /** perftest's {@code MAX_CQ_MOD}, {@code DEF_CQ_MOD} and {@code MSG_SIZE_CQ_MOD_LIMIT}. */
    static final int MAX_CQ_MOD = 1024;
    static final int DEF_CQ_MOD = 100;
    static final long MSG_SIZE_CQ_MOD_LIMIT = 8192;
    /** perftest's {@code DEF_INLINE_WRITE}: the inline size ib_write_lat takes on a ConnectX (ctx_set_max_inline). */
    static final int DEF_INLINE_WRITE = 220;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        boolean latency;
        List<Long> sizes = new ArrayList<>();
        int iterations;
        int depth;
        int dscp;
        try {
            String name = test.endsWith("_perf") ? test.substring(0, test.length() - 5) : test;
            if (name.equals("ib_write_bw")) {
                latency = false;
            } else if (name.equals("ib_write_lat")) {
                latency = true;
            } else if (name.matches("ib_(read|send|atomic)_(bw|lat)")) {
                throw new IllegalArgumentException("TEST '" + test + "' is not offered: the simulated RNICs post RDMA"
                        + " WRITEs only; expected ib_write_bw or ib_write_lat");
            } else {
                throw new IllegalArgumentException("TEST '" + test + "' is not a perftest test; expected ib_write_bw"
                        + " or ib_write_lat");
            }
            if (bidirectional && latency) {
                throw new IllegalArgumentException("-b: ib_write_lat is a ping-pong, both ways already; expected no"
                        + " -b");
            }
            if (duration != null) {
                throw new IllegalArgumentException("-D " + duration + " is not offered: the simulated tests run by"
                        + " iterations; expected -n ITERATIONS");
            }
            iterations = iters != null ? iters : latency ? 1000 : 5000;
            if (iterations < MIN_ITER) {
                throw new IllegalArgumentException("-n " + iterations + " is too few; expected at least " + MIN_ITER
                        + " iterations, as perftest");
            }
            depth = txDepth != null ? txDepth : latency ? 1 : 128;
            if (latency && depth != 1) {
                throw new IllegalArgumentException("-t " + depth + ": ib_write_lat keeps one WRITE outstanding;"
                        + " expected no -t");
            }
            if (depth < 1 || depth > 15_000) {
                throw new IllegalArgumentException("-t " + depth + " is out of range; expected 1..15000, as perftest");
            }
            if (qps < 1 || qps > 16_384) {
                throw new IllegalArgumentException("-q " + qps + " is out of range; expected 1..16384, as perftest");
            }
            if (latency && qps != 1) {
                throw new IllegalArgumentException("-q " + qps + ": ib_write_lat runs on one QP; expected no -q");
            }
            if (cqMod != null && (cqMod < 1 || cqMod > MAX_CQ_MOD)) {
                throw new IllegalArgumentException("-Q " + cqMod + " is out of range; expected 1.." + MAX_CQ_MOD
                        + ", as perftest");
            }
            if (noPeak && latency) {
                throw new IllegalArgumentException("-N: the peak is a bandwidth figure; expected no -N with"
                        + " ib_write_lat, as perftest");
            }
            if (gidIndex != null && (gidIndex < 0 || gidIndex > 64)) {
                throw new IllegalArgumentException("-x " + gidIndex + " is out of range; expected a GID index 0..64,"
                        + " as perftest");
            }
            if (all && size != null) {
                throw new IllegalArgumentException("-a and -s " + size + " both choose the sizes; expected one of them");
            }
            if (all) {
                for (int e = 1; e <= 23; e++) {
                    sizes.add(1L << e);
                }
            } else {
                sizes.add(size == null ? (latency ? 2L : 65_536L) : size(size));
            }
            dscp = -1;
            if (tos != null) {
                if (tos < 0 || tos > 255) {
                    throw new IllegalArgumentException("-T " + tos + " is out of range; expected a type of service"
                            + " 0..255 (DSCP << 2)");
                }
                dscp = tos >> 2;
            }
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        // perftest's force_dependecies: the depth at most the iterations; a message above 8 KiB signals every WRITE
        // unless -Q asks otherwise or -a runs every size (its default ib_write_bw, 64 KiB, shows CQ Moderation 1);
        // the moderation at most the depth.
        depth = Math.min(depth, iterations);
        boolean large = !all && sizes.get(0) > MSG_SIZE_CQ_MOD_LIMIT;
        int moderation = Math.min(cqMod != null ? cqMod : large ? 1 : DEF_CQ_MOD, depth);
        boolean largeWarning = large && cqMod != null && cqMod > 1;
        ScenarioConfig fabric;
        int clientHost;
        int serverHost;
        try {
            ScenarioReader reader = new ScenarioReader();
            fabric = scenario == null ? reader.readDemo() : reader.fabricOnly().read(scenario);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        int hosts = fabric.topology().hostCount();
        try {
            clientHost = host("--client", client, hosts);
            serverHost = host("--server", server, hosts);
            if (clientHost == serverHost) {
                throw new IllegalArgumentException("--client and --server are both h" + clientHost
                        + "; expected two different hosts");
            }
            if (tos != null && fabric.infiniband() != null) {
                throw new IllegalArgumentException("-T " + tos + " sets an IP type of service, which an InfiniBand"
                        + " fabric's packets do not carry; expected no -T on fabric.mode infiniband");
            }
            int fabricMtu = fabric.nic().mtuBytes();
            if (mtu != null && mtu != fabricMtu) {
                throw new IllegalArgumentException("-m " + mtu + " is not the fabric's MTU (" + fabricMtu
                        + " B, fabric.mtu in the scenario); expected -m " + fabricMtu + " or no -m");
            }
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        header(out, fabric, latency, depth, moderation, largeWarning, clientHost, serverHost);
        Progress progress = Progress.of(err, quiet);
        int index = 0;
        for (long s : sizes) {
            index++;
            progress.label(String.format(Locale.ROOT, "size %d B (%d of %d)", s, index, sizes.size()));
            PerftestTraffic run = new PerftestTraffic(clientHost, serverHost, s, iterations, latency ? 1 : qps, depth,
                    latency ? 1 : moderation, latency, bidirectional, dscp);
            if (latency) {
                Perftest.LatencyRow r = Perftest.latency(fabric, run, progress);
                progress.done();
                if (!r.completed()) {
                    out.printf(Locale.ROOT, "# %d B did not complete before the scenario's run.stop-at%n", s);
                    continue;
                }
                // perftest's REPORT_FMT_LAT, spaces and tabs as it prints them.
                out.printf(Locale.ROOT, " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f"
                        + "\t\t%-7.2f \t\t%-7.2f%n", r.sizeBytes(), r.iterations(), r.minUs(), r.maxUs(),
                        r.typicalUs(), r.averageUs(), r.stdevUs(), r.p99Us(), r.p999Us());
            } else {
                Perftest.BandwidthRow r = Perftest.bandwidth(fabric, run, !noPeak, progress);
                progress.done();
                if (!r.completed()) {
                    out.printf(Locale.ROOT, "# %d B did not complete before the scenario's run.stop-at%n", s);
                    continue;
                }
                // perftest's REPORT_FMT: Gb/s are 125,000,000 bytes per second, MiB/s 1,048,576. Below 0.1 Gb/s
                // it prints REPORT_FMT_EXT instead, six decimals (print_full_bw_report's inc_accuracy).
                double unit = gbits ? 125_000_000.0 : 1_048_576.0;
                double average = r.averageBytesPerSecond() / unit;
                String format = gbits && average < 0.1 ? " %-7d    %d           %-7.6f            %-7.6f            %-7.6f%n"
                        : " %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f%n";
                out.printf(Locale.ROOT, format, r.sizeBytes(), r.iterations(), r.peakBytesPerSecond() / unit, average,
                        r.messagesPerSecond() / 1e6);
            }
            out.flush();
        }
        out.print(LINE);
        out.flush();
        return 0;
    }

    private static final String LINE = "---------------------------------------------------------------------------------------\n";

    private void header(PrintWriter out, ScenarioConfig fabric, boolean latency, int depth, int moderation,
            boolean largeWarning, int clientHost, int serverHost) {
        boolean ib = fabric.infiniband() != null;
        out.printf(Locale.ROOT, "# rocelab perftest %s: h%d writes to h%d on scenario '%s' (simulated: the fabric's and"
                + " the RNICs' time, not the hosts')%n", latency ? "ib_write_lat" : "ib_write_bw", clientHost,
                serverHost, fabric.name());
        if (largeWarning) {
            out.print(LINE);
            out.println("Warning: Large message requested and CQ moderation enabled");
            out.println("Warning: It can lead to inaccurate results");
        }
        if (!latency && !noPeak && iterationsOver(20_000)) {
            out.println(" WARNING: BW peak won't be measured in this run.");
        }
        out.print(LINE);
        out.println("                    RDMA_Write " + (latency ? "Latency" : bidirectional ? "Bidirectional BW" : "BW")
                + " Test");
        out.printf(Locale.ROOT, " Dual-port       : OFF\t\tDevice         : %s%n", device);
        out.printf(Locale.ROOT, " Number of qps   : %d\t\tTransport type : IB%n", latency ? 1 : qps);
        out.println(" Connection type : RC\t\tUsing SRQ      : OFF");
        out.printf(Locale.ROOT, " TX depth        : %d%n", depth);
        if (!latency) {
            out.printf(Locale.ROOT, " CQ Moderation   : %d%n", moderation);
        }
        out.printf(Locale.ROOT, " Mtu             : %d[B]%n", fabric.nic().mtuBytes());
        out.printf(Locale.ROOT, " Link type       : %s%n", ib ? "IB" : "Ethernet");
        // perftest prints the GID index when it has one: -x's, or 0, which it takes on Ethernet without -x.
        if (gidIndex != null || !ib) {
            out.printf(Locale.ROOT, " GID index       : %d%n", gidIndex != null ? gidIndex : 0);
        }
        out.printf(Locale.ROOT, " Max inline data : %d[B]%n", latency ? DEF_INLINE_WRITE : 0);
        out.println(" rdma_cm QPs\t : OFF");
        // The exchange of QP numbers over a TCP socket, which perftest calls Ethernet on any link (rdma_cm with -R).
        out.println(" Data ex. method : Ethernet");
        out.print(LINE);
        if (latency) {
            out.println(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
                    + "   99% percentile[usec]   99.9% percentile[usec] ");
        } else {
            out.println(" #bytes     #iterations    BW peak[" + (gbits ? "Gb/sec" : "MiB/sec") + "]    BW average["
                    + (gbits ? "Gb/sec" : "MiB/sec") + "]   MsgRate[Mpps]");
        }
        out.flush();
    }

    private boolean iterationsOver(int n) {
        return (iters != null ? iters : 5000) > n;
    }

    /** A host of the fabric: its index or hN. */
    private static int host(String flag, String text, int hosts) {
        String t = text.strip();
        String digits = t.startsWith("h") ? t.substring(1) : t;
        int h;
        try {
            h = Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " '" + text + "' is not a host; expected a host index or hN");
        }
        if (h < 0 || h >= hosts) {
            throw new IllegalArgumentException(flag + " " + text + " is not a host of the fabric; expected 0.."
                    + (hosts - 1) + " (h0..h" + (hosts - 1) + ")");
        }
        return h;
    }

    /** A size as perftest takes it (bytes, or with K, M, G: powers of 1024), or with a rocelab unit (64KiB). */
    private static long size(String text) {
        long v;
        try {
            v = ToolSize.parse(text, false);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException("-s '" + text + "' is not a size; expected bytes such as 2, 65536 or"
                    + " 64K");
        }
        if (v < 1 || v > MAX_SIZE) {
            throw new IllegalArgumentException("-s " + text + " is out of range; expected 1.." + MAX_SIZE
                    + " bytes, as perftest");
        }
        return v;
    }
}
