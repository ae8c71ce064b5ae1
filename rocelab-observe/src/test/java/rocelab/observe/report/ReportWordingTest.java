package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.flow.FlowRecord;

/** What a new user reads under and on the charts says what is drawn (findings of a report audit). */
class ReportWordingTest {
    @TempDir
    Path dir;

    @Test
    void shouldSayALogAxisIsOneOnThePageAndInTheImages() throws Exception {
        // websearch-load's FCTs span 4.9 us to 7.3 ms: the axis was logarithmic, its title only "FCT (us)".
        Chart wide = ReportWriter.cdf("fct-cdf", "FCT distribution", "FCT (us)", List.of("flows"),
                List.of(new double[] {4.9, 80, 1400, 7300}));
        assertThat(wide.logX).isTrue();
        assertThat(wide.xTitle()).isEqualTo("FCT (us), log scale");
        StringBuilder json = new StringBuilder();
        ChartJson.write(json, wide);
        assertThat(json).contains("\"xLabel\":\"FCT (us)\"", "\"xTitle\":\"FCT (us), log scale\"");
        ChartImage.write(dir, wide);
        assertThat(dir.resolve("fct-cdf.svg")).content().contains(">FCT (us), log scale</text>");

        // The demo's six FCTs span 12x: a linear axis, titled as before.
        Chart narrow = ReportWriter.cdf("fct-cdf", "FCT distribution", "FCT (us)", List.of("flows"),
                List.of(new double[] {552, 1992, 6863}));
        assertThat(narrow.logX).isFalse();
        assertThat(narrow.xTitle()).isEqualTo("FCT (us)");
    }

    @Test
    void shouldKeepEveryLegendEntryOfALanesChartClearOfTheNext() throws Exception {
        // The requests chart's six phases in one row ran "waiting for decode slot" into "decode" in its PNG and SVG.
        Chart c = new Chart("requests", "Requests over time", Chart.Kind.LANES);
        c.rows.add("agent #0, net wait 1.346 ms");
        for (String name : List.of("in flight", "waiting for prefill", "prefill", "KV cache transfer",
                "waiting for decode slot", "decode")) {
            c.categories.add(new String[] {name, c.color(c.categories.size())});
        }
        c.intervals.add(new Chart.Interval(0, 0, 100, 0, "request"));
        c.xMin = 0;
        c.xMax = 100;
        ChartImage.write(dir, c);
        String svg = Files.readString(dir.resolve("requests.svg"));
        List<double[]> at = new ArrayList<>();
        for (String[] cat : c.categories) {
            Matcher m = Pattern.compile("<text x='([0-9.]+)' y='([0-9.]+)'[^>]*>" + Pattern.quote(cat[0]) + "</text>")
                    .matcher(svg);
            assertThat(m.find()).as(cat[0]).isTrue();
            at.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))});
        }
        int height = ChartImage.height(c);
        for (int i = 0; i < at.size(); i++) {
            assertThat(at.get(i)[1]).as("inside the image").isLessThan(height);
            for (int j = 0; j < at.size(); j++) {
                boolean sameRow = at.get(i)[1] == at.get(j)[1];
                if (i != j && sameRow && at.get(j)[0] > at.get(i)[0]) {
                    // 11 px sans-serif: at most about 6.5 px a character, and the next entry's 10 px swatch before it.
                    double end = at.get(i)[0] + 6.5 * c.categories.get(i)[0].length();
                    assertThat(at.get(j)[0] - 14).as(c.categories.get(i)[0] + " before " + c.categories.get(j)[0])
                            .isGreaterThan(end);
                }
            }
        }
    }

    private static ReportData withFlows(int n) {
        ReportData d = new ReportData();
        d.scenario = "wording";
        d.mode = "roce-lossless";
        d.summary = Map.of("seed", 1, "stop_reason", "completed");
        d.endUs = 100;
        List<FlowRecord> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long fct = 1_000_000L * (i + 1);
            flows.add(new FlowRecord(i, 0, 1, 1000, 0, fct, fct, 1_000_000, false, i, 0));
        }
        d.flows = flows;
        return d;
    }

    @Test
    void shouldCountTheSlowestFlowsItListsNotTheTablesCap() {
        // The demo's report said "the 10 slowest flows" over its table of six.
        String six = ReportWriter.page(withFlows(6)).finish();
        assertThat(six).contains("the 6 completed flows, slowest first, against their closed-form time")
                .doesNotContain("10 slowest");
        String many = ReportWriter.page(withFlows(1200)).finish();
        assertThat(many).contains("the 10 slowest of the 1,200 completed flows against their closed-form time",
                "1,200 completed flows; FCT from posting");
    }

    @Test
    void shouldNameOnePortThatMarkedInTheSingularAndCountOnlyPortsThatSent() {
        // agentic-inference: "the 1 ports that marked most".
        ReportData d = withFlows(1);
        d.sampleIntervalUs = 10;
        d.ports = List.of(new ReportData.PortRow("rail0", 1, "h4", 100, Map.of(), 0),
                new ReportData.PortRow("rail0", 2, "h8", 100, Map.of(), 0));
        d.links = new ReportData.Samples();
        int marked = d.links.keyOf("rail0 p1");
        int quiet = d.links.keyOf("rail0 p2");
        for (int t = 10; t <= 100; t += 10) {
            // Cumulative counters, as links.csv's rows are read: 3 marks in the fifth interval, none on the other port.
            d.links.add(t, marked, 100 * t, t >= 50 ? 3 : 0, 0);
            d.links.add(t, quiet, 50 * t, 0, 0);
        }
        String html = ReportWriter.page(d).finish();
        assertThat(html).contains("in each sample interval of 10 us (links.csv); the one port that marked")
                .doesNotContain("the 1 ports");
        // The demo's "the 6 busiest of 19 ports" on a fabric of 32 switch ports: of those that sent frames.
        assertThat(html).contains("the 2 busiest of the 2 that sent frames (the most time busy over the run; idle"
                + " ports not counted)");
    }
}
