package rocelab.scenario.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** sweep.html's charts: y ticks at round values, labels that fit the margin. */
class SweepReportTest {
    private static final Pattern TICK = Pattern.compile(
            "<line x1=\"(\\d+)\" x2=\"(\\d+)\" y1=\"[^\"]+\" y2=\"[^\"]+\" stroke=\"#999\"/><text x=\"\\d+\" y=\"[^\"]+\""
                    + " text-anchor=\"end\">([^<]*)</text>");

    /** One key (switch.ecn.kmin) over four values, one seed each, with the simulated seconds the probe's sweep had. */
    private static String html() {
        return html("packet");
    }

    private static String html(String model) {
        String[] kmin = {"25KB", "100KB", "400KB", "1600KB"};
        double[] seconds = {0.0007413, 0.0007473, 0.0005012, 0.0001802};
        long[] events = {11500, 11800, 12171, 12100};
        List<SweepPoint> points = new ArrayList<>();
        Map<String, PointOutcome> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < kmin.length; i++) {
            String id = String.format("%012x", i);
            points.add(new SweepPoint(id, List.of(kmin[i]), 1, "name: x", "."));
            outcomes.put(id, PointOutcome.completed(id, "{\"simulated_seconds\": " + seconds[i] + ", \"events\": "
                    + events[i] + ", \"counters\": {\"max_queue_bytes\": " + (1_829_520 - i * 100_000) + "}}"));
        }
        SweepPlan plan = new SweepPlan("s.yaml", "base.yaml", List.of("switch.ecn.kmin"), List.of(List.of(kmin)), "grid",
                model, List.of(), points);
        return SweepReport.html(plan, SweepResults.of(plan, outcomes, Map.of()));
    }

    @Test
    void shouldSayWhatAModelOtherThanPacketLeavesOut() {
        // An audit: an ideal incast sweep's p99 FCT, "the same in every completed run", read as the fabric's; it was
        // each flow's time alone, a lower bound of its own.
        assertThat(html("ideal")).contains("model ideal (what it does not model: every point's summary.json"
                + " not_modelled; every time is a lower bound of its own, not one schedule");
        assertThat(html("flow")).contains("model flow (what it does not model: every point's summary.json"
                + " not_modelled)");
        assertThat(html()).contains("model packet.").doesNotContain("what it does not model");
    }

    /** The y tick labels of each chart, in order of the charts (bottom tick first). */
    private static List<List<String>> ticks(String html) {
        List<List<String>> out = new ArrayList<>();
        for (String svg : html.split("<svg")) {
            if (!svg.contains("</svg>")) {
                continue;
            }
            List<String> labels = new ArrayList<>();
            Matcher m = TICK.matcher(svg);
            while (m.find()) {
                labels.add(m.group(3));
                int tickStart = Integer.parseInt(m.group(1));
                // 7 px per character of 11px digits (DejaVu Sans draws them 6.2 px wide) and 6 px to the axis.
                assertThat(tickStart + 4 - 6 - 7 * m.group(3).length()).as("room left of %s", m.group(3))
                        .isGreaterThanOrEqualTo(0);
            }
            out.add(labels);
        }
        return out;
    }

    @Test
    void shouldTickTheYAxisAtRoundValuesWithLabelsThatFit() {
        String html = html();
        List<List<String>> charts = ticks(html);
        assertThat(charts).hasSize(3);
        assertThat(charts.get(0)).as("simulated_seconds").containsExactly("0", "0.0002", "0.0004", "0.0006",
                "0.0008");
        assertThat(charts.get(1)).as("events").containsExactly("0", "2.5k", "5k", "7.5k", "10k", "12.5k");
        assertThat(charts.get(2)).as("max_queue_bytes").containsExactly("0", "0.5M", "1M", "1.5M", "2M");
        assertThat(html).doesNotContain(">0.0001868<", ">0.0007473<");
    }

    private static String summary(boolean finished, String stop, int completed, double p99) {
        return "{\"finished\": " + finished + ", \"stop_reason\": \"" + stop + "\", \"flows\": {\"count\": 5,"
                + " \"completed\": " + completed + ", \"unfinished\": " + (5 - completed) + ", \"fct_us\": {\"p99\": "
                + p99 + "}}}";
    }

    /** A run that stopped at run.stop-at or in a deadlock is counted apart, named, and drawn hollow. */
    @Test
    void runsThatStoppedBeforeTheirWorkloadCompletedAreCountedAndMarked() {
        String[] stopAt = {"400us", "5ms"};
        List<SweepPoint> points = new ArrayList<>();
        Map<String, PointOutcome> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) {
            String id = String.format("%012x", i);
            points.add(new SweepPoint(id, List.of(stopAt[i / 2]), 1 + i % 2, "name: x", "."));
            outcomes.put(id, PointOutcome.completed(id, i == 0 ? summary(false, "stop-at", 2, 6.3)
                    : i == 1 ? summary(false, "deadlock", 3, 102) : summary(true, "completed", 5, 994 + i)));
        }
        SweepPlan plan = new SweepPlan("s.yaml", "base.yaml", List.of("run.stop-at"), List.of(List.of(stopAt)), "grid",
                "packet", List.of("flows.fct_us.p99"), points);
        SweepResults r = SweepResults.of(plan, outcomes, Map.of());
        assertThat(r.stopped()).isEqualTo(2);
        assertThat(r.stoppedText()).isEqualTo("1 stop-at, 1 deadlock");
        assertThat(r.failed()).isZero();
        assertThat(r.flowsCompleted(0)).isEqualTo("2 of 5");
        String html = SweepReport.html(plan, r);
        assertThat(html).contains("4 runs: 2 completed their workload, 2 stopped before it completed (1 stop-at, 1"
                + " deadlock), 0 failed");
        assertThat(html).contains("<h2>Runs that stopped before their workload completed</h2>");
        assertThat(html).contains("<td>stop-at</td><td>2 of 5</td>").contains("<td>deadlock</td><td>3 of 5</td>");
        // The 400us point (both seeds stopped) is hollow; the 5ms one filled; the chart carries the note.
        assertThat(html).containsOnlyOnce("fill=\"white\"").contains("2 of 2 stopped before the workload completed"
                + " (stop-at, deadlock)");
        assertThat(html).contains(SweepReport.HOLLOW_NOTE);
    }

    @Test
    void aSweepWhoseRunsAllCompletedHasNoHollowMarkers() {
        String html = html();
        assertThat(html).contains("4 runs: 4 completed their workload, 0 stopped before it completed, 0 failed")
                .doesNotContain("fill=\"white\"").doesNotContain(SweepReport.HOLLOW_NOTE)
                .doesNotContain("Runs that stopped");
    }

    /** Under zip the keys move together: one chart per metric, one line through every zipped combination. */
    @Test
    void aZipSweepDrawsOneLineAlongTheZippedKeys() {
        String[] kmin = {"25KB", "100KB", "400KB", "1600KB"};
        String[] kmax = {"100KB", "400KB", "1600KB", "6400KB"};
        List<SweepPoint> points = new ArrayList<>();
        Map<String, PointOutcome> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            String id = String.format("%012x", i);
            points.add(new SweepPoint(id, List.of(kmin[i / 2], kmax[i / 2]), 1 + i % 2, "name: x", "."));
            outcomes.put(id, PointOutcome.completed(id, "{\"max_queue_bytes\": " + (1_500_000 + i * 100_000) + "}"));
        }
        SweepPlan plan = new SweepPlan("s.yaml", "base.yaml", List.of("switch.ecn.kmin", "switch.ecn.kmax"),
                List.of(List.of(kmin), List.of(kmax)), "zip",
                "packet", List.of(), points);
        String html = SweepReport.html(plan, SweepResults.of(plan, outcomes, Map.of()));
        assertThat(html.split("<svg", -1)).hasSize(2);
        Matcher path = Pattern.compile("<path d=\"([^\"]*)\"").matcher(html);
        assertThat(path.find()).isTrue();
        assertThat(path.group(1).split("L")).hasSize(4);
        assertThat(path.find()).as("one line").isFalse();
        assertThat(html).contains("max_queue_bytes against switch.ecn.kmin (under it, zipped: switch.ecn.kmax)")
                .contains(">1600KB</text>").contains("fill=\"#666\" text-anchor=\"middle\">6400KB</text>")
                .doesNotContain("■");
    }

    /** Zipped values that repeat in the first key (multi-plane's planes 1, 1, 2, ...) stay apart on x. */
    @Test
    void zippedCombinationsWithARepeatedFirstValueStayApart() {
        String[] planes = {"1", "1", "2", "2"};
        String[] mode = {"ecmp", "adaptive", "ecmp", "adaptive"};
        List<SweepPoint> points = new ArrayList<>();
        Map<String, PointOutcome> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) {
            String id = String.format("%012x", i);
            points.add(new SweepPoint(id, List.of(planes[i], mode[i]), 1, "name: x", "."));
            outcomes.put(id, PointOutcome.completed(id, "{\"max_queue_bytes\": " + (1000 + i) + "}"));
        }
        SweepPlan plan = new SweepPlan("s.yaml", "base.yaml", List.of("topology.planes", "switch.load-balancing.mode"),
                List.of(List.of(planes), List.of(mode)), "zip", "packet", List.of(), points);
        String html = SweepReport.html(plan, SweepResults.of(plan, outcomes, Map.of()));
        Matcher path = Pattern.compile("<path d=\"([^\"]*)\"").matcher(html);
        assertThat(path.find()).isTrue();
        assertThat(path.group(1).split("L")).hasSize(4);
    }

    /**
     * Along x a key's values stand in the sweep file's order, whatever order the rows bring them in: a random sample
     * (here sample-seed 7's five points of a 3 x 3 x 3 grid) first has kmax 800KB before 400KB, and pmax 1 before 0.2.
     */
    @Test
    void aRandomSampleSetsEachKeysValuesAlongXInTheSweepFilesOrder() {
        List<String> kmin = List.of("10KB", "20KB", "50KB");
        List<String> kmax = List.of("200KB", "400KB", "800KB");
        List<String> pmax = List.of("0.05", "0.2", "1");
        String[][] drawn = {{"10KB", "200KB", "0.05"}, {"10KB", "800KB", "0.05"}, {"10KB", "800KB", "1"},
            {"50KB", "400KB", "1"}, {"50KB", "800KB", "0.2"}};
        List<SweepPoint> points = new ArrayList<>();
        Map<String, PointOutcome> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < drawn.length; i++) {
            String id = String.format("%012x", i);
            points.add(new SweepPoint(id, List.of(drawn[i]), 1, "name: x", "."));
            outcomes.put(id, PointOutcome.completed(id, "{\"max_queue_bytes\": " + (1000 + i) + "}"));
        }
        SweepPlan plan = new SweepPlan("s.yaml", "base.yaml", List.of("switch.ecn.kmin", "switch.ecn.kmax",
                "switch.ecn.pmax"), List.of(kmin, kmax, pmax), "random", "packet", List.of(), points);
        String html = SweepReport.html(plan, SweepResults.of(plan, outcomes, Map.of()));
        assertThat(xLabels(html)).containsExactly(List.of("10KB", "50KB"), List.of("200KB", "400KB", "800KB"),
                List.of("0.05", "0.2", "1"));
    }

    /** The x labels of each chart (the values under the plot, not the axis title), in order of the charts. */
    private static List<List<String>> xLabels(String html) {
        Pattern label = Pattern.compile("<text x=\"[^\"]+\" y=\"[^\"]+\" text-anchor=\"middle\">([^<]*)</text>");
        List<List<String>> out = new ArrayList<>();
        for (String svg : html.split("<svg")) {
            if (!svg.contains("</svg>")) {
                continue;
            }
            List<String> labels = new ArrayList<>();
            Matcher m = label.matcher(svg.substring(0, svg.indexOf("</svg>")));
            while (m.find()) {
                labels.add(m.group(1));
            }
            // The last is the axis title.
            out.add(labels.subList(0, labels.size() - 1));
        }
        return out;
    }
}
