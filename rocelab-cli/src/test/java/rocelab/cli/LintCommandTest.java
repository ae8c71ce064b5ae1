package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    void shouldPrintWhatDocsLintMdShowsForTheL1Example() throws Exception {
        // The doc's sample showed ports the example does not have (2 and 3 for 4 and 5) and no header or L6 finding.
        String docs = Files.readString(Path.of("../docs/lint.md"));
        String command = "$ rocelab lint --example lint-l1-dscp-mismatch\n";
        int start = docs.indexOf(command);
        assertThat(start).as("docs/lint.md shows the command").isNotNegative();
        String shown = docs.substring(start + command.length(), docs.indexOf("```", start));
        assertThat(CliRun.of("lint", "--example", "lint-l1-dscp-mismatch").out()).isEqualTo(shown);
    }

    @Test
    void shouldMergeFindingsThatDifferOnlyInTheDeviceTheyBeginWith() throws Exception {
        // A plain leaf-spine at the defaults: Kmax at 400 Gb/s (6.4 MB) is above each switch's 2:1-incast XOFF point.
        // That was six L5 findings, one per switch, though docs/lint.md says the same problem is one finding; the
        // leaves' XOFF point differs from the spines' (their headroom differs), so they are two.
        Path scenario = Files.writeString(dir.resolve("s.yaml"), """
                name: ls
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps},
                  uplink: {rate: 400Gbps}}
                nic: {cc: dcqcn}
                traffic: [{kind: alltoall, ranks: 0-15, size: 1MB}]
                """);
        CliRun run = CliRun.of("lint", scenario.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("0 errors, 3 warnings")
                .contains("  devices: leaf0, leaf1, leaf2, leaf3\n", "  what:    each of leaf0, leaf1, leaf2 and leaf3"
                        + " reaches full marking (Kmax 6,400,000 B) on class 3 only beyond the 2:1-incast XOFF point")
                .contains("  devices: spine0, spine1\n", "  what:    each of spine0 and spine1 reaches full marking");
        assertThat(run.out().split("WARNING L5 ", -1)).hasSize(3);
    }


    /**
     * L3's fix quotes a {@code rocelab headroom} command for the figure it names; run as printed, it must give that
     * figure. An audit's 2.5 Gb/s fabric with a 1.2345 us forwarding latency and a 1.23456 us pause response read
     * "3 Gb/s" and "--speed 3Gbps ... --forwarding-latency 1.235us --response 1.235us", which gives 5,283 B for a
     * port that needs 4,969 B; and at 2.5 Gb/s with the default response the command was refused (no 802.3 value).
     */
    @Test
    void shouldQuoteAHeadroomCommandThatGivesTheFigureL3Names() throws Exception {
        Path scenario = dir.resolve("slow.yaml");
        Files.writeString(scenario, """
                name: slow
                fabric: {mode: roce-lossless, mtu: 1024, vlan: true}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 2.5Gbps, delay: 700ns}}
                switch: {buffer: 4MB, forwarding-latency: 1.2345us, pfc: {headroom: 4KB, watchdog: {}, pause-response: 1.23456us}}
                traffic: [{kind: flow, src: 0, dst: 2, size: 100KB}]
                """);
        JsonNode root = new ObjectMapper().readTree(CliRun.of("lint", scenario.toString(), "--json").out());
        Pattern need = Pattern.compile("at least ([\\d,]+) B \\(rocelab (headroom [^)]*)\\)");
        int checked = 0;
        for (JsonNode f : root.get("findings")) {
            if (!f.get("rule").asText().equals("L3")) {
                continue;
            }
            assertThat(f.get("what").asText()).contains(" 2.5 Gb/s over a pause loop");
            Matcher m = need.matcher(f.get("fix").asText());
            assertThat(m.find()).as(f.get("fix").asText()).isTrue();
            CliRun headroom = CliRun.of(m.group(2).split(" "));
            assertThat(headroom.exitCode()).as(m.group(2) + ": " + headroom.err()).isZero();
            assertThat(headroom.out()).as(m.group(2)).containsPattern("total +" + m.group(1) + " B");
            checked++;
        }
        assertThat(checked).as("host ports (NIC peers) and switch links").isEqualTo(2);
    }

    @Test
    void shouldPrintJsonWhenAsked() throws Exception {
        CliRun run = CliRun.of("lint", "--example", "lint-l11-mtu", "--json");
        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode root = new ObjectMapper().readTree(run.out());
        // One error on both spines: the same problem on each.
        assertThat(root.get("errors").asInt()).isEqualTo(1);
        JsonNode first = root.get("findings").get(0);
        assertThat(first.get("rule").asText()).isEqualTo("L11");
        assertThat(first.get("severity").asText()).isEqualTo("error");
        assertThat(first.get("devices").get(0).asText()).isEqualTo("spine0");
        assertThat(first.get("devices").get(1).asText()).isEqualTo("spine1");
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
