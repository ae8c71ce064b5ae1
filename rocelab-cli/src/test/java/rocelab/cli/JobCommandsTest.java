package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab expand}, {@code run --ideal} and the outputs of a run with jobs. */
class JobCommandsTest {
    @Test
    void shouldRefuseAnUnknownExampleAsRunDoesWithoutAMadeUpPosition() {
        for (String command : List.of("expand", "run", "compare", "lint")) {
            CliRun r = CliRun.of(command, "--example", "nope");

            assertThat(r.exitCode()).as(command).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
            assertThat(r.errorLines()).as(command).singleElement().asString()
                    .startsWith("error: --example 'nope' is not a built-in example; expected one of: ")
                    .contains("train-3d-rail");
        }
    }

    @Test
    void shouldPrintTheExpandedProgramInTheStepLanguage(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("expand", "--example", "train-3d-rail");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("# job gpt: 16 ranks, parallelism {tp: 4, dp: 2, pp: 2}, order [tp, dp, pp, cp,"
                + " ep], 2 iteration(s)\nprogram:\n");
        assertThat(r.out()).contains("- {id: fwd-s0-mb0-l0-attn, op: compute, duration: 75us, when: \"pp == 0\"}")
                .contains("op: reduce-scatter, group: [ep, dp]").contains("op: send, peer: pp+1, size: 2097152");
        // The expansion is itself a valid program: paste it into a scenario and it reads back.
        String yaml = """
                name: pasted
                fabric: {mode: roce-lossless}
                topology: {kind: rail-optimized, servers: 4, gpus-per-server: 4, spines: 2, link: {rate: 400Gbps}}
                nvlink: {rate: 3600Gbps}
                jobs:
                  - name: gpt
                    hosts: 0-15
                    parallelism: {tp: 4, pp: 2, dp: 2}
                    order: [tp, dp, pp]
                """ + r.out().lines().filter(l -> !l.startsWith("#")).map(l -> "    " + l)
                .reduce("", (a, b) -> a + b + "\n");
        Path f = dir.resolve("pasted.yaml");
        Files.writeString(f, yaml);
        CliRun again = CliRun.of("expand", f.toString());
        assertThat(again.err()).isEmpty();
        assertThat(again.out().lines().skip(1).toList()).isEqualTo(r.out().lines().skip(1).toList());
    }

    @Test
    void shouldRejectScenariosWithoutJobsAndUnknownJobs() {
        CliRun none = CliRun.of("expand", "--example", "lossy-incast");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).isEqualTo("error: scenario 'lossy-incast' has no jobs; expected a scenario with a jobs:"
                + " list\n");
        CliRun unknown = CliRun.of("expand", "--example", "train-3d-rail", "--job", "bert");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).isEqualTo("error: no job named 'bert'; expected one of: gpt\n");
    }

    @Test
    void shouldWriteTheGpuViewOfAnIdealRun(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("ideal");
        CliRun r = CliRun.of("run", "--example", "train-3d-rail", "--ideal", "--out", out.toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("mode ideal-network").contains("job         gpt: 16 ranks, 2 iterations (1"
                + " warm-up)").contains("on the ideal network (its penalty is told by a run of the packet or flow"
                + " model)")
                // The ideal network compared with itself: no penalty and no wait to tell, zero by construction.
                .doesNotContain("network penalty 0.000 ms").doesNotContain("GPUs waited on the network");
        List<String> jobs = Files.readAllLines(out.resolve("jobs.csv"));
        assertThat(jobs.get(0)).startsWith("job,ranks,iterations,warmup,start_us,jct_us,ideal_jct_us,");
        assertThat(jobs.get(1)).startsWith("gpt,16,2,1,0,");
        assertThat(Files.readAllLines(out.resolve("ranks.csv"))).hasSize(17);
        assertThat(Files.readString(out.resolve("report.html"))).contains("Jobs: the GPUs on the ideal network")
                .doesNotContain("what the network cost the GPUs").contains("no penalty or network wait to tell")
                .contains("The GPU&#39;s view: one iteration per rank")
                .contains("Last iteration of gpt, rank by rank").contains("Not modelled by this run&#39;s model (ideal)");
        assertThat(Files.readAllLines(out.resolve("timeline.csv")).get(0)).isEqualTo("job,rank,kind,start_us,end_us,label");
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"jobs\"").contains("\"ideal_jct_us\"");
        assertThat(CliRun.of("run", "--example", "train-3d-rail", "--ideal", "--pcap", dir.resolve("x.pcap")
                .toString()).err()).isEqualTo("error: --pcap needs packets; expected no --pcap with --ideal\n");
    }
}
