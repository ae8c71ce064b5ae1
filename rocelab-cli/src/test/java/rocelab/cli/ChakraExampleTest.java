package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped chakra-3d example shows what its header says: a Chakra trace set run as a TP 2 x DP 2 x PP 2 job, at
 * packet and at flow level, with its GPU view, its timeline and what is not modelled said once.
 */
class ChakraExampleTest {
    private static final List<String> NOTES = List.of(
            "8 COMP_NODE nodes timed from num_ops at 1000 Tops/s",
            "8 MEM_LOAD_NODE nodes run as delays of their duration_micros (no memory model)",
            "8 MEM_STORE_NODE nodes run as delays of their duration_micros (no memory model)",
            "node attributes read and not used: is_cpu_op (40 nodes), tensor_size (16 nodes)");

    @Test
    void shouldRunTheTracesAsATp2Dp2Pp2JobWithItsGpuViewAndTimeline(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CliRun r = CliRun.of("run", "--example", "chakra-3d", "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        for (String note : NOTES) {
            // Said once, before the run, and kept in summary.json.
            assertThat(r.err().split("note: job step: " + Pattern.quote(note), -1)).hasSize(2);
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        List<String> kept = new ArrayList<>();
        summary.get("jobs").get(0).get("notes").forEach(n -> kept.add(n.asText()));
        assertThat(kept).isEqualTo(NOTES);
        assertThat(r.out()).contains("job         step: 8 ranks, 2 iterations (1 warm-up)").contains("GPU view");
        // The slowest call, stage 1's DP gradient all-reduce, ran beside the job's own gradient send from stage 1 to
        // stage 0 on the same RNIC: said with the call (the ideal is the call alone).
        assertThat(r.out()).contains("slowest   step/dp-allreduce-grads/dp(tp=0,pp=1)").contains("2 transfers of this"
                + " job were under way on its RNICs meanwhile (step/send-grad-mb1 from rank 4 to rank 0 for");
        // The iteration opens at stage 0's work, not at stage 1's 5 us load-batch, after which stage 1 only waits for
        // stage 0: it is the GPUs' own period (1.519 ms), not 1.911 ms.
        JsonNode job = summary.get("jobs").get(0);
        double own = job.get("compute_us_per_iteration").asDouble() + job.get("exposed_comm_us_per_iteration")
                .asDouble() + job.get("idle_us_per_iteration").asDouble();
        assertThat(job.get("iteration_us").asDouble()).isCloseTo(own, org.assertj.core.data.Offset.offset(0.01));
        // Per iteration: 4 TP groups x 4 all-reduces (forward and backward of 2 micro-batches), inside the servers;
        // 4 DP groups x 1 gradient all-reduce.
        List<String> calls = Files.readAllLines(out.resolve("collectives.csv"));
        assertThat(calls.stream().filter(l -> l.contains("tp-allreduce") && l.contains("/tp("))).hasSize(2 * 4 * 4);
        assertThat(calls.stream().filter(l -> l.contains("/dp-allreduce-grads") && l.contains("/dp("))).hasSize(2 * 4);
        // On the fabric: only the pipeline's transfers (16 per iteration) and the DP rings (8 flows per group), all
        // between servers; the TP all-reduces go over NVLink.
        List<String> flows = Files.readAllLines(out.resolve("flows.csv"));
        assertThat(flows).hasSize(1 + 2 * (16 + 4 * 8));
        for (String f : flows.subList(1, flows.size())) {
            String[] c = f.split(",");
            assertThat(Integer.parseInt(c[1]) / 2).as(f).isNotEqualTo(Integer.parseInt(c[2]) / 2);
        }
        assertThat(Files.readAllLines(out.resolve("ranks.csv"))).hasSize(9);
        assertThat(Files.readString(out.resolve("report.html"))).contains("GPU's view: one iteration per rank");
        JsonNode trace = new ObjectMapper().readTree(out.resolve("timeline.json").toFile());
        Set<String> processes = new TreeSet<>();
        int arrows = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("name").asText().equals("process_name")) {
                processes.add(e.get("args").get("name").asText());
            }
            if (e.get("ph").asText().equals("s")) {
                arrows++;
            }
        }
        assertThat(processes).containsExactly("server 0", "server 1", "server 2", "server 3");
        assertThat(arrows).as("an arrow per send/recv pair").isEqualTo(2 * 16);

        Path flowOut = dir.resolve("flow");
        CliRun f = CliRun.of("run", "--example", "chakra-3d", "--model", "flow", "--out", flowOut.toString());
        assertThat(f.exitCode()).as(f.err()).isZero();
        JsonNode flowSummary = new ObjectMapper().readTree(flowOut.resolve("summary.json").toFile());
        assertThat(flowSummary.get("model").asText()).isEqualTo("flow");
        assertThat(flowSummary.get("jobs").get(0).get("completed").asBoolean()).isTrue();
        assertThat(Files.readAllLines(flowOut.resolve("flows.csv"))).hasSize(flows.size());

        CliRun expand = CliRun.of("expand", "--example", "chakra-3d");
        assertThat(expand.out()).contains("# imported: 8 MEM_LOAD_NODE nodes run as delays")
                .contains("{id: send-act-mb0, op: send, peer: pp+1, size: 4194304");
    }

    @Test
    void shouldRefuseABrokenTraceWithExitTwoNamingTheFileAndNode(@TempDir Path dir) throws Exception {
        Path traces = dir.resolve("t");
        Files.createDirectories(traces);
        Path example = Path.of("..", "scenarios", "examples", "workloads", "chakra-3d");
        for (int rank = 0; rank < 8; rank++) {
            byte[] b = Files.readAllBytes(example.resolve("3d." + rank + ".et"));
            Files.write(traces.resolve("3d." + rank + ".et"), rank == 5 ? Arrays.copyOf(b, b.length - 5) : b);
        }
        String yaml = Files.readString(Path.of("..", "scenarios", "examples", "chakra-3d.yaml"))
                .replace("workloads/chakra-3d/", "t/");
        Path file = Files.writeString(dir.resolve("s.yaml"), yaml);
        Path out = dir.resolve("out");
        CliRun r = CliRun.of("run", file.toString(), "--out", out.toString());
        assertThat(r.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(r.errorLines()).hasSize(1);
        assertThat(r.errorLines().get(0)).startsWith("error: " + traces.resolve("3d.5.et") + ":")
                .contains(": the message after node ").contains(" is truncated: its length prefix at byte ")
                .contains("but the file ends ");
        assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }
}
