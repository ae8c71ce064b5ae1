package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.output.CsvTable;

class ReportWriterTest {
    @TempDir
    Path dir;

    private static final String EVIL = "<script>alert('x')</script>";

    private static ReportData data() {
        ReportData d = new ReportData();
        d.scenario = "evil " + EVIL;
        d.mode = "roce-lossless";
        d.summary = Map.of("seed", 1, "stop_reason", "completed");
        d.endUs = 100;
        d.collectives = List.of(
                // 1 us against 1 us ideal: as fast as the ideal network.
                new CollectiveRecord("gpt", "gpt/fwd/tp(dp=0,pp=0)", "allreduce ring", 4, 1 << 20, 0, 1_000_000, true,
                        1.5, 1_000_000),
                // 3.24x slower than ideal: must be listed first.
                new CollectiveRecord("gpt", "gpt/grads/dp(tp=1,pp=0)", "reducescatter ring", 8, 8 << 20, 0,
                        3_240_000, true, 0.875, 1_000_000),
                new CollectiveRecord("gpt", "gpt/step\nwith newline/" + EVIL, "allgather ring", 2, 1024, 0, 2_000_000,
                        true, 0.5, 1_000_000));
        d.timeline = List.of(new TimelineRecord("gpt", 0, "compute", 10_000_000, 20_000_000, "fwd " + EVIL));
        return d;
    }

    @Test
    void shouldEscapeNamesInTextAndInTheChartData() {
        String html = ReportWriter.page(data()).finish();
        assertThat(html).doesNotContain(EVIL);
        // Our own scripts only: the error catcher, the chart data, uPlot and the drawing script.
        assertThat(html.split("<script", -1).length - 1).isEqualTo(4);
        assertThat(html).contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;", "\\u003cscript\\u003e");
    }

    @Test
    void shouldCallAWindowBasedControlsCutsWindowCutsAndSayThePlottedRateIsThePacingRate() {
        // The audit's Swift incast: 736 "rate cuts" beside "no queue pair's allowed rate changed" contradicted itself;
        // they are window cuts, and what rates.csv holds is the pacing rate, the window (not drawn) limiting the QP.
        ReportData d = data();
        String unit = "Swift window cuts: at most one per smoothed RTT on a delay above target, and one per loss";
        d.summary = Map.of("counters", Map.of("rate_cuts", 736, "ecn_marked", 0, "cnp_handled", 0,
                "rate_cuts_unit", unit), "window_limited_qps", 8);
        assertThat(TimeCharts.unchangedRates(d)).startsWith("no queue pair's pacing rate changed at a sampling instant")
                .contains("made 736 cuts (" + unit + ")", "the window (not shown) limits 8 QPs besides the pacing rate")
                .doesNotContain("rate cuts", "allowed rate");
        // A rate-based control keeps its words.
        d.summary = Map.of("counters", Map.of("rate_cuts", 3, "ecn_marked", 9, "cnp_handled", 3,
                "rate_cuts_unit", "DCQCN rate cuts: one per CNP handled"), "window_limited_qps", 0);
        assertThat(TimeCharts.unchangedRates(d)).startsWith("no queue pair's allowed rate changed")
                .contains("made 3 cuts (DCQCN rate cuts: one per CNP handled)").doesNotContain("window");
    }

    @Test
    void shouldSayWhyThereIsNoRatesChartFromTheRunsCountersNotAGuess() {
        // A DCQCN incast on a lossy fabric whose ECN thresholds lie above its buffer: nothing is marked, so no rate
        // changes, though the fabric is congested and congestion control is on. The note used to offer
        // "congestion control none, or nothing congested", neither of which was so.
        ReportData d = data();
        d.summary = Map.of("counters", Map.of("rate_cuts", 0, "ecn_marked", 0, "cnp_handled", 0,
                "packets_dropped", 16090));
        assertThat(TimeCharts.unchangedRates(d)).isEqualTo("no queue pair's allowed rate changed at a sampling"
                + " instant, so there is no rates chart: the senders' congestion control made 0 rate cuts in the run"
                + " (0 ECN marks, 0 CNPs handled)").doesNotContain("nothing congested", "none");
        d.summary = Map.of("counters", Map.of("rate_cuts", 0, "ecn_marked", 1234, "cnp_handled", 0));
        assertThat(TimeCharts.unchangedRates(d)).endsWith("(1,234 ECN marks (per hop), 0 CNPs handled)");
        // Marks are made per hop: a packet marked at two switches counts twice, and the packets that arrived marked
        // are told beside them (cc-held-back: 13,338 marks, 5,132 packets arrived marked).
        d.summary = Map.of("counters", Map.of("rate_cuts", 0, "ecn_marked", 13338, "ecn_marked_arrived", 5132,
                "cnp_handled", 0));
        assertThat(TimeCharts.unchangedRates(d))
                .endsWith("(13,338 ECN marks (per hop; 5,132 packets arrived marked), 0 CNPs handled)");
    }

    @Test
    void shouldCountTheListedRowsAsTheTablesShowThem() {
        // The audit's moe-alltoall: "PFC victims: 67 (the first 20 listed below)" above a table of 12 noted "first 12
        // of 20". summary.json holds the first 20 of 67; the findings and the table both say 12 of 67.
        ReportData d = data();
        List<Object> victims = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            victims.add(Map.of("flow", i, "wait_us", 100 - i));
        }
        List<Object> ports = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            ports.add(Map.of("switch", "leaf" + i, "port", 3, "towards", "spine0", "collisions", 2, "ecmp_wait_us", 1));
        }
        d.summary = Map.of("seed", 1, "stop_reason", "completed", "pfc_victims", victims, "pfc_victim_count", 67,
                "ecmp_collisions", ports, "ecmp_collision_count", 40);
        String html = ReportWriter.page(d).finish();
        assertThat(html).contains("<b>PFC victims</b>: 67 (the first 12 listed below)", "first 12 of 67",
                "<b>ECMP collisions</b>: at 40 ports", "(the first 12 listed below)", "first 12 of 40")
                .doesNotContain("first 20", "of 20", "of 15");
        // A nested entry's nulls name nothing and are left out (a mark place not kept apart read "device=null").
        java.util.Map<String, Object> notApart = new java.util.LinkedHashMap<>();
        notApart.put("device", null);
        notApart.put("not_apart", true);
        notApart.put("port", null);
        notApart.put("notifications", 29);
        d.summary = Map.of("seed", 1, "stop_reason", "completed", "pfc_victims", List.of(Map.of("flow", 1,
                "notifications_by_mark", List.of(notApart))), "pfc_victim_count", 1);
        assertThat(ReportWriter.page(d).finish()).contains("<td>not_apart=true, notifications=29</td>")
                .doesNotContain("device=null");
        // All of a short list: listed below, no note.
        d.summary = Map.of("seed", 1, "stop_reason", "completed", "pfc_victims", victims.subList(0, 13),
                "pfc_victim_count", 13);
        assertThat(ReportWriter.page(d).finish()).contains("<b>PFC victims</b>: 13 (listed below)")
                .doesNotContain("first 12");
    }

    @Test
    void shouldSayPausesSpreadOnlyWhereAFirstXoffWasPassedOn() {
        // The audit's moe-alltoall: nine links, every one paused at its root (hop 0), read "PFC pauses spread".
        ReportData d = data();
        List<Object> atRoots = List.of(Map.of("hop", 0, "root", "leaf0 port 1 (towards h1)"),
                Map.of("hop", 0, "root", "leaf1 port 1 (towards h5)"));
        d.summary = Map.of("seed", 1, "stop_reason", "completed", "pfc_propagation", atRoots);
        assertThat(ReportWriter.page(d).finish()).contains("<b>PFC pauses</b> at 2 device-port-priority links from 2"
                + " roots (their first XOFFs' congestion points; every link paused at its root, hop 0: no first XOFF was"
                + " passed on from a paused egress)").doesNotContain("spread");
        List<Object> passedOn = List.of(Map.of("hop", 0, "root", "leaf0 port 1 (towards h1)"),
                Map.of("hop", 1, "root", "leaf0 port 1 (towards h1)"));
        d.summary = Map.of("seed", 1, "stop_reason", "completed", "pfc_propagation", passedOn);
        assertThat(ReportWriter.page(d).finish()).contains("<b>PFC pauses spread</b> over 2 device-port-priority"
                + " links from 1 root (their first XOFFs' congestion points; 1 of the links paused at their root, hop 0)");
    }

    @Test
    void shouldRankCollectivesSlowestAgainstTheIdealFirst() {
        String html = ReportWriter.page(data()).finish();
        int dp = html.indexOf("gpt/grads/dp(tp=1,pp=0)");
        int newline = html.indexOf("gpt/step\nwith newline/");
        int tp = html.indexOf("gpt/fwd/tp(dp=0,pp=0)");
        assertThat(dp).isPositive().isLessThan(newline);
        assertThat(newline).isLessThan(tp);
        assertThat(html).contains("<td class='l'>dp(tp=1,pp=0)</td>", "3.24x");
    }

    @Test
    void shouldReadCollectivesWithCommasNewlinesAndMarkupBackFromTheFolder() throws Exception {
        CsvTable t = new CsvTable(List.of("job", "name", "algorithm", "ranks", "size_bytes", "start_us", "end_us",
                "time_us", "algbw_gbytes_per_s", "busbw_gbytes_per_s", "ideal_time_us", "network_slowdown", "status"));
        for (CollectiveRecord c : data().collectives) {
            t.row(c.job(), c.name(), c.algorithm(), c.ranks(), c.sizeBytes(), c.startPs() / 1e6, c.endPs() / 1e6,
                    c.timePs() / 1e6, c.algbwGBps(), c.busbwGBps(), c.idealTimePs() / 1e6, c.networkSlowdown(),
                    "completed");
        }
        Files.writeString(dir.resolve("collectives.csv"), t.toString());
        Files.writeString(dir.resolve("summary.json"), "{\"scenario\": \"x\", \"mode\": \"roce-lossy\","
                + " \"simulated_seconds\": 0.0001, \"stop_reason\": \"completed\"}");
        ReportData d = ReportFolder.read(dir);
        assertThat(d.collectives).extracting(CollectiveRecord::name).containsExactly("gpt/fwd/tp(dp=0,pp=0)",
                "gpt/grads/dp(tp=1,pp=0)", "gpt/step\nwith newline/" + EVIL);
        assertThat(d.collectives.get(1).networkSlowdown()).isEqualTo(3.24);
        assertThat(d.endUs).isEqualTo(100);
        Path out = ReportWriter.write(dir);
        String html = Files.readString(out);
        assertThat(html).doesNotContain(EVIL).contains("gpt/grads/dp(tp=1,pp=0)");
    }

    @Test
    void shouldReadACallsEntrySpreadBackFromTheFolder() throws Exception {
        Files.writeString(dir.resolve("collectives.csv"), "job,name,iteration,algorithm,ranks,size_bytes,runs,start_us,"
                + "entry_spread_us,end_us,time_us,algbw_gbytes_per_s,busbw_gbytes_per_s,ideal_time_us,network_slowdown,"
                + "status\n"
                + "j,j/grads/dp,1,allreduce ring,4,8000000,1,2796.243584,323.858843,3824.299904,1028.05632,7.782,11.673,"
                + "1007.97952,1.02,completed\n"
                + ",traffic item 1,,allreduce ring,4,8000000,1,0,,1000,1000,8,12,900,1.111,completed\n");
        Files.writeString(dir.resolve("summary.json"), "{\"scenario\": \"x\", \"mode\": \"roce-lossy\","
                + " \"simulated_seconds\": 0.004, \"stop_reason\": \"completed\"}");
        ReportData d = ReportFolder.read(dir);
        assertThat(d.collectives.get(0).firstEntryPs()).isEqualTo(2_796_243_584L - 323_858_843L);
        assertThat(d.collectives.get(0).entrySpreadPs()).isEqualTo(323_858_843L);
        assertThat(d.collectives.get(1).entrySpreadPs()).isEqualTo(-1);
    }

    @Test
    void shouldDrawEveryChartAlsoAsSvgAndPng() throws Exception {
        ReportWriter.write(dir, data());
        assertThat(dir.resolve("charts").resolve("timeline-0.svg")).content().startsWith("<?xml")
                .contains("<rect").doesNotContain(EVIL);
        byte[] png = Files.readAllBytes(dir.resolve("charts").resolve("timeline-0.png"));
        assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
        var image = ImageIO.read(dir.resolve("charts").resolve("timeline-0.png").toFile());
        assertThat(image.getWidth()).isEqualTo(ChartImage.W);
    }

    @Test
    void shouldPickTheSlowestFlowsWithoutSortingThemAll() {
        List<FlowRecord> flows = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            // Slowdowns 1.0 .. 5.0 in steps of 0.5 (many ties), one unfinished flow.
            long ideal = 1_000_000;
            long fct = ideal + ideal / 2 * random.nextInt(9);
            flows.add(new FlowRecord(i, 0, 1, 1000, 0, fct, i == 3 ? -1 : fct, ideal, false, i,
                    0));
        }
        List<FlowRecord> expected = flows.stream().filter(f -> !Double.isNaN(f.slowdown()))
                .sorted(Comparator.comparingDouble(FlowRecord::slowdown).reversed()
                        .thenComparingInt(FlowRecord::id)).limit(10).toList();
        assertThat(ReportWriter.slowest(flows, 10)).isEqualTo(expected);
        assertThat(ReportWriter.slowest(flows.subList(0, 3), 10)).hasSize(3);
    }

    @Test
    void shouldWriteTimesInUnitsThatFitThem() {
        assertThat(Fmt.time(661.90192)).isEqualTo("661.9 us");
        assertThat(Fmt.time(40_512.3)).isEqualTo("40.51 ms");
        assertThat(Fmt.time(0.25)).isEqualTo("250 ns");
        assertThat(ChartImage.ticks(0, 661.9, 8)).containsExactly(0, 100, 200, 300, 400, 500, 600);
        assertThat(ChartImage.time(12_000, 30_000, 5_000)).isEqualTo("12 ms");
    }
}
