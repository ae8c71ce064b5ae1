package rocelab.observe.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.observe.output.AtomicFiles;

/**
 * Builds {@code report.html} of a run folder from the files the run wrote, so {@code rocelab report OUTDIR} can
 * rebuild it at any time: one self-contained page (inline SVG, no scripts, no network) with the summary, the
 * hottest queues over time, the most-changed sending rates, the PFC pause timeline, the FCT and slowdown
 * distributions, and the hottest ports. Large runs stay readable: charts show the top few series only.
 */
public final class ReportWriter {
    public static final String FILE = "report.html";
    private static final int TOP_QUEUES = 4;
    private static final int TOP_RATES = 6;
    private static final int TOP_PAUSED = 24;
    private static final int TOP_PORTS = 12;

    /** Charts of the report being built, also written as standalone SVG files for papers and terminals. */
    private final Map<String, String> charts = new LinkedHashMap<>();

    private ReportWriter() {}

    private void chart(StringBuilder b, String name, String svg) {
        b.append(svg);
        charts.put(name, svg);
    }

    public static Path write(Path dir) throws IOException {
        return new ReportWriter().build(dir);
    }

    private Path build(Path dir) throws IOException {
        StringBuilder b = new StringBuilder(1 << 16);
        String summary = Files.exists(dir.resolve("summary.json"))
                ? Files.readString(dir.resolve("summary.json"), StandardCharsets.UTF_8) : "(no summary.json)";
        String name = field(summary, "scenario");
        b.append("<!DOCTYPE html><html><head><meta charset='utf-8'><title>rocelab report: ").append(Svg.esc(name))
                .append("</title><style>body{font-family:sans-serif;max-width:820px;margin:20px auto;color:#222}"
                        + "h2{border-bottom:1px solid #ccc;margin-top:32px}pre{background:#f6f6f6;padding:8px;"
                        + "font-size:11px;max-height:360px;overflow:auto}table{border-collapse:collapse;font-size:12px}"
                        + "td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}p.note{color:#666;"
                        + "font-size:12px}</style></head><body>");
        b.append("<h1>rocelab report: ").append(Svg.esc(name)).append("</h1>");
        b.append("<p>mode ").append(Svg.esc(field(summary, "mode"))).append(" · seed ")
                .append(Svg.esc(field(summary, "seed"))).append(" · simulated ")
                .append(Svg.esc(field(summary, "simulated_seconds"))).append(" s · stop reason ")
                .append(Svg.esc(field(summary, "stop_reason"))).append("</p>");
        String manifest = Files.exists(dir.resolve("manifest.json"))
                ? Files.readString(dir.resolve("manifest.json"), StandardCharsets.UTF_8) : "";
        gpuView(b, Csv.read(dir.resolve("jobs.csv")), Csv.read(dir.resolve("ranks.csv")));
        timeline(b, Csv.read(dir.resolve("timeline.csv")));
        InferenceSection.append(b, Csv.read(dir.resolve("requests.csv")));
        collectives(b, Csv.read(dir.resolve("collectives.csv")));
        queues(b, Csv.read(dir.resolve("queues.csv")), Csv.read(dir.resolve("ports.csv")), manifest);
        rates(b, Csv.read(dir.resolve("rates.csv")));
        pauses(b, Csv.read(dir.resolve("pfc.csv")));
        lanes(b, Csv.read(dir.resolve("vl.csv")));
        flows(b, Csv.read(dir.resolve("flows.csv")));
        victims(b, Csv.read(dir.resolve("flows.csv")));
        topology(b, Csv.read(dir.resolve("topology.csv")), Csv.read(dir.resolve("ports.csv")));
        ports(b, Csv.read(dir.resolve("ports.csv")));
        b.append("<h2>summary.json</h2><pre>").append(Svg.esc(summary)).append("</pre>");
        b.append("</body></html>\n");
        Path out = dir.resolve(FILE);
        AtomicFiles.write(out, b.toString());
        Path chartDir = dir.resolve("charts");
        if (Files.isDirectory(chartDir)) {
            // Charts of an earlier run into this folder (say, a PFC timeline) must not outlive it.
            try (var old = Files.list(chartDir)) {
                for (Path f : old.filter(f -> f.getFileName().toString().endsWith(".svg")).toList()) {
                    if (!charts.containsKey(f.getFileName().toString().replace(".svg", ""))) {
                        Files.delete(f);
                    }
                }
            }
        }
        for (Map.Entry<String, String> c : charts.entrySet()) {
            AtomicFiles.write(dir.resolve("charts").resolve(c.getKey() + ".svg"),
                    "<?xml version='1.0' encoding='UTF-8'?>\n" + c.getValue() + "\n");
        }
        return out;
    }

    /** A top-level scalar of summary.json, read without a JSON library (its layout is ours and stable). */
    static String field(String json, String key) {
        int i = json.indexOf("\"" + key + "\": ");
        if (i < 0) {
            return "?";
        }
        int start = i + key.length() + 4;
        int end = start;
        while (end < json.length() && json.charAt(end) != ',' && json.charAt(end) != '\n') {
            end++;
        }
        return json.substring(start, end).replace("\"", "");
    }

    private void queues(StringBuilder b, Csv c, Csv ports, String manifest) {
        b.append("<h2>Hottest egress queues</h2>");
        if (c == null || c.rows.isEmpty()) {
            b.append("<p class='note'>no queue samples (observe.sample-interval: 0)</p>");
            return;
        }
        int t = c.col("time_us");
        int sw = c.col("switch");
        int port = c.col("port");
        int tc = c.col("tc");
        int bytes = c.col("bytes");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        Map<String, Double> peak = new LinkedHashMap<>();
        for (String[] r : c.rows) {
            String key = r[sw] + "/p" + r[port] + " tc" + r[tc];
            double v = Csv.num(r[bytes]);
            series.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {Csv.num(r[t]), v});
            peak.merge(key, v, Math::max);
        }
        List<String> top = peak.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(TOP_QUEUES).map(Map.Entry::getKey).toList();
        List<Svg.Series> s = new ArrayList<>();
        for (String k : top) {
            s.add(series(k + " (peak " + Svg.fmt(peak.get(k)) + " B)", series.get(k)));
        }
        double[] lines = new double[0];
        String[] names = new String[0];
        String marking = field(manifest, "ecn_marking");
        if (!top.isEmpty() && "red".equals(marking) && ports != null) {
            // Thresholds of the hottest queue's port: explicit, or scaled with its rate.
            String hottest = top.get(0);
            String rate = "";
            for (String[] r : ports.rows) {
                if (hottest.startsWith(r[ports.col("switch")] + "/p" + r[ports.col("port")] + " ")) {
                    rate = r[ports.col("rate_gbps")];
                }
            }
            double gbps = rate.isEmpty() ? Double.NaN : Csv.num(rate);
            double kmin = threshold(manifest, "ecn_kmin_bytes", gbps);
            double kmax = threshold(manifest, "ecn_kmax_bytes", gbps);
            if (!Double.isNaN(kmin) && !Double.isNaN(kmax)) {
                lines = new double[] {kmin, kmax};
                names = new String[] {"ECN Kmin " + Svg.fmt(kmin) + " B", "ECN Kmax " + Svg.fmt(kmax) + " B"};
            }
        }
        String xoff = field(manifest, "pfc_static_xoff_bytes");
        if (!"?".equals(xoff) && !"null".equals(xoff)) {
            lines = Arrays.copyOf(lines, lines.length + 1);
            names = Arrays.copyOf(names, names.length + 1);
            lines[lines.length - 1] = Csv.num(xoff);
            names[names.length - 1] = "PFC XOFF (static) " + Svg.fmt(Csv.num(xoff)) + " B";
        }
        chart(b, "queues", Svg.stepChart("time (us)", "queue (bytes)", s, lines, names));
        b.append("<p class='note'>depth per traffic class, sampled (queues.csv); the ").append(top.size())
                .append(" deepest of ").append(peak.size()).append(" queues</p>");
    }

    private void rates(StringBuilder b, Csv c) {
        b.append("<h2>Sending rates</h2>");
        if (c == null || c.rows.isEmpty()) {
            b.append("<p class='note'>no rate samples</p>");
            return;
        }
        int t = c.col("time_us");
        int qp = c.col("qp");
        int rate = c.col("rate_gbps");
        int cnp = c.col("cnps_received");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        Map<String, List<Double>> notified = new LinkedHashMap<>();
        Map<String, Double> lastCnps = new LinkedHashMap<>();
        for (String[] r : c.rows) {
            String key = "QP " + r[qp] + " (h" + r[c.col("src")] + "->h" + r[c.col("dst")] + ")";
            series.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {Csv.num(r[t]), Csv.num(r[rate])});
            double n = Csv.num(r[cnp]);
            if (n > lastCnps.getOrDefault(key, 0.0)) {
                notified.computeIfAbsent(key, k -> new ArrayList<>()).add(Csv.num(r[t]));
            }
            lastCnps.put(key, n);
        }
        List<String> top = series.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, List<double[]>> e) -> e.getValue().size())
                        .reversed()).limit(TOP_RATES).map(Map.Entry::getKey).toList();
        List<Svg.Series> s = new ArrayList<>();
        for (String k : top) {
            Svg.Series line = series(k, series.get(k));
            double[] marks = notified.getOrDefault(k, List.of()).stream().mapToDouble(Double::doubleValue).toArray();
            s.add(new Svg.Series(k, line.x(), line.y(), marks));
        }
        chart(b, "rates", Svg.stepChart("time (us)", "rate (Gb/s)", s, new double[0], new String[0]));
        b.append("<p class='note'>the rate each QP's congestion control allows (rates.csv); dots: congestion"
                + " notifications (CNPs) received in the sample interval; the ").append(top.size())
                .append(" QPs whose rate changed most, of ").append(series.size()).append("</p>");
    }

    private void pauses(StringBuilder b, Csv c) {
        if (c == null) {
            return;
        }
        b.append("<h2>PFC pauses</h2>");
        if (c.rows.isEmpty()) {
            b.append("<p class='note'>no PFC frame was sent</p>");
            return;
        }
        int t = c.col("time_us");
        int kind = c.col("kind");
        int pauseUs = c.col("pause_us");
        Map<String, List<double[]>> bars = new LinkedHashMap<>();
        Map<String, Double> open = new LinkedHashMap<>();
        double end = 0;
        for (String[] r : c.rows) {
            String key = r[c.col("peer")] + " paused by " + r[c.col("device")] + " p" + r[c.col("priority")];
            double time = Csv.num(r[t]);
            end = Math.max(end, time);
            Double since = open.get(key);
            if ("XOFF".equals(r[kind])) {
                if (since == null) {
                    open.put(key, time);
                }
                bars.computeIfAbsent(key, k -> new ArrayList<>());
                open.put(key + "#until", time + Csv.num(r[pauseUs]));
            } else if (since != null) {
                bars.get(key).add(new double[] {since, time});
                open.remove(key);
            }
        }
        for (Map.Entry<String, List<double[]>> e : bars.entrySet()) {
            Double since = open.get(e.getKey());
            if (since != null) {
                double until = open.getOrDefault(e.getKey() + "#until", end);
                e.getValue().add(new double[] {since, until});
                end = Math.max(end, until);
            }
        }
        List<String> labels = new ArrayList<>(bars.keySet());
        labels.sort(Comparator.comparingDouble((String k) -> -total(bars.get(k))));
        if (labels.size() > TOP_PAUSED) {
            labels = labels.subList(0, TOP_PAUSED);
        }
        List<double[][]> intervals = new ArrayList<>();
        for (String k : labels) {
            intervals.add(bars.get(k).toArray(new double[0][]));
        }
        chart(b, "pfc-pauses", Svg.timeline("time (us)", labels, intervals, end));
        b.append("<p class='note'>when each device was paused, by whom and on which priority (pfc.csv); ")
                .append(labels.size()).append(" of ").append(bars.size()).append(" paused links, most paused first</p>");
    }

    private static double threshold(String manifest, String key, double gbps) {
        String explicit = field(manifest, key);
        if (!"?".equals(explicit) && !"null".equals(explicit)) {
            return Csv.num(explicit);
        }
        String perGbps = field(manifest, key.replace("_bytes", "_bytes_per_gbps"));
        return "?".equals(perGbps) || "null".equals(perGbps) ? Double.NaN : Csv.num(perGbps) * gbps;
    }

    /** The numbers of a column, blanks left out, sorted. */
    private static double[] column(Csv c, int col) {
        double[] v = new double[c.rows.size()];
        int n = 0;
        for (String[] r : c.rows) {
            double x = Csv.num(r[col]);
            if (!Double.isNaN(x)) {
                v[n++] = x;
            }
        }
        double[] out = Arrays.copyOf(v, n);
        Arrays.sort(out);
        return out;
    }

    private static double total(List<double[]> iv) {
        double s = 0;
        for (double[] i : iv) {
            s += i[1] - i[0];
        }
        return s;
    }

    /** Rows of a long table shown in the report; the CSV has them all. */
    private static final int MAX_ROWS = 200;

    /**
     * The GPU's view first: per job, how long it took against an ideal network, and per rank a bar of compute,
     * idle time an ideal network would also have caused, and time waiting on the network.
     */
    private void gpuView(StringBuilder b, Csv jobs, Csv ranks) {
        if (jobs == null || jobs.rows.isEmpty()) {
            return;
        }
        b.append("<h2>The GPU's view</h2><table><tr><th>job</th><th>ranks</th><th>JCT us</th><th>ideal JCT us</th>"
                + "<th>network penalty</th><th>iteration us</th><th>compute us</th><th>exposed comm us</th>"
                + "<th>idle us</th><th>waiting on network us</th></tr>");
        for (String[] r : jobs.rows) {
            b.append("<tr><td>").append(Svg.esc(r[jobs.col("job")])).append("</td><td>")
                    .append(Svg.esc(r[jobs.col("ranks")])).append("</td><td>").append(Svg.esc(r[jobs.col("jct_us")]))
                    .append("</td><td>").append(Svg.esc(r[jobs.col("ideal_jct_us")])).append("</td><td>")
                    .append(Svg.esc(r[jobs.col("network_penalty_percent")])).append(" %</td><td>")
                    .append(Svg.esc(r[jobs.col("iteration_us")])).append("</td><td>")
                    .append(Svg.esc(r[jobs.col("compute_us")])).append("</td><td>")
                    .append(Svg.esc(r[jobs.col("exposed_comm_us")])).append("</td><td>")
                    .append(Svg.esc(r[jobs.col("idle_us")])).append("</td><td>")
                    .append(Svg.esc(r[jobs.col("network_wait_us")])).append("</td></tr>");
        }
        b.append("</table><p class='note'>Per GPU and iteration (after warm-up), mean over ranks. Exposed"
                + " communication: not computing while the GPU's own data moves; idle: not computing with nothing"
                + " moving (waiting for another rank). Ideal: the same workload with every message at line rate after"
                + " the path's fixed latency, no queueing. Waiting on the network = time not computing beyond what"
                + " the ideal network causes.</p>");
        if (ranks == null || ranks.rows.isEmpty()) {
            return;
        }
        int shown = Math.min(ranks.rows.size(), 64);
        double max = 0;
        for (int i = 0; i < shown; i++) {
            max = Math.max(max, number(ranks.rows.get(i)[ranks.col("iteration_us")]));
        }
        if (max <= 0) {
            return;
        }
        int rowH = 12;
        int width = 760;
        int left = 150;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns='http://www.w3.org/2000/svg' width='").append(width).append("' height='")
                .append(shown * rowH + 30).append("' font-family='sans-serif' font-size='10'>");
        for (int i = 0; i < shown; i++) {
            String[] r = ranks.rows.get(i);
            double compute = number(r[ranks.col("compute_us")]);
            double wait = number(r[ranks.col("network_wait_us")]);
            double notComputing = number(r[ranks.col("exposed_comm_us")]) + number(r[ranks.col("idle_us")]);
            double idealIdle = Math.max(0, notComputing - wait);
            double scale = (width - left - 10) / max;
            int y = i * rowH;
            svg.append("<text x='0' y='").append(y + 9).append("'>").append(Svg.esc(r[ranks.col("job")] + " r"
                    + r[ranks.col("rank")] + " " + r[ranks.col("coords")])).append("</text>");
            double x = left;
            for (double[] seg : new double[][] {{compute, 0}, {idealIdle, 1}, {wait, 2}}) {
                String color = seg[1] == 0 ? "#4c9a2a" : seg[1] == 1 ? "#bbbbbb" : "#d62728";
                svg.append(String.format(java.util.Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'/>",
                        x, y + 1, Math.max(0, seg[0] * scale), rowH - 2, color));
                x += Math.max(0, seg[0] * scale);
            }
        }
        svg.append("<text x='").append(left).append("' y='").append(shown * rowH + 20).append("'>")
                .append("green: compute · grey: not computing, as on an ideal network · red: waiting on the network")
                .append("</text></svg>");
        b.append(svg);
        if (shown < ranks.rows.size()) {
            b.append("<p class='note'>First ").append(shown).append(" of ").append(ranks.rows.size())
                    .append(" ranks; all are in ranks.csv.</p>");
        }
    }

    /**
     * Each job's last iteration, rank by rank: compute steps (green, upper half of the row) and the stretches when the
     * rank's own data was moving (blue, lower half). Where neither shows, the GPU waited for another rank.
     */
    private void timeline(StringBuilder b, Csv c) {
        if (c == null || c.rows.isEmpty()) {
            return;
        }
        java.util.Map<String, List<String[]>> byJob = new java.util.LinkedHashMap<>();
        for (String[] r : c.rows) {
            byJob.computeIfAbsent(r[c.col("job")], k -> new java.util.ArrayList<>()).add(r);
        }
        b.append("<h2>Timeline of the last iteration</h2>");
        for (var e : byJob.entrySet()) {
            int ranks = 0;
            double t0 = Double.MAX_VALUE;
            double t1 = 0;
            for (String[] r : e.getValue()) {
                ranks = Math.max(ranks, (int) number(r[c.col("rank")]) + 1);
                t0 = Math.min(t0, number(r[c.col("start_us")]));
                t1 = Math.max(t1, number(r[c.col("end_us")]));
            }
            int shown = Math.min(ranks, 64);
            int rowH = 10;
            int left = 60;
            int width = 760;
            double scale = (width - left - 10) / Math.max(t1 - t0, 1e-9);
            StringBuilder svg = new StringBuilder();
            svg.append("<svg xmlns='http://www.w3.org/2000/svg' width='").append(width).append("' height='")
                    .append(shown * rowH + 34).append("' font-family='sans-serif' font-size='9'>");
            for (int rank = 0; rank < shown; rank++) {
                svg.append("<text x='0' y='").append(rank * rowH + 8).append("'>rank ").append(rank).append("</text>");
            }
            for (String[] r : e.getValue()) {
                int rank = (int) number(r[c.col("rank")]);
                if (rank >= shown) {
                    continue;
                }
                boolean compute = "compute".equals(r[c.col("kind")]);
                double x = left + (number(r[c.col("start_us")]) - t0) * scale;
                double w = Math.max(0.5, (number(r[c.col("end_us")]) - number(r[c.col("start_us")])) * scale);
                int y = rank * rowH + (compute ? 0 : rowH / 2);
                svg.append(String.format(java.util.Locale.ROOT,
                        "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'><title>%s</title></rect>", x, y, w,
                        rowH / 2 - 1, compute ? "#4c9a2a" : "#1f77b4",
                        Svg.esc(compute ? r[c.col("label")] : "own data moving")));
            }
            svg.append(String.format(java.util.Locale.ROOT, "<text x='%d' y='%d'>%.3f ms</text>", left,
                    shown * rowH + 14, t0 / 1e3));
            svg.append(String.format(java.util.Locale.ROOT, "<text x='%d' y='%d' text-anchor='end'>%.3f ms</text>",
                    width - 10, shown * rowH + 14, t1 / 1e3));
            svg.append("<text x='").append(left).append("' y='").append(shown * rowH + 28).append("'>")
                    .append("green: compute · blue: the rank's own data moving · blank: waiting for another rank")
                    .append("</text></svg>");
            b.append("<h3>").append(Svg.esc(e.getKey())).append("</h3>").append(svg);
            if (shown < ranks) {
                b.append("<p class='note'>First ").append(shown).append(" of ").append(ranks)
                        .append(" ranks.</p>");
            }
        }
    }

    private static double number(String s) {
        try {
            return s == null || s.isEmpty() ? 0 : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The collectives: their time and bus bandwidth are what the GPUs felt. */
    private void collectives(StringBuilder b, Csv c) {
        if (c == null || c.rows.isEmpty()) {
            return;
        }
        b.append("<h2>Collectives</h2><table><tr><th>name</th><th>algorithm</th><th>ranks</th><th>bytes</th>"
                + "<th>start us</th><th>time us</th><th>ideal us</th><th>algbw GB/s</th><th>busbw GB/s</th>"
                + "<th>status</th></tr>");
        int shown = 0;
        for (String[] r : c.rows) {
            if (shown++ == MAX_ROWS) {
                break;
            }
            b.append("<tr>");
            for (String col : List.of("name", "algorithm", "ranks", "size_bytes", "start_us", "time_us",
                    "ideal_time_us", "algbw_gbytes_per_s", "busbw_gbytes_per_s", "status")) {
                b.append("<td>").append(Svg.esc(r[c.col(col)])).append("</td>");
            }
            b.append("</tr>");
        }
        b.append("</table>");
        if (c.rows.size() > MAX_ROWS) {
            b.append("<p class='note'>First ").append(MAX_ROWS).append(" of ").append(c.rows.size())
                    .append(" collectives; all are in collectives.csv.</p>");
        }
        b.append("<p class='note'>nccl-tests definitions: algbw = bytes / time; busbw = algbw x 2(N-1)/N"
                + " for AllReduce, x (N-1)/N for AllGather, ReduceScatter and AlltoAll, x 1 for Broadcast, Reduce and"
                + " SendRecv, comparable with a link's payload rate. Ideal: the same call on an ideal network.</p>");
    }

    /** InfiniBand: the port lanes that waited longest for credits (congestion spreading), with FECN marks. */
    private static void lanes(StringBuilder b, Csv c) {
        if (c == null || c.rows.isEmpty()) {
            return;
        }
        int stall = c.col("credit_stall_us");
        List<String[]> rows = new ArrayList<>(c.rows);
        rows.sort(Comparator.comparingDouble((String[] r) -> -Csv.num(r[stall])));
        b.append("<h2>Virtual lanes and credits</h2><table><tr><th>device</th><th>port</th><th>peer</th><th>VL</th>"
                + "<th>credit stall us</th><th>blocks sent</th><th>credit updates sent</th><th>received</th>"
                + "<th>peak input buffer B</th><th>FECN marked</th></tr>");
        for (String[] r : rows.subList(0, Math.min(TOP_PORTS, rows.size()))) {
            b.append("<tr>");
            for (String col : List.of("device", "port", "peer", "vl", "credit_stall_us", "blocks_sent",
                    "flow_control_sent", "flow_control_received", "peak_input_buffer_bytes", "fecn_marked")) {
                b.append("<td>").append(Svg.esc(r[c.col(col)])).append("</td>");
            }
            b.append("</tr>");
        }
        b.append("</table><p class='note'>credit stall: time a lane had a packet ready that its credits did not"
                + " cover (the receiver's input buffer was full); longest first, every port lane is in vl.csv</p>");
    }

    private void flows(StringBuilder b, Csv c) {
        if (c == null || c.rows.isEmpty()) {
            return;
        }
        b.append("<h2>Flow completion</h2>");
        int fct = c.col("fct_us");
        int slow = c.col("slowdown");
        double[] f = column(c, fct);
        double[] s = column(c, slow);
        if (f.length > 0) {
            chart(b, "fct-cdf", Svg.stepChart("FCT (us)", "fraction of flows", List.of(cdf("FCT", f)),
                    new double[0], new String[0]));
            chart(b, "slowdown-cdf", Svg.stepChart("slowdown (FCT / FCT alone)", "fraction of flows",
                    List.of(cdf("slowdown", s)), new double[0], new String[0]));
        }
        List<String[]> worst = new ArrayList<>(c.rows);
        worst.removeIf(r -> r[slow].isEmpty());
        worst.sort(Comparator.comparingDouble((String[] r) -> -Csv.num(r[slow])));
        b.append("<table><tr><th>flow</th><th>src</th><th>dst</th><th>bytes</th><th>FCT us</th><th>slowdown</th></tr>");
        for (String[] r : worst.subList(0, Math.min(10, worst.size()))) {
            b.append("<tr><td>").append(r[c.col("flow_id")]).append("</td><td>h").append(r[c.col("src")])
                    .append("</td><td>h").append(r[c.col("dst")]).append("</td><td>").append(r[c.col("size_bytes")])
                    .append("</td><td>").append(r[fct]).append("</td><td>").append(r[slow]).append("</td></tr>");
        }
        b.append("</table><p class='note'>the 10 slowest flows (flows.csv has them all)</p>");
    }

    /** The PFC victims flows.csv names, most waited first, with their evidence. */
    private void victims(StringBuilder b, Csv c) {
        if (c == null || !c.header.contains("pfc_victim")) {
            return;
        }
        int victim = c.col("pfc_victim");
        int wait = c.col("victim_wait_us");
        List<String[]> rows = new ArrayList<>(c.rows);
        rows.removeIf(r -> !"true".equals(r[victim]));
        if (rows.isEmpty()) {
            return;
        }
        rows.sort(Comparator.comparingDouble((String[] r) -> -Csv.num(r[wait])));
        b.append("<h2>PFC victims</h2><table><tr><th>flow</th><th>src</th><th>dst</th><th>slowdown</th>"
                + "<th>paused us</th><th>victim us</th><th>root congestion point</th></tr>");
        for (String[] r : rows.subList(0, Math.min(10, rows.size()))) {
            b.append("<tr><td>").append(r[c.col("flow_id")]).append("</td><td>h").append(r[c.col("src")])
                    .append("</td><td>h").append(r[c.col("dst")]).append("</td><td>").append(r[c.col("slowdown")])
                    .append("</td><td>").append(r[c.col("paused_wait_us")]).append("</td><td>").append(r[wait])
                    .append("</td><td>").append(Svg.esc(r[c.col("pause_root")])).append("</td></tr>");
        }
        b.append("</table><p class='note'>").append(Math.min(10, rows.size())).append(" of ").append(rows.size())
                .append(" victims: flows that waited at least 5% of their time behind pauses rooted at a congestion"
                        + " point not on their own way (flows.csv paused_wait_us, victim_wait_us)</p>");
    }

    /** The fabric with its links shaded by the deepest queue either way (small fabrics only). */
    private void topology(StringBuilder b, Csv topo, Csv ports) {
        if (topo == null || ports == null) {
            return;
        }
        b.append("<h2>Fabric</h2>");
        Map<String, Integer> tierOf = new LinkedHashMap<>();
        for (String[] r : topo.rows) {
            tierOf.put(r[topo.col("a")], Integer.parseInt(r[topo.col("a_tier")]));
            tierOf.put(r[topo.col("b")], Integer.parseInt(r[topo.col("b_tier")]));
        }
        if (tierOf.size() > 200) {
            b.append("<p class='note'>").append(tierOf.size()).append(" nodes: too many to draw; the hottest ports"
                    + " are below and every link is in topology.csv</p>");
            return;
        }
        int maxTier = tierOf.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<List<String>> tiers = new ArrayList<>();
        for (int t = 0; t <= maxTier; t++) {
            tiers.add(new ArrayList<>());
        }
        tierOf.forEach((node, tier) -> tiers.get(tier).add(node));
        double deepest = 0;
        Map<String, Double> peak = new LinkedHashMap<>();
        for (String[] r : ports.rows) {
            double v = Csv.num(r[ports.col("peak_queue_bytes")]);
            deepest = Math.max(deepest, v);
            String sw = r[ports.col("switch")];
            String peer = r[ports.col("peer")];
            peak.merge(sw + "|" + peer, v, Math::max);
            peak.merge(peer + "|" + sw, v, Math::max);
        }
        Map<String, Double> heat = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : peak.entrySet()) {
            heat.put(e.getKey(), deepest > 0 ? e.getValue() / deepest : 0);
        }
        List<String[]> links = new ArrayList<>();
        for (String[] r : topo.rows) {
            links.add(new String[] {r[topo.col("a")], r[topo.col("b")]});
        }
        chart(b, "fabric", Svg.topology(tiers, links, heat));
        b.append("<p class='note'>links shaded by the deepest egress queue on them, either way (red: the run's"
                + " deepest)</p>");
    }

    private static void ports(StringBuilder b, Csv c) {
        if (c == null || c.rows.isEmpty()) {
            return;
        }
        b.append("<h2>Hottest ports</h2><table><tr>");
        String[] cols = {"switch", "port", "peer", "peak_queue_bytes", "tx_packets", "dropped_packets", "ecn_marked",
            "tx_pause", "rx_pause"};
        for (String h : cols) {
            b.append("<th>").append(h).append("</th>");
        }
        b.append("</tr>");
        int peak = c.col("peak_queue_bytes");
        List<String[]> rows = new ArrayList<>(c.rows);
        rows.sort(Comparator.comparingDouble((String[] r) -> -Csv.num(r[peak])));
        for (String[] r : rows.subList(0, Math.min(TOP_PORTS, rows.size()))) {
            b.append("<tr>");
            for (String h : cols) {
                b.append("<td>").append(Svg.esc(r[c.col(h)])).append("</td>");
            }
            b.append("</tr>");
        }
        b.append("</table><p class='note'>by peak queue; every port is in ports.csv</p>");
    }

    private static Svg.Series series(String name, List<double[]> pts) {
        double[] x = new double[pts.size()];
        double[] y = new double[pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            x[i] = pts.get(i)[0];
            y[i] = pts.get(i)[1];
        }
        return new Svg.Series(name, x, y);
    }

    private static Svg.Series cdf(String name, double[] sorted) {
        double[] y = new double[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            y[i] = (i + 1) / (double) sorted.length;
        }
        return new Svg.Series(name, Arrays.copyOf(sorted, sorted.length), y);
    }
}
