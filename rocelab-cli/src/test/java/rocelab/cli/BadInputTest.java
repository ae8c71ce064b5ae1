package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab run} on scenarios that cannot be used: exit code 2, one {@code error: file:line:column: ...} line
 * on stderr, no stack trace, and no output folder.
 */
class BadInputTest {
    private static final String HEAD = "name: t\nfabric: {mode: roce-lossy}\n";
    private static final String TOPO = "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps}}\n";
    private static final String FLOW = "traffic:\n  - {kind: flow, src: 1, dst: 0, size: 1MB}\n";

    @TempDir
    Path dir;

    private Path scenario(String yaml) throws IOException {
        return Files.writeString(dir.resolve("t.yaml"), yaml);
    }

    /** Runs the scenario and checks everything a bad input must produce; returns the error line. */
    private String assertRejected(Path file, String position, String fragment) {
        Path out = dir.resolve("out");

        CliRun run = CliRun.of("run", file.toString(), "--out", out.toString());

        assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).as("error lines in stderr:%n%s", run.err()).hasSize(1);
        String line = run.errorLines().get(0);
        assertThat(line).startsWith("error: " + file + ":" + position + ": ").contains(fragment);
        assertThat(run.err()).as("no stack trace").doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(run.out()).isEmpty();
        assertThat(out).as("the output folder").doesNotExist();
        return line;
    }

    /**
     * The README promises that asking for NCCL's PAT algorithm or the LL/LL128 protocols is rejected with a clear
     * message: it says they are not supported, and what is (an audit got "'pat' is not an algorithm of AllReduce" and
     * "unknown key 'protocol'").
     */
    @Test
    void shouldSayPatAndNcclProtocolsAreNotSupported() throws IOException {
        String line = assertRejected(scenario(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: 0-3, size: 1MB,"
                + " algorithm: pat}\n"), "5:57", "'pat' (NCCL's PAT algorithm) is not supported; expected an algorithm of"
                + " AllReduce that rocelab models: one of: ring,");
        assertThat(line).contains("tree");
        assertRejected(scenario(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: 0-3, size: 1MB, protocol: LL}\n"),
                "5:46", "'protocol' is not supported: rocelab does not model NCCL's LL, LL128 or Simple protocols (no"
                        + " key chooses one)");
    }

    @Test
    void shouldPointAtTheFirstByteThatIsNotUtf8() throws IOException {
        // Line 5, after "  - {kind: flow, src: 1, dst: 0, size: 1" and a two-byte character (one column): 0xFF.
        byte[] head = (HEAD + TOPO + "traffic:\n  - {kind: flow, src: 1, dst: 0, size: 1\u00e9").getBytes(
                StandardCharsets.UTF_8);
        byte[] bytes = Arrays.copyOf(head, head.length + 5);
        bytes[head.length] = (byte) 0xFF;
        System.arraycopy("MB}\n".getBytes(StandardCharsets.US_ASCII), 0, bytes, head.length + 1, 4);
        Path file = Files.write(dir.resolve("t.yaml"), bytes);
        assertRejected(file, "5:42", "the file is not UTF-8 text (byte 0xFF); expected a YAML scenario file");
    }

    @Test
    void shouldPointAtTheProblemWhenYamlIsMalformed() throws IOException {
        Path file = scenario("name: t\nfabric: {mode: roce-lossy\ntopology: {kind: single-switch}\n");

        assertRejected(file, "3:9", "malformed YAML");
    }

    @Test
    void shouldShowControlCharactersOfARefusedNameEscapedNotRaw() throws IOException {
        // A NUL or an escape sequence echoed raw would be cut off or obeyed by the terminal.
        Path file = scenario(HEAD.replace("name: t", "name: \"a\\0b\\e[31mred\"") + TOPO + FLOW);

        String line = assertRejected(file, "1:7", "'a\\0b\\x1B[31mred' is not a valid name; expected a plain file name");

        assertThat(line.chars().filter(Character::isISOControl)).isEmpty();
    }

    @Test
    void shouldRefuseANameThatIsNotAPlainFileName() throws IOException {
        // The name names the output folder out/NAME: ".." would write next to out/, "." straight into it.
        for (String name : new String[] {"..", ".", ".hidden"}) {
            Path file = scenario(HEAD.replace("name: t", "name: \"" + name + "\"") + TOPO + FLOW);

            assertRejected(file, "1:7", "is not a valid name; expected a plain file name");
        }
    }

    @Test
    void shouldSayWhatANumberOptionExpectsInItsOwnWords() {
        // picocli's own words named Java types: "'abc' is not a long".
        CliRun run = CliRun.of("run", "--example", "cc-held-back", "--seed", "abc");
        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).contains(
                "error: option '--seed': 'abc' is not a whole number; expected an integer (e.g. 7)");
        assertThat(RocelabCommand.inPlainWords("Invalid value for option '--rate': 'x' is not a double"))
                .isEqualTo("option '--rate': 'x' is not a number; expected a number (e.g. 0.5)");
        assertThat(RocelabCommand.inPlainWords("Unknown option: '--sead'")).isEqualTo("Unknown option: '--sead'");
    }

    @Test
    void shouldNameTheKeyWhenKeyIsUnknown() throws IOException {
        Path file = scenario(HEAD + TOPO + FLOW + "colour: blue\n");

        assertRejected(file, "6:1", "unknown key 'colour' in the scenario; expected one of: name, seed, fabric");
    }

    @Test
    void shouldNameTheKeyWhenRequiredKeyIsMissing() throws IOException {
        Path file = scenario("fabric: {mode: roce-lossy}\n" + TOPO + FLOW);

        assertRejected(file, "1:1", "missing key 'name' in the scenario");
    }

    @Test
    void shouldListTheUnitsWhenRateUnitIsWrong() throws IOException {
        Path file = scenario(HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbs}}\n" + FLOW);

        assertRejected(file, "3:56", "'100Gbs' is not a rate; expected a number with a unit: bps, Kbps, Mbps, Gbps");
    }

    @Test
    void shouldRejectTheRateWhenItIsZero() throws IOException {
        Path file = scenario(HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 0Gbps}}\n" + FLOW);

        assertRejected(file, "3:56", "'0Gbps' is zero");
    }

    @Test
    void shouldRejectTheRateWhenItIsNegative() throws IOException {
        Path file = scenario(HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: -1Gbps}}\n" + FLOW);

        assertRejected(file, "3:56", "'-1Gbps' is negative");
    }

    @Test
    void shouldGiveTheValidRangeWhenHostIndexIsOutOfRange() throws IOException {
        Path file = scenario(HEAD + TOPO + "traffic:\n  - {kind: flow, src: 1, dst: 4, size: 1MB}\n");

        assertRejected(file, "5:31", "host 4 is out of range; expected 0..3");
    }

    @Test
    void shouldNameTheCutOffHostsWhenCustomTopologyIsDisconnected() throws IOException {
        Path file = scenario(HEAD + """
                topology:
                  kind: custom
                  hosts: 5
                  switches: [tor0, tor1]
                  link: {rate: 100Gbps}
                  links:
                    - {a: h0, b: tor0}
                    - {a: h1, b: tor0}
                    - {a: h2, b: tor0}
                    - {a: h3, b: tor1}
                    - {a: h4, b: tor1}
                """ + FLOW);

        assertRejected(file, "3:1", "topology is disconnected: hosts h3, h4 cannot reach h0");
    }

    @Test
    void shouldGiveTheResolvedPathWhenFlowsFileIsMissing() throws IOException {
        Path file = scenario(HEAD + TOPO + "traffic:\n  - {kind: flows-csv, file: perm128.csv}\n");

        assertRejected(file, "5:29", "file not found: " + dir.resolve("perm128.csv").toAbsolutePath());
    }

    @Test
    void shouldNameTheFileWhenScenarioFileDoesNotExist() {
        Path missing = dir.resolve("no-such-scenario.yaml");

        assertRejected(missing, "1:1", "file not found: " + missing.toAbsolutePath().normalize());
    }

    @Test
    void shouldSayTheFileIsEmptyWhenItHasNoDocument() throws IOException {
        Path file = scenario("# nothing here\n");

        assertRejected(file, "1:1", "the file is empty");
    }

    @Test
    void shouldRefuseToReadWhenScenarioPathIsAFolder() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("scenario.yaml"));
        Path out = dir.resolve("out");

        CliRun run = CliRun.of("run", folder.toString(), "--out", out.toString());

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString()
                .isEqualTo("error: " + folder + ":1:1: " + folder.toAbsolutePath().normalize()
                        + " is a directory; expected a scenario file");
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }

    @Test
    void shouldExitWithBadInputWhenOutIsAnExistingFile() throws IOException {
        Path notAFolder = Files.writeString(dir.resolve("out"), "occupied\n");

        CliRun run = CliRun.of("run", "--out", notAFolder.toString(), "-q");

        assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().startsWith("error: ").contains(notAFolder.toString());
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(notAFolder).hasContent("occupied");
    }

    @Test
    void shouldRefuseALinkTakenDownTwiceWhileDown() throws IOException {
        Path file = scenario(HEAD + "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2,"
                + " link: {rate: 100Gbps}}\n" + FLOW + "events:\n"
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 50us}\n"
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 80us}\n");

        assertRejected(file, "8:12", "link-down of leaf0 - spine0 at 80us while it is already down (link-down at 50us"
                + " on line 7, no link-up of it in between); expected one link-down per outage");
    }

    @Test
    void shouldSayWhatAWhenExpectedWhereItFoundASingleEquals() throws IOException {
        // An audit's straggler job wrote "dp = 3" and was told only "unexpected '='".
        Path file = scenario(HEAD + TOPO + """
                jobs:
                  - name: train
                    hosts: 0-3
                    parallelism: {dp: 4}
                    program:
                      - {id: c, op: compute, duration: 1ms, when: "dp = 3"}
                """);
        assertRejected(file, "9:55", "when 'dp = 3': unexpected '='; expected '==' to compare, or another operator"
                + " (+ - * / % == != < <= > >= && ||) or the end of the expression");
    }
}
