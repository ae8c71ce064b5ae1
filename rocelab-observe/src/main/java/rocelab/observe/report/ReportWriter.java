package rocelab.observe.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rocelab.observe.RunResult;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.SlowdownBySize;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.JobTransferRecord;
import rocelab.observe.job.RankRecord;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.output.AtomicFiles;
import rocelab.observe.output.FlowsCsvWriter;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.RunWriter;

/**
 * Builds {@code report.html} of a run, from the run in memory ({@link #write(Path, RunResult, Map)}) or from the
 * files of its folder ({@link #write(Path)}, for {@code rocelab report OUTDIR}): one self-contained page with the key
 * numbers and findings first, the jobs and collectives ranked by what the network cost them, then every time series
 * on one shared, zoomable simulated-time axis, the distributions, the fabric and the hottest ports. Every chart is
 * also written as {@code charts/<name>.svg} and {@code .png}.
 */
public final class ReportWriter {
    /**
     * What every ideal figure of the report is, in one sentence for its notes: the lower bound the run is measured
     * against (IdealBound, docs/flow-model.md), not a run of its own at some sharing rule.
     */
    static final String IDEAL_NETWORK = "a lower bound of the same job or service alone (the workload's other items, such"
            + " as background traffic on the same RNICs, show as network wait, not in the ideal) on an ideal network"
            + " (a non-blocking fabric"
            + " between the RNICs and NVLink ports, every link up the whole run, whatever the scenario's link events):"
            + " every message takes at least its time alone (its wire bytes at"
            + " its path's slowest link, or its receiver's pipeline when slower, plus the path's fixed latency), and the"
            + " messages through one port no less"
            + " than the port needs to carry them all; no run on a fabric with these ports ends earlier.";

    public static final String FILE = "report.html";
    static final int TOP_QUEUES = 4;
    static final int TOP_SERIES = 6;
    static final int TOP_PAUSED = 24;
    static final int TOP_PORTS = 12;
    static final int MAX_ROWS = 200;
    static final int MAX_LANE_ROWS = 64;

    private ReportWriter() {}

    /**
     * The first file the report of the run in {@code dir} needs that the folder lacks, and why, or null: checked
     * before {@link #write(Path)}, so that a folder with a file removed is not drawn as if the run had none.
     */
    public static String missingFile(Path dir) throws IOException {
        return ReportFolder.missing(dir);
    }

    /** Rebuilds the report of a finished run from the files in its folder. */
    public static Path write(Path dir) throws IOException {
        return write(dir, ReportFolder.read(dir));
    }

    /** Builds the report of a run that just finished, from its results in memory. */
    public static Path write(Path dir, RunResult result, Map<String, Object> manifest) throws IOException {
        return write(dir, ReportData.of(result, manifest));
    }

    /**
     * Starts, on a daemon thread, the set-up the report's first chart image would otherwise pay on the report's way
     * at the end of the run (see {@link ChartImage#warmUp()}): for a command that writes a report, called before it
     * reads its scenario, while the second core is idle. Nothing is written; a failure here is left for the report
     * to meet. Join the thread before the run's loop, so that the loop's time is its own.
     */
    public static Thread warmUpInBackground() {
        Thread t = new Thread(() -> {
            try {
                ChartImage.warmUp();
            } catch (RuntimeException | Error ignored) {
                // The report draws the same things and reports what fails there.
            }
        }, "report-warm-up");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Writes a finished run's whole folder: the files ({@link RunWriter}) on this thread and, at the same time on
     * another, the report from the run in memory (both only read the result); summary.json is written last, after
     * both.
     */
    public static void writeRun(Path dir, RunResult result, Map<String, Object> manifest) throws IOException {
        writeRun(dir, result, manifest, null);
    }

    /** As above, with flows.csv already being written into {@code dir} by {@code flows} (null: none). */
    public static void writeRun(Path dir, RunResult result, Map<String, Object> manifest,
            FlowsCsvWriter flows) throws IOException {
        Files.createDirectories(dir);
        IOException[] failed = new IOException[1];
        // An error on the report's thread (running out of heap above all) is thrown again on this one, where the
        // command turns it into one line and exit code; left to the thread it would print a stack trace.
        Throwable[] broken = new Throwable[1];
        ChartDrawing drawing = new ChartDrawing(dir.resolve("charts"));
        Thread report = new Thread(() -> {
            try {
                write(dir, ReportData.of(result, manifest), drawing);
            } catch (IOException e) {
                failed[0] = e;
            } catch (RuntimeException | Error e) {
                broken[0] = e;
            } finally {
                drawing.close();
            }
        }, "report");
        report.setDaemon(true);
        report.start();
        new RunWriter().write(dir, result, manifest, () -> {
            // This thread's files are written: it draws charts beside the report's thread until none is left.
            drawing.help();
            try {
                report.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the report was written");
            }
            if (failed[0] != null) {
                throw failed[0];
            }
            if (broken[0] instanceof Error e) {
                throw e;
            }
            if (broken[0] != null) {
                throw (RuntimeException) broken[0];
            }
        }, flows);
    }

    static Path write(Path dir, ReportData d) throws IOException {
        return write(dir, d, new ChartDrawing(dir.resolve("charts")));
    }

    /** The report of {@code d}, its charts' images drawn by {@code drawing} (which another thread may help). */
    static Path write(Path dir, ReportData d, ChartDrawing drawing) throws IOException {
        try {
            // The fabric is drawn once, for the page and for charts/fabric.svg.
            String fabric = fabric(d);
            Page page = page(d, fabric, drawing);
            String html = page.finish();
            Path out = dir.resolve(FILE);
            AtomicFiles.write(out, html);
            drawing.finish(fabric);
            return out;
        } finally {
            drawing.close();
        }
    }

    static Page page(ReportData d) {
        return page(d, fabric(d), null);
    }

    /**
     * The page, with the fabric's drawing already made ({@link #fabric}; null: none), each chart handed to
     * {@code drawing} as it is added (null: none).
     */
    static Page page(ReportData d, String fabric, ChartDrawing drawing) {
        Page p = new Page("rocelab report: " + d.scenario, drawing);
        p.html("<h1>rocelab report: " + Page.esc(d.scenario) + "</h1>");
        Map<String, Object> s = d.summary;
        p.html("<p class='meta'>" + Page.esc(modeName(d.mode)) + (d.packetLevel() ? "" : " · model "
                + Page.esc(d.model())) + " · seed " + Page.esc(str(s.get("seed")))
                + ("ideal".equals(d.model()) ? " · ideal end " : " · simulated ") + Page.esc(Fmt.time(d.endUs)) + " · stop reason " + Page.esc(str(s.get("stop_reason")))
                + "</p>");
        KeyNumbers.append(p, d);
        Findings.append(p, d);
        jobs(p, d);
        collectives(p, d);
        transfers(p, d);
        InferenceSection.append(p, d);
        TimeCharts.append(p, d);
        flows(p, d);
        if (fabric != null) {
            String dashed = anySlowerLink(d) ? "; dashed: a link slower than the fastest between the same two tiers"
                    + " (each link's rate and delay in its tooltip and in topology.csv)" : "";
            p.h2("Fabric").html(fabric).note(d.packetLevel() ? "links shaded by the deepest egress queue on them,"
                    + " either way (red: the run's deepest)" + dashed + "; also charts/fabric.svg"
                    : "links not shaded: the " + d.model() + " model has no queues" + dashed
                            + "; also charts/fabric.svg");
        } else if (!d.topology.isEmpty()) {
            p.h2("Fabric").note(nodes(d) + " nodes: too many to draw; the hottest ports are below and every link is"
                    + " in topology.csv");
        }
        ports(p, d);
        lanes(p, d);
        p.h2("Files").html("<p class='files'>" + (d.packetLevel() ? "flows.csv, ports.csv, nics.csv, topology.csv,"
                + " summary.json and manifest.json always; queues.csv, rates.csv, links.csv when sampled; pfc.csv with"
                + " PFC; vl.csv on InfiniBand; " : "flows.csv (flows_aggregated.csv when streamed), topology.csv,"
                + " summary.json and manifest.json; no ports.csv, nics.csv, queues.csv, rates.csv, links.csv, pfc.csv"
                + " or vl.csv: the " + d.model() + " model counts no packets; ") + "slowdown_by_size.csv when the"
                + " flows have more than one size; collectives.csv, jobs.csv,"
                + " ranks.csv, timeline.csv with jobs (transfers.csv too when they send point to point); requests.csv and llm_calls.csv with inference; charts/ holds"
                + " every chart as SVG and PNG. docs/outputs.md describes them all.</p>");
        return p;
    }

    static String modeName(String mode) {
        return switch (mode) {
            case "roce-lossless" -> "RoCEv2, lossless (PFC)";
            case "roce-lossy" -> "RoCEv2, lossy";
            case "infiniband" -> "InfiniBand";
            default -> mode;
        };
    }

    static String str(Object o) {
        return o == null ? "" : o.toString();
    }

    /** Jobs, the one the network cost most (share of its ideal JCT) first, and the GPU's view of each rank. */
    private static void jobs(Page p, ReportData d) {
        if (d.jobs.isEmpty()) {
            return;
        }
        // The ideal model compared with itself has no penalty or network wait to tell (zero by construction).
        boolean ideal = "ideal".equals(d.model());
        p.h2(ideal ? "Jobs: the GPUs on the ideal network" : "Jobs: what the network cost the GPUs");
        List<JobRecord> jobs = new ArrayList<>(d.jobs);
        jobs.sort(Comparator.comparingDouble((JobRecord j) -> j.completed() ? -j.networkPenaltyPercent() : 1)
                .thenComparing(JobRecord::job));
        List<List<String>> rows = new ArrayList<>();
        for (JobRecord j : jobs) {
            rows.add(List.of(j.job(), String.valueOf(j.ranks()), j.completed() ? Fmt.us(j.jctPs() / 1e6) : "",
                    Fmt.us(j.idealJctPs() / 1e6), j.completed() && !ideal ? Fmt.num(j.networkPenaltyPercent(), 1)
                            + " %" : "", Fmt.us(j.perIterationUs()), Fmt.us(j.computeUs()), Fmt.us(j.exposedCommUs()),
                    Fmt.us(j.idleUs()), ideal ? "" : Fmt.us(j.networkWaitUs()), ideal ? "" : Fmt.us(j.maxNetworkWaitUs()),
                    j.completed() ? "completed" : "unfinished"));
        }
        p.table(List.of("job", "ranks", "JCT us", "ideal JCT us", "network penalty", "per iteration us", "compute us",
                "exposed comm us", "idle us", "GPU network wait us", "worst rank wait us", "status"), rows, 0);
        p.note("Most penalised first. Per iteration: from one iteration's end (its last rank's) to the next's, the"
                + " rate at which the job finishes iterations (the last iteration's end less the warm-up's end, over"
                + " the measured iterations). An iteration itself runs from its first compute or send, or a delay"
                + " that one waited for (a rank that only waits for another rank's data has not started it), to the"
                + " last rank's end; where iterations overlap (a pipeline) that span is longer (jobs.csv iteration_us)."
                + " Compute, exposed communication and idle: per GPU and iteration (after warm-up), mean over ranks; they add up to a"
                + " GPU's own span, from its previous iteration's end to its end, which differs from the iteration"
                + " when ranks start and end apart. Exposed communication:"
                + " not computing while the GPU's own data moves; idle: not computing with nothing moving (waiting for"
                + " another rank). Ideal: " + IDEAL_NETWORK + " GPU network wait = time not computing beyond what"
                + " the ideal network causes." + (ideal ? " This run is of the ideal network itself: it has no penalty"
                + " or network wait to tell (a run of the packet or flow model tells them)." : ""));
        Chart c = new Chart("gpu-view", "The GPU's view: one iteration per rank", Chart.Kind.LANES);
        c.timeAxis = false;
        c.xLabel = "time per iteration (us)";
        c.categories.add(new String[] {"compute", "#4c9a2a"});
        c.categories.add(new String[] {"not computing, as on an ideal network", "#bbbbbb"});
        c.categories.add(new String[] {"waiting on the network", "#d62728"});
        double max = 0;
        int shown = Math.min(d.ranks.size(), MAX_LANE_ROWS);
        for (int i = 0; i < shown; i++) {
            RankRecord r = d.ranks.get(i);
            double compute = nz(r.computeUs());
            double wait = r.networkWaitUs();
            double idealIdle = Math.max(0, nz(r.exposedCommUs()) + nz(r.idleUs()) - nz(wait));
            c.rows.add(r.job() + " r" + r.rank() + " " + r.coords());
            c.intervals.add(new Chart.Interval(i, 0, compute, 0, ""));
            c.intervals.add(new Chart.Interval(i, compute, compute + idealIdle, 1, ""));
            c.intervals.add(new Chart.Interval(i, compute + idealIdle, compute + idealIdle + nz(wait), 2, ""));
            max = Math.max(max, compute + idealIdle + nz(wait));
        }
        c.xMin = 0;
        c.xMax = max > 0 ? max : 1;
        p.chart(c, shown < d.ranks.size() ? "First " + shown + " of " + d.ranks.size() + " ranks; all are in"
                + " ranks.csv." : "every rank; ranks.csv has the numbers", null);
    }

    private static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /** The group of a job collective: the last part of its name ({@code gpt/grads/dp(tp=1,pp=0)} gives {@code dp(tp=1,pp=0)}). */
    static String group(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? "" : name.substring(slash + 1);
    }

    /** Collectives, those that lost most time against the ideal network first. */
    private static void collectives(Page p, ReportData d) {
        if (d.collectives.isEmpty()) {
            return;
        }
        p.h2("Collectives, slowest against the ideal first");
        // A job's calls in its warm-up iterations are left out, as the GPU's view, the summary's slowest calls and
        // compare's collective_us leave them out (collectives.csv keeps them, with their iteration).
        List<CollectiveRecord> all = new ArrayList<>(d.collectives.stream().filter(c -> !c.warmUp(d.jobs)).toList());
        int warmUp = d.collectives.size() - all.size();
        if (all.isEmpty()) {
            p.note("Every call belongs to a warm-up iteration (" + Numbers.count(warmUp, "warm-up call", "warm-up calls")
                    + " not counted); they are in collectives.csv.");
            return;
        }
        // The order of the summary's slowest calls: the time each lost against the ideal network (its time less its
        // ideal time), not the ratio, which puts a small call that lost microseconds above a large one that lost a
        // millisecond.
        all.sort(Comparator.comparingLong((CollectiveRecord c) -> !c.completed() ? Long.MIN_VALUE
                : c.idealTimePs() < 0 ? 0 : -(c.timePs() - c.idealTimePs()))
                .thenComparingLong(c -> -c.timePs()).thenComparing(CollectiveRecord::name));
        List<List<String>> rows = new ArrayList<>();
        for (CollectiveRecord c : all.subList(0, Math.min(MAX_ROWS, all.size()))) {
            rows.add(List.of(c.job(), c.name(), c.iteration() < 0 ? "" : String.valueOf(c.iteration()),
                    group(c.name()), c.algorithm(), String.valueOf(c.ranks()),
                    Fmt.size(c.sizeBytes()), c.startPs() >= 0 ? Fmt.us(c.startPs() / 1e6) : "not started", c.completed() ? Fmt.us(c.timePs() / 1e6) : "",
                    c.idealTimePs() >= 0 ? Fmt.us(c.idealTimePs() / 1e6) : "",
                    Double.isNaN(c.networkSlowdown()) ? "" : Fmt.num(c.networkSlowdown(), 2) + "x",
                    c.completed() ? Fmt.num(c.algbwGBps(), 2) : "", c.completed() ? Fmt.num(c.busbwGBps(), 2) : "",
                    besideCell(c), linksCell(c),
                    c.completed() ? "completed" : "unfinished"));
        }
        p.table(List.of("job", "name", "iteration", "group", "algorithm", "ranks", "size", "start us", "time us",
                "ideal us", "vs ideal", "algbw GB/s", "busbw GB/s", "beside it on its RNICs", "beside it on its links", "status"), rows, 0, 1, 3,
                4);
        p.note(shown(all.size(), warmUp, "call", "calls", "collectives.csv") + "Unfinished calls first, then by the"
                + " time"
                + " lost against the ideal network (time less ideal time). The ideal is the call alone: \"beside it"
                + " on its RNICs\" counts the same job's other calls under way on at least one of its ranks' RNICs"
                + " while it ran (the one there longest, and for how long), then the job's own transfers (a pipeline's"
                + " sends) with a flow there meanwhile, then the workload's other items with flows there (background"
                + " traffic, another job), which share those RNICs on any network; for a call inside one server,"
                + " the workload's other items with transfers over its GPUs' NVLink (\"over its NVLink\")."
                + " \"beside it on its links\" counts"
                + " the workload's other items whose data left by a switch port towards another switch while one of the"
                + " call's flows' data did (packet level; the ports its QPs' routes take), and of them the one there longest, for how"
                + " long, and the port where it shared most."
                + " nccl-tests definitions: algbw = size / time (per run, for a traffic item run back to"
                + " back: collectives.csv runs); busbw = algbw x 2(N-1)/N for"
                + " AllReduce, x (N-1)/N for AllGather, ReduceScatter and AlltoAll, x 1 for Broadcast, Reduce and"
                + " SendRecv.");
    }

    /**
     * A table's first words: how many of its {@code counted} rows it shows (the {@link #MAX_ROWS} slowest, or all),
     * how many of a warm-up were left out, and the file that has them all.
     */
    private static String shown(int counted, int warmUp, String one, String many, String file) {
        String warm = warmUp > 0 ? " (" + Numbers.count(warmUp, "warm-up " + one, "warm-up " + many) + " not counted)"
                : "";
        return counted > MAX_ROWS ? "The " + MAX_ROWS + " slowest of " + counted + " " + many + warm + "; all are in "
                + file + ". " : counted + " " + many + warm + (warmUp > 0 ? "; all are in " + file + ". " : ". ");
    }

    /** The jobs' point-to-point transfers, those that lost most time against their time alone first. */
    private static void transfers(Page p, ReportData d) {
        if (d.transfers.isEmpty()) {
            return;
        }
        // As for the calls: a warm-up's transfers count nowhere but in transfers.csv.
        List<JobTransferRecord> all = new ArrayList<>(d.transfers.stream().filter(t -> !t.warmUp(d.jobs)).toList());
        int warmUp = d.transfers.size() - all.size();
        if (all.isEmpty()) {
            return;
        }
        p.h2("Point-to-point transfers, slowest against their time alone first");
        all.sort(Comparator.comparingLong((JobTransferRecord t) -> !t.completed() ? Long.MIN_VALUE : -t.lostPs())
                .thenComparingLong(t -> -t.timePs()).thenComparing(JobTransferRecord::job)
                .thenComparing(JobTransferRecord::name).thenComparingInt(JobTransferRecord::iteration));
        List<List<String>> rows = new ArrayList<>();
        for (JobTransferRecord t : all.subList(0, Math.min(MAX_ROWS, all.size()))) {
            rows.add(List.of(t.job(), t.name(), String.valueOf(t.iteration()),
                    "h" + t.srcHost() + " -> h" + t.dstHost(), Fmt.size(t.bytes()),
                    t.nvlink() ? "NVLink" : "flow " + t.flow(),
                    t.startPs() >= 0 ? Fmt.us(t.startPs() / 1e6) : "not posted",
                    t.completed() ? Fmt.us(t.timePs() / 1e6) : "",
                    t.idealPs() > 0 ? Fmt.us(t.idealPs() / 1e6) : "",
                    Double.isNaN(t.slowdown()) ? "" : Fmt.num(t.slowdown(), 2) + "x",
                    t.completed() ? "completed" : t.startPs() < 0 ? "not posted" : "unfinished"));
        }
        p.table(List.of("job", "transfer", "iteration", "hosts", "size", "over", "start us", "time us", "alone us",
                "vs alone", "status"), rows, 0, 1, 3);
        p.note(shown(all.size(), warmUp, "transfer", "transfers", "transfers.csv") + "Unfinished transfers first, then"
                + " by the time lost against the"
                + " transfer's time alone (time less alone). A transfer is a send paired with its receive (a"
                + " pipeline's activations and gradients); its time runs from its post, once both sides had posted,"
                + " to its end: over the fabric its flow's last ACK back at the sender, over NVLink its last byte in."
                + " Alone is its time on an idle network: its flow's closed form (flows.csv ideal_fct_us), or its"
                + " bytes at the NVLink rate plus the NVLink latency. What held a flow up is in flows.csv by its flow"
                + " id (pause and victim waits, ECMP collision waits, time its rate held it back, its QP's wait); the"
                + " summary names each job's three slowest transfers over the fabric with what ran beside them.");
    }

    /**
     * The table's "beside it on its RNICs": the same job's other calls, its transfers, then the workload's other
     * items.
     */
    private static String besideCell(CollectiveRecord c) {
        List<String> parts = new ArrayList<>();
        if (c.concurrent().calls() > 0) {
            parts.add(c.concurrent().calls() + " (" + c.concurrent().longest() + ", "
                    + Fmt.us(c.concurrent().overlapPs() / 1e6) + " us)");
        }
        if (c.concurrent().transfers() > 0) {
            parts.add(Numbers.count(c.concurrent().transfers(), "transfer", "transfers") + " ("
                    + c.concurrent().longestTransfer() + ", " + Fmt.us(c.concurrent().transferOverlapPs() / 1e6)
                    + " us)");
        }
        if (c.beside().items() > 0) {
            parts.add((c.beside().items() == 1 ? "" : c.beside().items() + " items: ") + c.beside().longest() + " ("
                    + Fmt.us(c.beside().overlapPs() / 1e6) + " us" + (c.beside().nvlink() ? ", over its NVLink" : "")
                    + ")");
        }
        return String.join("; ", parts);
    }

    /** The table's "beside it on its links": the other items whose data crossed its switch ports meanwhile. */
    private static String linksCell(CollectiveRecord c) {
        CollectiveRecord.OnLinks l = c.onLinks();
        return l.items() == 0 ? "" : (l.items() == 1 ? "" : l.items() + " items: ") + l.longest() + " ("
                + Fmt.us(l.overlapPs() / 1e6) + " us, most at " + l.at() + ")";
    }

    private static void flows(Page p, ReportData d) {
        // Streams over the flows rather than a list of the completed ones: a flow-level run has millions of flows,
        // and its list of records may make each record as it is read.
        if (d.summary != null && d.summary.get("flows") instanceof Map<?, ?> agg && "aggregated".equals(agg.get("output"))) {
            // A streamed run: no record per flow, the figures of summary.json (the same on a page rebuilt from the folder).
            p.h2("Flow completion");
            Map<?, ?> q = agg.get("fct_us") instanceof Map<?, ?> m ? m : Map.of();
            Map<?, ?> sd = agg.get("slowdown") instanceof Map<?, ?> m ? m : Map.of();
            p.table(List.of("flows", "completed", "FCT min us", "p50", "p90", "p99", "max", "slowdown p50", "p99", "max"),
                    List.of(List.of(String.valueOf(agg.get("count")), String.valueOf(agg.get("completed")),
                            String.valueOf(q.get("min")), String.valueOf(q.get("p50")), String.valueOf(q.get("p90")),
                            String.valueOf(q.get("p99")), String.valueOf(q.get("max")), String.valueOf(sd.get("p50")),
                            String.valueOf(sd.get("p99")), String.valueOf(sd.get("max")))));
            p.note(String.valueOf(agg.get("note")));
            return;
        }
        // One pass over the records (a flow-level run's are made on each get): the completed flows' FCTs and
        // slowdowns, and the slowest of them.
        int n = d.flows.size();
        double[] fct = new double[n];
        double[] slow = new double[n];
        int completed = 0;
        int slowed = 0;
        Slowest slowest = new Slowest(10);
        for (FlowRecord f : d.flows) {
            if (!f.completed()) {
                continue;
            }
            fct[completed++] = f.fctPs() / 1e6;
            double s = f.slowdown();
            if (!Double.isNaN(s)) {
                slow[slowed++] = s;
            }
            slowest.offer(f, s);
        }
        if (completed == 0) {
            return;
        }
        fct = completed == n ? fct : Arrays.copyOf(fct, completed);
        Arrays.sort(fct);
        slow = slowed == n ? slow : Arrays.copyOf(slow, slowed);
        Arrays.sort(slow);
        p.h2("Flow completion");
        p.chart(cdf("fct-cdf", "FCT distribution", "FCT (us)", List.of("flows"), List.of(fct)),
                Fmt.count(fct.length) + " completed flows; FCT from posting the WRITE to the ACK of its last packet",
                null);
        if (slow.length > 0) {
            p.chart(cdf("slowdown-cdf", "Slowdown distribution", "slowdown (FCT / its closed form alone on an idle fabric)",
                    List.of("flows"), List.of(slow)), null, null);
        }
        bySize(p, SlowdownBySize.of(d.flows));
        List<FlowRecord> worst = slowest.best();
        List<List<String>> rows = new ArrayList<>();
        for (FlowRecord f : worst.subList(0, Math.min(10, worst.size()))) {
            rows.add(List.of(String.valueOf(f.id()), "h" + f.src(), "h" + f.dst(), Fmt.size(f.sizeBytes()),
                    Fmt.us(f.fctPs() / 1e6), Fmt.us(f.idealFctPs() / 1e6), Fmt.num(f.slowdown(), 2) + "x",
                    f.qpWaitPs() < 0 ? "" : Fmt.us(f.qpWaitPs() / 1e6)));
        }
        p.table(List.of("flow", "src", "dst", "size", "FCT us", "ideal us", "slowdown", "qp_wait_us"), rows);
        // The rows' count, not the cap: a run of 6 flows was said to show "the 10 slowest" (an audit).
        p.note((rows.size() == fct.length ? "the " + Fmt.count(fct.length) + " completed flows, slowest first,"
                : "the " + rows.size() + " slowest of the " + Fmt.count(fct.length) + " completed flows")
                + " against their closed-form time alone on an idle fabric, every frame at the path's bottleneck rate"
                + " (flows.csv ideal_fct_us; it has them all); qp_wait_us is the part of the FCT a flow"
                + " posted while its QP still had earlier messages to send waited for its first packet to leave (its"
                + " QP sends its messages in the order they were posted): not the network's doing");
    }

    /**
     * The slowdown by flow size (slowdown_by_size.csv), as the congestion-control literature plots it: the median and
     * the tails of each bin over the bin's largest size, and the bins in a table. Shown when there are 3 bins or more.
     */
    private static void bySize(Page p, SlowdownBySize bySize) {
        List<SlowdownBySize.Bin> bins = bySize.bins();
        if (bins.size() < 3) {
            return;
        }
        Chart c = new Chart("slowdown-by-size", "Slowdown by flow size", Chart.Kind.XY);
        c.xLabel = "flow size (bytes, each bin's largest)";
        c.yLabel = "slowdown";
        c.yUnit = "x";
        int n = bins.size();
        c.x = new double[n];
        double[][] y = new double[3][n];
        for (int i = 0; i < n; i++) {
            SlowdownBySize.Bin b = bins.get(i);
            c.x[i] = b.sizeMaxBytes();
            y[0][i] = b.slowdownP50();
            y[1][i] = b.slowdownP95();
            y[2][i] = b.slowdownP99();
        }
        c.logX = c.x[0] > 0 && c.x[n - 1] / c.x[0] > 20;
        c.xMin = c.logX ? Math.pow(10, Math.floor(Math.log10(c.x[0]))) : 0;
        c.xMax = c.x[n - 1];
        c.add("p50", y[0], c.color(0), Chart.Style.LINE);
        c.add("p95", y[1], c.color(3), Chart.Style.LINE);
        c.add("p99", y[2], c.color(1), Chart.Style.LINE);
        p.chart(c, "the completed flows in order of size, cut into bins of about 5 % of them each (a size is never"
                + " split between bins); each bin's slowdown quantiles over its largest size", null);
        List<List<String>> rows = new ArrayList<>();
        for (SlowdownBySize.Bin b : bins) {
            // Exact bytes, one unit for every bin: a workload size's fewest-digit unit (SI or binary) made the ranges
            // read out of order ("18.52 kB .. 26.136 kB", then "25.75 KiB .. 30.278 kB"; an audit).
            rows.add(List.of(String.format(Locale.ROOT, "%,d", b.sizeMinBytes()) + (b.sizeMaxBytes() == b.sizeMinBytes()
                    ? "" : String.format(Locale.ROOT, " .. %,d", b.sizeMaxBytes())), String.valueOf(b.flows()), Fmt.us(b.fctP50Ps() / 1e6),
                    Fmt.us(b.fctP99Ps() / 1e6), Fmt.num(b.slowdownP50(), 2) + "x", Fmt.num(b.slowdownP95(), 2) + "x",
                    Fmt.num(b.slowdownP99(), 2) + "x", Fmt.num(b.slowdownMax(), 2) + "x"));
        }
        p.table(List.of("sizes (B)", "flows", "FCT p50 us", "FCT p99 us", "slowdown p50", "p95", "p99", "max"), rows);
        p.note("slowdown_by_size.csv has these bins; quantiles are nearest rank");
    }

    /**
     * The n flows with the highest slowdown, highest first (ties by id): one pass keeping the n best, not a sort of
     * every flow (a large run has hundreds of thousands).
     */
    static List<FlowRecord> slowest(Iterable<FlowRecord> flows, int n) {
        Slowest best = new Slowest(n);
        for (FlowRecord f : flows) {
            best.offer(f, f.slowdown());
        }
        return best.best();
    }

    /** The n flows with the highest slowdown seen so far, highest first (ties by id); NaN slowdowns are left out. */
    private static final class Slowest {
        private final FlowRecord[] best;
        private final double[] score;
        private int k;

        Slowest(int n) {
            best = new FlowRecord[n];
            score = new double[n];
        }

        /** Offers flow {@code f} of slowdown {@code s} (its {@code slowdown()}, read once by the caller). */
        void offer(FlowRecord f, double s) {
            int n = best.length;
            if (Double.isNaN(s)) {
                return;
            }
            if (k == n && !(s > score[n - 1] || s == score[n - 1] && f.id() < best[n - 1].id())) {
                return;
            }
            int i = k < n ? k++ : n - 1;
            while (i > 0 && (score[i - 1] < s || score[i - 1] == s && best[i - 1].id() > f.id())) {
                best[i] = best[i - 1];
                score[i] = score[i - 1];
                i--;
            }
            best[i] = f;
            score[i] = s;
        }

        List<FlowRecord> best() {
            return Arrays.asList(best).subList(0, k);
        }
    }

    /** A distribution of each sample as a CDF: at most about 2,000 quantile points per series. */
    static Chart cdf(String id, String title, String xLabel, List<String> names, List<double[]> sorted) {
        Chart c = new Chart(id, title, Chart.Kind.XY);
        c.xLabel = xLabel;
        c.yLabel = "fraction";
        List<double[]> xs = new ArrayList<>();
        List<double[]> ys = new ArrayList<>();
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (double[] v : sorted) {
            int n = v.length;
            int k = Math.min(n, 2000);
            double[] x = new double[k];
            double[] y = new double[k];
            for (int i = 0; i < k; i++) {
                int idx = k == n ? i : (int) Math.min(n - 1, Math.round((i + 1) * (double) n / k) - 1);
                x[i] = v[idx];
                y[i] = (idx + 1) / (double) n;
            }
            xs.add(x);
            ys.add(y);
            if (n > 0) {
                lo = Math.min(lo, v[0]);
                hi = Math.max(hi, v[n - 1]);
            }
        }
        if (lo > hi) {
            return c;
        }
        if (hi <= lo) {
            hi = lo + Math.max(1e-3, Math.abs(lo) * 0.01);
        }
        c.logX = lo > 0 && hi / lo > 20;
        // A log axis starts at a power of ten, so its ticks fall on 1, 2, 5 x 10^n.
        c.xMin = c.logX ? Math.pow(10, Math.floor(Math.log10(lo))) : Math.min(0, lo);
        c.xMax = hi;
        Aligned a = Aligned.of(xs, ys, 0, c.xMin, c.xMax);
        c.x = a.x;
        for (int i = 0; i < names.size(); i++) {
            c.add(names.get(i), a.y[i], c.color(i), Chart.Style.STEP);
        }
        return c;
    }

    private static int nodes(ReportData d) {
        Set<String> n = new LinkedHashSet<>();
        for (ReportData.Link l : d.topology) {
            n.add(l.a());
            n.add(l.b());
        }
        return n.size();
    }

    private static String tierPair(ReportData.Link l) {
        return Math.min(l.aTier(), l.bTier()) + "-" + Math.max(l.aTier(), l.bTier());
    }

    /** Whether some link of the drawing is slower than the fastest between the same two tiers (drawn dashed). */
    static boolean anySlowerLink(ReportData d) {
        Map<String, Long> fastest = new LinkedHashMap<>();
        for (ReportData.Link l : d.topology) {
            fastest.merge(tierPair(l), l.rateBps(), Math::max);
        }
        return d.topology.stream().anyMatch(l -> l.rateBps() < fastest.get(tierPair(l)));
    }

    /** The fabric drawn by tiers (hand-written SVG: a layered graph is not a chart), or null when too large. */
    static String fabric(ReportData d) {
        if (d.topology.isEmpty() || nodes(d) > 200) {
            return null;
        }
        Map<String, Integer> tierOf = new LinkedHashMap<>();
        for (ReportData.Link l : d.topology) {
            tierOf.put(l.a(), l.aTier());
            tierOf.put(l.b(), l.bTier());
        }
        int maxTier = tierOf.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<List<String>> tiers = new ArrayList<>();
        for (int t = 0; t <= maxTier; t++) {
            tiers.add(new ArrayList<>());
        }
        tierOf.forEach((node, tier) -> tiers.get(tier).add(node));
        double deepest = 0;
        Map<String, Double> peak = new LinkedHashMap<>();
        for (ReportData.PortRow r : d.ports) {
            deepest = Math.max(deepest, r.peakQueueBytes());
            peak.merge(r.device() + "|" + r.peer(), (double) r.peakQueueBytes(), Math::max);
            peak.merge(r.peer() + "|" + r.device(), (double) r.peakQueueBytes(), Math::max);
        }
        Map<String, Double> heat = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : peak.entrySet()) {
            heat.put(e.getKey(), deepest > 0 ? e.getValue() / deepest : 0);
        }
        // A link slower than the fastest between the same two tiers is dashed (a degraded cable, a slower uplink):
        // its rate is in every link's tooltip, but a drawing should show the odd one out.
        Map<String, Long> fastest = new LinkedHashMap<>();
        for (ReportData.Link l : d.topology) {
            fastest.merge(tierPair(l), l.rateBps(), Math::max);
        }
        List<String[]> links = new ArrayList<>();
        for (ReportData.Link l : d.topology) {
            links.add(new String[] {l.a(), l.b(), Fmt.sig(l.rateBps() / 1e9) + " Gb/s, " + Fmt.time(l.delayPs() / 1e6),
                l.rateBps() < fastest.get(tierPair(l)) ? "slower" : ""});
        }
        return Svg.topology(tiers, links, heat);
    }

    private static void ports(Page p, ReportData d) {
        if (d.ports.isEmpty()) {
            return;
        }
        boolean ib = d.infiniband();
        p.h2("Hottest ports");
        List<ReportData.PortRow> rows = new ArrayList<>(d.ports);
        rows.sort(Comparator.comparingLong((ReportData.PortRow r) -> -r.peakQueueBytes())
                .thenComparing(ReportData.PortRow::device).thenComparingInt(ReportData.PortRow::port));
        String[][] cols = ib
                ? new String[][] {{"PortXmitPkts", "PortXmitPkts"}, {"PortXmitDiscards", "PortXmitDiscards"},
                    {"fecn_marked", "FECN marked"}, {"PortXmitWait_us", "PortXmitWait us"}}
                : new String[][] {{"tx_packets", "tx_packets"}, {"dropped_packets", "dropped_packets"},
                    {"ecn_marked", "ecn_marked"}, {"tx_pause", "tx_pause"}, {"rx_pause", "rx_pause"}};
        List<String> heads = new ArrayList<>(List.of("switch", "port", "peer", "peak queue"));
        for (String[] c : cols) {
            heads.add(c[1]);
        }
        List<List<String>> out = new ArrayList<>();
        for (ReportData.PortRow r : rows.subList(0, Math.min(TOP_PORTS, rows.size()))) {
            List<String> row = new ArrayList<>(List.of(r.device(), String.valueOf(r.port()), r.peer(),
                    Fmt.bytes(r.peakQueueBytes())));
            for (String[] c : cols) {
                Long v = r.counters().get(c[0]);
                row.add(v == null ? "" : c[0].endsWith("_us") ? Fmt.us(v / 1e6) : String.valueOf(v));
            }
            out.add(row);
        }
        p.table(heads, out, 0, 2);
        p.note("by peak queue; every port is in ports.csv");
    }

    /** InfiniBand: the port lanes that waited longest for credits (congestion spreading), with FECN marks. */
    private static void lanes(Page p, ReportData d) {
        if (d.lanes == null || d.lanes.isEmpty()) {
            return;
        }
        var rows = new ArrayList<>(d.lanes);
        rows.sort(Comparator.comparingLong((VirtualLanes.PortLane r) -> -r.creditStallPs())
                .thenComparing(r -> r.device()).thenComparingInt(r -> r.port()));
        p.h2("Virtual lanes and credits");
        List<List<String>> out = new ArrayList<>();
        for (var r : rows.subList(0, Math.min(TOP_PORTS, rows.size()))) {
            out.add(List.of(r.device(), String.valueOf(r.port()), r.peer(), "VL" + r.vl(),
                    Fmt.us(r.creditStallPs() / 1e6), String.valueOf(r.blocksSent()), String.valueOf(r.flowControlSent()),
                    String.valueOf(r.flowControlReceived()), Fmt.bytes(r.peakInputBufferBytes()),
                    String.valueOf(r.fecnMarked())));
        }
        p.table(List.of("device", "port", "peer", "VL", "credit stall us", "blocks sent", "credit updates sent",
                "received", "peak input buffer", "FECN marked"), out, 0, 2);
        p.note("credit stall (PortXmitWait): time a lane had a packet ready that its credits did not cover (the"
                + " receiver's input buffer was full); longest first, every port lane is in vl.csv");
    }

    static double[] sortedCopy(double[] v) {
        double[] c = Arrays.copyOf(v, v.length);
        Arrays.sort(c);
        return c;
    }

    /** Whether a file exists in the folder (a helper for the CLI's messages). */
    static boolean has(Path dir, String file) {
        return Files.exists(dir.resolve(file));
    }

    /** Keeps the timeline's rows in a stable order: by job, then rank. */
    static Comparator<TimelineRecord> timelineOrder() {
        return Comparator.comparing(TimelineRecord::job).thenComparingInt(TimelineRecord::rank)
                .thenComparingLong(TimelineRecord::startPs);
    }
}
