package rocelab.observe.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.inference.RequestRecord;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.output.Numbers;

/**
 * Every time series of a run on one simulated-time axis, from 0 to the end of the run: queues with their marking
 * and pause thresholds, sending rates with congestion notifications, marks, link utilisation and credit stalls per
 * port, PFC pauses, the ranks' last iteration and the requests' phases.
 */
final class TimeCharts {
    private TimeCharts() {}

    /** One series' samples: times (us) and values. */
    record Trace(String name, double[] t, double[] v) {}

    static void append(Page p, ReportData d) {
        p.h2("Over time");
        p.note("Every chart below shares one simulated-time axis: drag across a chart to zoom all of them, use the"
                + " wheel to zoom, shift+drag to pan, double-click to reset; hover shows the values at that instant.");
        String model = ReportWriter.str(d.summary.get("model"));
        if (model.isEmpty() || model.equals("packet")) {
            queues(p, d);
            rates(p, d);
            perInterval(p, d);
            pauses(p, d);
        } else {
            // A flow-level or ideal run has no queues, marks, rates or pauses: say so rather than draw empty charts.
            p.h2("Queues, rates and pauses").note("Not modelled by this run's model (" + model + "): "
                    + ReportWriter.str(d.summary.get("not_modelled")) + ".");
        }
        ranks(p, d);
        requests(p, d);
    }

    static double xMax(ReportData d) {
        return d.endUs > 0 ? d.endUs : 1;
    }

    /** Each key's samples of one value column (0: a, 1: b, 2: c). */
    static List<Trace> traces(ReportData.Samples s, int column) {
        int k = s.keys.size();
        int[] n = new int[k];
        for (int i = 0; i < s.rows; i++) {
            n[s.key[i]]++;
        }
        double[][] t = new double[k][];
        double[][] v = new double[k][];
        for (int i = 0; i < k; i++) {
            t[i] = new double[n[i]];
            v[i] = new double[n[i]];
        }
        int[] at = new int[k];
        double[] col = column == 0 ? s.a : column == 1 ? s.b : s.c;
        if (col == null) {
            throw new IllegalArgumentException("column " + column + " of these samples is not kept");
        }
        for (int i = 0; i < s.rows; i++) {
            int key = s.key[i];
            t[key][at[key]] = s.timeUs[i];
            v[key][at[key]++] = col[i];
        }
        List<Trace> out = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            out.add(new Trace(s.keys.get(i), t[i], v[i]));
        }
        return out;
    }

    static double peak(Trace t) {
        double m = 0;
        for (double v : t.v()) {
            m = Math.max(m, v);
        }
        return m;
    }

    static double total(Trace t) {
        double m = 0;
        for (double v : t.v()) {
            m += v;
        }
        return m;
    }

    /** The traces with the largest score, at most {@code n}, ties by name. */
    static List<Trace> top(List<Trace> all, ToDoubleFunction<Trace> score, int n) {
        List<Trace> s = new ArrayList<>(all);
        s.removeIf(t -> score.applyAsDouble(t) <= 0);
        s.sort(Comparator.comparingDouble((Trace t) -> -score.applyAsDouble(t)).thenComparing(Trace::name));
        return s.subList(0, Math.min(n, s.size()));
    }

    /** A time chart of step series (and point series where {@code points} says so), aligned on one x. */
    static Chart chart(String id, String title, String yLabel, String yUnit, List<Trace> traces, boolean[] points,
            String[] colors, double before, double xMax) {
        Chart c = new Chart(id, title, Chart.Kind.TIME);
        c.yLabel = yLabel;
        c.yUnit = yUnit;
        c.xMin = 0;
        c.xMax = xMax;
        if (traces.isEmpty()) {
            return c;
        }
        Aligned a = Aligned.of(traces.stream().map(Trace::t).toList(), traces.stream().map(Trace::v).toList(), points,
                before, 0, xMax);
        c.x = a.x;
        for (int i = 0; i < traces.size(); i++) {
            boolean pt = points != null && points[i];
            c.add(traces.get(i).name(), a.y[i], colors != null ? colors[i] : c.color(i),
                    pt ? Chart.Style.POINTS : Chart.Style.STEP);
        }
        return c;
    }

    private static void queues(Page p, ReportData d) {
        if (d.queues == null) {
            p.note("no queue samples (observe.sample-interval: 0)");
            return;
        }
        List<Trace> all = traces(d.queues, 0);
        List<Trace> top = top(all, TimeCharts::peak, ReportWriter.TOP_QUEUES);
        List<Trace> shown = new ArrayList<>();
        for (Trace t : top) {
            // The deepest its samples saw: the ports table's peak is the deepest it ever was, between samples too.
            shown.add(new Trace(t.name() + " (sampled peak " + Fmt.bytes(peak(t)) + ")", t.t(), t.v()));
        }
        // Where PFC is on: the first XOFF of each pause, at the XOFF threshold in force at that instant (the dynamic
        // threshold moves with the free buffer), as the switch recorded it when it sent the XOFF.
        List<Trace> xoff = xoffPoints(d);
        List<Trace> traces = new ArrayList<>(shown);
        traces.addAll(xoff);
        boolean[] points = new boolean[traces.size()];
        String[] colors = new String[traces.size()];
        for (int i = 0; i < traces.size(); i++) {
            points[i] = i >= shown.size();
            colors[i] = !points[i] ? Chart.COLORS[i % Chart.COLORS.length]
                    : traces.get(i).name().contains("shared pool") ? "#9467bd" : "#000000";
        }
        Chart c = chart("queues", "Hottest egress queues", "queue depth (bytes)", "B", traces, points, colors, 0, xMax(d));
        // The ECN thresholds of the hottest shown queue whose class marks, at its own port's settings.
        EcnLines.Drawn ecn = EcnLines.of(d, top);
        c.lines.addAll(ecn.lines());
        Object xoffStatic = d.manifest.get("pfc_static_xoff_bytes");
        if (xoffStatic instanceof Number n) {
            c.lines.add(new Chart.HLine(n.doubleValue(), "PFC XOFF (static) " + Fmt.bytes(n.doubleValue()), "#7f7f7f"));
        }
        p.chart(c, "depth per " + (d.infiniband() ? "virtual lane" : "traffic class") + " (queues.csv); the "
                + shown.size() + " deepest of the " + all.size() + " queues that held bytes at a sample (the ports"
                + " table has each"
                + " port's peak between samples too)" + ecn.caption() + (xoff.isEmpty() ? "" : "; black dots: each pause's first XOFF, at"
                + " the ingress XOFF threshold in force when it was sent (pfc.csv threshold_bytes)"
                + (xoff.stream().anyMatch(x -> x.name().contains("shared pool")) ? "; purple dots: pauses the full"
                        + " shared pool started while the group was under its threshold, at the bytes it held" : "")),
                "no switch queue held a packet at a sampling instant");
    }

    private static List<Trace> xoffPoints(ReportData d) {
        if (d.pfc == null || d.pfc.isEmpty()) {
            return List.of();
        }
        Map<String, Boolean> open = new LinkedHashMap<>();
        List<double[]> pts = new ArrayList<>();
        // A pause the full shared pool started, its group under its threshold: drawn at the bytes the group held.
        List<double[]> poolFull = new ArrayList<>();
        for (ReportData.PfcFrame f : d.pfc) {
            String k = f.device() + "|" + f.port() + "|" + f.priority();
            if (f.xoff()) {
                Boolean was = open.put(k, true);
                if ((was == null || !was) && f.poolFull()) {
                    poolFull.add(new double[] {f.timeUs(), f.ingressBytes()});
                } else if ((was == null || !was) && f.thresholdBytes() >= 0) {
                    pts.add(new double[] {f.timeUs(), f.thresholdBytes()});
                }
            } else {
                open.put(k, false);
            }
        }
        List<Trace> out = new ArrayList<>();
        if (!pts.isEmpty()) {
            out.add(trace("XOFF sent, at the XOFF threshold in force", pts));
        }
        if (!poolFull.isEmpty()) {
            out.add(trace("XOFF sent as the shared pool filled, at the ingress bytes", poolFull));
        }
        return out;
    }

    /**
     * A point series. The chart holds one value per series at each instant, so XOFFs sent at the same picosecond (by
     * different ports, each a dot of its own) are each put a picosecond after the one before: lossless-dcqcn's 286
     * pauses drew 280 dots. A picosecond is far below what the chart or its tooltip can show.
     */
    static Trace trace(String name, List<double[]> pts) {
        double[] t = new double[pts.size()];
        double[] v = new double[pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            t[i] = pts.get(i)[0];
            v[i] = pts.get(i)[1];
            if (i > 0 && pts.get(i)[0] == pts.get(i - 1)[0]) {
                t[i] = t[i - 1] + 1e-6;
            }
        }
        return new Trace(name, t, v);
    }

    static double portRate(ReportData d, String queueKey) {
        for (ReportData.PortRow r : d.ports) {
            if (queueKey.startsWith(r.device() + " p" + r.port() + " ")) {
                return r.rateGbps();
            }
        }
        return Double.NaN;
    }

    /**
     * Why there is no rates chart, from the run's own counters rather than a guess at the cause (the note used to say
     * "congestion control none, or nothing congested" for a DCQCN incast that dropped thousands of packets with ECN
     * thresholds above its buffer: neither was so).
     */
    static String unchangedRates(ReportData d) {
        boolean ib = d.infiniband();
        long cuts = KeyNumbers.lng(KeyNumbers.at(d.summary, "counters", "rate_cuts"));
        if ("none".equals(d.manifest.get("congestion_control")) && cuts == 0) {
            return "no queue pair's allowed rate changed, so there is no rates chart: the senders have no congestion"
                    + " control (nic.cc: none) and always send at line rate";
        }
        long windowed = windowLimited(d);
        // A window-based control (DCTCP, Swift, HPCC's window) cuts its window, not the rate rates.csv holds: the
        // cuts are named as summary.json counters.rate_cuts_unit names them, not called rate cuts beside "no rate
        // changed".
        Object unit = KeyNumbers.at(d.summary, "counters", "rate_cuts_unit");
        String what = unit instanceof String u ? " cuts (" + u + ")" : windowed > 0 ? " rate or window cuts" : " rate cuts";
        return String.format(Locale.ROOT, "no queue pair's %s changed at a sampling instant, so"
                + " there is no rates chart: the senders' congestion control made %s%s in the run (%s,"
                + " %s %s handled)%s", windowed > 0 ? "pacing rate" : "allowed rate",
                Fmt.count(KeyNumbers.lng(KeyNumbers.at(d.summary, "counters", "rate_cuts"))), what,
                marks(d, ib),
                Fmt.count(KeyNumbers.lng(KeyNumbers.at(d.summary, "counters", "cnp_handled"))), ib ? "BECNs" : "CNPs",
                windowed > 0 ? "; " + windowNote(d, windowed) : "");
    }

    /** How many QPs a window limits (summary.json window_limited_qps; 0 when the summary predates it). */
    static long windowLimited(ReportData d) {
        return d.summary.get("window_limited_qps") instanceof Number n ? n.longValue() : 0;
    }

    /** What the rates chart does not show for window-based controls: the window, which limits the QP as well. */
    static String windowNote(ReportData d, long windowed) {
        return "the window (not shown) limits " + Numbers.count(windowed, "QP", "QPs") + " besides the pacing rate, so"
                + " a QP may send less than its pacing rate and the rates of several QPs may add up to more than their"
                + " link: compare window-based controls by flows.csv's FCTs";
    }

    /**
     * The marks as the summary counts them, where they were made (a packet marked at two switches counts twice), with
     * the packets that arrived marked when summary.json has them: {@code 1,234 ECN marks (per hop; 1,000 packets
     * arrived marked)}.
     */
    private static String marks(ReportData d, boolean ib) {
        long marks = KeyNumbers.lng(KeyNumbers.at(d.summary, "counters", "ecn_marked"));
        String what = (ib ? "FECN mark" : "ECN mark") + (marks == 1 ? "" : "s");
        if (marks == 0) {
            return "0 " + what;
        }
        Object arrived = KeyNumbers.at(d.summary, "counters", "ecn_marked_arrived");
        return Fmt.count(marks) + " " + what + (!ib && arrived instanceof Number a ? " (per hop; " + Fmt.count(a.longValue())
                + (a.longValue() == 1 ? " packet" : " packets") + " arrived marked)" : " (per hop)");
    }

    /**
     * Each QP's rate line ends where its last flow completed (a value of NaN there, which the step line carries to the
     * run's end): a QP whose flows have all completed sends nothing more, and its last allowed rate drawn to the end
     * of the run read as a sender still going (an audit: QP 5 flat at 100 Gb/s until 6.6 ms, done at 0.95 ms). A QP
     * with a flow not completed keeps its line to the end. {@code ids}: each trace's QP id (rates.csv's c column).
     */
    static List<Trace> endAtCompletion(List<Trace> rates, List<Trace> ids, List<FlowRecord> flows) {
        // Only the QPs drawn (a handful) are looked for: a map over every QP's flows held a million boxed entries at
        // 1,024 hosts, where the report ran out of heap.
        Set<Integer> drawn = new HashSet<>();
        for (Trace t : ids) {
            if (t.v().length > 0) {
                drawn.add((int) t.v()[0]);
            }
        }
        Map<Integer, Long> end = new HashMap<>();
        Set<Integer> open = new HashSet<>();
        for (FlowRecord f : flows) {
            if (f.queuePair() < 0 || !drawn.contains(f.queuePair())) {
                continue;
            }
            if (f.completed()) {
                end.merge(f.queuePair(), f.finishPs(), Math::max);
            } else if (!f.notPosted()) {
                open.add(f.queuePair());
            }
        }
        List<Trace> out = new ArrayList<>();
        for (int i = 0; i < rates.size(); i++) {
            Trace r = rates.get(i);
            double[] id = ids.get(i).v();
            Long e = id.length == 0 ? null : end.get((int) id[0]);
            if (e == null || open.contains((int) id[0]) || r.t().length == 0 || e / 1e6 <= r.t()[r.t().length - 1]) {
                out.add(r);
                continue;
            }
            double[] t = Arrays.copyOf(r.t(), r.t().length + 1);
            double[] v = Arrays.copyOf(r.v(), r.v().length + 1);
            t[t.length - 1] = e / 1e6;
            v[v.length - 1] = Double.NaN;
            out.add(new Trace(r.name(), t, v));
        }
        return out;
    }

    private static void rates(Page p, ReportData d) {
        if (d.rates == null) {
            return;
        }
        List<Trace> sampled = traces(d.rates, 0);
        // Drawn ending at each QP's completion; chosen by the changes of the samples alone (the end is no change).
        List<Trace> all = endAtCompletion(sampled, traces(d.rates, 2), d.flows);
        List<Trace> cnps = traces(d.rates, 1);
        // The QPs whose rate changed most often; a QP whose rate never changed shows nothing a chart would add.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (changes(sampled.get(i).v()) > 0) {
                order.add(i);
            }
        }
        if (order.isEmpty()) {
            p.h2("Sending rates").note(d.rates.series() == 0 ? "no queue pair sent anything at a sampling instant"
                    : unchangedRates(d));
            return;
        }
        order.sort(Comparator.comparingInt((Integer i) -> -changes(sampled.get(i).v())).thenComparingInt(i -> i));
        List<Integer> chosen = order.subList(0, Math.min(ReportWriter.TOP_SERIES, order.size()));
        List<Trace> traces = new ArrayList<>();
        List<Trace> dots = new ArrayList<>();
        String note = d.infiniband() ? "BECNs" : "CNPs";
        for (int i : chosen) {
            traces.add(all.get(i));
            Trace rate = all.get(i);
            Trace n = cnps.get(i);
            List<double[]> at = new ArrayList<>();
            double last = 0;
            for (int j = 0; j < n.v().length; j++) {
                if (n.v()[j] > last) {
                    at.add(new double[] {n.t()[j], rate.v()[j]});
                }
                last = n.v()[j];
            }
            dots.add(new Trace(rate.name() + " " + note, at.stream().mapToDouble(x -> x[0]).toArray(),
                    at.stream().mapToDouble(x -> x[1]).toArray()));
        }
        List<Trace> both = new ArrayList<>(traces);
        both.addAll(dots);
        boolean[] points = new boolean[both.size()];
        String[] colors = new String[both.size()];
        for (int i = 0; i < both.size(); i++) {
            points[i] = i >= traces.size();
            colors[i] = Chart.COLORS[(i % traces.size()) % Chart.COLORS.length];
        }
        long windowed = windowLimited(d);
        Chart c = chart("rates", "Sending rates", windowed > 0 ? "pacing rate (Gb/s)" : "allowed rate (Gb/s)", "Gb/s",
                both, points, colors, Double.NaN, xMax(d));
        p.chart(c, (windowed > 0 ? "the pacing rate each QP's congestion control sets (rates.csv); " + windowNote(d,
                windowed) : "the rate each QP's congestion control allows (rates.csv)") + "; dots: the " + note
                + " it received in that sample interval; the " + chosen.size() + " QPs whose rate changed most often, of "
                + d.rates.series(), null);
    }

    private static int changes(double[] v) {
        int n = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] != v[i - 1]) {
                n++;
            }
        }
        return n;
    }

    /**
     * Per-port counters over each sample interval: the counter moves only in the interval that ends at a sample (a row
     * is kept whenever it changed), and stays flat between rows. links.csv's last rows are at the run's end, off the
     * grid: their interval starts at the grid's last sample before them, so it is shorter than the others.
     * {@code perTime} gives the change times {@code scale} over the interval's length (a share of the line rate or of
     * the time, which a short interval keeps exact); otherwise the change itself times {@code scale} (a count, which
     * over a short interval scaled to a full one would read as a burst that never happened).
     */
    static Trace perInterval(Trace cumulative, double intervalUs, double scale, boolean perTime) {
        double[] t = cumulative.t();
        double[] v = cumulative.v();
        List<double[]> out = new ArrayList<>();
        double prev = 0;
        for (int i = 0; i < t.length; i++) {
            double steps = t[i] / intervalUs;
            double gridBefore = Math.abs(steps - Math.rint(steps)) < 1e-6 ? t[i] - intervalUs
                    : Math.floor(steps) * intervalUs;
            double start = Math.max(i > 0 ? t[i - 1] : 0, gridBefore);
            if (i > 0 && start > t[i - 1]) {
                out.add(new double[] {t[i - 1], 0});
            }
            double dt = t[i] - start;
            out.add(new double[] {start, dt <= 0 ? 0 : perTime ? (v[i] - prev) * scale / dt : (v[i] - prev) * scale});
            prev = v[i];
        }
        if (t.length > 0) {
            out.add(new double[] {t[t.length - 1], 0});
        }
        return new Trace(cumulative.name(), out.stream().mapToDouble(x -> x[0]).toArray(),
                out.stream().mapToDouble(x -> x[1]).toArray());
    }

    private static void perInterval(Page p, ReportData d) {
        if (d.links == null || d.sampleIntervalUs <= 0) {
            return;
        }
        Map<String, Double> rate = new LinkedHashMap<>();
        for (ReportData.PortRow r : d.ports) {
            rate.put(r.device() + " p" + r.port(), r.rateGbps());
        }
        List<Trace> util = new ArrayList<>();
        for (Trace t : traces(d.links, 0)) {
            double gbps = rate.getOrDefault(t.name(), Double.NaN);
            if (gbps > 0) {
                // bytes per us x 8 / (Gb/s x 1e3) = share of the line rate, in percent. The frame on the wire at a
                // sample counts its framing whole (links.csv counts frames as they start), which can put up to its
                // 20 bytes more in an interval than the wire carried: a saturated link reads 100 %, never above.
                Trace share = perInterval(t, d.sampleIntervalUs, 8 / (gbps * 1e3) * 100, true);
                util.add(new Trace(share.name(), share.t(), Arrays.stream(share.v()).map(v -> Math.min(v, 100))
                        .toArray()));
            }
        }
        // Busiest over the run, not at its peak: under load most ports fill some interval (moe-alltoall: 38 of 48 at
        // 100 %), and ties by name drew leaf0's ports rather than the hot receiver's (an audit).
        List<Trace> busiest = top(util, TimeCharts::total, ReportWriter.TOP_SERIES);
        p.chart(chart("utilisation", "Link utilisation", "transmitted (% of line rate)", "%", busiest, null, null, 0,
                xMax(d)), "time each switch port's link was busy per sample interval, over its length:"
                + " the bytes of its frames and " + (d.infiniband() ? "their start and end delimiters (2 B a packet)"
                        : "their preamble and inter-frame gap (20 B a frame)") + ", at its line rate (links.csv"
                + " tx_bytes and tx_frames; the last interval ends at the run's end); the " + busiest.size()
                + " busiest of the " + util.size() + " that sent frames (the most time busy over the run; idle ports"
                + " not counted)", null);
        List<Trace> marks = new ArrayList<>();
        for (Trace t : traces(d.links, 1)) {
            marks.add(perInterval(t, d.sampleIntervalUs, 1, false));
        }
        List<Trace> marking = top(marks, TimeCharts::total, ReportWriter.TOP_SERIES);
        String what = d.infiniband() ? "FECN" : "ECN CE";
        // The y title names the interval ("per sample interval" was longer than the chart is high).
        p.chart(chart("marks", what + " marks per port", "packets marked per " + Fmt.time(d.sampleIntervalUs), "",
                marking, null, null, 0, xMax(d)), "packets each switch port marked " + what + " in each sample"
                + " interval of " + Fmt.time(d.sampleIntervalUs) + " (links.csv); " + (marking.size() == 1
                        ? "the one port that marked" : "the " + marking.size() + " ports that marked most"), null);
        if (d.infiniband()) {
            List<Trace> stalls = new ArrayList<>();
            for (Trace t : traces(d.links, 2)) {
                stalls.add(perInterval(t, d.sampleIntervalUs, 100, true));
            }
            List<Trace> worst = top(stalls, TimeCharts::total, ReportWriter.TOP_SERIES);
            p.chart(chart("credit-stalls", "Credit stalls (PortXmitWait)", "time waiting for credits (%)", "%", worst,
                    null, null, 0, xMax(d)), "share of each sample interval a switch port had a packet ready that its"
                    + " credits did not cover, summed over its lanes (links.csv); " + (worst.size() == 1
                            ? "the one port that waited" : "the " + worst.size() + " ports that waited most"),
                    "no switch port waited for credits");
        }
    }

    private static void pauses(Page p, ReportData d) {
        if (d.pfc == null) {
            return;
        }
        if (d.pfc.isEmpty()) {
            p.note("PFC is on and no PFC frame was sent");
            return;
        }
        Map<String, List<double[]>> bars = new LinkedHashMap<>();
        Map<String, double[]> open = new LinkedHashMap<>();
        for (ReportData.PfcFrame f : d.pfc) {
            String k = f.peer() + " paused by " + f.device() + " p" + f.port() + " prio " + f.priority();
            List<double[]> list = bars.computeIfAbsent(k, x -> new ArrayList<>());
            double[] o = open.get(k);
            if (f.xoff()) {
                if (o != null && f.timeUs() > o[1]) {
                    // The previous pause ran out (its quanta expired) before this XOFF started a new one.
                    list.add(new double[] {o[0], o[1]});
                    o = null;
                }
                open.put(k, new double[] {o == null ? f.timeUs() : o[0], f.timeUs() + f.pauseUs()});
            } else if (o != null) {
                list.add(new double[] {o[0], Math.min(o[1], f.timeUs())});
                open.remove(k);
            }
        }
        open.forEach((k, o) -> bars.get(k).add(new double[] {o[0], Math.min(o[1], xMax(d))}));
        List<String> labels = new ArrayList<>(bars.keySet());
        labels.removeIf(k -> bars.get(k).isEmpty());
        labels.sort(Comparator.comparingDouble((String k) -> -busy(bars.get(k))).thenComparing(k -> k));
        int all = labels.size();
        labels = labels.subList(0, Math.min(ReportWriter.TOP_PAUSED, labels.size()));
        Chart c = lanes("pfc-pauses", "PFC pauses per device and priority", d);
        c.categories.add(new String[] {"paused", "#d62728"});
        // Each pause its own bar, as pfc.csv has it; only a lane of more pauses than a page can hold (a storm) draws
        // those closer than 1/4000 of the run as one bar, and the note says so (merged always, 18 pauses 6 us apart
        // read as one of 207 us where they add up to 103 us).
        double merge = xMax(d) / 4000;
        boolean merged = false;
        for (int r = 0; r < labels.size(); r++) {
            c.rows.add(labels.get(r));
            List<double[]> lane = bars.get(labels.get(r));
            merged |= lane.size() > MAX_PAUSE_BARS;
            addMerged(c, r, lane, 0, lane.size() > MAX_PAUSE_BARS ? merge : 0, "");
        }
        List<String> storms = storms(d);
        p.chart(c, "when each device was paused, by whom and on which priority: from the XOFF's send to the XON's send or"
                + " the end of its quanta (pfc.csv); " + labels.size() + " of " + all + " paused links, most paused first"
                + (merged ? String.format(Locale.ROOT, "; a link paused more than %,d times draws pauses less than %s us"
                        + " apart as one bar", MAX_PAUSE_BARS, Fmt.num(merge, 3)) : "")
                + (storms.isEmpty() ? "" : "; not drawn: " + String.join(", ", storms) + ", whose frames no buffer"
                        + " sent (pfc.csv does not hold them; the pause propagation tree does)"), null);
    }

    /**
     * The links an RNIC's pause storm paused, from summary.json's pause tree ({@code leaf0 paused by h0's pause storm
     * for 1476.976 us}): pfc.csv holds the frames of buffers only, so the lanes above leave the storm out, though it is
     * where the run's pauses began (pause-storm-watchdog: 5 of 5 paused links drawn, the tree's first of 6 not; an
     * audit).
     */
    private static List<String> storms(ReportData d) {
        List<String> out = new ArrayList<>();
        if (d.summary != null && d.summary.get("pfc_propagation") instanceof List<?> tree) {
            for (Object o : tree) {
                if (o instanceof Map<?, ?> e && String.valueOf(e.get("root")).endsWith("'s pause storm")
                        && String.valueOf(e.get("root")).startsWith(String.valueOf(e.get("device")) + "'s")) {
                    out.add(e.get("paused") + " paused by " + e.get("root") + (e.get("paused_us") instanceof Number n
                            ? " for " + Fmt.time(n.doubleValue()) : ""));
                }
            }
        }
        return out;
    }

    private static double busy(List<double[]> iv) {
        double s = 0;
        for (double[] i : iv) {
            s += i[1] - i[0];
        }
        return s;
    }

    /** Pauses a lane draws one by one; a lane of more merges the close ones (see {@link #pauses}). */
    static final int MAX_PAUSE_BARS = 2000;

    /**
     * Adds intervals to a row, merging those less than {@code gap} apart (0: only those that touch or overlap) so a
     * storm of pauses stays a few bars.
     */
    static void addMerged(Chart c, int row, List<double[]> ivs, int cat, double gap, String label) {
        double a = Double.NaN;
        double b = Double.NaN;
        for (double[] iv : ivs) {
            if (!Double.isNaN(a) && (gap > 0 ? iv[0] <= b + gap : iv[0] <= b)) {
                b = Math.max(b, iv[1]);
                continue;
            }
            if (!Double.isNaN(a)) {
                c.intervals.add(new Chart.Interval(row, a, b, cat, label));
            }
            a = iv[0];
            b = iv[1];
        }
        if (!Double.isNaN(a)) {
            c.intervals.add(new Chart.Interval(row, a, b, cat, label));
        }
    }

    static Chart lanes(String id, String title, ReportData d) {
        Chart c = new Chart(id, title, Chart.Kind.LANES);
        c.xMin = 0;
        c.xMax = xMax(d);
        return c;
    }

    private static void ranks(Page p, ReportData d) {
        if (d.timeline.isEmpty()) {
            return;
        }
        Map<String, List<TimelineRecord>> byJob = new LinkedHashMap<>();
        for (TimelineRecord r : d.timeline) {
            byJob.computeIfAbsent(r.job(), k -> new ArrayList<>()).add(r);
        }
        int n = 0;
        for (Map.Entry<String, List<TimelineRecord>> e : byJob.entrySet()) {
            Chart c = lanes("timeline-" + n++, "Last iteration of " + e.getKey() + ", rank by rank", d);
            c.categories.add(new String[] {"compute", "#4c9a2a"});
            c.categories.add(new String[] {"own data moving", "#1f77b4"});
            int ranks = 0;
            double t0 = Double.MAX_VALUE;
            double t1 = 0;
            for (TimelineRecord r : e.getValue()) {
                ranks = Math.max(ranks, r.rank() + 1);
            }
            int shown = Math.min(ranks, ReportWriter.MAX_LANE_ROWS);
            for (int r = 0; r < shown; r++) {
                c.rows.add("rank " + r);
            }
            for (TimelineRecord r : e.getValue()) {
                if (r.rank() >= shown) {
                    continue;
                }
                boolean compute = "compute".equals(r.kind());
                c.intervals.add(new Chart.Interval(r.rank(), r.startPs() / 1e6, r.endPs() / 1e6, compute ? 0 : 1,
                        compute ? r.label() : ""));
                t0 = Math.min(t0, r.startPs() / 1e6);
                t1 = Math.max(t1, r.endPs() / 1e6);
            }
            if (t1 > t0) {
                c.focusMin = t0;
                c.focusMax = t1;
            }
            p.chart(c, "green: compute; blue: the rank's own data moving; blank: waiting for another rank (timeline.csv)"
                    + (shown < ranks ? "; first " + shown + " of " + ranks + " ranks" : ""), null);
        }
    }

    private static void requests(Page p, ReportData d) {
        if (d.requests.isEmpty()) {
            return;
        }
        Chart c = lanes("requests", "Requests over time", d);
        c.categories.add(new String[] {"in flight", "#bbbbbb"});
        c.categories.add(new String[] {"waiting for prefill", "#ff7f0e"});
        c.categories.add(new String[] {"prefill", "#4c9a2a"});
        c.categories.add(new String[] {"KV cache transfer", "#1f77b4"});
        c.categories.add(new String[] {"waiting for decode slot", "#f7b6d2"});
        c.categories.add(new String[] {"decode", "#9467bd"});
        Map<String, List<CallRecord>> calls = new LinkedHashMap<>();
        for (CallRecord k : d.calls) {
            calls.computeIfAbsent(k.service() + "#" + k.request(), x -> new ArrayList<>()).add(k);
        }
        int shown = Math.min(d.requests.size(), ReportWriter.MAX_LANE_ROWS);
        for (int i = 0; i < shown; i++) {
            RequestRecord r = d.requests.get(i);
            String wait = r.completed() && r.idealEndPs() >= 0 ? ", net wait " + Fmt.time(r.networkWaitPs() / 1e6) : "";
            c.rows.add(r.service() + " #" + r.request() + wait);
            double end = r.completed() ? r.endPs() / 1e6 : xMax(d);
            c.intervals.add(new Chart.Interval(i, r.arrivalPs() / 1e6, end, 0, "E2E " + (r.completed()
                    ? Fmt.time(r.e2ePs() / 1e6) : "unfinished")));
            for (CallRecord k : calls.getOrDefault(r.service() + "#" + r.request(), List.of())) {
                phase(c, i, k.readyPs(), k.prefillStartPs(), 1, "call " + k.call());
                phase(c, i, k.prefillStartPs(), k.prefillEndPs(), 2, "call " + k.call());
                phase(c, i, k.prefillEndPs(), k.kvDonePs(), 3, "call " + k.call());
                phase(c, i, k.kvDonePs(), k.decodeStartPs(), 4, "call " + k.call());
                phase(c, i, k.decodeStartPs(), k.lastTokenPs(), 5, "call " + k.call());
            }
        }
        p.chart(c, "each request from arrival to its answer at the gateway (grey), with its LLM calls' phases"
                + " (requests.csv, llm_calls.csv)" + (shown < d.requests.size() ? "; first " + shown + " of "
                + d.requests.size() + " requests" : ""), null);
    }

    private static void phase(Chart c, int row, long fromPs, long toPs, int cat, String label) {
        if (fromPs >= 0 && toPs > fromPs) {
            c.intervals.add(new Chart.Interval(row, fromPs / 1e6, toPs / 1e6, cat, label));
        }
    }
}
