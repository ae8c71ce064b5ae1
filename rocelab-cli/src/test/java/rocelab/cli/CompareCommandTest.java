package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.report.ComparisonReport;

/** {@code rocelab compare}: one incast on the three fabrics, one table, one folder per fabric, one overlay report. */
class CompareCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCENARIO = """
            name: cmp-incast
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 1MB, ecn: {marking: none}}
            nic: {cc: none, timeout: 8}
            traffic:
              - {kind: incast, senders: 1-7, receiver: 0, size: 300KB}
            """;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private static Path out;
    private static CliRun run;

    @BeforeAll
    static void compare() throws Exception {
        Path file = shared.resolve("cmp.yaml");
        Files.writeString(file, SCENARIO);
        out = shared.resolve("cmp");
        run = CliRun.of("compare", file.toString(), "--out", out.toString());
    }

    private static String[] csvRow(String mode) throws Exception {
        return Files.readAllLines(out.resolve("compare.csv")).stream().filter(l -> l.startsWith(mode + ","))
                .findFirst().orElseThrow().split(",", -1);
    }

    private static int col(String name) throws Exception {
        return List.of(Files.readAllLines(out.resolve("compare.csv")).get(0).split(",")).indexOf(name);
    }

    @Test
    void shouldRunEveryFabricAndPrintOneTable() throws Exception {
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> rows = run.out().lines().filter(l -> l.matches("^(roce-lossless|roce-lossy|infiniband) .*"))
                .toList();
        assertThat(rows).hasSize(3);
        assertThat(run.out()).contains("FCT p99 us", "pause/stall us", "CNP/BECN", "peak queue B");
        // Flows only: no collective, job or inference column (they were printed empty).
        assertThat(run.out()).doesNotContain("collective us", "JCT us", "GPU net wait us", "req E2E p50 us");
        assertThat(run.out().lines().filter(l -> l.startsWith("mode ")).findFirst().orElseThrow())
                .doesNotContain("   collective");
        for (String mode : new String[] {"roce-lossless", "roce-lossy", "infiniband"}) {
            JsonNode s = JSON.readTree(out.resolve(mode).resolve("summary.json").toFile());
            assertThat(s.get("mode").asText()).isEqualTo(mode);
            assertThat(out.resolve(mode).resolve("report.html")).isRegularFile();
            String[] row = csvRow(mode);
            assertThat(Long.parseLong(row[col("drops")])).as(mode)
                    .isEqualTo(s.get("counters").get("packets_dropped").asLong());
            assertThat(row[col("fct_p99_us")]).as(mode).isNotEmpty();
        }
        assertThat(out.resolve("infiniband").resolve("vl.csv")).isRegularFile();
        assertThat(out.resolve("roce-lossless").resolve("pfc.csv")).isRegularFile();
        assertThat(out.resolve("roce-lossy").resolve("vl.csv")).doesNotExist();
    }

    @Test
    void shouldKeepInEachModesFolderTheScenarioItRanAndItsMode() throws Exception {
        for (String mode : new String[] {"roce-lossless", "roce-lossy", "infiniband"}) {
            JsonNode m = JSON.readTree(out.resolve(mode).resolve("manifest.json").toFile());
            assertThat(m.get("fabric_mode").asText()).isEqualTo(mode);
            assertThat(m.get("scenario_mode").asText()).isEqualTo("roce-lossless");
            assertThat(m.get("scenario_file").asText()).isEqualTo("scenario.yaml");
            assertThat(m.get("compared_file").asText()).isEqualTo(shared.resolve("cmp.yaml").toString());
            String copy = Files.readString(out.resolve(mode).resolve("scenario.yaml"));
            assertThat(copy).endsWith(SCENARIO)
                    .contains("#   rocelab compare scenario.yaml --modes " + mode + " --seed 1\n");
        }
        // The copy and the mode give the same run: the same resolved scenario, hash for hash.
        Path again = shared.resolve("again");
        CliRun rerun = CliRun.of("compare", out.resolve("infiniband").resolve("scenario.yaml").toString(),
                "--modes", "infiniband", "--seed", "1", "--out", again.toString(), "-q");
        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(JSON.readTree(again.resolve("infiniband").resolve("manifest.json").toFile()).get("scenario_sha256"))
                .isEqualTo(JSON.readTree(out.resolve("infiniband").resolve("manifest.json").toFile())
                        .get("scenario_sha256"));
        assertThat(Files.readString(again.resolve("infiniband").resolve("flows.csv")))
                .isEqualTo(Files.readString(out.resolve("infiniband").resolve("flows.csv")));
    }

    @Test
    void shouldNameInfinibandCountersAsInfinibandDoes() throws Exception {
        String ports = Files.readAllLines(out.resolve("infiniband").resolve("ports.csv")).get(0);
        assertThat(ports).contains("PortXmitPkts", "PortXmitData", "PortRcvData", "PortXmitDiscards", "fecn_marked",
                "PortXmitWait_us").doesNotContain("pause", ",ecn_marked,");
        String nics = Files.readAllLines(out.resolve("infiniband").resolve("nics.csv")).get(0);
        assertThat(nics).contains("PortRcvFECN", "becn_sent", "becn_handled", "PortXmitWait_us")
                .doesNotContain("cnp", "pause");
        assertThat(Files.readAllLines(out.resolve("roce-lossless").resolve("nics.csv")).get(0))
                .contains("np_cnp_sent", "rx_pause_duration_ps");
        // PortXmitData counts 4-octet words; the HCA waited for credits as long as vl.csv says its lanes did.
        List<String> lines = Files.readAllLines(out.resolve("infiniband").resolve("ports.csv"));
        List<String> head = List.of(lines.get(0).split(","));
        String[] first = lines.get(1).split(",");
        assertThat(Long.parseLong(first[head.indexOf("PortXmitData")])).isPositive();
        String report = Files.readString(out.resolve("infiniband").resolve("report.html"));
        assertThat(report).contains("VL3", "BECN received", "PortXmitWait").doesNotContain(" tc3", "CNPs");
    }

    @Test
    void shouldShowWhatEachFabricDoesWithTheSameIncast() throws Exception {
        int drops = col("drops");
        int stall = col("pause_or_credit_stall_us");
        assertThat(Long.parseLong(csvRow("roce-lossy")[drops])).as("lossy drops").isPositive();
        assertThat(Long.parseLong(csvRow("roce-lossy")[col("retransmitted")])).isPositive();
        assertThat(Long.parseLong(csvRow("roce-lossless")[drops])).isZero();
        assertThat(Double.parseDouble(csvRow("roce-lossless")[stall])).as("PFC pauses").isPositive();
        assertThat(Long.parseLong(csvRow("infiniband")[drops])).isZero();
        assertThat(Double.parseDouble(csvRow("infiniband")[stall])).as("credit stalls").isPositive();
        JsonNode ib = JSON.readTree(out.resolve("infiniband").resolve("summary.json").toFile()).get("infiniband");
        assertThat(Double.parseDouble(csvRow("infiniband")[stall]))
                .isCloseTo(ib.get("credit_stall_us").asDouble(), org.assertj.core.data.Offset.offset(0.0006));
        String report = Files.readString(out.resolve("report.html"));
        assertThat(report).contains("FCT distribution per fabric", "roce-lossless", "roce-lossy", "infiniband",
                "infiniband/report.html");
    }

    @Test
    void shouldPrintTheCollectiveColumnOnlyWhenThereAreCollectives() throws Exception {
        Path file = dir.resolve("ar.yaml");
        Files.writeString(file, """
                name: cmp-allreduce
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: allreduce, ranks: 0-3, size: 64KiB}
                """);
        CliRun ar = CliRun.of("compare", file.toString(), "--modes", "roce-lossless,infiniband", "--out",
                dir.resolve("ar").toString());
        assertThat(ar.exitCode()).as(ar.err()).isZero();
        List<String> head = List.of(ar.out().lines().filter(l -> l.startsWith("mode ")).findFirst().orElseThrow()
                .split(" {2,}"));
        assertThat(head).contains("collective us").doesNotContain("JCT us", "req E2E p50 us");
        int at = head.indexOf("collective us");
        for (String mode : new String[] {"roce-lossless", "infiniband"}) {
            String[] row = ar.out().lines().filter(l -> l.startsWith(mode + " ")).findFirst().orElseThrow().strip()
                    .split(" +");
            assertThat(Double.parseDouble(row[at])).as(mode).isPositive();
        }
        // compare.csv keeps every column, whatever the workload; an empty cell means the run has no such thing.
        List<String> csv = Files.readAllLines(dir.resolve("ar").resolve("compare.csv"));
        assertThat(csv.get(0).split(",")).containsExactlyElementsOf(ComparisonReport.COLUMNS);
        assertThat(csv.get(1).split(",", -1)[ComparisonReport.COLUMNS.indexOf("job_jct_us")])
                .isEmpty();
    }

    /**
     * collective_us leaves out a job's warm-up calls, as the GPU's view does (jobs.csv, gpu_network_wait_us): a flow
     * that crosses the warm-up's AllReduce made the column show that call (809.4 us on RoCE) while every other GPU
     * figure of the row is the measured iterations' (568.9 us at most).
     */
    @Test
    void shouldLeaveTheWarmUpCallsOutOfTheCollectiveColumn() throws Exception {
        Path file = dir.resolve("warm.yaml");
        Files.writeString(file, """
                name: cmp-warmup
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
                """);
        Path cmp = dir.resolve("warm");
        CliRun w = CliRun.of("compare", file.toString(), "--modes", "roce-lossless,infiniband", "--out",
                cmp.toString());
        assertThat(w.exitCode()).as(w.err()).isZero();
        List<String> csv = Files.readAllLines(cmp.resolve("compare.csv"));
        int at = ComparisonReport.COLUMNS.indexOf("collective_us");
        for (String mode : new String[] {"roce-lossless", "infiniband"}) {
            double shown = Double.parseDouble(csv.stream().filter(l -> l.startsWith(mode + ",")).findFirst()
                    .orElseThrow().split(",", -1)[at]);
            // The mode's own collectives.csv: the longest call after the warm-up (iteration 0), and the warm-up's.
            double measured = 0;
            double warmUp = 0;
            List<String> calls = Files.readAllLines(cmp.resolve(mode).resolve("collectives.csv"));
            List<String> head = List.of(calls.get(0).split(","));
            for (String line : calls.subList(1, calls.size())) {
                String[] c = line.split(",", -1);
                double time = Double.parseDouble(c[head.indexOf("time_us")]);
                if (Integer.parseInt(c[head.indexOf("iteration")]) == 0) {
                    warmUp = Math.max(warmUp, time);
                } else {
                    measured = Math.max(measured, time);
                }
            }
            assertThat(shown).as(mode).isCloseTo(measured, org.assertj.core.data.Offset.offset(0.001));
            if (mode.equals("roce-lossless")) {
                assertThat(warmUp).as("the warm-up's call, crossed by the flow").isGreaterThan(measured + 100);
            }
        }
        assertThat(w.out()).contains("collective us: the longest call, a job's warm-up iterations left out");
        assertThat(Files.readString(cmp.resolve("report.html")))
                .contains("collective_us: the longest collective call, a job&#39;s warm-up iterations left out");
    }

    @Test
    void shouldNameEachRowsCongestionControlItsSubstituteAndWhatHeldItsFlowsBack() throws Exception {
        // The audit's incast: DCQCN on RoCE, which compare swaps for ib-cc on InfiniBand, where ib-cc held the
        // flows back while the receiver's link had room. Every row must say which control it ran, as its own run's
        // manifest.json says, and carry up its own summary's held_by_rate and notification unit.
        Path file = dir.resolve("dcqcn.yaml");
        Files.writeString(file, """
                name: cmp-dcqcn
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 8MB, ecn: {marking: red, kmin: 100KB, kmax: 400KB, pmax: 0.2}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: incast, senders: 1-8, receiver: 0, size: 500KB}
                """);
        Path cmp = dir.resolve("cc");
        CliRun c = CliRun.of("compare", file.toString(), "--modes", "roce-lossless,infiniband", "--out",
                cmp.toString());
        assertThat(c.exitCode()).as(c.err()).isZero();
        List<String> lines = Files.readAllLines(cmp.resolve("compare.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        String html = Files.readString(cmp.resolve("report.html"));
        boolean anyHeld = false;
        for (String mode : new String[] {"roce-lossless", "infiniband"}) {
            JsonNode manifest = JSON.readTree(cmp.resolve(mode).resolve("manifest.json").toFile());
            JsonNode summary = JSON.readTree(cmp.resolve(mode).resolve("summary.json").toFile());
            String[] row = lines.stream().filter(l -> l.startsWith(mode + ",")).findFirst().orElseThrow()
                    .split(",", -1);
            String ran = manifest.get("congestion_control").asText();
            assertThat(row[header.indexOf("cc")]).as(mode).isEqualTo(ran);
            String named = manifest.get("congestion_controls").get(0).asText();
            assertThat(named).as(mode).startsWith(ran);
            // The printed row names the control (with its profile) beside the mode.
            assertThat(c.out().lines().filter(l -> l.startsWith(mode + " ")).findFirst().orElseThrow())
                    .as(mode).contains(named);
            boolean substituted = !manifest.get("fabric_mode").asText().equals(manifest.get("scenario_mode").asText())
                    && !ran.equals("dcqcn");
            assertThat(row[header.indexOf("cc_substituted_for")].isEmpty()).as(mode).isEqualTo(!substituted);
            if (substituted) {
                assertThat(row[header.indexOf("cc_substituted_for")]).isEqualTo(
                        manifest.get("scenario_congestion_controls").get(0).asText());
                String note = "cc: " + mode + " ran " + named + ", not the scenario's "
                        + row[header.indexOf("cc_substituted_for")] + ": "
                        + manifest.get("congestion_control_substituted_because").asText();
                assertThat(c.out()).contains(note);
                assertThat(html).contains(note.replace("'", "&#39;"));
            }
            assertThat(row[header.indexOf("cnp_or_becn_unit")]).as(mode)
                    .isEqualTo(summary.get("counters").get("cnp_sent_unit").asText());
            int held = summary.get("held_by_rate").size();
            assertThat(row[header.indexOf("held_by_rate_receivers")]).as(mode).isEqualTo(String.valueOf(held));
            assertThat(row[header.indexOf("held_alone_flows")]).as(mode)
                    .isEqualTo(String.valueOf(summary.get("held_alone").size()));
            for (JsonNode h : summary.get("held_by_rate")) {
                anyHeld = true;
                assertThat(Double.parseDouble(row[header.indexOf("held_by_rate_link_utilisation_min")]))
                        .isLessThanOrEqualTo(h.get("link_utilisation").asDouble());
                String said = "held: " + mode + ": " + named + " held the " + h.get("flows").asInt() + " flows into "
                        + h.get("receiver").asText() + " back";
                assertThat(c.out()).as(mode).contains(said);
                assertThat(c.out()).contains(h.get("link").asText() + " (towards " + h.get("receiver").asText()
                        + ") carried " + String.format(java.util.Locale.ROOT, "%.1f",
                                h.get("link_utilisation").asDouble() * 100) + " % of its capacity");
            }
        }
        // The audit's point: on InfiniBand the stand-in control held the incast back (what this test is about).
        assertThat(anyHeld).isTrue();
        JsonNode ib = JSON.readTree(cmp.resolve("infiniband").resolve("summary.json").toFile());
        JsonNode roce = JSON.readTree(cmp.resolve("roce-lossless").resolve("summary.json").toFile());
        if (!ib.get("counters").get("cnp_sent_unit").equals(roce.get("counters").get("cnp_sent_unit"))) {
            assertThat(c.out()).contains("CNP/BECN is not one unit: roce-lossless: "
                    + roce.get("counters").get("cnp_sent_unit").asText() + "; infiniband: "
                    + ib.get("counters").get("cnp_sent_unit").asText());
        }
    }

    @Test
    void shouldDrawTheHeldBackTimeTheTableCountsOnEveryFabric() throws Exception {
        // lossless-dcqcn's HCAs wait for credits longer than its switch ports do: the curve must count both.
        heldBackEndsAtTheTable("lossless-dcqcn", "roce-lossless", "infiniband");
        // moe-alltoall's PFC frames, timed from when they were sent, sum to 2096.859 us; the ports, timing the pauses
        // from when they acted, 2096.598 us, the table's figure: the curve ended at the frames' sum (an audit).
        heldBackEndsAtTheTable("moe-alltoall", "roce-lossless", "roce-lossy");
    }

    private void heldBackEndsAtTheTable(String example, String... modes) throws Exception {
        Path cmp = dir.resolve("held-" + example);
        CliRun c = CliRun.of("compare", "--example", example, "--modes", String.join(",", modes),
                "--out", cmp.toString(), "-q");
        assertThat(c.exitCode()).as(c.err()).isZero();
        List<String> lines = Files.readAllLines(cmp.resolve("compare.csv"));
        int stall = List.of(lines.get(0).split(",")).indexOf("pause_or_credit_stall_us");
        String html = Files.readString(cmp.resolve("report.html"));
        int at = html.indexOf("{\"id\":\"cmp-held\"");
        JsonNode chart = JSON.readerFor(JsonNode.class).<JsonNode>readValues(html.substring(at)).next();
        for (String mode : modes) {
            double table = Double.parseDouble(lines.stream().filter(l -> l.startsWith(mode + ",")).findFirst()
                    .orElseThrow().split(",", -1)[stall]);
            if (mode.equals("roce-lossy")) {
                assertThat(table).as("lossy: no pause").isZero();
                continue;
            }
            JsonNode series = null;
            for (JsonNode s : chart.get("series")) {
                series = s.get("name").asText().equals(mode) ? s : series;
            }
            assertThat(series).as(mode).isNotNull();
            double last = Double.NaN;
            for (JsonNode y : series.get("y")) {
                last = y.isNull() ? last : y.asDouble();
            }
            assertThat(table).as(mode).isPositive();
            assertThat(last).as(mode + ": the curve ends at the table's value").isCloseTo(table,
                    org.assertj.core.data.Offset.offset(0.0006));
        }
        assertThat(html).contains("InfiniBand: time the lanes of switch ports and HCAs waited for credits",
                "pause_or_credit_stall_us: PFC pause time (RoCE) or credit stall time (InfiniBand), not one measure (a"
                        + " pause counts while it holds a port, data waiting or not; a stall only while a packet waits"
                        + " for credits)");
    }

    @Test
    void shouldSayWhichFabricsVariantTheLintFindsHandicapped() throws Exception {
        // 400 Gb/s and 2 us of cable: InfiniBand's default 64 KiB per lane covers 30 % of the credit round trip, so
        // its row ran at most 120.4 Gb/s (an audit's 4-to-1 incast: 3.1x RoCE's median FCT) and nothing said why.
        Path file = dir.resolve("long.yaml");
        Files.writeString(file, """
                name: cmp-long-links
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 400Gbps, delay: 2us}}
                nic: {cc: none}
                switch: {ecn: {marking: none}, pfc: {watchdog: {}}}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 200KB}
                """);
        Path o = dir.resolve("o");
        CliRun cmp = CliRun.of("compare", file.toString(), "--modes", "roce-lossless,infiniband", "--out",
                o.toString());
        assertThat(cmp.exitCode()).as(cmp.err()).isZero();
        assertThat(cmp.out()).contains("lint: infiniband: 0 errors, 2 warnings, 0 info on the scenario as this"
                + " fabric ran it (infiniband/report.html lists them with symptoms and fixes)\n  warning L21: a switch"
                + " input buffer of 65,536 B per lane (vl-buffer)");
        assertThat(cmp.out()).contains("VL3 carries at most 120.4 Gb/s of payload over it");
        assertThat(cmp.out()).doesNotContain("lint: roce-lossless");
        // The buffers each row had: 32 MB shared by the switch's ports against 64 KiB per port and lane.
        assertThat(cmp.out()).contains("buffers: roce-lossless: 32,000,000 B shared by the ports of each switch;"
                + " infiniband: 65,536 B per switch input port and lane, 65,536 B per HCA lane (fabric.infiniband's"
                + " defaults, which a roce-lossless scenario cannot state)\n");
        assertThat(Files.readString(o.resolve("report.html"))).contains("lint: infiniband: 0 errors, 2 warnings");
        JsonNode ib = JSON.readTree(o.resolve("infiniband").resolve("manifest.json").toFile());
        assertThat(ib.get("lint").findValuesAsText("rule")).containsExactly("L21", "L21");
        assertThat(JSON.readTree(o.resolve("roce-lossless").resolve("manifest.json").toFile()).get("lint")).isEmpty();
        // --quiet skips the lint, as rocelab run does, and the manifest says so.
        CliRun quiet = CliRun.of("compare", file.toString(), "--modes", "infiniband", "-q", "--out",
                dir.resolve("q").toString());
        assertThat(quiet.exitCode()).as(quiet.err()).isZero();
        JsonNode q = JSON.readTree(dir.resolve("q").resolve("infiniband").resolve("manifest.json").toFile());
        assertThat(q.get("lint_skipped").asText()).isEqualTo("--quiet");
        assertThat(q.has("lint")).isFalse();
    }

    @Test
    void shouldRefuseAnUnknownModeAndWriteNothing() throws Exception {
        Path file = dir.resolve("cmp.yaml");
        Files.writeString(file, SCENARIO);
        CliRun bad = CliRun.of("compare", file.toString(), "--modes", "roce-lossy,ethernet", "--out",
                dir.resolve("o").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.errorLines()).containsExactly("error: --modes 'ethernet' is not a fabric mode; expected a"
                + " comma-separated list of roce-lossy, roce-lossless, infiniband");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    @Test
    void shouldTellAtWhichKeyAScenarioCannotRunOnAFabric() throws Exception {
        Path file = dir.resolve("jumbo.yaml");
        Files.writeString(file, SCENARIO.replace("mtu: 1000", "mtu: 9000"));
        CliRun bad = CliRun.of("compare", file.toString(), "--out", dir.resolve("o").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.errorLines()).containsExactly("error: " + file + ":2:31: cannot run as infiniband: its mtu of"
                + " 9000 bytes is above the largest InfiniBand path MTU (4096 bytes); expected an mtu of at most 4096"
                + " bytes, or --modes without infiniband");
        assertThat(dir.resolve("o")).doesNotExist();
        Path storm = dir.resolve("storm.yaml");
        Files.writeString(storm, SCENARIO + "faults: [{kind: pause-storm, host: 0, duration: 10us}]\n");
        CliRun stormy = CliRun.of("compare", storm.toString(), "--out", dir.resolve("o").toString());
        assertThat(stormy.exitCode()).isEqualTo(2);
        assertThat(stormy.errorLines()).singleElement().asString()
                .startsWith("error: " + storm + ":8:1: cannot run as roce-lossy: the scenario injects pause storms");
        CliRun example = CliRun.of("compare", "--example", "pause-storm-watchdog", "--out",
                dir.resolve("o").toString());
        assertThat(example.exitCode()).isEqualTo(2);
        assertThat(example.errorLines()).singleElement().asString()
                .matches("error: pause-storm-watchdog\\.yaml:\\d+:1: cannot run as roce-lossy: .*");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    @Test
    void shouldRefuseALossyBufferTooSmallForLosslessHeadroomAtItsKey() throws Exception {
        Path file = dir.resolve("small.yaml");
        Files.writeString(file, SCENARIO.replace("roce-lossless", "roce-lossy").replace("buffer: 1MB", "buffer: 200KB"));
        CliRun bad = CliRun.of("compare", file.toString(), "--out", dir.resolve("o").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.errorLines()).singleElement().asString().matches("error: " + Pattern.quote(file.toString())
                + ":4:10: cannot run as roce-lossless: the switch buffer \\(200,000 B\\) is too small for the PFC"
                + " headroom that switch0 reserves on roce-lossless \\([0-9,]+ B: 8 ports x 1 lossless priority, up to"
                + " [0-9,]+ B each\\); expected a larger switch.buffer, or --modes without roce-lossless");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    /**
     * A switch's MTU keeps the payload it lets through on the other fabric: RoCE's IP MTU of 9000 is InfiniBand's
     * 4096 (it was refused), and InfiniBand's 2048 a RoCE IP MTU of 2108 (kept as 2048, it dropped every full-size
     * RoCE packet, 2,108 bytes of IP: an audit's flow completed on InfiniBand only, 432 drops on RoCE).
     */
    @Test
    void shouldGiveASwitchTheMtuThatCarriesTheSamePayloadOnTheOtherFabric() throws Exception {
        Path switchJumbo = dir.resolve("switch-jumbo.yaml");
        Files.writeString(switchJumbo, SCENARIO.replace("switch: {buffer: 1MB,", "switch: {mtu: 9000, buffer: 1MB,"));
        CliRun sw = CliRun.of("compare", switchJumbo.toString(), "--modes", "infiniband", "-q", "--out",
                dir.resolve("o").toString());
        assertThat(sw.exitCode()).as(sw.err()).isZero();
        Path ib = dir.resolve("ib.yaml");
        Files.writeString(ib, """
                name: cmp-ib-mtu
                fabric: {mode: infiniband, mtu: 2048}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                switch: {mtu: 2048}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 100KB}
                """);
        CliRun roce = CliRun.of("compare", ib.toString(), "--modes", "roce-lossy,infiniband", "-q", "--out",
                dir.resolve("p").toString());
        assertThat(roce.exitCode()).as(roce.err()).isZero();
        for (String mode : new String[] {"roce-lossy", "infiniband"}) {
            JsonNode s = JSON.readTree(dir.resolve("p").resolve(mode).resolve("summary.json").toFile());
            assertThat(s.get("counters").get("packets_dropped").asLong()).as(mode).isZero();
            assertThat(s.get("flows").get("completed").asInt()).as(mode).isEqualTo(1);
        }
    }

    @Test
    void shouldTellAJourneyInInfinibandWords() {
        CliRun j = CliRun.of("journey", "--example", "infiniband-incast", "--flow", "15");
        assertThat(j.exitCode()).as(j.err()).isZero();
        assertThat(j.out()).contains("marked it FECN", "sends a BECN back").doesNotContain(" CE", "CNP", "RNIC");
    }

    @Test
    void shouldPrintCreditsAndLanesWhenAnInfinibandScenarioRuns() throws Exception {
        Path file = dir.resolve("ib.yaml");
        Files.writeString(file, SCENARIO.replace("mode: roce-lossless", "mode: infiniband")
                .replace("switch: {buffer: 1MB, ecn: {marking: none}}\n", ""));
        CliRun ib = CliRun.of("run", file.toString(), "--out", dir.resolve("ib").toString());
        assertThat(ib.exitCode()).as(ib.err()).isZero();
        assertThat(ib.out()).contains("mode infiniband", "credits ", "  VL3 ", "FECN marks (a packet marked at two switches counts twice)");
        JsonNode s = JSON.readTree(dir.resolve("ib").resolve("summary.json").toFile());
        assertThat(s.get("infiniband").get("virtual_lanes").get(0).get("vl").asInt()).isEqualTo(3);
        assertThat(Files.readString(dir.resolve("ib").resolve("report.html"))).contains("Virtual lanes and credits");
    }
}
