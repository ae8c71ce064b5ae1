package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.SizeClasses;
import rocelab.observe.flow.SlowdownBySize;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.SummaryText;

/**
 * The shipped example websearch-load, as its header tells it: web-search Poisson traffic at half load under DCQCN,
 * whose short flows' tail waits behind the large flows' queues, and the same traffic under HPCC, whose queues stay
 * near empty. Every figure the header gives is this run's.
 */
class WebsearchLoadTest {
    @TempDir
    Path tmp;

    private static String example() {
        try (InputStream in = WebsearchLoadTest.class.getResourceAsStream(
                "/rocelab/scenario/examples/websearch-load.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String header(String yaml) {
        return String.join(" ", yaml.lines().takeWhile(l -> l.startsWith("#")).map(l -> l.substring(1).strip())
                .toList());
    }

    private static RunResult run(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    @Test
    void shouldShowTheShortFlowsTailUnderDcqcnAndHowHpccShortensIt() throws Exception {
        String yaml = example();
        String header = header(yaml);
        RunResult dcqcn = run(yaml);
        assertThat(dcqcn.stopReason()).isEqualTo("completed");
        List<FlowRecord> flows = dcqcn.flows();
        // Every host offers half its link: the flows' bytes over 32 hosts x 100 Gb/s x 5 ms are about half (the
        // heavy tail of 627 draws: within a quarter).
        double offered = flows.stream().mapToLong(FlowRecord::sizeBytes).sum() * 8.0 / (32 * 100e9 * 5e-3);
        assertThat(offered).isCloseTo(0.5, within(0.125));
        assertThat(header).contains("This run (seed 1) draws " + flows.size() + " flows, " + String.format(Locale.ROOT,
                "%.2fx", offered / 0.5) + " the bytes of the nominal load");
        assertThat(flows).allMatch(f -> f.startPs() < 5_000_000_000L);

        List<SizeClasses.SizeClass> classes = SizeClasses.of(flows);
        SizeClasses.SizeClass shortFlows = classes.get(0);
        SizeClasses.SizeClass longFlows = classes.get(2);
        assertThat(header).contains("the flows of up to 100 kB, " + shortFlows.flows() + " of the " + flows.size()
                + ", reach a p99 slowdown of " + fmt(shortFlows.p99()) + " (p50 " + fmt(shortFlows.p50()) + ")");
        // The tail is the short flows': theirs is several times the largest flows'.
        assertThat(shortFlows.p99()).isGreaterThan(4 * longFlows.p99());
        assertThat(dcqcn.totals().pfcPauseSent()).isZero();
        assertThat(header).contains("This run sends no PFC pause");
        assertThat(dcqcn.totals().rateCuts()).isPositive();

        RunResult ackClass = run(yaml.replace("nic: {cc: dcqcn}", "nic: {cc: dcqcn, ack: {dscp: 48, priority: 6}}"));
        SizeClasses.SizeClass ackShort = SizeClasses.of(ackClass.flows()).get(0);
        assertThat(header).contains("the same flows' p99 is " + fmt(ackShort.p99()));
        assertThat(ackShort.p99()).isLessThan(shortFlows.p99());

        RunResult hpcc = run(yaml.replace("nic: {cc: dcqcn}", "nic: {cc: hpcc}"));
        assertThat(hpcc.flows()).hasSize(flows.size());
        SizeClasses.SizeClass hpccShort = SizeClasses.of(hpcc.flows()).get(0);
        assertThat(header).contains("reach a p99 of " + fmt(hpccShort.p99()));
        assertThat(hpccShort.p99()).isLessThan(shortFlows.p99() / 5);
        assertThat(header).contains(String.format(Locale.ROOT, "the peak queue drops from %.1f MB to %d kB",
                dcqcn.totals().maxQueueBytes() / 1e6, Math.round(hpcc.totals().maxQueueBytes() / 1e3)));

        // What the user reads: the summary's by-size line, slowdown_by_size.csv's 20 bins.
        assertThat(SummaryText.render(dcqcn, "out")).contains("by size     <= 100 kB: p50 " + fmt(shortFlows.p50())
                + " p99 " + fmt(shortFlows.p99()) + " (" + shortFlows.flows() + " flows)");
        assertThat(SlowdownBySize.of(flows).bins()).hasSize(20);
        new RunWriter().write(tmp.resolve("out"), dcqcn, Map.of());
        assertThat(tmp.resolve("out/slowdown_by_size.csv")).exists();
        assertThat(Files.readAllLines(tmp.resolve("out/slowdown_by_size.csv"))).hasSize(21);
    }
}
