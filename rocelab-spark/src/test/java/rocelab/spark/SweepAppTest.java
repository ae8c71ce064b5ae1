package rocelab.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.output.Summary;
import rocelab.scenario.read.SweepReader;
import rocelab.scenario.sweep.LocalSweep;
import rocelab.scenario.sweep.SweepPlan;

/** The same sweep on Spark (local mode, two executor threads) and on this machine gives the same results. */
class SweepAppTest {
    private static final String BASE = """
            name: tiny
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 4MB, ecn: {marking: red, kmin: 100KB, kmax: 400KB}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: incast, senders: 1-4, receiver: 0, size: 100KB}
            observe: {sample-interval: 0}
            """;
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[2]").appName("rocelab-sweep-test")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2").getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private Path sweep() throws Exception {
        Files.writeString(dir.resolve("base.yaml"), BASE);
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, """
                scenario: base.yaml
                vary:
                  switch.ecn.kmin: [50KB]
                  nic.dcqcn.profile: [paper, nvidia]
                seeds: 2
                """);
        return file;
    }

    @Test
    void sparkAndLocalSweepsGiveTheSameRows() throws Exception {
        Path file = sweep();
        SweepPlan plan = new SweepReader().read(file);
        new LocalSweep(plan, dir.resolve("local"), 2, LocalSweep.Listener.NONE).run();
        Path out = dir.resolve("spark");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int code = SweepApp.run(new String[] {file.toString(), "--out", out.toUri().toString()},
                new PrintStream(text, true, StandardCharsets.UTF_8), System.err);
        assertThat(code).isZero();
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("4 runs (4 ran now as Spark tasks");

        String local = Files.readString(dir.resolve("local/results.csv"));
        String onSpark = Files.readString(out.resolve("results.csv"));
        assertThat(onSpark.lines().count()).isEqualTo(5);
        assertThat(withoutWallClock(onSpark)).isEqualTo(withoutWallClock(local));
        for (var p : plan.points()) {
            assertThat(out.resolve("points").resolve(p.id()).resolve("summary.json")).isRegularFile();
            assertThat(Files.readString(out.resolve("points").resolve(p.id()).resolve("scenario.yaml")))
                    .isEqualTo(p.scenarioYaml());
        }
        assertThat(out.resolve("sweep.html")).isRegularFile();

        Dataset<Row> parquet = spark.read().parquet(out.resolve("results.parquet").toString());
        assertThat(parquet.count()).isEqualTo(4);
        assertThat(parquet.columns()).contains("switch.ecn.kmin", "flows.fct_us.p99");
        assertThat(parquet.schema().apply("flows.fct_us.p99").dataType().typeName()).isEqualTo("double");

        // Run again: every point is in the output already, nothing runs.
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        assertThat(SweepApp.run(new String[] {file.toString(), "--out", out.toString()},
                new PrintStream(again, true, StandardCharsets.UTF_8), System.err)).isZero();
        assertThat(again.toString(StandardCharsets.UTF_8)).contains("(0 ran now as Spark tasks, 4 complete before)");
        assertThat(Files.readString(out.resolve("results.csv"))).isEqualTo(onSpark);

        // A damaged summary.json: that point runs again, once said on stderr, and the table is whole again.
        String id = plan.points().get(1).id();
        Path summary = out.resolve("points").resolve(id).resolve("summary.json");
        Files.writeString(summary, "{\n  \"scenario\": \"tin");
        // Written behind Hadoop's back, as a damaged file would be: its checksum file no longer matches.
        Path crc = summary.resolveSibling(".summary.json.crc");
        ByteArrayOutputStream third = new ByteArrayOutputStream();
        ByteArrayOutputStream thirdErr = new ByteArrayOutputStream();
        assertThat(SweepApp.run(new String[] {file.toString(), "--out", out.toString()},
                new PrintStream(third, true, StandardCharsets.UTF_8),
                new PrintStream(thirdErr, true, StandardCharsets.UTF_8))).isZero();
        assertThat(thirdErr.toString(StandardCharsets.UTF_8).lines().toList()).singleElement().asString()
                .startsWith("warning: points/" + id + "/summary.json is damaged (")
                .endsWith("): running point " + id + " again");
        assertThat(third.toString(StandardCharsets.UTF_8)).contains("(1 ran now as Spark tasks, 3 complete before)");
        assertThat(withoutWallClock(Files.readString(out.resolve("results.csv")))).isEqualTo(withoutWallClock(onSpark));

        // Without the checksum file, its text is checked.
        Files.writeString(summary, "{\n  \"scenario\": \"tin");
        Files.deleteIfExists(crc);
        ByteArrayOutputStream fourthErr = new ByteArrayOutputStream();
        assertThat(SweepApp.run(new String[] {file.toString(), "--out", out.toString()}, System.out,
                new PrintStream(fourthErr, true, StandardCharsets.UTF_8))).isZero();
        assertThat(fourthErr.toString(StandardCharsets.UTF_8)).startsWith("warning: points/" + id
                + "/summary.json is damaged (line 2");
        assertThat(Files.readString(summary)).contains("\"stop_reason\"");
    }

    @Test
    void badInputExitsTwoBeforeAnyTask() throws Exception {
        Files.writeString(dir.resolve("base.yaml"), BASE);
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "scenario: base.yaml\nvary:\n  switch.ecn.kmin: [1parsec]\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SweepApp.run(new String[] {file.toString(), "--out", dir.resolve("o").toString()},
                System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("bad.yaml:3:21: ");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    /** The driver says what rocelab sweep says after the runs: the runs with lint errors, the metrics none wrote. */
    @Test
    void warnsOfTheRunsWithLintErrorsAsRocelabSweepDoes() throws Exception {
        Files.writeString(dir.resolve("base.yaml"), BASE);
        Path file = dir.resolve("lint.yaml");
        Files.writeString(file, """
                scenario: base.yaml
                vary:
                  switch.ecn: [{marking: red, kmin: 100KB, kmax: 400KB}, {marking: red, kmin: 3MB, kmax: 3500KB}]
                metrics: [flows.fct_us.p99, collectives]
                """);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SweepApp.run(new String[] {file.toString(), "--out", dir.resolve("lint").toString()},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly("warning: 1 of 2 runs have lint"
                + " errors (L5): results.csv lint_error_rules names them, sweep.html marks them",
                "warning: metric 'collectives' is not a number in any completed point's summary.json");
    }

    /** As rocelab sweep's --out: an earlier run's folder is refused before any task, and left as it was. */
    @Test
    void anEarlierRunsFolderIsRefusedBeforeAnyTask() throws Exception {
        Path file = sweep();
        Path run = dir.resolve("run");
        Files.createDirectories(run);
        Files.writeString(run.resolve("summary.json"), "{}");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SweepApp.run(new String[] {file.toString(), "--out", run.toString()}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: --out " + run + ": is an earlier run's"
                + " output folder (it holds summary.json)");
        try (var files = Files.list(run)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactly("summary.json");
        }
    }

    /** The CSV with the wall-clock columns emptied. */
    private static String withoutWallClock(String csv) {
        List<String> lines = csv.lines().toList();
        List<String> header = Arrays.asList(lines.get(0).split(",", -1));
        List<Integer> wall = new ArrayList<>();
        for (String k : Summary.WALL_CLOCK_KEYS) {
            assertThat(header).contains(k);
            wall.add(header.indexOf(k));
        }
        StringBuilder b = new StringBuilder();
        for (String line : lines) {
            List<String> cells = new ArrayList<>(Arrays.asList(line.split(",", -1)));
            assertThat(cells).hasSameSizeAs(header);
            wall.forEach(i -> cells.set(i, ""));
            b.append(String.join(",", cells)).append('\n');
        }
        return b.toString();
    }
}
