package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.scenario.lint.Finding;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.lint.Severity;

/** {@code rocelab lint} exit codes and formats, and {@code rocelab run}'s lint block and {@code --strict}. */
class LintCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldExitZeroWithNoFindingsForTheDemo() {
        CliRun run = CliRun.of("lint");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("lint demo-incast-dcqcn: 0 errors, 0 warnings, 0 info");
    }

    @Test
    void shouldExitOneAndNameRuleDevicePortSymptomAndFixWhenThereAreErrors() {
        CliRun run = CliRun.of("lint", "--example", "lint-l1-dscp-mismatch");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("ERROR   L1", "leaf0 port 0 (to h0)", "maps RoCE DSCP 26 to traffic class 0",
                "symptom: tail drops", "fix:     map DSCP 26 to class 3 on leaf0");
    }

    @Test
    void shouldPrintJsonWhenAsked() throws Exception {
        CliRun run = CliRun.of("lint", "--example", "lint-l11-mtu", "--json");
        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("errors").asInt()).isEqualTo(2);
        JsonNode first = root.get("findings").get(0);
        assertThat(first.get("rule").asText()).isEqualTo("L11");
        assertThat(first.get("severity").asText()).isEqualTo("error");
        assertThat(first.get("devices").get(0).asText()).isEqualTo("spine0");
        assertThat(root.get("rules_not_applicable").has("L15")).isTrue();
    }

    @Test
    void shouldExitTwoWithPositionForBadInput() throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "name: x\nfabric: {mode: roce-lossless}\ntopology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}\n"
                + "switches:\n  - {name: leaf9, buffer: 1MB}\ntraffic: [{kind: flow, src: 0, dst: 1, size: 1KB}]\n");
        CliRun run = CliRun.of("lint", bad.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("bad.yaml:5:12: no switch is named 'leaf9'; expected one of switch0");
        assertThat(run.err()).doesNotContain("Exception");
    }

    @Test
    void shouldPrintLintFindingsBeforeRunningAndRefuseWithStrict() {
        Path out = dir.resolve("run");
        CliRun lenient = CliRun.of("run", "--example", "lint-l9-np-off", "--out", out.toString());
        assertThat(lenient.exitCode()).isZero();
        assertThat(lenient.err()).contains("lint: 1 error, 0 warnings, 0 info - running anyway",
                "error L9: h0 has the DCQCN notification point off");
        assertThat(lenient.out()).contains("flows       4 completed of 4");

        Path strictOut = dir.resolve("strict");
        CliRun strict = CliRun.of("run", "--example", "lint-l9-np-off", "--strict", "--out", strictOut.toString());
        assertThat(strict.exitCode()).isEqualTo(1);
        assertThat(strict.err()).contains("not running (--strict)");
        assertThat(strictOut).doesNotExist();
    }

    @Test
    void shouldShowAtMostTwentyFindingsBeforeARunAndCountTheRest() {
        List<Finding> many = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            many.add(new Finding("L5", Severity.WARNING, "t",
                    List.of("s" + i), List.of(), "what " + i, "symptom", "fix"));
        }
        String block = LintBlock.render(new LintReport("x", many, 1, 1, 25, 2), false);
        assertThat(block.lines()).hasSize(1 + 20 + 1);
        assertThat(block).contains("what 19").doesNotContain("what 20").contains("... and 5 more");
    }
}
