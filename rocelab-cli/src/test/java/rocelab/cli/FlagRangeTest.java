package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flags and inputs at the edges of their range: refused with the reason (exit 2), or accepted and handled. */
class FlagRangeTest {
    @TempDir
    Path dir;

    @Test
    void shouldRefuseACableWithoutUnitOrBeyondReach() {
        CliRun noUnit = CliRun.of("headroom", "--speed", "400G", "--cable", "100");
        assertThat(noUnit.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(noUnit.err()).isEqualTo("error: --cable '100' has no unit; expected a length with its unit, m or"
                + " km, from 0 to 100km (e.g. 100m)\n");
        CliRun feet = CliRun.of("headroom", "--speed", "400G", "--cable", "100ft");
        assertThat(feet.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(feet.err()).isEqualTo("error: --cable '100ft': the unit 'ft' is not known; expected a length with"
                + " its unit, m or km, from 0 to 100km (e.g. 100m) (100 ft is 30.48m)\n");
        CliRun huge = CliRun.of("headroom", "--speed", "400G", "--cable", "1e30m");
        assertThat(huge.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(huge.err()).contains("--cable '1e30m' is out of range");
        CliRun km = CliRun.of("headroom", "--speed", "400Gb/s", "--cable", "2km");
        assertThat(km.exitCode()).as(km.err()).isZero();
        assertThat(km.out()).contains("400 Gb/s, 2km cable");
    }

    @Test
    void shouldNameTheHeadroomOptionWhoseValueIsRefused() {
        // Every refused value says whose it is, as --delay and --cable did and --speed and --response did not.
        String[][] cases = {
            {"--speed", "0Gbps", "error: --speed '0Gbps' is zero"},
            {"--response", "-1us", "error: --response '-1us' is negative"},
            {"--forwarding-latency", "-1us", "error: --forwarding-latency '-1us' is negative"},
            {"--mtu", "lots", "error: --mtu 'lots'"},
            {"--delay", "-1us", "error: --delay '-1us' is negative"},
        };
        for (String[] c : cases) {
            CliRun run = c[0].equals("--speed") ? CliRun.of("headroom", c[0], c[1])
                    : CliRun.of("headroom", "--speed", "100Gbps", c[0], c[1]);
            assertThat(run.exitCode()).as(c[0]).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
            assertThat(run.err()).as(c[0]).startsWith(c[2]);
        }
    }

    @Test
    void shouldRefuseJourneyFlagsBeforeSimulating() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("events"));
        assertThat(CliRun.of("journey", "--flow", "0", "--json", folder.toString()).err())
                .startsWith("error: --json " + folder + ": is a directory; expected a file name");
        assertThat(CliRun.of("journey", "--flow", "0", "--max-lines", "-5").err())
                .isEqualTo("error: --max-lines -5 is not a number of lines; expected 1 or more (--json has every"
                        + " event)\n");
        assertThat(CliRun.of("journey", "--flow", "0", "--from", "20us", "--to", "10us").exitCode())
                .isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        CliRun psn = CliRun.of("journey", "--flow", "0", "--packet", "999999");
        assertThat(psn.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(psn.err()).startsWith("error: --packet 999999: flow 0 sent no packet with that PSN; expected a PSN"
                + " from ");
        assertThat(psn.out()).isEmpty();
    }

    @Test
    void shouldFinishAndReportAFlowThatASlowLinkCannotCarry() throws IOException {
        // At 1 bit/s a 2 MB flow would take longer than a simulation can represent: the run ends (the QP gives up
        // after its retries) and every output is written, instead of an arithmetic error after the run.
        Path scenario = Files.writeString(dir.resolve("slow.yaml"), """
                name: slow
                fabric: {mode: roce-lossy}
                topology: {kind: single-switch, hosts: 2, link: {rate: 1bps}}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 2MB}
                """);
        Path out = dir.resolve("out");

        CliRun run = CliRun.of("run", scenario.toString(), "--out", out.toString(), "-q");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.readString(out.resolve("flows.csv"))).contains(",failed,");
    }

    /** Two flags that ask for different things are refused, not one silently dropped. */
    @Test
    void shouldRefuseContradictoryModelsAndTwoScenarios() throws Exception {
        CliRun both = CliRun.of("run", "--ideal", "--model", "packet", "--out", dir.resolve("ideal").toString());
        assertThat(both.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(both.err()).isEqualTo("error: --ideal is the ideal model; expected either --ideal or --model packet,"
                + " not both\n");
        assertThat(dir.resolve("ideal")).doesNotExist();
        assertThat(CliRun.of("run", "--ideal", "--model", "ideal", "-q", "--out", dir.resolve("same").toString())
                .exitCode()).isZero();
        Path file = dir.resolve("demo.yaml");
        Files.writeString(file, "name: x\n");
        CliRun journey = CliRun.of("journey", file.toString(), "--example", "lossy-incast", "--flow", "1");
        assertThat(journey.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(journey.err()).isEqualTo("error: give either a SCENARIO file or --example, not both\n");
    }
}
