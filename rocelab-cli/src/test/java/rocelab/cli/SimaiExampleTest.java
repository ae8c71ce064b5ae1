package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped simai-gpt example shows what its header says: a SimAI workload file run as a TP 4 x DP 4 job. */
class SimaiExampleTest {
    @Test
    void shouldRunTheWorkloadFileAsATp4Dp4JobWithItsGpuViewAndTimeline(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CliRun r = CliRun.of("run", "--example", "simai-gpt", "--out", out.toString());
        assertThat(r.exitCode()).isZero();
        // What the file has that is not run, said once before the run.
        assertThat(r.err()).contains("note: job gpt: SimAI header vpp 4 is read and not used")
                .contains("note: job gpt: the dependency column of 5 layers is read and not used")
                .contains("note: job gpt: a rank starts its next iteration when all of its collectives are done, where"
                        + " SimAI lets each layer's forward wait only for that layer's weight-gradient collective");
        assertThat(r.out()).contains("job         gpt: 16 ranks, 2 iterations (1 warm-up)");
        // TP all-reduces inside a server (4 groups x 5 forward + 4 input-gradient calls), DP gradient all-reduces
        // over the rails (4 groups x 3 layers with a weight-gradient collective), per iteration.
        List<String> calls = Files.readAllLines(out.resolve("collectives.csv"));
        // By the name column: a call's row also names the call that ran beside it longest (concurrent_longest).
        List<String> names = calls.stream().map(l -> l.split(",", 3)[1]).toList();
        assertThat(names.stream().filter(l -> l.contains("/fwd-comm-") && l.contains("/tp("))).hasSize(2 * 4 * 5);
        assertThat(names.stream().filter(l -> l.contains("/ig-comm-") && l.contains("/tp("))).hasSize(2 * 4 * 4);
        assertThat(names.stream().filter(l -> l.contains("/wg-comm-") && l.contains("/dp("))).hasSize(2 * 4 * 3);
        // A call has the same name in both iterations; the iteration column tells them apart.
        assertThat(calls.get(0)).startsWith("job,name,iteration,");
        Pattern jobNameIteration = Pattern.compile("^([^,]*,(\"[^\"]*\"|[^,]*),(\\d+)),");
        List<Matcher> rows = calls.stream().skip(1).map(jobNameIteration::matcher)
                .filter(Matcher::find).toList();
        assertThat(rows).hasSize(calls.size() - 1);
        assertThat(rows.stream().filter(m -> m.group(3).equals("0"))).hasSize(rows.size() / 2);
        assertThat(rows.stream().filter(m -> m.group(3).equals("1"))).hasSize(rows.size() / 2);
        assertThat(rows.stream().map(m -> m.group(1)).distinct()).as("job, name and iteration name one call")
                .hasSize(rows.size());
        assertThat(Files.readAllLines(out.resolve("ranks.csv"))).hasSize(17);
        JsonNode trace = new ObjectMapper().readTree(out.resolve("timeline.json").toFile());
        Set<String> processes = new TreeSet<>();
        int dpSlices = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("name").asText().equals("process_name")) {
                processes.add(e.get("args").get("name").asText());
            }
            if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals("collective")
                    && e.get("args").get("call").asText().contains("/wg-comm-")) {
                dpSlices++;
            }
        }
        assertThat(processes).containsExactly("server 0", "server 1", "server 2", "server 3");
        assertThat(dpSlices).isEqualTo(2 * 16 * 3);
        CliRun expand = CliRun.of("expand", "--example", "simai-gpt");
        assertThat(expand.out()).contains("# imported: SimAI header vpp 4 is read and not used")
                .contains("op: allreduce, group: [ep, dp], size-total: 16777216");
    }
}
