package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.probe.NicCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.sweep.SummaryMetrics;

/**
 * What a run ended during its flows says they moved: flows.csv delivered_bytes (the payload bytes each flow's
 * receiver had in order by the end), throughput.csv (the same per QP and sample), summary.json's delivered goodput,
 * and no completed-flow goodput (null, not 0) when no flow completed.
 */
class DeliveredBytesTest {
    @TempDir
    Path tmp;

    /** One 10 MB flow alone at 100 Gb/s, stopped at 200 us, no forwarding latency: back-to-back frames. */
    private static final String LONE = """
            name: lone-stopped
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
            switch: {forwarding-latency: 0ns}
            nic: {cc: none}
            traffic:
              - {kind: flow, src: 0, dst: 1, size: 10MB}
            run: {stop-at: 200us}
            observe: {sample-interval: 1us}
            """;

    private static final long STOP_PS = 200_000_000L;
    private static final long DELAY_PS = 1_000_000L;
    /** Preamble, start delimiter and inter-frame gap: on the wire, not in ports.csv's tx_bytes. */
    private static final long WIRE_EXTRA = 20;

    @Test
    void shouldGiveALoneFlowStoppedMidwayItsBytesAtLineRateAndTheCountersBytes() throws Exception {
        RunResult r = Simulation.assemble(Scenarios.parse(LONE)).run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(0);
        assertThat(f.unfinished()).isTrue();
        long delivered = f.deliveredBytes();
        // The receiver's own counter of payload received in order (go-back-N, nothing lost: every byte it placed).
        assertThat(delivered).isEqualTo(r.network().nic(1).counter(NicCounter.RX_DELIVERED_BYTES))
                .isEqualTo(r.totals().deliveredBytes());

        ReportWriter.writeRun(tmp, r, Map.of());
        Map<String, String> port = row(tmp.resolve("ports.csv"), "peer", "h1");
        long frames = Long.parseLong(port.get("tx_data_packets"));
        long txBytes = Long.parseLong(port.get("tx_bytes"));
        // The switch sent a frame per 1,000 payload bytes; those it sent that had not arrived are on the 1 us link.
        long frameBytes = txBytes / frames; // 1,062: headers on 1,000 bytes (the first frame's RETH, 16 more, left over)
        long framePs = (frameBytes + WIRE_EXTRA) * 8 * 10;
        long onTheLink = DELAY_PS / framePs + 1;
        assertThat(frames * 1000 - delivered).isBetween(0L, onTheLink * 1000);

        // Closed form: the first frame (16 bytes longer) is serialised twice and crosses two 1 us links; then one
        // frame's payload arrives per frame time, the line rate less the headers.
        long firstPs = 2 * ((frameBytes + 16 + WIRE_EXTRA) * 8 * 10 + DELAY_PS);
        long packets = (STOP_PS - firstPs) / framePs + 1;
        assertThat(delivered).isEqualTo(packets * 1000);

        // flows.csv's last column, the sum of throughput.csv's rows, summary.json's goodput over the 200 us.
        List<String> flows = Files.readAllLines(tmp.resolve("flows.csv"));
        assertThat(flows.get(0)).endsWith(",qp_wait_us,delivered_bytes");
        assertThat(flows.get(1)).endsWith("," + delivered);
        assertThat(throughputSums(tmp)).containsExactly(Map.entry(f.queuePair(), delivered));
        String summary = Files.readString(tmp.resolve("summary.json"));
        assertThat(summary).contains("\"aggregate_goodput_gbps\": null", "\"bytes_delivered\": " + delivered);
        Map<String, String> numbers = SummaryMetrics.numbers(summary);
        assertThat(numbers).as("a sweep's results.csv: an empty cell, not 0")
                .doesNotContainKey("flows.aggregate_goodput_gbps");
        assertThat(Double.parseDouble(numbers.get("flows.delivered_goodput_gbps")))
                .isCloseTo(delivered * 8.0 / STOP_PS * 1000, within(0.0005));

        String text = SummaryText.render(r, null);
        assertThat(text).doesNotContain("goodput     ").contains(String.format(Locale.ROOT,
                "delivered   %.2f Gbps of all flows, completed or not (%,d payload bytes", delivered * 8.0 / STOP_PS * 1000,
                delivered));
    }

    /**
     * Three WRITEs posted at once on one QP (a 2-rank AlltoAll of 768 KiB), stopped during the second: the first has
     * all its bytes, the second a part, the third none; together the QP's, and the receivers' counters.
     */
    @Test
    void shouldSplitAQueuePairsBytesAmongItsMessagesInPostOrder() throws Exception {
        RunResult r = Simulation.assemble(Scenarios.parse("""
                name: qp-fifo-stopped
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: alltoall, ranks: 0-1, size: 768KiB}
                run: {stop-at: 20us}
                """)).run(ProgressListener.NONE);
        List<FlowRecord> one = r.flows().stream().filter(x -> x.queuePair() == r.flows().get(0).queuePair()).toList();
        assertThat(one).hasSize(3);
        assertThat(one.get(0).deliveredBytes()).isEqualTo(one.get(0).sizeBytes());
        assertThat(one.get(1).deliveredBytes()).isPositive().isLessThan(one.get(1).sizeBytes());
        assertThat(one.get(2).deliveredBytes()).isZero();
        assertThat(one.get(0).deliveredPs()).isPositive();
        long all = r.flows().stream().mapToLong(FlowRecord::deliveredBytes).sum();
        assertThat(all).isEqualTo(r.totals().deliveredBytes());
        ReportWriter.writeRun(tmp, r, Map.of());
        Map<Integer, Long> byQp = new HashMap<>();
        r.flows().forEach(x -> byQp.merge(x.queuePair(), x.deliveredBytes(), Long::sum));
        assertThat(throughputSums(tmp)).isEqualTo(byQp);
    }

    /** A run whose flows all complete: delivered is every flow's size, the two goodputs one figure, no extra line. */
    @Test
    void shouldGiveCompletedFlowsTheirSizeAndOneGoodput() throws Exception {
        RunResult r = Simulation.assemble(Scenarios.parse(LONE.replace("run: {stop-at: 200us}\n", "")
                .replace("10MB", "100KB"))).run(ProgressListener.NONE);
        assertThat(r.flows().get(0).deliveredBytes()).isEqualTo(100_000);
        ReportWriter.writeRun(tmp, r, Map.of());
        Map<String, String> n = SummaryMetrics.numbers(Files.readString(tmp.resolve("summary.json")));
        assertThat(n.get("flows.delivered_goodput_gbps")).isEqualTo(n.get("flows.aggregate_goodput_gbps"));
        assertThat(n.get("flows.bytes_delivered")).isEqualTo("100000");
        assertThat(SummaryText.render(r, null)).contains("goodput     ").doesNotContain("delivered   ");
        assertThat(throughputSums(tmp)).containsExactly(Map.entry(r.flows().get(0).queuePair(), 100_000L));
    }

    /** throughput.csv's delivered bytes summed per QP. */
    private static Map<Integer, Long> throughputSums(Path dir) throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve("throughput.csv"));
        List<String> header = Arrays.asList(lines.get(0).split(","));
        Map<Integer, Long> sums = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            sums.merge(Integer.parseInt(c[header.indexOf("qp")]), Long.parseLong(c[header.indexOf("delivered_bytes")]),
                    Long::sum);
        }
        return sums;
    }

    /** The row of a CSV whose {@code column} is {@code value}, by column name. */
    private static Map<String, String> row(Path csv, String column, String value) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        String[] header = lines.get(0).split(",");
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                m.put(header[i], c[i]);
            }
            if (value.equals(m.get(column))) {
                return m;
            }
        }
        throw new AssertionError("no row of " + csv + " with " + column + " " + value);
    }
}
