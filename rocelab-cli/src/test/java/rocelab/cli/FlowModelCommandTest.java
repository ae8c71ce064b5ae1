package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab run --model flow}: same outputs, packet-only sections left out and said so; bad combinations. */
class FlowModelCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheSameOutputsWithoutWhatOnlyPacketsHave() throws Exception {
        Path out = dir.resolve("flow");
        CliRun r = CliRun.of("run", "--example", "ring-allreduce", "--model", "flow", "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("model flow", "not modelled queues (a flow's last ACK comes back in a fixed",
                "ECN marks", "collective  traffic item 1")
                .doesNotContain("PFC         ", "peak queue");
        for (String f : new String[] {"flows.csv", "collectives.csv", "summary.json", "report.html", "topology.csv"}) {
            assertThat(out.resolve(f)).as(f).isNotEmptyFile();
        }
        for (String f : new String[] {"ports.csv", "nics.csv", "queues.csv", "rates.csv", "throughput.csv", "pfc.csv"}) {
            assertThat(out.resolve(f)).as(f).doesNotExist();
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertThat(summary.get("model").asText()).isEqualTo("flow");
        assertThat(summary.get("mode").asText()).isEqualTo("roce-lossless");
        assertThat(summary.has("not_modelled")).isTrue();
        assertThat(summary.has("counters")).isFalse();
        assertThat(summary.get("collectives").get(0).get("ideal_time_us").asDouble()).isPositive();
        assertThat(Files.readString(out.resolve("report.html"))).contains("Not modelled by this run&#39;s model (flow)");
        // The flow list keeps its columns: the QP and UDP source port are those the packet level would use.
        assertThat(Files.readAllLines(out.resolve("flows.csv")).get(1)).doesNotContain(",-1,-1");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"flow", "ideal"})
    void shouldSayWhatTheModelDoesNotShowNeverThatThereWereNoPausesOrVictims(String model) throws Exception {
        // lossless-pfc-only at packet level has PFC pauses and a victim. The flow model and the ideal network model
        // neither, and the report said "no deadlock, no pause propagation and no victims", showed 0 drops, 0 PFC frames
        // and 0 CNPs as key numbers and a table of ports whose counters all read 0, though nothing of it was counted.
        Path out = dir.resolve(model);
        CliRun r = CliRun.of("run", "--example", "lossless-pfc-only", "--model", model, "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String html = Files.readString(out.resolve("report.html"));
        String findings = html.substring(html.indexOf("<h2>Findings</h2>"), html.indexOf("<h2>Over time</h2>"));
        assertThat(findings).doesNotContain("no deadlock", "no pause", "no victims")
                .contains("flow".equals(model) ? "<li>flow level (--model flow): PFC pauses, deadlocks and victims are"
                        + " not modelled" : "<li>ideal network (--ideal): a non-blocking fabric, where pauses, credit"
                        + " waits, deadlocks, victims and ECMP collisions are not modelled", "--model packet has them");
        String tiles = html.substring(html.indexOf("<div class='kpis'>"), html.indexOf("<h2>Findings</h2>"));
        assertThat(tiles).contains("flows completed").doesNotContain("packets dropped", "PFC frames", "CNPs sent");
        assertThat(html).doesNotContain("Hottest ports", "shaded by the deepest egress queue")
                .contains(" · model " + model + " · seed 1");
        // The printed summary and summary.json say the same of what is not modelled.
        assertThat(r.out()).contains("deadlocks, victims").doesNotContain("PFC victims", "no victims");
        // The ideal network simulates nothing: its end is a bound, without events (it said "simulated ... · 0 events").
        if ("ideal".equals(model)) {
            assertThat(r.out()).contains("\nideal end ").contains("nothing simulated").doesNotContain("\nsimulated ",
                    " events");
            assertThat(html).contains(" · ideal end ").doesNotContain(" · simulated ");
        } else {
            assertThat(r.out()).contains("\nsimulated ");
        }
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertThat(summary.get("not_modelled").asText()).contains("PFC pauses", "deadlocks", "victims");
        assertThat(summary.has("pfc_victims")).isFalse();
        // Rebuilt from the folder (which has no ports.csv), the page is the same.
        Files.delete(out.resolve("report.html"));
        assertThat(CliRun.of("report", out.toString()).exitCode()).isZero();
        assertThat(Files.readString(out.resolve("report.html"))).isEqualTo(html);
    }

    /** A hierarchical AllReduce on 16 GPUs that asks for aggregated flows: a streamed run. */
    private static final String AGGREGATED = "name: agg\nfabric: {mode: roce-lossless}\n"
            + "topology: {kind: rail-optimized, servers: 4, gpus-per-server: 4, spines: 2, link: {rate: 400Gbps}}\n"
            + "nvlink: {rate: 3600Gbps, latency: 1us}\n"
            + "traffic:\n  - {kind: allreduce, ranks: 0-15, size: 16MiB, algorithm: hierarchical}\n"
            + "observe: {flows: aggregated}\n";

    @Test
    void shouldStreamAndAggregateTheFlowsWhenTheScenarioAsks() throws Exception {
        Path scenario = dir.resolve("agg.yaml");
        Files.writeString(scenario, AGGREGATED);
        Path out = dir.resolve("agg");
        for (int run = 0; run < 2; run++) {
            // Twice into the same folder: flows_aggregated.csv is rocelab's own file, so the folder is replaced.
            CliRun r = CliRun.of("run", scenario.toString(), "--model", "flow", "--out", out.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).contains("note: the run is streamed").contains("agg.yaml:7:18");
            assertThat(r.out()).contains("(aggregated: flows_aggregated.csv, no row per flow)");
        }
        assertThat(out.resolve("flows.csv")).doesNotExist();
        assertThat(Files.readAllLines(out.resolve("flows_aggregated.csv")).get(1)).startsWith("all,");
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertThat(summary.get("flows").get("output").asText()).isEqualTo("aggregated");
        assertThat(summary.get("collectives").get(0).get("ideal_time_us").asDouble()).isPositive();
        assertThat(Files.readString(out.resolve("report.html"))).contains("a streamed run: no row per flow");

        CliRun packet = CliRun.of("run", scenario.toString(), "--out", dir.resolve("p").toString());
        assertThat(packet.exitCode()).isEqualTo(2);
        assertThat(packet.err()).isEqualTo("error: " + scenario + ":7:18: flows: aggregated is a streamed run at flow"
                + " level; expected --model flow, or flows: per-flow or auto\n");
    }

    @Test
    void shouldRefuseWhatNeedsPackets() {
        CliRun pcap = CliRun.of("run", "--example", "ring-allreduce", "--model", "flow", "--pcap",
                dir.resolve("x.pcap").toString(), "--out", dir.resolve("a").toString());
        assertThat(pcap.exitCode()).isEqualTo(2);
        assertThat(pcap.err()).isEqualTo("error: --pcap needs packets; expected no --pcap with --model flow\n");
        assertThat(dir.resolve("a")).doesNotExist();
        CliRun journey = CliRun.of("journey", "--flow", "0", "--model", "flow");
        assertThat(journey.exitCode()).isEqualTo(2);
        assertThat(journey.err()).startsWith("error: --model flow: a journey follows a flow's packets");
        CliRun unknown = CliRun.of("run", "--model", "fluid", "--out", dir.resolve("b").toString());
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).isEqualTo("error: --model 'fluid' is not a model; expected one of: packet, flow,"
                + " ideal\n");
        CliRun both = CliRun.of("run", "--ideal", "--model", "flow", "--out", dir.resolve("c").toString());
        assertThat(both.exitCode()).isEqualTo(2);
    }
}
