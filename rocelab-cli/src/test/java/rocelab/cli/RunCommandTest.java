package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab run} on the built-in demo: exit code, output folder and the stable keys of summary.json. The demo
 * runs once for the class (it is deterministic); tests that need other flags run it again.
 */
class RunCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private static Path out;
    private static CliRun run;

    @BeforeAll
    static void runTheDemo() {
        out = shared.resolve("demo");
        run = CliRun.of("run", "--out", out.toString());
    }

    @Test
    void shouldWriteTheOutputFolderWhenTheDemoRuns() throws IOException {
        assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(Files.readString(out.resolve("report.html")))
                .as("the hottest queue's chart shows the ECN thresholds").contains("ECN Kmin 200 kB", "ECN Kmax 1.6 MB")
                // The paused time is a sum (46.55 us over the demo's ports and RNICs), not a span of the run.
                .contains("time paused, summed over ports and RNICs");
        assertThat(Files.readString(out.resolve("report.html")))
                .as("the demo's one victim, told once").contains("<li class='err'><b>PFC victims</b>: 1 (listed below)</li>")
                .doesNotContain("PFC victim count")
                // The table's root is one of its roots, with its part of the waits, and the time it lost beside them.
                .contains("<th>lost_us</th>", "<th>root</th><th>root_hops</th><th>root_wait_us</th><th>other_roots</th>",
                        "root: the root off its way it waited behind most, root_wait_us its part of victim_wait_us;",
                        "lost_us: how much later it finished than on an idle fabric (flows.csv fct_us - ideal_fct_us)");
        assertThat(run.out()).as("the summary's one victim, in the singular")
                .contains("PFC victims 1 flow waited behind pauses rooted at a congestion point off its own way there"
                        + " and back:");
        for (String file : new String[] {"summary.json", "flows.csv", "manifest.json", "ports.csv", "nics.csv"}) {
            assertThat(out.resolve(file)).as(file).isRegularFile().isNotEmptyFile();
        }
    }

    @Test
    void shouldSayInTheManifestAndTheReportThatQuietSkippedTheLint() throws IOException {
        Path quiet = dir.resolve("quiet");
        CliRun q = CliRun.of("run", "--example", "lint-l11-mtu", "--out", quiet.toString(), "-q");
        assertThat(q.exitCode()).as("stderr: %s", q.err()).isZero();
        var manifest = JSON.readTree(quiet.resolve("manifest.json").toFile());
        assertThat(manifest.has("lint")).isFalse();
        assertThat(manifest.get("lint_skipped").asText()).isEqualTo("--quiet");
        assertThat(Files.readString(quiet.resolve("report.html"))).contains("rocelab lint did not run");

        Path loud = dir.resolve("loud");
        CliRun l = CliRun.of("run", "--example", "lint-l11-mtu", "--out", loud.toString());
        assertThat(l.exitCode()).as("stderr: %s", l.err()).isZero();
        var full = JSON.readTree(loud.resolve("manifest.json").toFile());
        assertThat(full.get("lint").size()).isPositive();
        assertThat(full.has("lint_skipped")).isFalse();
        assertThat(Files.readString(loud.resolve("report.html"))).doesNotContain("rocelab lint did not run");
    }

    @Test
    void shouldDrawAPauseTheFullSharedPoolStartedAtTheBytesItsGroupHeldNotAtItsThreshold() throws IOException {
        // Static thresholds that add up to more than the buffer: the pool fills before any group reaches 400 KB.
        Path file = dir.resolve("pool.yaml");
        Files.writeString(file, """
                name: pool-full
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 1500KB, ecn: {marking: none}, pfc: {threshold: static, xoff: 400KB, xon: 300KB}}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-7, receiver: 0, size: 1MB}
                """);
        Path pool = dir.resolve("pool");
        CliRun run = CliRun.of("run", file.toString(), "--out", pool.toString(), "-q");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.readString(pool.resolve("pfc.csv"))).contains(",shared_pool_full");
        String html = Files.readString(pool.resolve("report.html"));
        assertThat(html).contains("XOFF sent as the shared pool filled, at the ingress bytes", "purple dots");
        // Rebuilt from the folder's files, the report says the same.
        Files.delete(pool.resolve("report.html"));
        assertThat(CliRun.of("report", pool.toString()).exitCode()).isZero();
        assertThat(Files.readString(pool.resolve("report.html")))
                .contains("XOFF sent as the shared pool filled, at the ingress bytes");
        assertThat(Files.readString(out.resolve("report.html"))).as("the demo's pauses are thresholds'")
                .doesNotContain("shared pool filled");
    }

    @Test
    void shouldPrintTheSummaryWhenNotQuiet() {
        assertThat(run.out()).contains("scenario demo-incast-dcqcn", "flows       6 completed of 6",
                "output    " + out);
    }

    @Test
    void shouldPrintEveryPhaseOnStderrWithTiming() throws IOException {
        Path timed = dir.resolve("timed");
        CliRun t = CliRun.of("run", "--out", timed.toString(), "-q", "--timing");

        assertThat(t.exitCode()).as("stderr: %s", t.err()).isZero();
        assertThat(t.out()).isEmpty();
        List<String> phases = t.err().lines().filter(l -> l.startsWith("timing    "))
                .map(l -> l.substring(10).replaceAll("\\s+[0-9.]+\\s+[0-9.]+.*$", "")).toList();
        assertThat(phases).containsSubsequence("to the command", "read", "checks", "assemble", "lint wait",
                "warm-up wait", "loop", "outputs and report", "summary text", "main to here");
        assertThat(t.err()).containsPattern("main entered at \\S+, ended at \\S+");
        // The timing goes to stderr only: the folder is the one a run without it writes.
        assertThat(Files.readString(timed.resolve("flows.csv"))).isEqualTo(Files.readString(out.resolve("flows.csv")));
    }

    @Test
    void shouldPrintNothingWhenQuiet() {
        CliRun quiet = CliRun.of("run", "--out", dir.resolve("demo").toString(), "-q");

        assertThat(quiet.exitCode()).isZero();
        assertThat(quiet.out()).isEmpty();
        assertThat(quiet.err()).isEmpty();
    }

    @Test
    void shouldHaveTheStableSummaryKeysWhenTheDemoRuns() throws IOException {
        assertThat(run.exitCode()).isZero();

        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());

        assertThat(summary.fieldNames()).toIterable().contains("scenario", "seed", "mode", "simulated_seconds",
                "wall_seconds", "events", "data_packets", "flows", "counters", "max_queue_bytes");
        assertThat(summary.get("flows").fieldNames()).toIterable().contains("count", "completed", "fct_us");
        assertThat(summary.get("flows").get("fct_us").fieldNames()).toIterable().contains("min", "p50", "p99",
                "max");
        assertThat(summary.get("counters").fieldNames()).toIterable().contains("packets_dropped",
                "retransmitted_packets", "ecn_marked", "cnp_sent", "pfc_pause_sent");
    }

    @Test
    void shouldReportTheDemoRunWhenSummaryIsRead() throws IOException {
        assertThat(run.exitCode()).isZero();

        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());

        assertThat(s.get("scenario").asText()).isEqualTo("demo-incast-dcqcn");

        assertThat(s.get("seed").asLong()).isEqualTo(1);
        assertThat(s.get("simulated_seconds").isNumber()).isTrue();
        assertThat(s.get("simulated_seconds").asDouble()).isPositive();
        assertThat(s.get("wall_seconds").isNumber()).isTrue();
        assertThat(s.get("events").asLong()).isPositive();
        assertThat(s.get("data_packets").asLong()).isPositive();
        JsonNode flows = s.get("flows");
        assertThat(flows.get("count").asInt()).isEqualTo(6);
        assertThat(flows.get("completed").asInt()).isEqualTo(6);
        JsonNode fct = flows.get("fct_us");
        assertThat(fct.get("min").asDouble()).isPositive().isLessThanOrEqualTo(fct.get("p50").asDouble());
        assertThat(fct.get("p50").asDouble()).isLessThanOrEqualTo(fct.get("p99").asDouble());
        assertThat(fct.get("p99").asDouble()).isLessThanOrEqualTo(fct.get("max").asDouble());
        // The demo tells the whole chain (see demo.yaml): ECN marks, CNPs and rate cuts first, a few PFC pauses as the
        // backstop, and nothing dropped on the lossless priority.
        JsonNode c = s.get("counters");
        assertThat(c.get("ecn_marked").asLong()).isPositive();
        assertThat(c.get("cnp_sent").asLong()).isPositive();
        assertThat(c.get("rate_cuts").asLong()).isPositive();
        assertThat(c.get("pfc_pause_sent").asLong()).isPositive().isLessThan(c.get("cnp_sent").asLong());
        assertThat(c.get("packets_dropped").asLong()).isZero();
        assertThat(s.get("mode").asText()).isEqualTo("roce-lossless");
        assertThat(s.get("max_queue_bytes").asLong()).isPositive();
    }

    @Test
    void shouldStartFlowsCsvWithTheStableColumnsWhenTheDemoRuns() throws IOException {
        assertThat(run.exitCode()).isZero();

        var lines = Files.readAllLines(out.resolve("flows.csv"));

        assertThat(lines.get(0)).startsWith("flow_id,src,dst,size_bytes,start_us,finish_us,fct_us");
        assertThat(lines).as("header plus one row per flow").hasSize(1 + 6);
    }

    @Test
    void shouldUseTheGivenSeedWhenSeedIsOverridden() throws IOException {
        Path seeded = dir.resolve("seeded");

        CliRun seededRun = CliRun.of("run", "--out", seeded.toString(), "--seed", "5", "-q");

        assertThat(seededRun.exitCode()).as("exit code; stderr: %s", seededRun.err()).isZero();
        assertThat(JSON.readTree(seeded.resolve("summary.json").toFile()).get("seed").asLong()).isEqualTo(5);
        assertThat(JSON.readTree(seeded.resolve("manifest.json").toFile()).get("seed").asLong()).isEqualTo(5);
    }
}
