package rocelab.observe.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import rocelab.observe.RunResult;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.credit.VirtualLanes;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.Percentiles;
import rocelab.observe.output.AtomicFiles;

/**
 * One workload on several fabrics side by side ({@code rocelab compare}): a table of completion times and
 * slowdowns, collective times, drops and retransmissions, pause or credit-stall time, congestion notifications
 * (CNPs on RoCE, BECNs on InfiniBand) and peak queues; compare.csv with the same columns; and one report.html
 * that overlays the FCT and slowdown distributions of every fabric.
 */
public final class ComparisonReport {
    /** One fabric's run. */
    public record Entry(String mode, RunResult result) {}

    /** The columns of compare.csv, in order. */
    public static final List<String> COLUMNS = List.of("mode", "flows", "completed", "fct_p50_us", "fct_p99_us",
            "fct_max_us", "slowdown_p50", "slowdown_p99", "collective_us", "job_jct_us", "gpu_network_wait_us",
            "request_e2e_p50_us", "request_network_wait_p50_us", "drops", "retransmitted",
            "pause_or_credit_stall_us", "cnp_or_becn", "peak_queue_bytes", "simulated_us");

    private final List<Entry> entries;

    public ComparisonReport(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** The row of one fabric, as text cells in {@link #COLUMNS} order. */
    static List<String> row(Entry e) {
        RunResult r = e.result();
        FabricTotals t = r.totals();
        Percentiles fct = new Percentiles(r.flows().stream().filter(FlowRecord::completed)
                .mapToLong(FlowRecord::fctPs).toArray());
        Percentiles slow = new Percentiles(r.flows().stream().filter(FlowRecord::completed)
                .mapToLong(f -> Math.round(f.slowdown() * 1000)).toArray());
        VirtualLanes lanes = VirtualLanes.of(r.network());
        long stallPs = lanes != null ? lanes.creditStallPs() : t.pausedPs();
        long collectivePs = r.collectives().stream().filter(c -> c.completed()).mapToLong(c -> c.timePs()).max()
                .orElse(-1);
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
        return cells;
    }

    /** The table printed by {@code rocelab compare}. */
    public String table() {
        String[] heads = {"mode", "flows", "done", "FCT p50 us", "FCT p99 us", "FCT max us", "slow p50",
            "slow p99", "collective us", "JCT us", "GPU net wait us", "req E2E p50 us", "req net wait p50 us",
            "drops", "retx", "pause/stall us", "CNP/BECN", "peak queue B"};
        List<List<String>> rows = new ArrayList<>();
        for (Entry e : entries) {
            rows.add(row(e).subList(0, heads.length));
        }
        // Columns no fabric has a value in (no jobs, no inference) are left out of the printed table.
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < heads.length; i++) {
            int col = i;
            if (i < 9 || i > 12 || rows.stream().anyMatch(r -> !r.get(col).isEmpty())) {
                keep.add(i);
            }
        }
        String[] allHeads = heads;
        heads = keep.stream().map(i -> allHeads[i]).toArray(String[]::new);
        List<List<String>> shown = new ArrayList<>();
        for (List<String> r : rows) {
            shown.add(keep.stream().map(r::get).toList());
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
                + " NICs; CNP/BECN: congestion notifications sent")
                .append(keep.contains(10) ? "; GPU net wait: per GPU and iteration, beyond an ideal network" : "")
                .append('\n');
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
        rocelab.observe.output.CsvTable t = new rocelab.observe.output.CsvTable(COLUMNS);
        for (Entry e : entries) {
            t.row(row(e).toArray());
        }
        return t.toString();
    }

    /** Writes compare.csv and report.html into {@code dir} (each fabric's own output is in dir/MODE). */
    public void write(Path dir) throws IOException {
        AtomicFiles.write(dir.resolve("compare.csv"), csv());
        StringBuilder b = new StringBuilder(1 << 14);
        String name = entries.isEmpty() ? "" : entries.get(0).result().scenario();
        b.append("<!DOCTYPE html><html><head><meta charset='utf-8'><title>rocelab compare: ").append(Svg.esc(name))
                .append("</title><style>body{font-family:sans-serif;max-width:900px;margin:20px auto;color:#222}"
                        + "h2{border-bottom:1px solid #ccc;margin-top:32px}table{border-collapse:collapse;"
                        + "font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}p.note{color:"
                        + "#666;font-size:12px}</style></head><body>");
        b.append("<h1>rocelab compare: ").append(Svg.esc(name)).append("</h1><p>the same topology and workload on ")
                .append(entries.size()).append(" fabrics; each fabric's full report is in its folder (");
        for (int i = 0; i < entries.size(); i++) {
            String m = Svg.esc(entries.get(i).mode());
            b.append(i == 0 ? "" : ", ").append("<a href='").append(m).append("/report.html'>").append(m)
                    .append("</a>");
        }
        b.append(")</p><h2>Side by side</h2><table><tr>");
        for (String c : COLUMNS) {
            b.append("<th>").append(c).append("</th>");
        }
        b.append("</tr>");
        for (Entry e : entries) {
            b.append("<tr>");
            for (String c : row(e)) {
                b.append("<td>").append(Svg.esc(c)).append("</td>");
            }
            b.append("</tr>");
        }
        b.append("</table><p class='note'>pause_or_credit_stall_us: PFC pause time (RoCE) or credit stall time"
                + " (InfiniBand); cnp_or_becn: CNPs (RoCE) or BECNs (InfiniBand) sent</p>");
        List<Svg.Series> fct = new ArrayList<>();
        List<Svg.Series> slow = new ArrayList<>();
        for (Entry e : entries) {
            double[] f = e.result().flows().stream().filter(FlowRecord::completed).mapToDouble(r -> r.fctPs() / 1e6)
                    .sorted().toArray();
            double[] s = e.result().flows().stream().filter(FlowRecord::completed).mapToDouble(FlowRecord::slowdown)
                    .sorted().toArray();
            if (f.length > 0) {
                fct.add(cdf(e.mode(), f));
                slow.add(cdf(e.mode(), s));
            }
        }
        if (!fct.isEmpty()) {
            b.append("<h2>Flow completion times</h2>").append(Svg.stepChart("FCT (us)", "fraction of flows", fct,
                    new double[0], new String[0]));
            b.append("<h2>Slowdown</h2>").append(Svg.stepChart("slowdown (FCT / FCT alone)", "fraction of flows",
                    slow, new double[0], new String[0]));
        }
        b.append("</body></html>\n");
        AtomicFiles.write(dir.resolve("report.html"), b.toString());
    }

    private static Svg.Series cdf(String name, double[] sorted) {
        double[] y = new double[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            y[i] = (i + 1) / (double) sorted.length;
        }
        return new Svg.Series(name, sorted, y);
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
