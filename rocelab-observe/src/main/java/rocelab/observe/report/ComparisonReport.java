package rocelab.observe.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rocelab.observe.RunResult;
import rocelab.observe.counter.CounterUnits;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.HeldAlone;
import rocelab.observe.flow.HeldByRate;
import rocelab.observe.flow.Percentiles;
import rocelab.observe.output.AtomicFiles;
import rocelab.observe.output.CsvTable;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.SummaryText;

/**
 * One workload on several fabrics side by side ({@code rocelab compare}): a table of completion times and
 * slowdowns, collective times, drops and retransmissions, pause or credit-stall time, congestion notifications
 * (CNPs on RoCE, BECNs on InfiniBand) and peak queues; compare.csv with the same columns; and one report.html
 * that overlays the FCT and slowdown distributions of every fabric.
 */
public final class ComparisonReport {
    /**
     * One fabric's run, with the congestion control it ran: {@code cc} and {@code ccProfile} (empty when the control has
     * no profiles; "+" between several when devices differ), {@code substitutedFor} the scenario's own control when
     * compare ran another in its role on this fabric (else empty) and {@code why}; {@code lint} the lint's verdict on
     * the scenario as this fabric ran it (its counts, then each error and warning as {@code severity rule: what}), null
     * when the lint did not run; {@code buffers} the buffers this fabric's switches and RNICs had, in words (empty:
     * not said).
     */
    public record Entry(String mode, RunResult result, String cc, String ccProfile, String substitutedFor, String why,
            Lint lint, String buffers) {
        /** A run whose control is not named (the row's cc cells stay empty). */
        public Entry(String mode, RunResult result) {
            this(mode, result, "", "", "", "", null, "");
        }

        /** The control as the table names it: {@code dcqcn (nvidia)}, {@code none}. */
        String ccText() {
            return cc.isEmpty() ? "" : ccProfile.isEmpty() ? cc : cc + " (" + ccProfile + ")";
        }
    }

    /**
     * The lint's verdict on one fabric's variant of the scenario: {@code counts} ("0 errors, 2 warnings, 0 info") and
     * each error and warning as one line. A default that handicaps one fabric (an InfiniBand lane buffer below its
     * link's credit round trip, an ECN threshold a lossy queue never reaches) shows here, beside the row it shapes.
     */
    public record Lint(String counts, List<String> findings) {
        public Lint {
            findings = List.copyOf(findings);
        }
    }

    /** Findings shown per fabric under the table; the rest are counted (the fabric's own report lists them all). */
    static final int LINT_SHOWN = 5;

    /** The columns of compare.csv, in order (the ones after simulated_us were added later, so they come last). */

    /**
     * Why the pause and the stall column are not one measure, though one column: a PFC pause counts while it holds a
     * port, data waiting or not; a credit stall only while a lane has a packet ready (moe-alltoall: 2,097 us paused on
     * RoCE, 127,377 us stalled on InfiniBand).
     */
    static final String HELD_NOT_ONE_MEASURE = "not one measure (a pause counts while it holds a port, data waiting or"
            + " not; a stall only while a packet waits for credits)";
    public static final List<String> COLUMNS = List.of("mode", "flows", "completed", "fct_p50_us", "fct_p99_us",
            "fct_max_us", "slowdown_p50", "slowdown_p99", "collective_us", "job_jct_us", "gpu_network_wait_us",
            "request_e2e_p50_us", "request_network_wait_p50_us", "drops", "retransmitted",
            "pause_or_credit_stall_us", "cnp_or_becn", "peak_queue_bytes", "simulated_us", "cc", "cc_profile",
            "cc_substituted_for", "cnp_or_becn_unit", "held_by_rate_receivers", "held_by_rate_link_utilisation_min",
            "held_alone_flows");

    /** The first and last of the columns only some workloads have: collective_us to request_network_wait_p50_us. */
    private static final int OPTIONAL_FIRST = COLUMNS.indexOf("collective_us");
    private static final int OPTIONAL_LAST = COLUMNS.indexOf("request_network_wait_p50_us");

    private final List<Entry> entries;
    /** Each entry's held-back findings (summary.json held_by_rate and held_alone), found once. */
    private final List<Held> held;

    public ComparisonReport(List<Entry> entries) {
        this.entries = List.copyOf(entries);
        List<Held> h = new ArrayList<>();
        for (Entry e : this.entries) {
            h.add(Held.of(e.result()));
        }
        this.held = List.copyOf(h);
    }

    /**
     * What the sub-run's own summary found of senders its congestion control held back while the link had room
     * (summary.json held_by_rate and held_alone, found as the summary finds them); both null when the run keeps no
     * time series to find them from (flow level, or no sampling).
     */
    record Held(List<HeldByRate> byRate, List<HeldAlone> alone) {
        static Held of(RunResult r) {
            if (!r.packetLevel() || r.series() == null) {
                return new Held(null, null);
            }
            List<HeldByRate> found = HeldByRate.find(r.flows(), r.simulatedPs(), r.network(), r.series(), r.pfcLog());
            return new Held(found, HeldAlone.find(r.flows(), r.simulatedPs(), r.network(), r.series(), found));
        }
    }

    /** The row of one fabric, as text cells in {@link #COLUMNS} order. */
    static List<String> row(Entry e, Held held) {
        RunResult r = e.result();
        FabricTotals t = r.totals();
        Percentiles fct = new Percentiles(r.flows().stream().filter(FlowRecord::completed)
                .mapToLong(FlowRecord::fctPs).toArray());
        Percentiles slow = new Percentiles(r.flows().stream().filter(FlowRecord::completed)
                .mapToLong(f -> Math.round(f.slowdown() * 1000)).toArray());
        VirtualLanes lanes = VirtualLanes.of(r.network());
        long stallPs = lanes != null ? lanes.creditStallPs() : t.pausedPs();
        long collectivePs = r.collectives().stream().filter(c -> c.completed() && !warmUpCall(r, c))
                .mapToLong(c -> c.timePs()).max().orElse(-1);
        List<String> cells = new ArrayList<>();
        cells.add(e.mode());
        cells.add(String.valueOf(r.flows().size()));
        cells.add(String.valueOf(fct.count()));
        cells.add(fct.count() == 0 ? "" : us(fct.percentile(50)));
        cells.add(fct.count() == 0 ? "" : us(fct.percentile(99)));
        cells.add(fct.count() == 0 ? "" : us(fct.max()));
        cells.add(slow.count() == 0 ? "" : String.format(Locale.ROOT, "%.2f", slow.percentile(50) / 1000.0));
        cells.add(slow.count() == 0 ? "" : String.format(Locale.ROOT, "%.2f", slow.percentile(99) / 1000.0));
        cells.add(collectivePs < 0 ? "" : us(collectivePs));
        // The GPU's view: the longest job, and the time GPUs waited on the network per iteration (mean over every
        // rank of every job); for inference, the median request's end-to-end latency and network wait.
        long jctPs = r.jobs().stream().filter(j -> j.completed()).mapToLong(j -> j.jctPs()).max().orElse(-1);
        cells.add(jctPs < 0 ? "" : us(jctPs));
        int ranks = r.jobs().stream().mapToInt(j -> j.ranks()).sum();
        double wait = r.jobs().stream().mapToDouble(j -> j.networkWaitUs() * j.ranks()).sum();
        cells.add(ranks == 0 || Double.isNaN(wait) ? "" : String.format(Locale.ROOT, "%.3f", wait / ranks));
        Percentiles e2e = new Percentiles(r.requests().stream().filter(q -> q.completed())
                .mapToLong(q -> q.e2ePs()).toArray());
        Percentiles netWait = new Percentiles(r.requests().stream().filter(q -> q.completed())
                .mapToLong(q -> Math.max(0, q.networkWaitPs())).toArray());
        cells.add(e2e.count() == 0 ? "" : us(e2e.percentile(50)));
        cells.add(netWait.count() == 0 ? "" : us(netWait.percentile(50)));
        cells.add(String.valueOf(t.packetsDropped()));
        cells.add(String.valueOf(t.retransmittedPackets()));
        cells.add(us(stallPs));
        cells.add(String.valueOf(t.cnpSent()));
        cells.add(String.valueOf(t.maxQueueBytes()));
        cells.add(us(r.simulatedPs()));
        cells.add(e.cc());
        cells.add(e.ccProfile());
        cells.add(e.substitutedFor());
        cells.add(r.packetLevel() ? CounterUnits.cnpSent(r.network(), isInfiniband(r)) : "");
        cells.add(held.byRate() == null ? "" : String.valueOf(held.byRate().size()));
        cells.add(held.byRate() == null || held.byRate().isEmpty() ? "" : String.format(Locale.ROOT, "%.3f",
                held.byRate().stream().mapToDouble(HeldByRate::utilisation).map(u -> Numbers.round(u, 3)
                        .doubleValue()).min().orElseThrow()));
        cells.add(held.alone() == null ? "" : String.valueOf(held.alone().size()));
        return cells;
    }

    private static boolean isInfiniband(RunResult r) {
        return "infiniband".equals(r.mode());
    }

    /**
     * The sentences under the table that keep it from reading as a verdict on the fabrics alone: which control each
     * row ran where compare substituted one (and why), the buffers each row had when they differ, what each row's
     * notifications are when they are not one unit, the lint's errors and warnings on each fabric's variant, and each sub-run's own finding of senders its control
     * held back while the link had room.
     */
    List<String> notes() {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.substitutedFor().isEmpty()) {
                out.add("cc: " + e.mode() + " ran " + e.ccText() + ", not the scenario's " + e.substitutedFor() + ": "
                        + e.why());
            }
        }
        // The buffers, when the rows did not have the same: a verdict on a fabric is also one on its buffers.
        Map<String, List<String>> buffers = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (!e.buffers().isEmpty()) {
                buffers.computeIfAbsent(e.buffers(), u -> new ArrayList<>()).add(e.mode());
            }
        }
        if (buffers.size() > 1) {
            List<String> parts = new ArrayList<>();
            buffers.forEach((text, modes) -> parts.add(String.join(", ", modes) + ": " + text));
            out.add("buffers: " + String.join("; ", parts));
        }
        Map<String, List<String>> units = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            String unit = e.result().packetLevel() ? CounterUnits.cnpSent(e.result().network(),
                    isInfiniband(e.result())) : "";
            if (!unit.isEmpty()) {
                units.computeIfAbsent(unit, u -> new ArrayList<>()).add(e.mode());
            }
        }
        if (units.size() > 1) {
            List<String> parts = new ArrayList<>();
            units.forEach((unit, modes) -> parts.add(String.join(", ", modes) + ": " + unit));
            out.add("CNP/BECN is not one unit: " + String.join("; ", parts));
        }
        for (Entry e : entries) {
            if (e.lint() != null && !e.lint().findings().isEmpty()) {
                List<String> f = e.lint().findings();
                int shown = Numbers.shown(f.size(), LINT_SHOWN);
                out.add("lint: " + e.mode() + ": " + e.lint().counts() + " on the scenario as this fabric ran it"
                        + " (" + e.mode() + "/report.html lists them with symptoms and fixes)");
                for (String line : f.subList(0, shown)) {
                    out.add("  " + line);
                }
                if (f.size() > shown) {
                    out.add("  ... and " + (f.size() - shown) + " more");
                }
            }
        }
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            Held h = held.get(i);
            String control = e.cc().isEmpty() ? "their congestion control" : e.ccText();
            var topo = e.result().network() == null ? null : e.result().network().topology();
            for (HeldByRate b : h.byRate() == null ? List.<HeldByRate>of() : h.byRate()) {
                String lo = SummaryText.percent(b.minShare());
                String hi = SummaryText.percent(b.maxShare());
                out.add("held: " + e.mode() + ": " + control + " held the " + b.flows() + " flows into "
                        + topo.nodeName(b.receiver()) + " back " + (lo.equals(hi) ? lo : lo + "-" + hi)
                        + " % of their lives while " + topo.nodeName(b.switchIndex() + topo.hostCount()) + " port "
                        + b.port() + " (towards " + topo.nodeName(b.receiver()) + ") carried "
                        + SummaryText.percent(b.utilisation()) + " % of its capacity from " + Numbers.micros(b.fromPs()).toPlainString()
                        + " us to " + Numbers.micros(b.toPs()).toPlainString() + " us: their FCTs there are " + control
                        + "'s pace, not the link's capacity (" + e.mode() + "/summary.json held_by_rate)");
            }
            for (HeldAlone a : h.alone() == null ? List.<HeldAlone>of() : h.alone()) {
                String low = String.format(Locale.ROOT, "%.1f", a.minRateBps() / 1e9);
                String high = String.format(Locale.ROOT, "%.1f", a.maxRateBps() / 1e9);
                out.add("held: " + e.mode() + ": flow " + a.flow() + " (" + topo.nodeName(a.sender()) + "->"
                        + topo.nodeName(a.receiver()) + "), the last into " + topo.nodeName(a.receiver())
                        + ", alone there from " + Numbers.micros(a.fromPs()).toPlainString() + " us to " + Numbers.micros(a.toPs()).toPlainString()
                        + " us: " + control + " allowed it " + (low.equals(high) ? low : low + "-" + high)
                        + " Gb/s of the link's " + String.format(Locale.ROOT, "%.1f", a.linkBps() / 1e9) + " Gb/s while "
                        + topo.nodeName(a.switchIndex() + topo.hostCount()) + " port " + a.port() + " carried "
                        + SummaryText.percent(a.utilisation()) + " % of its capacity (" + e.mode()
                        + "/summary.json held_alone)");
            }
        }
        return out;
    }

    /**
     * Whether a collective call belongs to its job's warm-up iterations, which collective_us leaves out as the GPU's
     * view (jobs.csv, ranks.csv, gpu_network_wait_us) leaves out the warm-up; a traffic item's call has no iteration.
     */
    static boolean warmUpCall(RunResult r, CollectiveRecord c) {
        return c.warmUp(r.jobs());
    }

    /** Whether a job of some fabric's run has warm-up iterations (which collective_us leaves out). */
    private boolean hasWarmUp() {
        return entries.stream().anyMatch(e -> e.result().jobs().stream().anyMatch(j -> j.warmup() > 0));
    }

    /** The table printed by {@code rocelab compare}. */
    public String table() {
        String[] heads = {"mode", "flows", "done", "FCT p50 us", "FCT p99 us", "FCT max us", "slow p50",
            "slow p99", "collective us", "JCT us", "GPU net wait us", "req E2E p50 us", "req net wait p50 us",
            "drops", "retx", "pause/stall us", "CNP/BECN", "peak queue B"};
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            rows.add(row(entries.get(i), held.get(i)).subList(0, heads.length));
        }
        // The columns that only some workloads have (collectives, jobs, inference) are left out of the printed table
        // when no fabric has a value in them; an empty cell of a column that stays (no flow completed) reads "-".
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < heads.length; i++) {
            int col = i;
            if (i < OPTIONAL_FIRST || i > OPTIONAL_LAST || rows.stream().anyMatch(r -> !r.get(col).isEmpty())) {
                keep.add(i);
            }
        }
        String[] allHeads = heads;
        // The congestion control each row ran, beside its mode: a row is a fabric and a control, never a fabric alone.
        boolean named = entries.stream().anyMatch(e -> !e.cc().isEmpty());
        List<String> shownHeads = new ArrayList<>(keep.stream().map(i -> allHeads[i]).toList());
        if (named) {
            shownHeads.add(1, "cc");
        }
        heads = shownHeads.toArray(new String[0]);
        List<List<String>> shown = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            List<String> cells = new ArrayList<>(keep.stream().map(rows.get(i)::get).map(c -> c.isEmpty() ? "-" : c)
                    .toList());
            if (named) {
                Entry e = entries.get(i);
                cells.add(1, e.ccText().isEmpty() ? "-" : e.ccText() + (e.substitutedFor().isEmpty() ? "" : "*"));
            }
            shown.add(cells);
        }
        rows = shown;
        int[] width = new int[heads.length];
        for (int i = 0; i < heads.length; i++) {
            width[i] = heads[i].length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder b = new StringBuilder();
        line(b, Arrays.asList(heads), width);
        for (List<String> r : rows) {
            line(b, r, width);
        }
        b.append("pause/stall: PFC pause time (RoCE) or credit stall time (InfiniBand), summed over ports and"
                + " NICs, " + HELD_NOT_ONE_MEASURE + "; CNP/BECN: congestion notifications sent")
                .append(keep.contains(OPTIONAL_FIRST) ? "; collective us: the longest call" + (hasWarmUp()
                        ? ", a job's warm-up iterations left out" : "") : "")
                .append(keep.contains(10) ? "; GPU net wait: per GPU and iteration, beyond an ideal network" : "")
                .append(entries.stream().anyMatch(e -> !e.substitutedFor().isEmpty())
                        ? "; cc *: compare ran another control than the scenario's (below)" : "")
                .append('\n');
        for (String note : notes()) {
            b.append(note).append('\n');
        }
        return b.toString();
    }

    private static void line(StringBuilder b, List<String> cells, int[] width) {
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            if (i == 0) {
                b.append(c).append(" ".repeat(width[i] - c.length()));
            } else {
                b.append("  ").append(" ".repeat(width[i] - c.length())).append(c);
            }
        }
        b.append('\n');
    }

    public String csv() {
        CsvTable t = new CsvTable(COLUMNS);
        for (int i = 0; i < entries.size(); i++) {
            t.row(row(entries.get(i), held.get(i)).toArray());
        }
        return t.toString();
    }

    /** Writes compare.csv and report.html into {@code dir} (each fabric's own output is in dir/MODE). */
    public void write(Path dir) throws IOException {
        AtomicFiles.write(dir.resolve("compare.csv"), csv());
        String name = entries.isEmpty() ? "" : entries.get(0).result().scenario();
        ChartDrawing drawing = new ChartDrawing(dir.resolve("charts"));
        try {
            Page p = page(name, drawing);
            AtomicFiles.write(dir.resolve("report.html"), p.finish());
            drawing.finish(null);
        } finally {
            drawing.close();
        }
    }

    private Page page(String name, ChartDrawing drawing) {
        Page p = new Page("rocelab compare: " + name, drawing);
        StringBuilder b = new StringBuilder();
        b.append("<h1>rocelab compare: ").append(Page.esc(name)).append("</h1><p class='meta'>the same topology and"
                + " workload on ").append(entries.size()).append(" fabrics, each with the congestion control its row"
                + " names (cc); each fabric's full report: ");
        for (int i = 0; i < entries.size(); i++) {
            String m = Page.esc(entries.get(i).mode());
            b.append(i == 0 ? "" : ", ").append("<a href='").append(m).append("/report.html'>").append(m)
                    .append("</a>");
        }
        p.html(b.append("</p>").toString());
        p.h2("Side by side");
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            rows.add(row(entries.get(i), held.get(i)));
        }
        // Columns no fabric has a value in (no jobs, no inference, no collectives) are left out.
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < COLUMNS.size(); i++) {
            int col = i;
            if (rows.stream().anyMatch(r -> !r.get(col).isEmpty())) {
                keep.add(i);
            }
        }
        List<List<String>> shown = new ArrayList<>();
        for (List<String> r : rows) {
            shown.add(keep.stream().map(r::get).toList());
        }
        p.table(keep.stream().map(COLUMNS::get).toList(), shown, 0);
        p.note("pause_or_credit_stall_us: PFC pause time (RoCE) or credit stall time (InfiniBand), "
                + HELD_NOT_ONE_MEASURE + "; cnp_or_becn: CNPs (RoCE) or BECNs (InfiniBand) sent"
                + (keep.contains(OPTIONAL_FIRST) ? "; collective_us: the longest collective call" + (hasWarmUp()
                        ? ", a job's warm-up iterations left out" : "") : "")
                + "; compare.csv has every column");
        for (String note : notes()) {
            p.note(note);
        }
        List<ReportData> data = new ArrayList<>();
        double end = 0;
        for (Entry e : entries) {
            ReportData d = ReportData.of(e.result(), Map.of(), true);
            data.add(d);
            end = Math.max(end, d.endUs);
        }
        for (ReportData d : data) {
            d.endUs = end;
        }
        p.h2("Over time, per fabric");
        p.note("One simulated-time axis for every chart: drag to zoom all, wheel to zoom, shift+drag to pan,"
                + " double-click to reset.");
        List<TimeCharts.Trace> queues = new ArrayList<>();
        List<TimeCharts.Trace> held = new ArrayList<>();
        // Each fabric keeps its colour on every chart.
        List<String> queueColors = new ArrayList<>();
        List<String> heldColors = new ArrayList<>();
        // Fabrics held back with nothing to draw it from (no samples, or a flow-level run): named, not left silent.
        List<String> heldUndrawn = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String mode = entries.get(i).mode();
            ReportData d = data.get(i);
            if (d.queues != null) {
                List<TimeCharts.Trace> top = TimeCharts.top(TimeCharts.traces(d.queues, 0), TimeCharts::peak, 1);
                for (TimeCharts.Trace t : top) {
                    queues.add(new TimeCharts.Trace(mode + ": " + t.name(), t.t(), t.v()));
                    queueColors.add(Chart.COLORS[i % Chart.COLORS.length]);
                }
            }
            RunResult r = entries.get(i).result();
            VirtualLanes lanes = VirtualLanes.of(r.network());
            TimeCharts.Trace h = heldBack(d, r.simulatedPs() / 1e6, (lanes == null ? r.totals().pausedPs()
                    : lanes.creditStallPs()) / 1e6);
            if (h != null) {
                held.add(new TimeCharts.Trace(mode, h.t(), h.v()));
                heldColors.add(Chart.COLORS[i % Chart.COLORS.length]);
            } else if ((lanes != null ? lanes.creditStallPs() : r.totals().pausedPs()) > 0) {
                heldUndrawn.add(mode);
            }
        }
        p.chart(TimeCharts.chart("cmp-queues", "Deepest egress queue of each fabric", "queue depth (bytes)", "B",
                queues, null, queueColors.toArray(new String[0]), 0, end), "each fabric's deepest queue over time (its queues.csv)",
                "no fabric had queue samples");
        p.chart(line(TimeCharts.chart("cmp-held", "Pause or credit-stall time so far", "time held back (us)", "us",
                held, null, heldColors.toArray(new String[0]), 0, end)), "what pause_or_credit_stall_us counts, as it"
                + " grew: RoCE: time the egress ports of switches and RNICs spent paused by PFC (from every PFC frame"
                + " sent, pfc.csv); InfiniBand: time the lanes of switch ports and HCAs waited for credits; summed over"
                + " ports and NICs" + (heldUndrawn.isEmpty() ? "" : "; not drawn, as its run kept no time series: "
                + String.join(", ", heldUndrawn)),
                heldUndrawn.isEmpty() ? "no fabric paused or waited for credits"
                        : "not drawn, as no run that was held back kept a time series: " + String.join(", ", heldUndrawn));
        rates(p, data, end);
        List<String> names = new ArrayList<>();
        List<double[]> fct = new ArrayList<>();
        List<double[]> slow = new ArrayList<>();
        for (Entry e : entries) {
            double[] f = e.result().flows().stream().filter(FlowRecord::completed).mapToDouble(r -> r.fctPs() / 1e6)
                    .sorted().toArray();
            if (f.length > 0) {
                names.add(e.mode());
                fct.add(f);
                slow.add(e.result().flows().stream().filter(FlowRecord::completed).mapToDouble(FlowRecord::slowdown)
                        .filter(v -> !Double.isNaN(v)).sorted().toArray());
            }
        }
        if (!names.isEmpty()) {
            p.h2("Distributions");
            p.chart(ReportWriter.cdf("cmp-fct", "FCT distribution per fabric", "FCT (us)", names, fct), null, null);
            p.chart(ReportWriter.cdf("cmp-slowdown", "Slowdown distribution per fabric",
                    "slowdown (FCT / its closed form alone on an idle fabric)", names, slow), null, null);
        }
        jobs(p);
        return p;
    }

    private static Chart line(Chart c) {
        for (int i = 0; i < c.series.size(); i++) {
            Chart.Series s = c.series.get(i);
            c.series.set(i, new Chart.Series(s.name(), s.y(), s.color(), Chart.Style.LINE));
        }
        return c;
    }

    /**
     * Cumulative time held back over time, counting what the table's pause_or_credit_stall_us counts, and ending at
     * {@code totalUs}, that figure, when the run ended at {@code runEndUs}. On RoCE, the time egress ports (of switches
     * and RNICs) spent paused, from every PFC frame a switch or an RNIC sent (each open pause adds its duration from
     * the frame's send time; the ports count from when it acted, a link and a pause response later, so the frames'
     * sum may differ from the ports' by a fraction of a microsecond: moe-alltoall 2096.859 against 2096.598); on
     * InfiniBand, the credit-stall clocks of the switch ports (links.csv) and of the HCAs summed (the last sample may
     * come before the end).
     */
    static TimeCharts.Trace heldBack(ReportData d, double runEndUs, double totalUs) {
        if (d.infiniband()) {
            if (d.links == null) {
                return null;
            }
            // The switch ports' rows and the HCAs' rows, each a cumulative clock, merged in time order.
            List<double[]> steps = new ArrayList<>();
            double[] last = new double[d.links.keys.size()];
            for (int i = 0; i < d.links.rows; i++) {
                int k = d.links.key[i];
                steps.add(new double[] {d.links.timeUs[i], d.links.c[i] - last[k]});
                last[k] = d.links.c[i];
            }
            double hcaLast = 0;
            for (int i = 0; d.hcaStall != null && i < d.hcaStall.rows; i++) {
                steps.add(new double[] {d.hcaStall.timeUs[i], d.hcaStall.c[i] - hcaLast});
                hcaLast = d.hcaStall.c[i];
            }
            steps.sort((x, y) -> Double.compare(x[0], y[0]));
            double total = 0;
            List<double[]> pts = new ArrayList<>();
            for (double[] step : steps) {
                total += step[1];
                if (!pts.isEmpty() && pts.get(pts.size() - 1)[0] == step[0]) {
                    pts.get(pts.size() - 1)[1] = total;
                } else {
                    pts.add(new double[] {step[0], total});
                }
            }
            if (totalUs <= 0) {
                return null;
            }
            if (pts.isEmpty() || pts.get(pts.size() - 1)[0] < runEndUs) {
                pts.add(new double[] {runEndUs, totalUs});
            } else {
                pts.get(pts.size() - 1)[1] = totalUs;
            }
            return trace(pts);
        }
        if (d.pfc == null || d.pfc.isEmpty()) {
            return null;
        }
        // Open pauses per (device, port, priority); the total grows at one us per us per open pause.
        Map<String, Double> openUntil = new LinkedHashMap<>();
        List<double[]> pts = new ArrayList<>();
        double total = 0;
        double at = 0;
        for (ReportData.PfcFrame f : d.pfc) {
            double now = f.timeUs();
            for (Double until : openUntil.values()) {
                total += Math.max(0, Math.min(until, now) - at);
            }
            at = now;
            openUntil.values().removeIf(u -> u <= now);
            String k = f.device() + "|" + f.port() + "|" + f.priority();
            if (f.xoff()) {
                openUntil.put(k, now + f.pauseUs());
            } else {
                openUntil.remove(k);
            }
            pts.add(new double[] {now, total});
        }
        // A pause still open when the run ended counts up to that end, as the ports' counters do.
        double end = at;
        for (Double until : openUntil.values()) {
            end = Math.max(end, Math.min(until, runEndUs));
            total += Math.max(0, Math.min(until, runEndUs) - at);
        }
        // The line ends at the ports' own total, the table's figure.
        pts.add(new double[] {end, totalUs > 0 ? totalUs : total});
        return total > 0 ? trace(pts) : null;
    }

    private static TimeCharts.Trace trace(List<double[]> pts) {
        return new TimeCharts.Trace("", pts.stream().mapToDouble(x -> x[0]).toArray(),
                pts.stream().mapToDouble(x -> x[1]).toArray());
    }

    /** The same queue pair on every fabric: the one whose rate changed most on the first fabric where any did. */
    private void rates(Page p, List<ReportData> data, double end) {
        String qp = null;
        for (ReportData d : data) {
            if (d.rates == null) {
                continue;
            }
            int best = 0;
            for (TimeCharts.Trace t : TimeCharts.traces(d.rates, 0)) {
                int changes = 0;
                for (int i = 1; i < t.v().length; i++) {
                    changes += t.v()[i] != t.v()[i - 1] ? 1 : 0;
                }
                if (changes > best) {
                    best = changes;
                    qp = t.name();
                }
            }
            if (qp != null) {
                break;
            }
        }
        if (qp == null) {
            p.note("no queue pair's allowed rate changed on any fabric: no rates chart");
            return;
        }
        List<TimeCharts.Trace> traces = new ArrayList<>();
        List<String> colors = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            if (data.get(i).rates == null) {
                continue;
            }
            for (TimeCharts.Trace t : TimeCharts.traces(data.get(i).rates, 0)) {
                if (t.name().equals(qp)) {
                    traces.add(new TimeCharts.Trace(entries.get(i).mode() + ": " + t.name(), t.t(), t.v()));
                    colors.add(Chart.COLORS[i % Chart.COLORS.length]);
                }
            }
        }
        p.chart(TimeCharts.chart("cmp-rates", "Sending rate of " + qp + " on each fabric", "allowed rate (Gb/s)",
                "Gb/s", traces, null, colors.toArray(new String[0]), Double.NaN, end), "the same queue pair (same traffic) on every fabric", null);
    }

    /** Each job's JCT on each fabric, split into its ideal JCT and the network penalty, and the GPUs' wait. */
    private void jobs(Page p) {
        Chart c = new Chart("cmp-jct", "Job completion time per fabric", Chart.Kind.LANES);
        c.timeAxis = false;
        c.xLabel = "JCT (us)";
        c.categories.add(new String[] {"ideal JCT", "#bbbbbb"});
        c.categories.add(new String[] {"network penalty", "#d62728"});
        Chart w = new Chart("cmp-gpu-wait", "GPU network wait per iteration, per fabric", Chart.Kind.LANES);
        w.timeAxis = false;
        w.xLabel = "wait per GPU and iteration (us), mean over ranks";
        w.categories.add(new String[] {"waiting on the network", "#d62728"});
        double max = 0;
        double maxWait = 0;
        for (Entry e : entries) {
            for (var j : e.result().jobs()) {
                if (!j.completed()) {
                    continue;
                }
                int row = c.rows.size();
                c.rows.add(e.mode() + ": " + j.job());
                double ideal = Math.min(j.idealJctPs(), j.jctPs()) / 1e6;
                c.intervals.add(new Chart.Interval(row, 0, ideal, 0, ""));
                c.intervals.add(new Chart.Interval(row, ideal, j.jctPs() / 1e6, 1, ""));
                max = Math.max(max, j.jctPs() / 1e6);
                if (!Double.isNaN(j.networkWaitUs())) {
                    int r = w.rows.size();
                    w.rows.add(e.mode() + ": " + j.job());
                    w.intervals.add(new Chart.Interval(r, 0, j.networkWaitUs(), 0, ""));
                    maxWait = Math.max(maxWait, j.networkWaitUs());
                }
            }
        }
        if (c.intervals.isEmpty()) {
            return;
        }
        p.h2("Jobs");
        c.xMin = 0;
        c.xMax = max > 0 ? max : 1;
        w.xMin = 0;
        w.xMax = maxWait > 0 ? maxWait : 1;
        p.chart(c, "grey: the same job on an ideal network; red: what this fabric added", null);
        p.chart(w, "time a GPU waited on the network per iteration beyond what the ideal network causes (jobs.csv)",
                "no GPU waited on the network on any fabric");
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
