package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;

/**
 * The printed summary's "slowest" lines of a job tell its calls apart (a call has the same name in every iteration),
 * and they follow the GPU's view and compare's collective_us: a job's calls in its warm-up iterations are left out, and
 * the summary says how many it left out. They were listed (labelled "warm-up"), the first of them here, while every
 * other figure of the job leaves the warm-up out. The report's table of collectives follows the same rule.
 */
class SummarySlowestCallsTest {
    @TempDir
    Path tmp;

    private static RunResult run() {
        return Simulation.assemble(Scenarios.parse("""
                name: slowest-calls
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                jobs:
                  - name: j
                    hosts: 0-7
                    parallelism: {pp: 2, dp: 4}
                    iterations: 3
                    warmup: 1
                    program:
                      - repeat: 2
                        as: mb
                        steps:
                          - {id: rx,  op: recv, peer: pp-1, when: "pp > 0", stream: recv}
                          - {id: fwd, op: compute, duration: 50us, after: [rx]}
                          - {id: tx,  op: send, peer: pp+1, size: 1MiB, when: "pp < PP-1", stream: send, after: [fwd]}
                      - {id: grads, op: allreduce, group: dp, size-total: 4MiB}
                      - {id: opt,   op: compute, duration: 20us}
                traffic:
                  - {kind: flow, src: 0, dst: 5, size: 4MB, start: 100us}
                """)).run(ProgressListener.NONE);
    }

    @Test
    void shouldLeaveTheWarmUpCallsOutOfTheSlowestAndSayHowMany() {
        RunResult r = run();
        // The warm-up's AllReduce is the slowest against its ideal: it would head the list.
        List<CollectiveRecord> beyond = r.collectives().stream().filter(c -> c.completed()
                && c.networkSlowdown() > 1.05).toList();
        List<CollectiveRecord> warmUp = beyond.stream().filter(c -> c.iteration() < 1).toList();
        assertThat(warmUp).isNotEmpty();
        CollectiveRecord worst = beyond.stream().max(Comparator.comparingLong(c -> c.timePs()
                - c.idealTimePs())).orElseThrow();
        assertThat(worst.iteration()).isZero();

        String text = SummaryText.render(r, null);
        // The calls' lines (the job's slowest transfers follow them: SlowestTransfersTest).
        List<String> slowest = Arrays.stream(text.split("\n"))
                .filter(l -> l.startsWith("  slowest") && !l.startsWith("  slowest   transfer ")).toList();
        List<CollectiveRecord> measured = beyond.stream().filter(c -> c.iteration() >= 1).toList();
        assertThat(slowest).hasSize(Math.min(3, measured.size())).isNotEmpty()
                .allMatch(l -> l.startsWith("  slowest   j/grads/dp(pp=0) in iteration "))
                .noneMatch(l -> l.contains("warm-up")).noneMatch(l -> l.contains(" in iteration 0 "))
                .doesNotHaveDuplicates();
        assertThat(text).contains("\n            (" + warmUp.size() + " warm-up call" + (warmUp.size() == 1 ? "" : "s")
                + " over 1.05x " + (warmUp.size() == 1 ? "its" : "their") + " ideal not counted)\n");
        // Each line's figures are that call's row of collectives.csv.
        for (var c : r.collectives()) {
            String head = "  slowest   " + c.name() + " in iteration " + c.iteration() + " ";
            slowest.stream().filter(l -> l.startsWith(head)).forEach(l -> assertThat(l).contains(
                    String.format(Locale.ROOT, "(x%.2f)", c.networkSlowdown())));
        }
    }

    @Test
    void shouldLeaveTheWarmUpCallsOutOfTheReportsTableOfCollectives() throws Exception {
        RunResult r = run();
        ReportWriter.writeRun(tmp, r, Map.of());
        String html = Files.readString(tmp.resolve("report.html"));
        String table = html.substring(html.indexOf("Collectives, slowest against the ideal first"));
        table = table.substring(0, table.indexOf("</table>") + 200);
        long warmUp = r.collectives().stream().filter(c -> c.iteration() == 0).count();
        assertThat(warmUp).isPositive();
        assertThat(table).contains((r.collectives().size() - warmUp) + " calls (" + warmUp + " warm-up call"
                + (warmUp == 1 ? "" : "s") + " not counted); all are in collectives.csv.");
        assertThat(table).doesNotContain("<td>0</td>");
        assertThat(table).contains("<td>1</td>", "<td>2</td>");
    }

    @Test
    void shouldCountOnlyTheCallsAfterTheWarmUpInSummaryJsonsCollectiveCalls() {
        RunResult r = run();
        long all = r.collectives().stream().filter(c -> c.job().equals("j")).count();
        long warmUp = r.collectives().stream().filter(c -> c.job().equals("j") && c.iteration() == 0).count();
        assertThat(warmUp).isPositive();
        @SuppressWarnings("unchecked")
        var jobs = (List<Map<String, Object>>) Summary.of(r).get("jobs");
        assertThat(jobs).singleElement().satisfies(j -> assertThat(((Number) j.get("collective_calls")).longValue())
                .as("collective_calls, warm-up left out as in every other figure but collectives.csv")
                .isEqualTo(all - warmUp));
    }
}
