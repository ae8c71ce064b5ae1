package rocelab.observe.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.Nic;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowAggregate;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.FlowsBySize;
import rocelab.observe.flow.SlowdownBySize;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.JobTransferRecord;
import rocelab.observe.job.RankRecord;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

/**
 * Writes a run's output folder: flows.csv, timeline.json (the GPUs' timelines, with jobs or inference), collectives.csv (when there are collectives), transfers.csv (when jobs have point-to-point transfers), requests.csv and llm_calls.csv (with inference services), ports.csv, nics.csv, topology.csv, rates.csv and queues.csv (time series, when
 * sampled), pfc.csv (every PFC frame, when PFC is on), vl.csv (per port and virtual
 * lane, InfiniBand), manifest.json and summary.json. Every file is written atomically; the command line writes a
 * run into a fresh folder that replaces the old one when complete, so files of two runs never mix.
 */
public final class RunWriter {
    public static final String SUMMARY = "summary.json";

    private final int flowsOnTheirOwn;
    private final int ratesOnTheirOwn;

    public RunWriter() {
        this(FLOWS_ON_THEIR_OWN);
    }

    /** A writer that writes flows.csv on a thread of its own from {@code flowsOnTheirOwn} flows on. */
    public RunWriter(int flowsOnTheirOwn) {
        this(flowsOnTheirOwn, RATES_ON_THEIR_OWN);
    }

    /** As {@link #RunWriter(int)}, and rates.csv on a thread of its own from {@code ratesOnTheirOwn} rows on. */
    public RunWriter(int flowsOnTheirOwn, int ratesOnTheirOwn) {
        this.flowsOnTheirOwn = flowsOnTheirOwn;
        this.ratesOnTheirOwn = ratesOnTheirOwn;
    }

    public void write(Path dir, RunResult result, Map<String, Object> manifestExtras) throws IOException {
        write(dir, result, manifestExtras, () -> { });
    }

    /** Work that must finish before summary.json is written (another writer's files into the same folder). */
    public interface BeforeSummary {
        void await() throws IOException;
    }

    /**
     * As {@link #write(Path, RunResult, Map)}, and waits for {@code before} just before writing summary.json, so
     * summary.json stays the last file even when the report is written alongside.
     */
    public void write(Path dir, RunResult result, Map<String, Object> manifestExtras, BeforeSummary before)
            throws IOException {
        write(dir, result, manifestExtras, before, null);
    }

    /**
     * As above, with flows.csv already being written into {@code dir} by {@code started} (null: none), which is waited
     * for before summary.json; a writer started for other records than the result's is waited for and its file
     * written again from the result.
     */
    public void write(Path dir, RunResult result, Map<String, Object> manifestExtras, BeforeSummary before,
            FlowsCsvWriter started) throws IOException {
        Files.createDirectories(dir);
        FlowsCsvWriter flowsWriter = null;
        if (started != null && !started.writes(result)) {
            started.await();
            started = null;
        }
        // A streamed run has no record per flow: flows_aggregated.csv counts them instead (and says so in
        // summary.json); one of the two files, never both, so nothing in the folder is from another run.
        if (result.flowsAreAggregated()) {
            AtomicFiles.write(dir.resolve(FLOWS_AGGREGATED), flowsAggregatedCsv(result.flowsAggregated()));
            Files.deleteIfExists(dir.resolve("flows.csv"));
        } else if (started == null && result.flows().size() < flowsOnTheirOwn) {
            AtomicFiles.write(dir.resolve("flows.csv"), out -> flowsCsv(out, result.flows(), result.pfcLog(),
                    result.creditLog(), result.ecmpLog(), result.simulatedPs(), result.packetLevel()));
            Files.deleteIfExists(dir.resolve(FLOWS_AGGREGATED));
        } else {
            // Millions of rows: flows.csv is written on a thread of its own (started here, or by the command before
            // the run's ideal figures were there) while this one writes the other files (and the report is made on a
            // third), and it is waited for before summary.json, which stays last.
            Files.deleteIfExists(dir.resolve(FLOWS_AGGREGATED));
            flowsWriter = started != null ? started : FlowsCsvWriter.start(dir, result.flows(), result.pfcLog(),
                    result.creditLog(), result.ecmpLog(), result.simulatedPs(), result.packetLevel());
        }
        try {
            writeOthers(dir, result);
        } catch (IOException | RuntimeException e) {
            // Not before flows.csv is done: nothing may write into the folder after this call has returned.
            if (flowsWriter != null) {
                flowsWriter.close();
            }
            throw e;
        }
        AtomicFiles.write(dir.resolve("manifest.json"), toJson(manifest(result, manifestExtras)));
        if (flowsWriter != null) {
            flowsWriter.await();
        }
        before.await();
        AtomicFiles.write(dir.resolve(SUMMARY), summaryJson(result));
    }

    /** Every file but flows.csv, manifest.json and summary.json. */
    private void writeOthers(Path dir, RunResult result) throws IOException {
        // A large rates.csv (the 1,024-host all-to-all: 24 million rows, 750 MB, several seconds) is written on a
        // thread of its own from the start, beside the other files and the report, not after them on this one.
        FileOnItsOwn rates = result.series() != null && result.series().rateRows() >= ratesOnTheirOwn
                ? FileOnItsOwn.start(dir.resolve("rates.csv"), result.series()::writeRatesCsv) : null;
        try {
            writeOthers(dir, result, rates == null);
            if (rates != null) {
                rates.await();
            }
        } finally {
            if (rates != null) {
                rates.close(); // on an error here: nothing writes into the folder once this has returned
            }
        }
    }

    /** Rows from which rates.csv is written on a thread of its own (by default). */
    public static final int RATES_ON_THEIR_OWN = 1_000_000;

    private void writeOthers(Path dir, RunResult result, boolean ratesHere) throws IOException {
        // Port and RNIC counters count packets: a flow-level run has none, so it writes no counter files at all.
        if (result.packetLevel()) {
            AtomicFiles.write(dir.resolve("ports.csv"), portsCsv(result.network()));
            AtomicFiles.write(dir.resolve("nics.csv"), nicsCsv(result.network()));
        } else {
            Files.deleteIfExists(dir.resolve("ports.csv"));
            Files.deleteIfExists(dir.resolve("nics.csv"));
        }
        AtomicFiles.write(dir.resolve("topology.csv"), topologyCsv(result.network()));
        SlowdownBySize bySize = result.flowsAreAggregated() ? null : SlowdownBySize.of(result.flows());
        if (bySize != null && bySize.bins().size() > 1) {
            AtomicFiles.write(dir.resolve(SLOWDOWN_BY_SIZE), slowdownBySizeCsv(bySize));
        } else {
            Files.deleteIfExists(dir.resolve(SLOWDOWN_BY_SIZE));
        }
        // Optional files: written when this run has them, removed when a previous run into the same folder left
        // them, so nothing in the folder describes another run.
        if (result.pfcLog() != null) {
            AtomicFiles.write(dir.resolve("pfc.csv"), result.pfcLog()::writeCsv);
            AtomicFiles.write(dir.resolve("pfc_counters.csv"), pfcCountersCsv(result.network()));
        } else {
            Files.deleteIfExists(dir.resolve("pfc.csv"));
            Files.deleteIfExists(dir.resolve("pfc_counters.csv"));
        }
        var lanes = result.packetLevel() ? VirtualLanes.of(result.network()) : null;
        if (lanes != null) {
            AtomicFiles.write(dir.resolve("vl.csv"), lanes.csv());
        } else {
            Files.deleteIfExists(dir.resolve("vl.csv"));
        }
        if (!result.collectives().isEmpty()) {
            AtomicFiles.write(dir.resolve("collectives.csv"), out -> collectivesCsv(out, result.collectives()));
        } else {
            Files.deleteIfExists(dir.resolve("collectives.csv"));
        }
        if (!result.transfers().isEmpty()) {
            AtomicFiles.write(dir.resolve("transfers.csv"), out -> transfersCsv(out, result.transfers()));
        } else {
            Files.deleteIfExists(dir.resolve("transfers.csv"));
        }
        if (!result.jobs().isEmpty()) {
            AtomicFiles.write(dir.resolve("jobs.csv"), jobsCsv(result.jobs()));
            AtomicFiles.write(dir.resolve("ranks.csv"), ranksCsv(result.ranks()));
            AtomicFiles.write(dir.resolve("timeline.csv"), timelineCsv(result.timeline()));
        } else {
            Files.deleteIfExists(dir.resolve("jobs.csv"));
            Files.deleteIfExists(dir.resolve("ranks.csv"));
            Files.deleteIfExists(dir.resolve("timeline.csv"));
        }
        if (result.gpuTimeline() != null) {
            AtomicFiles.write(dir.resolve("timeline.json"), result.gpuTimeline()::writeJson);
        } else {
            Files.deleteIfExists(dir.resolve("timeline.json"));
        }
        if (!result.services().isEmpty() || !result.requests().isEmpty()) {
            AtomicFiles.write(dir.resolve("requests.csv"), InferenceOutput.requestsCsv(result.requests()));
            AtomicFiles.write(dir.resolve("llm_calls.csv"), InferenceOutput.llmCallsCsv(result.llmCalls()));
        } else {
            Files.deleteIfExists(dir.resolve("requests.csv"));
            Files.deleteIfExists(dir.resolve("llm_calls.csv"));
        }
        // Per QP, the bytes its receiver got in order per sample: queue pairs exist at packet level only.
        if (result.series() != null && result.packetLevel()) {
            AtomicFiles.write(dir.resolve(THROUGHPUT), result.series()::writeThroughputCsv);
        } else {
            Files.deleteIfExists(dir.resolve(THROUGHPUT));
        }
        if (result.series() != null) {
            if (ratesHere) {
                AtomicFiles.write(dir.resolve("rates.csv"), result.series()::writeRatesCsv);
            }
            AtomicFiles.write(dir.resolve("queues.csv"), result.series()::writeQueuesCsv);
            AtomicFiles.write(dir.resolve("links.csv"), result.series()::writeLinksCsv);
        } else {
            Files.deleteIfExists(dir.resolve("links.csv"));
            Files.deleteIfExists(dir.resolve("rates.csv"));
            Files.deleteIfExists(dir.resolve("queues.csv"));
        }
    }

    /** The per-QP throughput series (see TimeSeriesSampler#writeThroughputCsv). */
    public static final String THROUGHPUT = "throughput.csv";

    /** Flows from which flows.csv is written on a thread of its own, beside the other files (by default). */
    public static final int FLOWS_ON_THEIR_OWN = 200_000;

    /** The text of a run's summary.json, exactly as {@link #write} writes it. */
    public static String summaryJson(RunResult result) {
        return JsonText.render(Summary.of(result));
    }

    public String toJson(Object tree) {
        return JsonText.render(tree);
    }

    static Map<String, Object> manifest(RunResult r, Map<String, Object> extras) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rocelab_version", r.version());
        m.put("scenario", r.scenario());
        m.put("seed", r.seed());
        m.put("scenario_sha256", r.scenarioHash());
        m.putAll(extras);
        return m;
    }

    /**
     * The flow list, streamed row by row (a flow-level run has millions). With a PFC log, each flow's waits behind
     * pauses (all, and rooted off its way), the root it waited behind most (a victim: the off-way one), and whether
     * it is a PFC victim; on InfiniBand, from the credit log, the same for its waits for credits (the columns named
     * for credits: {@code credit_wait_us}, {@code credit_root}, {@code credit_victim}), so a flow the summary names an
     * IB victim is one here too; with an ECMP log, each flow's waits behind ECMP collisions (0 without one: no switch
     * hashed among equal-cost ports); without packets ({@code packets} false) the pause and collision columns are
     * empty: nothing was paused or queued.
     */
    static void flowsCsv(OutputStream out, List<FlowRecord> flows, PfcLog pfc, CreditLog credits,
            EcmpLog ecmp, long endPs, boolean packets) throws IOException {
        boolean ib = pfc == null && credits != null;
        CsvStream t = new CsvStream(out, List.of("flow_id", "src", "dst", "size_bytes", "start_us", "finish_us",
                "fct_us", "delivered_us", "ideal_fct_us", "slowdown", "status", "qp", "udp_sport",
                ib ? "credit_wait_us" : "paused_wait_us", "victim_wait_us", ib ? "credit_root" : "pause_root",
                ib ? "credit_victim" : "pfc_victim", "ecmp_wait_us", "rate_held_us", "qp_wait_us", "delivered_bytes"));
        // Each victim's off-way root by flow id (ids are the flows' indices; a map would box a million of them).
        FlowWaits.Root[] victimRoot = null;
        boolean[] isVictim = null;
        List<Victims.Victim> victims = pfc != null ? pfc.victims(flows, endPs)
                : credits != null ? credits.victims(flows, endPs) : List.of();
        for (var v : victims) {
            int id = v.id();
            if (victimRoot == null || id >= victimRoot.length) {
                int n = Math.max(flows.size(), id + 1);
                victimRoot = victimRoot == null ? new FlowWaits.Root[n]
                        : Arrays.copyOf(victimRoot, n);
                isVictim = isVictim == null ? new boolean[n] : Arrays.copyOf(isVictim, n);
            }
            victimRoot[id] = v.root();
            isVictim[id] = true;
        }
        FlowWaits waits = pfc != null ? null : credits != null ? credits.flowWaits() : null;
        for (FlowRecord f : flows) {
            var roots = pfc != null ? pfc.roots(f.id()) : waits != null ? waits.roots(f.id())
                    : List.<FlowWaits.Root>of();
            boolean victim = isVictim != null && f.id() >= 0 && f.id() < isVictim.length && isVictim[f.id()];
            var root = victim ? victimRoot[f.id()] : roots.isEmpty() ? null : roots.get(0);
            t.number(f.id()).number(f.src()).number(f.dst()).number(f.sizeBytes());
            // Never posted (a failure reached it first): no start, rather than the earliest it could have had.
            if (f.startPs() < 0) {
                t.empty();
            } else {
                t.micros(f.startPs());
            }
            if (f.finishPs() < 0) {
                t.empty().empty();
            } else {
                t.micros(f.finishPs()).micros(f.fctPs());
            }
            if (f.deliveredPs() < 0) {
                t.empty();
            } else {
                t.micros(f.deliveredPs());
            }
            // An ideal time beyond the representable range (a 1 bit/s link) is unknown, not a number.
            if (f.idealFctPs() == Long.MAX_VALUE) {
                t.empty();
            } else {
                t.micros(f.idealFctPs());
            }
            t.number(f.slowdown()).text(f.status())
                    .number(f.queuePair());
            // InfiniBand has no UDP header: the column stays (its place is the schema) and is empty.
            if (f.hasUdpSourcePort()) {
                t.number(f.udpSourcePort());
            } else {
                t.empty();
            }
            if (packets) {
                t.micros(pfc != null ? pfc.pausedWaitPs(f.id()) : waits != null ? waits.waitPs(f.id()) : 0)
                        .micros(pfc != null ? pfc.offPathWaitPs(f.id()) : waits != null ? waits.offPathWaitPs(f.id()) : 0);
            } else {
                t.empty().empty();
            }
            t.text(root == null ? null : root.others() ? Victims.OTHERS
                    : pfc != null ? pfc.rootName(root.kind(), root.node(), root.port()) : credits.rootName(root));
            if (packets) {
                t.bool(victim).micros(ecmp == null ? 0 : ecmp.waitPs(f.id()));
            } else {
                t.empty().empty();
            }
            if (f.rateHeldPs() >= 0) {
                t.micros(f.rateHeldPs());
            } else {
                t.empty();
            }
            if (f.qpWaitPs() >= 0) {
                t.micros(f.qpWaitPs());
            } else {
                t.empty();
            }
            if (f.deliveredBytes() >= 0) {
                t.number(f.deliveredBytes());
            } else {
                t.empty();
            }
            t.endRow();
        }
        t.flush();
    }

    /** The file of a run whose flows are aggregated (see {@link #flowsAggregatedCsv}). */
    public static final String FLOWS_AGGREGATED = "flows_aggregated.csv";

    /** The completed flows' slowdowns by flow size, when they have more than one size. */
    public static final String SLOWDOWN_BY_SIZE = "slowdown_by_size.csv";

    /** slowdown_by_size.csv: one row per bin of {@link SlowdownBySize}, smallest sizes first. */
    static String slowdownBySizeCsv(SlowdownBySize bySize) {
        CsvTable t = new CsvTable(List.of("bin", "flows", "size_min_bytes", "size_max_bytes", "fct_p50_us",
                "fct_p99_us", "slowdown_mean", "slowdown_p50", "slowdown_p95", "slowdown_p99", "slowdown_max"));
        int i = 0;
        for (SlowdownBySize.Bin b : bySize.bins()) {
            t.row(i++, b.flows(), b.sizeMinBytes(), b.sizeMaxBytes(), Numbers.micros(b.fctP50Ps()),
                    Numbers.micros(b.fctP99Ps()), Numbers.round(b.slowdownMean(), 6),
                    Numbers.round(b.slowdownP50(), 6), Numbers.round(b.slowdownP95(), 6),
                    Numbers.round(b.slowdownP99(), 6), Numbers.round(b.slowdownMax(), 6));
        }
        return t.toString();
    }

    /**
     * flows_aggregated.csv: a row for all flows ({@code size_bytes} is {@code all}), then one per message size
     * ascending (and {@code other} for the sizes beyond {@link FlowsBySize#MAX_SIZES}); the FCT
     * and slowdown quantiles are the lower edges of log-histogram buckets (at most 0.8 % low).
     */
    static String flowsAggregatedCsv(FlowsBySize flows) {
        CsvTable t = new CsvTable(List.of("size_bytes", "flows", "completed", "failed", "unfinished", "bytes_completed",
                "first_start_us", "last_finish_us", "fct_min_us", "fct_mean_us", "fct_p50_us", "fct_p90_us",
                "fct_p99_us", "fct_max_us", "slowdown_p50", "slowdown_p99", "slowdown_max"));
        aggregateRow(t, "all", flows.all());
        for (long size : flows.sizes()) {
            aggregateRow(t, size, flows.ofSize(size));
        }
        if (flows.otherSizes() != null) {
            aggregateRow(t, "other", flows.otherSizes());
        }
        return t.toString();
    }

    private static void aggregateRow(CsvTable t, Object size, FlowAggregate a) {
        boolean any = a.completedCount() > 0;
        t.row(size, a.count(), a.completedCount(), a.failedCount(), a.unfinishedCount(), a.bytesCompleted(),
                any ? Numbers.micros(a.firstStartPs()) : null, any ? Numbers.micros(a.lastFinishPs()) : null,
                any ? Numbers.micros(a.fctMinPs()) : null,
                any ? Numbers.round(a.fctMeanPs() / 1e6, 6) : null,
                any ? Numbers.micros(a.fctQuantilePs(0.50)) : null, any ? Numbers.micros(a.fctQuantilePs(0.90)) : null,
                any ? Numbers.micros(a.fctQuantilePs(0.99)) : null, any ? Numbers.micros(a.fctMaxPs()) : null,
                any ? Numbers.round(a.slowdownQuantile(0.50), 6) : null,
                any ? Numbers.round(a.slowdownQuantile(0.99), 6) : null,
                any ? Numbers.round(a.slowdownMax(), 6) : null);
    }

    /**
     * collectives.csv streamed row by row, the bytes {@link CsvTable} gives for the same cells (a job's iteration
     * has hundreds of thousands of collective calls: the table held the file twice, and a string per cell).
     */
    static void collectivesCsv(OutputStream out, List<CollectiveRecord> collectives)
            throws IOException {
        CsvStream t = new CsvStream(out, List.of("job", "name", "iteration", "algorithm", "ranks", "size_bytes", "runs", "start_us",
                "entry_spread_us", "ideal_entry_spread_us", "end_us", "time_us", "algbw_gbytes_per_s",
                "busbw_gbytes_per_s", "ideal_time_us", "network_slowdown", "concurrent_calls", "concurrent_longest",
                "concurrent_longest_us", "concurrent_transfers", "concurrent_transfer_longest",
                "concurrent_transfer_longest_us", "beside_items", "beside_longest",
                "beside_longest_us", "links_beside_items", "links_beside_longest", "links_beside_longest_us",
                "links_beside_at", "rate_held_share", "status"));
        for (var c : collectives) {
            t.text(c.job()).text(c.name());
            if (c.iteration() >= 0) {
                t.number(c.iteration());
            } else {
                t.empty();
            }
            t.text(c.algorithm()).number(c.ranks()).number(c.sizeBytes()).number(c.runs());
            if (c.startPs() >= 0) {
                t.micros(c.startPs());
            } else {
                t.empty();
            }
            if (c.entrySpreadPs() >= 0) {
                t.micros(c.entrySpreadPs());
            } else {
                t.empty();
            }
            if (c.idealEntrySpreadPs() >= 0) {
                t.micros(c.idealEntrySpreadPs());
            } else {
                t.empty();
            }
            if (c.completed()) {
                t.micros(c.endPs()).micros(c.timePs()).rounded(c.algbwGBps(), 3).rounded(c.busbwGBps(), 3);
            } else {
                t.empty().empty().empty().empty();
            }
            if (c.idealTimePs() >= 0) {
                t.micros(c.idealTimePs());
            } else {
                t.empty();
            }
            if (Double.isNaN(c.networkSlowdown())) {
                t.empty();
            } else {
                t.rounded(c.networkSlowdown(), 3);
            }
            CollectiveRecord.Concurrent k = c.concurrent();
            t.number(k.calls()).text(k.longest());
            if (k.calls() > 0) {
                t.micros(k.overlapPs());
            } else {
                t.empty();
            }
            t.number(k.transfers()).text(k.longestTransfer());
            if (k.transfers() > 0) {
                t.micros(k.transferOverlapPs());
            } else {
                t.empty();
            }
            CollectiveRecord.Beside b = c.beside();
            t.number(b.items()).text(b.longest());
            if (b.items() > 0) {
                t.micros(b.overlapPs());
            } else {
                t.empty();
            }
            CollectiveRecord.OnLinks l = c.onLinks();
            t.number(l.items()).text(l.longest());
            if (l.items() > 0) {
                t.micros(l.overlapPs());
            } else {
                t.empty();
            }
            t.text(l.at());
            if (Double.isNaN(c.rateHeldShare())) {
                t.empty();
            } else {
                t.rounded(c.rateHeldShare(), 3);
            }
            t.text(c.completed() ? "completed" : "unfinished").endRow();
        }
        t.flush();
    }

    /**
     * transfers.csv: every point-to-point transfer of the jobs, by its flow in flows.csv (empty over NVLink), its time
     * from post to end against its time alone.
     */
    static void transfersCsv(OutputStream out, List<JobTransferRecord> transfers) throws IOException {
        CsvStream t = new CsvStream(out, List.of("job", "name", "receive", "iteration", "src_rank", "dst_rank",
                "src_host", "dst_host", "size_bytes", "over", "flow_id", "start_us", "end_us", "time_us",
                "ideal_time_us", "network_slowdown", "status"));
        for (var x : transfers) {
            t.text(x.job()).text(x.sendName()).text(x.recvName()).number(x.iteration()).number(x.srcRank())
                    .number(x.dstRank()).number(x.srcHost()).number(x.dstHost()).number(x.bytes())
                    .text(x.nvlink() ? "nvlink" : "fabric");
            if (x.nvlink()) {
                t.empty();
            } else {
                t.number(x.flow());
            }
            if (x.startPs() >= 0) {
                t.micros(x.startPs());
            } else {
                t.empty();
            }
            if (x.completed()) {
                t.micros(x.endPs()).micros(x.timePs());
            } else {
                t.empty().empty();
            }
            if (x.idealPs() > 0) {
                t.micros(x.idealPs());
            } else {
                t.empty();
            }
            if (Double.isNaN(x.slowdown())) {
                t.empty();
            } else {
                t.rounded(x.slowdown(), 3);
            }
            t.text(x.completed() ? "completed" : x.startPs() < 0 ? "not posted" : "unfinished").endRow();
        }
        t.flush();
    }

    static String jobsCsv(List<JobRecord> jobs) {
        CsvTable t = new CsvTable(List.of("job", "ranks", "iterations", "warmup", "start_us", "jct_us",
                "ideal_jct_us", "network_penalty_us", "network_penalty_percent", "per_iteration_us",
                "ideal_per_iteration_us", "iteration_us", "ideal_iteration_us",
                "compute_us", "exposed_comm_us", "idle_us", "ideal_exposed_comm_us", "ideal_idle_us", "network_wait_us",
                "max_rank_network_wait_us", "status"));
        for (var j : jobs) {
            t.row(j.job(), j.ranks(), j.iterations(), j.warmup(), Numbers.micros(j.startPs()),
                    j.completed() ? Numbers.micros(j.jctPs()) : null, Numbers.micros(j.idealJctPs()),
                    j.completed() ? Numbers.micros(j.networkPenaltyPs()) : null,
                    j.completed() ? Numbers.round(j.networkPenaltyPercent(), 2) : null, us(j.perIterationUs()),
                    us(j.idealPerIterationUs()), us(j.iterationUs()),
                    us(j.idealIterationUs()), us(j.computeUs()), us(j.exposedCommUs()), us(j.idleUs()),
                    us(j.idealExposedCommUs()), us(j.idealIdleUs()), us(j.networkWaitUs()), us(j.maxNetworkWaitUs()), j.completed() ? "completed" : "unfinished");
        }
        return t.toString();
    }

    static String ranksCsv(List<RankRecord> ranks) {
        CsvTable t = new CsvTable(List.of("job", "rank", "host", "coords", "iteration_us", "compute_us",
                "exposed_comm_us", "idle_us", "ideal_exposed_comm_us", "ideal_idle_us", "network_wait_us"));
        for (var r : ranks) {
            t.row(r.job(), r.rank(), r.host(), r.coords(), us(r.iterationUs()), us(r.computeUs()),
                    us(r.exposedCommUs()), us(r.idleUs()), us(r.idealExposedCommUs()), us(r.idealIdleUs()),
                    us(r.networkWaitUs()));
        }
        return t.toString();
    }

    static String timelineCsv(List<TimelineRecord> timeline) {
        CsvTable t = new CsvTable(List.of("job", "rank", "kind", "start_us", "end_us", "label"));
        for (var e : timeline) {
            t.row(e.job(), e.rank(), e.kind(), Numbers.micros(e.startPs()), Numbers.micros(e.endPs()), e.label());
        }
        return t.toString();
    }

    /** Microseconds to 3 decimals (nanosecond resolution), or empty when not known. */
    private static Object us(double micros) {
        return Double.isNaN(micros) ? null : Numbers.round(micros, 3);
    }

    static String portsCsv(Network network) {
        boolean ib = network.isInfiniband();
        List<String> header = new ArrayList<>(List.of("switch", "port", "peer", "rate_gbps"));
        for (PortCounter c : PortCounter.values()) {
            String name = ib ? IbCounterNames.port(c) : c.key();
            if (name != null) {
                header.add(name);
            }
        }
        if (ib) {
            header.add(IbCounterNames.XMIT_WAIT);
        }
        header.add("peak_queue_bytes");
        CsvTable t = new CsvTable(header);
        Topology topo = network.topology();
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                EgressPort ep = sw.port(p);
                List<Object> row = new ArrayList<>();
                row.add(sw.name());
                row.add(p);
                row.add(topo.nodeName(topo.peer(sw.nodeId(), p).node()));
                row.add(ep.rateBps() / 1e9);
                for (PortCounter c : PortCounter.values()) {
                    if (!ib) {
                        row.add(ep.counter(c));
                    } else if (IbCounterNames.port(c) != null) {
                        row.add(IbCounterNames.value(c, ep.counter(c)));
                    }
                }
                if (ib) {
                    row.add(Numbers.micros(IbCounterNames.waitPs(ep.creditGate(), network.simulator().nowPs())));
                }
                row.add(ep.peakQueuedBytes());
                t.row(row.toArray());
            }
        }
        return t.toString();
    }

    /** Per switch port and priority, like SONiC's {@code show pfc counters}: PFC frames sent and received, pause time. */
    static String pfcCountersCsv(Network network) {
        List<String> header = new ArrayList<>(List.of("switch", "port", "peer"));
        for (String kind : new String[] {"tx_prio%d_pause", "rx_prio%d_pause", "rx_prio%d_pause_duration_us"}) {
            for (int prio = 0; prio < 8; prio++) {
                header.add(String.format(kind, prio));
            }
        }
        CsvTable t = new CsvTable(header);
        Topology topo = network.topology();
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                EgressPort ep = sw.port(p);
                List<Object> row = new ArrayList<>();
                row.add(sw.name());
                row.add(p);
                row.add(topo.nodeName(topo.peer(sw.nodeId(), p).node()));
                for (int prio = 0; prio < 8; prio++) {
                    row.add(ep.pauseFramesSent(prio));
                }
                for (int prio = 0; prio < 8; prio++) {
                    row.add(ep.pauseFramesReceived(prio));
                }
                for (int prio = 0; prio < 8; prio++) {
                    row.add(Numbers.micros(ep.pausedPs(prio)));
                }
                t.row(row.toArray());
            }
        }
        return t.toString();
    }

    /** One row per link: {@code a,b,a_tier,b_tier,rate_gbps,delay_us} (tier 0: hosts; 1: leaves or edges; ...). */
    static String topologyCsv(Network network) {
        Topology t = network.topology();
        CsvTable table = new CsvTable(List.of("a", "b", "a_tier", "b_tier", "rate_gbps", "delay_us"));
        for (Topology.Edge e : t.edges()) {
            int a = e.a().node();
            int b = e.b().node();
            table.row(t.nodeName(a), t.nodeName(b), t.isHost(a) ? 0 : t.switchTier(a), t.isHost(b) ? 0
                    : t.switchTier(b), e.parameters().rateBps() / 1e9, Numbers.micros(e.parameters().delayPs()));
        }
        return table.toString();
    }

    /** Counters added after the InfiniBand-only column: they follow it, so every older column keeps its place. */
    private static final int FIRST_APPENDED_NIC_COUNTER = NicCounter.SELECTIVE_RETRANSMITTED.ordinal();

    static String nicsCsv(Network network) {
        boolean ib = network.isInfiniband();
        List<String> header = new ArrayList<>(List.of("host", "server", "rate_gbps"));
        for (NicCounter c : NicCounter.values()) {
            String name = ib ? IbCounterNames.nic(c) : c.key();
            if (name != null && c.ordinal() < FIRST_APPENDED_NIC_COUNTER) {
                header.add(name);
            }
        }
        if (ib) {
            header.add(IbCounterNames.XMIT_WAIT);
        }
        for (NicCounter c : NicCounter.values()) {
            if (c.ordinal() >= FIRST_APPENDED_NIC_COUNTER) {
                header.add(ib ? IbCounterNames.nic(c) : c.key());
            }
        }
        // Multi-plane fabrics only (so every other nics.csv keeps its columns): each port's data and pause time.
        int planes = network.planes();
        for (int p = 0; planes > 1 && p < planes; p++) {
            header.add("p" + p + "_tx_data_packets");
            header.add("p" + p + "_tx_data_bytes");
            header.add("p" + p + "_rx_pause_duration_us");
        }
        CsvTable t = new CsvTable(header);
        for (int h = 0; h < network.hostCount(); h++) {
            Nic nic = network.nic(h);
            List<Object> row = new ArrayList<>();
            row.add(h);
            row.add(network.topology().serverOf(h));
            row.add(nic.lineRateBps() / 1e9);
            for (NicCounter c : NicCounter.values()) {
                if ((!ib || IbCounterNames.nic(c) != null) && c.ordinal() < FIRST_APPENDED_NIC_COUNTER) {
                    row.add(nic.counter(c));
                }
            }
            if (ib) {
                row.add(Numbers.micros(IbCounterNames.waitPs(nic.creditGate(), network.simulator().nowPs())));
            }
            for (NicCounter c : NicCounter.values()) {
                if (c.ordinal() >= FIRST_APPENDED_NIC_COUNTER) {
                    row.add(nic.counter(c));
                }
            }
            for (int p = 0; planes > 1 && p < planes; p++) {
                row.add(nic.portDataPackets(p));
                row.add(nic.portDataBytes(p));
                long paused = 0;
                for (int prio = 0; prio < 8; prio++) {
                    paused += nic.pausedPs(p, prio, network.simulator().nowPs());
                }
                row.add(Numbers.micros(paused));
            }
            t.row(row.toArray());
        }
        return t.toString();
    }
}
