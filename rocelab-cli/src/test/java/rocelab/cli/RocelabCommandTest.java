package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.output.IoProblem;
import rocelab.scenario.read.ScenarioReader;

/** Command-line handling: help, version, and flags or arguments that picocli rejects. */
class RocelabCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldPrintUsageAndExitZeroWhenHelpIsAsked() {
        CliRun run = CliRun.of("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: rocelab", "run");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void shouldPrintUsageOnStderrAndExitTwoWhenNoCommandIsGiven() {
        CliRun run = CliRun.of();

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("error: a command is needed").contains("Usage: rocelab", "run");
    }

    @Test
    void shouldRefuseAnOutputFolderItCannotWriteInto() throws Exception {
        Path locked = dir.resolve("locked");
        Files.createDirectory(locked);
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(locked),
                    "running as a user who may write anywhere (root)");
            CliRun run = CliRun.of("run", "--out", locked.resolve("demo").toString(), "-q");
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err()).contains("error:").containsIgnoringCase("writ");
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void shouldNameTheCauseOfAFileProblemWhenJavaGivesOnlyThePath() {
        assertThat(IoProblem.describe(new AccessDeniedException("/proc/.x.partial-1")))
                .isEqualTo("/proc/.x.partial-1: permission denied");
        assertThat(IoProblem.describe(new FileSystemException("/ro/x", null, "Read-only file system")))
                .isEqualTo("/ro/x: read-only file system");
        assertThat(IoProblem.describe(new NoSuchFileException("/gone/x")))
                .isEqualTo("/gone/x: no such file or directory");
    }

    @Test
    void shouldBuildOneSubcommandAsEveryOneIsBuiltWithAllOfThem() {
        // The command line of "rocelab NAME ..." holds NAME alone: the name must be the command's own, and its
        // help (options, usage line with the root's name) the same as beside all the others.
        picocli.CommandLine all = RocelabCommand.commandLine();
        assertThat(all.getSubcommands().keySet()).containsExactlyElementsOf(RocelabCommand.COMMANDS.keySet());
        for (String name : RocelabCommand.COMMANDS.keySet()) {
            picocli.CommandLine one = RocelabCommand.commandLine(name, "--help");
            if (name.equals("help")) {
                assertThat(one.getSubcommands()).as("help lists every command").hasSize(RocelabCommand.COMMANDS.size());
                continue;
            }
            assertThat(one.getSubcommands().keySet()).containsExactly(name);
            assertThat(one.getSubcommands().get(name).getUsageMessage())
                    .isEqualTo(all.getSubcommands().get(name).getUsageMessage());
        }
        assertThat(RocelabCommand.commandLine("--version").getSubcommands()).hasSize(RocelabCommand.COMMANDS.size());
        assertThat(RocelabCommand.commandLine("rnu").getSubcommands()).hasSize(RocelabCommand.COMMANDS.size());
    }

    @Test
    void shouldPrintRunUsageAndExitZeroWhenRunHelpIsAsked() {
        CliRun run = CliRun.of("run", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: rocelab run", "--out", "--seed", "SCENARIO");
    }

    @Test
    void shouldEndEveryHelpLineOfEveryCommandAtTheEndOfASentence() {
        // picocli prints each element of a description array on a line of its own: one that stops mid-sentence
        // breaks the help text in the middle of a sentence.
        List<picocli.CommandLine> commands = new ArrayList<>();
        picocli.CommandLine root = RocelabCommand.commandLine();
        commands.add(root);
        commands.addAll(root.getSubcommands().values());
        for (picocli.CommandLine c : commands) {
            var spec = c.getCommandSpec();
            List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
            spec.options().forEach(o -> texts.addAll(List.of(o.description())));
            spec.positionalParameters().forEach(p -> texts.addAll(List.of(p.description())));
            for (String t : texts) {
                assertThat(t.strip().replaceAll("%n$", "")).as("help of %s", spec.qualifiedName())
                        .matches("(?s).*[.:!?)]");
            }
        }
    }

    @Test
    void shouldSuggestTheCommandWhenItIsMistyped() {
        CliRun run = CliRun.of("rnu");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.err()).contains("did you mean: run?");
        assertThat(CliRun.of("run", "--sede", "3").err()).contains("did you mean: --seed?");
    }

    @Test
    void shouldPrintTheVersionWhenVersionIsAsked() {
        CliRun run = CliRun.of("--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out().strip().lines()).containsExactly("rocelab 0.1.0", "Java " + Runtime.version() + " ("
                + System.getProperty("java.vm.vendor") + ") in " + System.getProperty("java.home"));
    }

    @Test
    void shouldExitWithBadInputWhenOptionIsUnknown() {
        CliRun run = CliRun.of("--no-such-option");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("--no-such-option");
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void shouldExitWithBadInputAndCreateNothingWhenRunOptionIsUnknown() {
        Path out = dir.resolve("out");

        CliRun run = CliRun.of("run", "--out", out.toString(), "--colour", "blue");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("--colour");
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }

    @Test
    void shouldExitWithBadInputWhenSeedIsNotANumber() {
        Path out = dir.resolve("out");

        CliRun run = CliRun.of("run", "--out", out.toString(), "--seed", "five");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("--seed", "five");
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }

    @Test
    void shouldExitWithBadInputWhenCommandIsUnknown() {
        CliRun run = CliRun.of("simulate");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("simulate");
    }

    @Test
    void shouldRunABuiltInExampleWhenAskedByName(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("run", "--example", "pfc-deadlock-ring", "--out", dir.resolve("ex").toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("scenario pfc-ring-deadlock", "DEADLOCK");
        assertThat(dir.resolve("ex").resolve("pfc.csv")).isRegularFile();
        // The manifest names the example (it said "(built-in demo)"), and the report says the senders have no
        // congestion control rather than that it made 0 rate cuts.
        assertThat(Files.readString(dir.resolve("ex").resolve("manifest.json")))
                .contains("\"scenario_file\": \"(built-in example pfc-deadlock-ring)\"",
                        "\"congestion_control\": \"none\"");
        assertThat(Files.readString(dir.resolve("ex").resolve("report.html")))
                .contains("the senders have no congestion control (nic.cc: none)").doesNotContain("made 0 rate cuts");
    }

    @Test
    void shouldRefuseAnUnknownExampleWithTheListOfNames(@TempDir Path dir) {
        CliRun run = CliRun.of("run", "--example", "nope", "--out", dir.resolve("ex").toString());
        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString()
                .startsWith("error: --example 'nope' is not a built-in example; expected one of: ")
                .contains("lossless-pfc-only", "pfc-deadlock-ring");
        assertThat(dir.resolve("ex")).doesNotExist();
    }

    @Test
    void shouldExplainHeadroomWhenAskedForALink() {
        CliRun run = CliRun.of("headroom", "--speed", "100Gbps", "--cable", "100m", "--mtu", "4096");
        assertThat(run.exitCode()).isZero();
        // 4174 B frames (4194 B of link time): 12,627 B of cable, 394 quanta x 64 B = 25,216 B of response; the link
        // time until the peer stops (4194 + 84 + 12,627 + 25,216 = 42,121 B) holds 41,921 B of frames, plus the frame
        // that crossed XOFF and the peer's last frame.
        assertThat(run.out()).contains("12,627 B", "25,216 B", "41,921 B", "50,269 B", "335.5 us");
        // 2 us of forwarding latency into the switch, and into the peer switch too with --peer switch.
        assertThat(CliRun.of("headroom", "--speed", "100Gbps", "--cable", "100m", "--mtu", "4096",
                "--forwarding-latency", "2us").out()).contains("37,627 B", "75,149 B");
        assertThat(CliRun.of("headroom", "--speed", "100Gbps", "--cable", "100m", "--mtu", "4096",
                "--forwarding-latency", "2us", "--peer", "switch").out()).contains("62,627 B", "100,030 B");
        assertThat(CliRun.of("headroom", "--speed", "100Gbps", "--peer", "router").exitCode())
                .isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(CliRun.of("headroom", "--speed", "fast").exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
    }

    /**
     * With no cable given, the calculator assumes what a scenario link assumes (1 us one way, 198 m) and says so, so
     * its figure is what {@code headroom: auto} reserves on a default link: an audit sized 400G uplinks with the
     * calculator's former 5 m default (72,764 B) where the scenario's links needed 169,773 B. {@code --delay} takes
     * a scenario's link delay as it is written there.
     */
    @Test
    void shouldAssumeAScenarioLinksDefaultDelayAndSaySo() throws Exception {
        CliRun assumed = CliRun.of("headroom", "--speed", "400Gbps");
        assertThat(assumed.exitCode()).isZero();
        assertThat(assumed.out()).contains("400 Gb/s, 1us link delay (198 m of cable)", "the link: 1us one way, the"
                + " default (a scenario link's default delay, so this is what headroom: auto reserves there); a 5 m"
                + " DAC needs less: give --cable or --delay for your link");
        for (String[] link : List.of(new String[] {"1us", "1us"}, new String[] {"500ns", "500ns"},
                new String[] {"2.5us", "2500ns"})) {
            var config = new ScenarioReader().read("name: t\nfabric: {mode: roce-lossless}\n"
                    + "topology: {kind: single-switch, hosts: 2, link: {rate: 400Gbps" + (link[0].equals("1us") ? ""
                            : ", delay: " + link[0]) + "}}\ntraffic: [{kind: flow, src: 0, dst: 1, size: 1MB}]\n",
                    "t.yaml", Path.of("."));
            long auto = config.devices().switchAt(0).headroom(0);
            String total = String.format(Locale.ROOT, "total %,d B", auto).replace("total ", "");
            CliRun given = CliRun.of("headroom", "--speed", "400Gbps", "--delay", link[1]);
            assertThat(given.exitCode()).as(given.err()).isZero();
            assertThat(totalLine(given.out())).as("--delay %s against headroom: auto", link[1]).contains(total);
            assertThat(given.out()).doesNotContain("the default");
            if (link[0].equals("1us")) {
                assertThat(totalLine(assumed.out())).contains(total);
                assertThat(totalLine(CliRun.of("headroom", "--speed", "400Gbps", "--cable", "198m").out()))
                        .contains(total);
            }
        }
        CliRun both = CliRun.of("headroom", "--speed", "400Gbps", "--cable", "5m", "--delay", "1us");
        assertThat(both.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(both.err()).contains("error: --cable and --delay both give the link's length");
        CliRun bare = CliRun.of("headroom", "--speed", "400Gbps", "--delay", "3");
        assertThat(bare.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(bare.err()).startsWith("error: --delay '3' has no unit");
        assertThat(CliRun.of("headroom", "--speed", "400Gbps", "--delay", "1ms").exitCode())
                .isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
    }

    private static String totalLine(String out) {
        return out.lines().filter(l -> l.strip().startsWith("total ")).findFirst().orElseThrow();
    }

    @Test
    void shouldRefuseASpeedBelowThePauseResponseTableUnlessTheResponseIsGiven() {
        // Annex 31B's table here starts at 10 Gb/s: its 67 quanta are not the standard's value at 1 Gb/s.
        for (String speed : new String[] {"1Gbps", "100Mbps"}) {
            CliRun slow = CliRun.of("headroom", "--speed", speed);
            assertThat(slow.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
            assertThat(slow.errorLines()).containsExactly("error: --speed " + speed + " is below 10 Gb/s, the"
                    + " slowest speed whose IEEE 802.3 Annex 31B pause response rocelab has; expected at least"
                    + " 10Gbps, or the peer's response time given as --response TIME");
            assertThat(slow.out()).isEmpty();
        }
        CliRun given = CliRun.of("headroom", "--speed", "100Mbps", "--response", "10us");
        assertThat(given.exitCode()).as(given.err()).isZero();
        assertThat(given.out()).contains("port: 0.1 Gb/s, 1us link delay (198 m of cable)", "(10.000 us x 0.1 Gb/s / 8)")
                .doesNotContain("Annex 31B", " 0 Gb/s");
        assertThat(CliRun.of("headroom", "--speed", "10Gbps").out())
                .contains("67 quanta x 512 bit, IEEE 802.3 Annex 31B)");
    }

    @Test
    void shouldNotCiteTheStandardForAPauseResponseItGivesOnlyAt400G() {
        // Annex 31B gives 905 quanta at 400 Gb/s; SONiC's table reuses it at 800 Gb/s, and nothing gives one above:
        // an audit read "905 quanta x 512 bit, IEEE 802.3 Annex 31B" at 1.6 Tb/s.
        assertThat(CliRun.of("headroom", "--speed", "400Gbps").out())
                .contains("905 quanta x 512 bit, IEEE 802.3 Annex 31B)");
        assertThat(CliRun.of("headroom", "--speed", "800Gbps").out()).contains("905 quanta x 512 bit, IEEE 802.3"
                + " Annex 31B's value at 400 Gb/s, which SONiC's headroom table reuses at 800 Gb/s)");
        // Between the table's speeds a neighbour's value is taken, and named as its (an audit read "453 quanta x 512
        // bit, IEEE 802.3 Annex 31B" at 150 Gb/s, a speed the standard gives no value for).
        assertThat(CliRun.of("headroom", "--speed", "150Gbps").out()).contains("453 quanta x 512 bit, IEEE 802.3"
                + " Annex 31B's value at 200 Gb/s (it gives none at 150 Gb/s))");
        assertThat(CliRun.of("headroom", "--speed", "100.5Gbps").out()).contains("394 quanta x 512 bit, IEEE 802.3"
                + " Annex 31B's value at 100 Gb/s (it gives none at 100.5 Gb/s))");
        assertThat(CliRun.of("headroom", "--speed", "200Gbps").out()).contains("453 quanta x 512 bit, IEEE 802.3"
                + " Annex 31B)");
        assertThat(CliRun.of("headroom", "--speed", "1.6Tbps").out()).contains("905 quanta x 512 bit, extrapolated:"
                + " IEEE 802.3 Annex 31B's value at 400 Gb/s, which SONiC reuses at 800 Gb/s; neither gives one above"
                + " 800 Gb/s)");
    }

    @Test
    void shouldWriteACaptureWhenAskedAndRefuseAnUnknownLink(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("demo.pcap");
        CliRun run = CliRun.of("run", "--out", dir.resolve("o").toString(), "--pcap", pcap.toString(), "--pcap-links",
                "h0-leaf0", "--pcap-max", "500");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("capture   " + pcap + " (500 frames, budget reached)");
        byte[] bytes = Files.readAllBytes(pcap);
        assertThat(bytes).startsWith((byte) 0x4D, (byte) 0x3C, (byte) 0xB2, (byte) 0xA1);
        CliRun bad = CliRun.of("run", "--out", dir.resolve("o2").toString(), "--pcap", dir.resolve("x.pcap")
                .toString(), "--pcap-links", "h0-spine9");
        assertThat(bad.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(bad.errorLines()).singleElement().asString()
                .startsWith("error: --pcap-links 'h0-spine9' is not a link of the topology");
        assertThat(dir.resolve("o2")).doesNotExist();
    }

    @Test
    void shouldTellAJourneyAndRefuseAFlowThatDoesNotExist(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("j.json");
        CliRun run = CliRun.of("journey", "--flow", "0", "--json", json.toString(), "--max-lines", "15");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("journey of flow 0", "hop by hop", "what happened to the flow");
        assertThat(Files.readString(json)).contains("\"kind\": \"send\"", "\"kind\": \"mark\"");
        CliRun bad = CliRun.of("journey", "--flow", "99");
        assertThat(bad.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(bad.errorLines()).singleElement().asString().startsWith("error: --flow 99 does not exist");
    }

    /**
     * A flow cut off by a deadlock says so in its journey's header, with the cycle the summary's DEADLOCK line names,
     * and the JSON carries the run's stop reason; a completed flow's JSON says the run completed.
     */
    @Test
    void shouldTellThatADeadlockEndedAnUnfinishedFlowsJourney(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("j.json");
        CliRun run = CliRun.of("journey", "--example", "pfc-deadlock-ring", "--flow", "0", "--json", json.toString(),
                "--max-lines", "1");
        assertThat(run.exitCode()).isZero();
        CliRun summary = CliRun.of("run", "--example", "pfc-deadlock-ring", "--out", dir.resolve("ring").toString());
        String cycle = summary.out().lines().filter(l -> l.contains("(back to the first)")).findFirst().orElseThrow()
                .strip();
        String since = summary.out().lines().filter(l -> l.startsWith("DEADLOCK")).findFirst().orElseThrow()
                .replaceAll(".*at or before ([0-9.]+) us.*", "$1");
        assertThat(run.out()).contains("did not complete: the run ended at ", " on a deadlock (data stopped moving at"
                + " or before " + since + " us, the checks running 1 ms apart, and moved no more), paused queues waiting"
                + " on each other in a cycle: " + cycle).doesNotContain("did not complete before the run ended");
        assertThat(Files.readString(json)).contains("\"run_stop_reason\": \"deadlock\"", "\"fct_us\": null");
        Path demo = dir.resolve("demo.json");
        assertThat(CliRun.of("journey", "--flow", "0", "--json", demo.toString(), "--max-lines", "1").exitCode())
                .isZero();
        assertThat(Files.readString(demo)).contains("\"run_stop_reason\": \"completed\"");
    }

    /**
     * The journey's JSON carries what the QP reported about its recoveries (the MTU example: every packet is dropped,
     * its local ACK timeout fires until the retries are spent) and which recovery each re-sent packet belongs to, and
     * why each PFC frame was sent.
     */
    @Test
    void shouldWriteTheRecoveriesAndThePauseReasonsInTheJourneysJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("j.json");
        CliRun run = CliRun.of("journey", "--example", "lint-l11-mtu", "--flow", "0", "--json", json.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("local ACK timeout (1048.576 us) fired: no new ACK since 0.000 us; it goes back"
                + " to PSN 0 (go-back-N, retry 1 of 3) and re-sends PSNs 0-62 (63 packets)", "its 3 retries are spent");
        String text = Files.readString(json);
        assertThat(text).contains("\"kind\": \"recovery\"", "\"after\": \"local_ack_timeout\"", "\"retry\": 3",
                "\"qp_failed\": true", "\"recovery\": 4");
        Path demo = dir.resolve("demo.json");
        assertThat(CliRun.of("journey", "--flow", "5", "--json", demo.toString(), "--max-lines", "1").exitCode())
                .isZero();
        assertThat(Files.readString(demo)).contains("\"reason\": \"threshold\"",
                "\"reason\": \"resume\"");
    }

    @Test
    void shouldWriteASelfContainedReportAndRebuildIt(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("pfc");
        assertThat(CliRun.of("run", "--example", "lossless-pfc-only", "--out", out.toString(), "-q").exitCode())
                .isZero();
        Path report = out.resolve("report.html");
        String html = Files.readString(report);
        assertThat(html).contains("rocelab report: lossless-pfc-only", "Hottest egress queues", "PFC pauses",
                "Flow completion", "Hottest ports", "h9 paused by leaf1 p1 prio 3");
        assertThat(html.split("data-drawn=", -1).length - 1).as("charts").isGreaterThanOrEqualTo(4);
        // Self-contained: uPlot is inlined, nothing is fetched.
        assertThat(html).contains("<script>", "uPlot").doesNotContain("src=", "href=", "<link");
        assertThat(out.resolve("charts").resolve("pfc-pauses.svg")).isRegularFile();
        assertThat(out.resolve("charts").resolve("pfc-pauses.png")).isRegularFile();
        assertThat(out.resolve("charts").resolve("fabric.svg")).isRegularFile();
        assertThat(html).contains("<h2>Fabric</h2>", "so there is no rates chart: the senders have no congestion"
                + " control (nic.cc: none) and always send at line rate")
                .doesNotContain("id='c-rates'");
        assertThat(Files.readString(out.resolve("charts").resolve("queues.svg"))).startsWith("<?xml")
                .contains("<svg");
        Files.delete(report);
        CliRun rebuild = CliRun.of("report", out.toString());
        assertThat(rebuild.exitCode()).isZero();
        assertThat(Files.readString(report)).isEqualTo(html);
        CliRun bad = CliRun.of("report", dir.toString());
        assertThat(bad.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(bad.errorLines()).singleElement().asString().contains("is not a run's output folder");
    }

    /**
     * Where a switches entry sets a port's own ECN thresholds, the queue chart's dashed lines are that port's own (an
     * audit's leaf0 port to h0 marked from 100 KB under lines labelled as its own at 400 KB; then the lines were the
     * switch-wide ones labelled so, and manifest.json now lists each port that differs).
     */
    @Test
    void shouldDrawTheHottestPortsOwnEcnThresholds(@TempDir Path dir) throws Exception {
        String base = """
                name: ecn-ports
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB, ecn: {marking: red, kmin: 400KB, kmax: 1600KB, pmax: 0.2}, pfc: {watchdog: {}}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: incast, senders: 1-7, receiver: 0, size: 1MB}
                """;
        Path own = dir.resolve("own.yaml");
        Files.writeString(own, base + "switches: [{name: leaf0, ports: [{to: h0, ecn: {kmin: 100KB, kmax: 300KB}}]}]\n");
        Path wide = dir.resolve("wide.yaml");
        Files.writeString(wide, base);
        assertThat(CliRun.of("run", own.toString(), "--out", dir.resolve("own").toString(), "-q").exitCode()).isZero();
        assertThat(CliRun.of("run", wide.toString(), "--out", dir.resolve("wide").toString(), "-q").exitCode()).isZero();
        String manifest = Files.readString(dir.resolve("own").resolve("manifest.json"));
        assertThat(manifest).contains("\"ecn_differs_by_port\": true").contains("\"ecn_ports\"")
                .contains("\"device\": \"leaf0\"").contains("\"kmin_bytes\": 100000");
        // The hottest queue is leaf0's port to h0, class 3: its own thresholds.
        assertThat(Files.readString(dir.resolve("own").resolve("report.html")))
                .contains("\"ECN Kmin 100 kB\"", "\"ECN Kmax 300 kB\"", "its port&#39;s own ECN settings")
                .doesNotContain("ECN Kmin 400 kB");
        assertThat(Files.readString(dir.resolve("wide").resolve("manifest.json"))).doesNotContain("ecn_differs_by_port")
                .contains("\"ecn_classes\": [");
        assertThat(Files.readString(dir.resolve("wide").resolve("report.html"))).contains("\"ECN Kmin 400 kB\"")
                .contains("the switch-wide ECN settings");
    }

    /**
     * A queue of a class that does not mark gets no ECN lines: a bulk class's 9 MB queue had the RoCE class's Kmin and
     * Kmax drawn across it as "the hottest queue's port thresholds". The lines are the hottest marking queue's, named.
     */
    @Test
    void shouldDrawEcnLinesOnlyForAClassThatMarks(@TempDir Path dir) throws Exception {
        Path scenario = Files.writeString(dir.resolve("two-class.yaml"), """
                name: two-class
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 16MB, ecn: {marking: red, kmin: 100KB, kmax: 400KB, pmax: 0.2}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: incast, senders: 1-3, receiver: 0, size: 4MB, dscp: 10}
                  - {kind: incast, senders: 4-5, receiver: 0, size: 1MB}
                """);
        Path out = dir.resolve("out");
        assertThat(CliRun.of("run", scenario.toString(), "--out", out.toString(), "-q").exitCode()).isZero();
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("\"ECN Kmin 100 kB (switch0 p0 tc3)\"", "\"ECN Kmax 400 kB (switch0 p0 tc3)\"")
                .contains("the hottest of these queues whose class marks").contains("the queue above it does not mark")
                .doesNotContain("\"ECN Kmin 100 kB\"");
        Path bulkOnly = Files.writeString(dir.resolve("bulk.yaml"), Files.readString(scenario)
                .replace("  - {kind: incast, senders: 4-5, receiver: 0, size: 1MB}\n", ""));
        Path out2 = dir.resolve("bulk");
        assertThat(CliRun.of("run", bulkOnly.toString(), "--out", out2.toString(), "-q").exitCode()).isZero();
        assertThat(Files.readString(out2.resolve("report.html"))).doesNotContain("ECN Kmin")
                .contains("no ECN lines: none of these queues&#39; traffic classes marks");
    }

    /**
     * An InfiniBand run's report rebuilt from its folder is the page the run wrote: its manifest had no sample
     * interval, and the rebuild guessed 8.24 us from the run's end (credit stalls of 2492 %, an audit).
     */
    @Test
    void shouldRebuildAnInfinibandRunsReportAsTheRunWroteIt(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("ib");
        assertThat(CliRun.of("run", "--example", "infiniband-incast", "--out", out.toString(), "-q").exitCode())
                .isZero();
        assertThat(Files.readString(out.resolve("manifest.json"))).contains("\"sample_interval_us\": 10");
        Path report = out.resolve("report.html");
        String html = Files.readString(report);
        Files.delete(report);
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(report)).isEqualTo(html);
        // The lanes' FECN threshold (the example's fabric.infiniband.fecn, 32 KiB) is drawn on the queue chart.
        assertThat(Files.readString(out.resolve("manifest.json"))).contains("\"fecn_threshold_bytes\": 32768");
        assertThat(html).contains("\"FECN threshold 32.77 kB\"", "dashed: the FECN threshold");
    }

    /**
     * The fabric drawing gives every link's rate and delay in its tooltip and dashes a link slower than the fastest
     * between the same two tiers (a {@code links:} override: an audit's 25 Gb/s leaf-spine link looked like the
     * rest), in the report from memory and in the one rebuilt from topology.csv alike; a uniform fabric has none.
     */
    @Test
    void shouldDrawALinkSlowerThanItsTierDashedWithItsRate(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("slow.yaml");
        Files.writeString(scenario, """
                name: slow-uplink
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                links:
                  - {a: leaf1, b: spine0, rate: 25Gbps}
                traffic:
                  - {kind: flow, src: 0, dst: 3, size: 100KB}
                """);
        Path out = dir.resolve("out");
        assertThat(CliRun.of("run", scenario.toString(), "--out", out.toString(), "-q").exitCode()).isZero();
        String svg = Files.readString(out.resolve("charts").resolve("fabric.svg"));
        assertThat(svg.split("stroke-dasharray", -1).length - 1).isEqualTo(1);
        assertThat(svg).contains("stroke-dasharray='6 3'><title>leaf1 - spine0: 25 Gb/s, 1 us</title>",
                "<title>h0 - leaf0: 100 Gb/s, 1 us</title>");
        Path report = out.resolve("report.html");
        String html = Files.readString(report);
        assertThat(html).contains("dashed: a link slower than the fastest between the same two tiers");
        Files.delete(report);
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(report)).isEqualTo(html);
        Path plain = dir.resolve("plain");
        Files.writeString(scenario, Files.readString(scenario).replace("  - {a: leaf1, b: spine0, rate: 25Gbps}\n", "")
                .replace("links:\n", ""));
        assertThat(CliRun.of("run", scenario.toString(), "--out", plain.toString(), "-q").exitCode()).isZero();
        assertThat(Files.readString(plain.resolve("charts").resolve("fabric.svg"))).doesNotContain("dasharray");
        assertThat(Files.readString(plain.resolve("report.html"))).doesNotContain("dashed: a link slower");
    }

    /**
     * A hierarchical AllReduce whose busbw has a third decimal of 5 (181.7947 GB/s: 181.795 in collectives.csv): the
     * report from memory showed 181.80 and the one rebuilt from the folder 181.79. Both now take the bus factor from
     * the file's two figures.
     */
    @Test
    void shouldRebuildTheSameCollectivesTableFromTheFolder(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("rail.yaml");
        Files.writeString(scenario, """
                name: rail-collectives
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: rail-optimized, servers: 2, gpus-per-server: 4, spines: 1, link: {rate: 400Gbps, delay: 500ns}}
                switch: {pfc: {watchdog: {}}}
                nic: {cc: none}
                nvlink: {rate: 3600Gbps, latency: 1us}
                traffic:
                  - {kind: allreduce, ranks: 0-7, size: 8MiB, algorithm: hierarchical}
                """);
        Path out = dir.resolve("out");
        assertThat(CliRun.of("run", scenario.toString(), "--out", out.toString(), "-q").exitCode()).isZero();
        Path report = out.resolve("report.html");
        String html = Files.readString(report);
        assertThat(Files.readString(out.resolve("collectives.csv"))).contains(",181.795,");
        Files.delete(report);
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(report)).isEqualTo(html);
    }

    /**
     * From memory the report keeps only the rate series it draws (found in a pass over the rows); from the folder it
     * reads every row of rates.csv: the pages are the same.
     */
    @Test
    void shouldDrawTheSameRatesFromMemoryAsFromTheFolder(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("dcqcn");
        assertThat(CliRun.of("run", "--example", "lossless-dcqcn", "--out", out.toString(), "-q").exitCode())
                .isZero();
        Path report = out.resolve("report.html");
        String html = Files.readString(report);
        long series = Files.readAllLines(out.resolve("rates.csv")).stream().skip(1)
                .map(l -> l.split(",")[1]).distinct().count();
        assertThat(series).as("more QPs than the six the chart draws").isGreaterThan(6);
        assertThat(html).contains("id='c-rates'", "QPs whose rate changed most often, of " + series);
        Files.delete(report);
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(report)).isEqualTo(html);
    }

    @Test
    void shouldListTheLintFindingsAmongTheReportsFindings(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("mtu");
        CliRun run = CliRun.of("run", "--example", "lint-l11-mtu", "--out", out.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(Files.readString(out.resolve("manifest.json"))).contains("\"rule\": \"L11\"");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<li class='err'><b>rocelab lint: ", "<b>error L11</b> MTU too small or mismatched");
        Files.delete(out.resolve("report.html"));
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(out.resolve("report.html"))).isEqualTo(html);
    }

    @Test
    void shouldCarryEachLintFindingWholeIntoTheManifestAndTheReport(@TempDir Path dir) throws Exception {
        // The lossy incast's L5 warning is one finding on six switches (it was six findings, one a switch, that
        // differed only in the switch): the console names each switch, and so must the manifest and the report, not
        // the rule's title alone.
        Path out = dir.resolve("lossy");
        CliRun run = CliRun.of("run", "--example", "lossy-incast", "--out", out.toString());
        assertThat(run.exitCode()).as("stderr: %s", run.err()).isZero();
        String what = "each of leaf1, spine0, leaf0, spine1, leaf2 and leaf3 reaches full marking (Kmax 1,600,000 B)"
                + " on lossy class 3 only beyond the 1,000,000 B its shared buffer can hold";
        assertThat(run.err()).contains("warning L5: " + what);
        var lint = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.resolve("manifest.json").toFile())
                .get("lint");
        assertThat(lint.size()).isEqualTo(1);
        var first = lint.get(0);
        assertThat(first.get("rule").asText()).isEqualTo("L5");
        assertThat(first.get("severity").asText()).isEqualTo("warning");
        assertThat(first.get("title").asText())
                .isEqualTo("ECN threshold at or above the PFC XOFF point, or above what a lossy queue can hold");
        assertThat(first.get("what").asText()).isEqualTo(what);
        assertThat(first.get("ports").size()).isPositive();
        assertThat(first.get("symptom").asText()).isNotEmpty();
        assertThat(first.get("fix").asText()).isNotEmpty();
        Set<String> switches = new TreeSet<>();
        first.get("devices").forEach(d -> switches.add(d.asText()));
        assertThat(switches).containsExactly("leaf0", "leaf1", "leaf2", "leaf3", "spine0", "spine1");
        String html = Files.readString(out.resolve("report.html"));
        String findings = html.substring(html.indexOf("<ul class='findings'>"));
        findings = findings.substring(0, findings.indexOf("</ul></li>") + 10);
        assertThat(findings).contains("<li><b>warning L5</b> ECN threshold at or above the PFC XOFF point, or above"
                + " what a lossy queue can hold: " + what);
        assertThat(findings).contains("; where: leaf1 port ", "; fix: ");
        Files.delete(out.resolve("report.html"));
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(out.resolve("report.html"))).isEqualTo(html);
    }

    @Test
    void shouldSayTheRunHadNoDeadlockPausesOrVictimsWhenTheLintFoundSomething(@TempDir Path dir) throws Exception {
        // Lossy: no PFC, so no pause, no deadlock, no PFC victim. With the lint's warning among the findings
        // (without -q) the report says so as it does without them (-q): the lint's findings are about the scenario.
        String none = "<li>no PFC on a lossy fabric: no pauses, so no pause propagation, deadlock or PFC victims;";
        for (boolean quiet : new boolean[] {true, false}) {
            Path out = dir.resolve(quiet ? "quiet" : "loud");
            CliRun run = quiet ? CliRun.of("run", "--example", "lossy-incast", "--out", out.toString(), "-q")
                    : CliRun.of("run", "--example", "lossy-incast", "--out", out.toString());
            assertThat(run.exitCode()).as("stderr: %s", run.err()).isZero();
            String html = Files.readString(out.resolve("report.html"));
            assertThat(html).as(quiet ? "-q" : "with the lint").contains(none);
            assertThat(html.contains("<b>rocelab lint: 1 finding</b>")).isEqualTo(!quiet);
        }
    }

    @Test
    void shouldNameTheThirteenthDeviceOfALintFindingRatherThanCountIt(@TempDir Path dir) throws Exception {
        // Thirteen lossless switches without a PFC watchdog (L12): rocelab lint's devices line, and the report's
        // finding, named twelve and said "and 1 more"; they name all thirteen.
        Path scenario = dir.resolve("thirteen.yaml");
        Files.writeString(scenario, """
                name: thirteen
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 9, spines: 4, hosts-per-leaf: 1, link: {rate: 100Gbps, delay: 1us}}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: all-to-all, size: 16KB}
                """);
        String all = "leaf0, spine0, leaf1, spine1, spine2, spine3, leaf2, leaf3, leaf4, leaf5, leaf6, leaf7, leaf8";
        CliRun lint = CliRun.of("lint", scenario.toString());
        assertThat(lint.out()).contains("WARNING L12").contains("  devices: " + all + "\n").doesNotContain("1 more");
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("run", scenario.toString(), "--out", out.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("; where: " + all + "; fix: ").doesNotContain("1 more");
    }

    @Test
    void shouldListTheTwentyFirstLintFindingRatherThanCountIt(@TempDir Path dir) throws Exception {
        // ECN above the XOFF point on each of 21 switches, each with its own Kmin: 21 findings (L5, one a switch).
        // rocelab run's lint block and the report's findings listed twenty and said "and 1 more"; they list all 21.
        StringBuilder kmins = new StringBuilder("switches:\n");
        for (int i = 0; i < 21; i++) {
            kmins.append(String.format(Locale.ROOT, "  - {name: %s%d, ecn: {kmin: %dKB}}%n", i < 17 ? "leaf" : "spine",
                    i < 17 ? i : i - 17, 1500 + i));
        }
        Path scenario = dir.resolve("many.yaml");
        Files.writeString(scenario, kmins + """
                name: many-findings
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 17, spines: 4, hosts-per-leaf: 1, link: {rate: 100Gbps, delay: 1us}}
                switch:
                  buffer: 2MB
                  ecn: {marking: red, kmin: 1500KB, kmax: 1900KB, pmax: 0.2}
                  pfc: {watchdog: {}}
                nic: {cc: dcqcn}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: all-to-all, size: 4KB}
                """);
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("run", scenario.toString(), "--out", out.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).startsWith("lint: 21 errors, 0 warnings, 0 info - running anyway")
                .doesNotContain("more (rocelab lint lists them all)");
        assertThat(run.err().lines().filter(l -> l.startsWith("  error L5: ")).count()).isEqualTo(21);
        String html = Files.readString(out.resolve("report.html"));
        String lint = html.substring(html.indexOf("<b>rocelab lint: 21 findings</b>"));
        lint = lint.substring(0, lint.indexOf("</ul>"));
        assertThat(lint.split("<li><b>error L5</b>", -1).length - 1).isEqualTo(21);
        assertThat(lint).doesNotContain("more (manifest.json lint has them all)");
    }

    @Test
    void shouldRefuseToRebuildAReportFromAMalformedFile(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("demo");
        assertThat(CliRun.of("run", "--out", out.toString(), "-q").exitCode()).isZero();
        String before = Files.readString(out.resolve("report.html"));
        Files.writeString(out.resolve("flows.csv"), Files.readString(out.resolve("flows.csv"))
                .replaceFirst("\n0,", "\nzero,"));
        CliRun bad = CliRun.of("report", out.toString());
        assertThat(bad.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(bad.errorLines()).singleElement().asString()
                .isEqualTo("error: " + out.resolve("flows.csv") + ":2:1: expected an integer in column flow_id, found 'zero'");
        assertThat(bad.err()).doesNotContain("Exception");
        assertThat(Files.readString(out.resolve("report.html"))).isEqualTo(before);
    }

    @Test
    void shouldCaptureOnlyTheChosenFlowWhenAsked(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("flow3.pcap");
        CliRun run = CliRun.of("run", "--out", dir.resolve("o").toString(), "--pcap", pcap.toString(),
                "--pcap-flow", "3", "-q");
        assertThat(run.exitCode()).isZero();
        byte[] bytes = Files.readAllBytes(pcap);
        // Every captured RoCE frame carries QP 0x100 + 3 in its BTH (untagged: BTH at 42, QPN at 47..49).
        int frames = 0;
        for (int at = 24; at < bytes.length; ) {
            int len = (bytes[at + 8] & 0xff) | (bytes[at + 9] & 0xff) << 8 | (bytes[at + 10] & 0xff) << 16;
            int f = at + 16;
            boolean pfc = (bytes[f + 12] & 0xff) == 0x88 && (bytes[f + 13] & 0xff) == 0x08;
            if (!pfc) {
                int qpn = (bytes[f + 47] & 0xff) << 16 | (bytes[f + 48] & 0xff) << 8 | (bytes[f + 49] & 0xff);
                assertThat(qpn).isEqualTo(0x103);
            }
            frames++;
            at = f + len;
        }
        assertThat(frames).isPositive();
        assertThat(CliRun.of("run", "--out", dir.resolve("o2").toString(), "--pcap", dir.resolve("x.pcap").toString(),
                "--pcap-flow", "999").exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
    }

    @Test
    void shouldLeaveNoFileOfAnEarlierRunWhenRunningIntoTheSameFolder(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("same");
        assertThat(CliRun.of("run", "--example", "lossless-pfc-only", "--out", out.toString(), "-q").exitCode())
                .isZero();
        assertThat(out.resolve("pfc.csv")).isRegularFile();
        assertThat(CliRun.of("run", "--example", "lossy-incast", "--out", out.toString(), "-q").exitCode()).isZero();
        assertThat(out.resolve("pfc.csv")).doesNotExist();
        assertThat(out.resolve("pfc_counters.csv")).doesNotExist();
        assertThat(out.resolve("charts").resolve("pfc-pauses.svg")).doesNotExist();
        assertThat(out.resolve("charts").resolve("pfc-pauses.png")).doesNotExist();
        assertThat(Files.readString(out.resolve("report.html"))).doesNotContain("PFC pauses per device");
    }

    @Test
    void shouldWriteCollectivesCsvAndReportTableOnlyForRunsWithCollectives(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("same");
        assertThat(CliRun.of("run", "--example", "ring-allreduce", "--out", out.toString(), "-q").exitCode()).isZero();
        List<String> lines = Files.readAllLines(out.resolve("collectives.csv"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("job,name,iteration,algorithm,ranks,size_bytes,");
        assertThat(lines.get(1)).startsWith(",traffic item 1,,allreduce ring,8,64000000,").endsWith(",completed");
        assertThat(Files.readString(out.resolve("report.html"))).contains("<h2>Collectives, slowest against the ideal first</h2>");
        assertThat(CliRun.of("run", "--example", "lossy-incast", "--out", out.toString(), "-q").exitCode()).isZero();
        assertThat(out.resolve("collectives.csv")).doesNotExist();
        assertThat(Files.readString(out.resolve("report.html"))).doesNotContain("<h2>Collectives");
    }

    @Test
    void shouldWriteRequestLatenciesForTheAgenticInferenceExample(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("inf");
        CliRun run = CliRun.of("run", "--example", "agentic-inference", "--out", out.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("inference   agent: ").contains("TTFT (ms) p50");
        List<String> requests = Files.readAllLines(out.resolve("requests.csv"));
        assertThat(requests.get(0)).isEqualTo("service,request,arrival_us,llm_calls,prefill_tokens,output_tokens,"
                + "decode_instance,ttft_us,tpot_us,e2e_us,ideal_e2e_us,network_wait_us,beside_items,beside_longest,"
                + "beside_longest_us,status");
        assertThat(requests.size()).isGreaterThan(2);
        assertThat(requests.subList(1, requests.size())).allSatisfy(l -> assertThat(l).endsWith(",completed"));
        // Two LLM calls per request, each with its KV cache moved: 1024 then 256 tokens of 128 KiB.
        List<String> calls = Files.readAllLines(out.resolve("llm_calls.csv"));
        assertThat(calls).hasSize(2 * (requests.size() - 1) + 1);
        assertThat(calls.get(1)).contains(",1024,24,134217728,");
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"inference\"")
                .contains("\"ttft_us\"");
        assertThat(Files.readString(out.resolve("report.html"))).contains("<h2>Inference requests</h2>");
        assertThat(CliRun.of("run", "--example", "lossy-incast", "--out", out.toString(), "-q").exitCode()).isZero();
        assertThat(out.resolve("requests.csv")).doesNotExist();
        assertThat(out.resolve("llm_calls.csv")).doesNotExist();
    }

    /** A service whose arrival window drew no request still has its files (headers only) and its summary entry. */
    @Test
    void shouldWriteTheInferenceFilesOfAServiceNoRequestArrivedAt(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("zero.yaml");
        Files.writeString(scenario, """
                name: zero
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                inference:
                  - name: svc
                    model: {layers: 2, hidden: 1024, heads: 8}
                    instances:
                      - {role: prefill, hosts: 0}
                      - {role: decode, hosts: 1}
                    cost: {prefill-per-token: 1us, decode-step: 100us}
                    gateway: 3
                    arrivals: {process: poisson, rate: 1/s, duration: 1ms}
                    request:
                      ingress: 8KiB
                      steps: [{llm: {prompt-tokens: 1000, output-tokens: 5}}]
                """);
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("run", scenario.toString(), "--out", out.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(
                "inference   svc: 0 of 0 requests completed (no request arrived in its arrival window)\n");
        assertThat(Files.readAllLines(out.resolve("requests.csv"))).hasSize(1).first().asString()
                .startsWith("service,request,arrival_us,");
        assertThat(Files.readAllLines(out.resolve("llm_calls.csv"))).hasSize(1).first().asString()
                .startsWith("service,request,call,");
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"inference\"")
                .contains("\"service\": \"svc\"").contains("\"requests\": 0");
        // The report says it too: the service's row, 0 of 0, and why; the same when rebuilt from the folder.
        String row = "<tr><td class='l'>svc</td><td>0</td><td>0</td>" + "<td></td>".repeat(12) + "</tr>";
        String note = "<p class='note'>svc: 0 of 0 requests completed (no request arrived in its arrival window)</p>";
        assertThat(Files.readString(out.resolve("report.html"))).contains("<h2>Inference requests</h2>", row, note);
        Files.delete(out.resolve("report.html"));
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(out.resolve("report.html"))).contains("<h2>Inference requests</h2>", row, note);
    }
}
