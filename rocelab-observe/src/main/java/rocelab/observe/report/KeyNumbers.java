package rocelab.observe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import rocelab.observe.inference.RequestRecord;
import rocelab.observe.job.JobRecord;

/** The numbers a user asks first, as tiles at the top of the report, from summary.json's tree and the records. */
final class KeyNumbers {
    private KeyNumbers() {}

    record Tile(String value, String label, boolean bad) {}

    static List<Tile> tiles(ReportData d) {
        Map<String, Object> s = d.summary;
        List<Tile> t = new ArrayList<>();
        long count = lng(at(s, "flows", "count"));
        long completed = lng(at(s, "flows", "completed"));
        long failed = lng(at(s, "flows", "failed"));
        long unfinished = lng(at(s, "flows", "unfinished"));
        long notPosted = lng(at(s, "flows", "not_posted"));
        t.add(new Tile(Fmt.count(completed) + " / " + Fmt.count(count), "flows completed", completed < count));
        if (failed > 0 || unfinished > 0 || notPosted > 0) {
            String never = notPosted > 0 ? Fmt.count(notPosted) + " never posted · " : "";
            t.add(new Tile(Fmt.count(failed) + " failed · " + never + Fmt.count(unfinished) + " unfinished",
                    "flows not done", true));
        }
        Object p50 = at(s, "flows", "fct_us", "p50");
        if (p50 != null) {
            t.add(new Tile(Fmt.time(dbl(p50)) + " / " + Fmt.time(dbl(at(s, "flows", "fct_us", "p99"))),
                    "FCT p50 / p99", false));
            t.add(new Tile(Fmt.num(dbl(at(s, "flows", "slowdown", "p50")), 2) + "x / "
                    + Fmt.num(dbl(at(s, "flows", "slowdown", "p99")), 2) + "x", "slowdown p50 / p99", false));
        }
        // Drops, pauses, credit stalls, marks and CNPs are counted only at packet level: a flow-level or ideal run
        // has no figure for them (summary.json has no counters), not zero.
        if (d.packetLevel()) {
            long drops = lng(at(s, "counters", "packets_dropped"));
            t.add(new Tile(Fmt.count(drops), "packets dropped", drops > 0));
            if (d.infiniband()) {
                t.add(new Tile(Fmt.time(dbl(at(s, "infiniband", "credit_stall_us"))),
                        "credit stall time (PortXmitWait), summed over ports and lanes", false));
                t.add(new Tile(Fmt.count(lng(at(s, "infiniband", "fecn_marked"))) + " / "
                        + Fmt.count(lng(at(s, "infiniband", "becn_received"))), "FECN marked / BECN received", false));
            } else {
                long pauses = lng(at(s, "counters", "pfc_pause_sent"));
                t.add(new Tile(Fmt.count(pauses) + " · " + Fmt.time(dbl(at(s, "counters", "pfc_paused_us"))),
                        "PFC frames · time paused, summed over ports and RNICs", false));
                t.add(new Tile(Fmt.count(lng(at(s, "counters", "cnp_sent"))), "CNPs sent", false));
            }
        }
        JobRecord longest = null;
        int ranks = 0;
        double wait = 0;
        for (JobRecord j : d.jobs) {
            if (j.completed() && (longest == null || j.jctPs() > longest.jctPs())) {
                longest = j;
            }
            if (!Double.isNaN(j.networkWaitUs())) {
                ranks += j.ranks();
                wait += j.networkWaitUs() * j.ranks();
            }
        }
        if (longest != null) {
            t.add(new Tile(Fmt.time(longest.jctPs() / 1e6) + " (+" + Fmt.num(longest.networkPenaltyPercent(), 1)
                    + " %)", "JCT of " + longest.job() + " (vs ideal)", longest.networkPenaltyPercent() > 10));
        }
        // The job of the JCT tile's wait, named: a mean over several jobs' ranks was shown unnamed beside one job's JCT.
        if (longest != null && !Double.isNaN(longest.networkWaitUs())) {
            t.add(new Tile(Fmt.time(longest.networkWaitUs()), "GPU network wait per iteration of " + longest.job(),
                    false));
        } else if (ranks > 0) {
            t.add(new Tile(Fmt.time(wait / ranks), "GPU network wait per iteration (mean over every job's ranks)",
                    false));
        }
        long[] ttft = d.requests.stream().filter(r -> r.ttftPs() >= 0).mapToLong(RequestRecord::ttftPs).sorted()
                .toArray();
        if (ttft.length > 0) {
            t.add(new Tile(Fmt.time(rank(ttft, 50) / 1e6) + " / " + Fmt.time(rank(ttft, 99) / 1e6), "TTFT p50 / p99",
                    false));
        }
        return t;
    }

    static void append(Page p, ReportData d) {
        StringBuilder b = new StringBuilder("<div class='kpis'>");
        for (Tile t : tiles(d)) {
            b.append(t.bad() ? "<div class='kpi bad'><b>" : "<div class='kpi'><b>").append(Page.esc(t.value()))
                    .append("</b><span>").append(Page.esc(t.label())).append("</span></div>");
        }
        p.html(b.append("</div>").toString());
    }

    /** Nearest-rank percentile of sorted values. */
    static long rank(long[] sorted, int p) {
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1))];
    }

    static Object at(Map<String, Object> tree, String... path) {
        Object o = tree;
        for (String k : path) {
            if (!(o instanceof Map<?, ?> m)) {
                return null;
            }
            o = m.get(k);
        }
        return o;
    }

    static double dbl(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    static long lng(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }
}
