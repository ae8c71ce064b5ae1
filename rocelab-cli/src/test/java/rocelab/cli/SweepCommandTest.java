package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab sweep}: runs, resumes, prints one progress line, and refuses bad input before running anything. */
class SweepCommandTest {
    private static final String BASE = """
            name: tiny
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 4MB}
            nic: {cc: dcqcn}
            traffic:
              - {kind: incast, senders: 1-3, receiver: 0, size: 50KB}
            observe: {sample-interval: 0}
            """;

    @TempDir
    Path dir;

    private Path sweep(String body) throws Exception {
        Files.writeString(dir.resolve("base.yaml"), BASE);
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, "scenario: base.yaml\n" + body);
        return file;
    }

    @Test
    void runsThenResumesWithNothingToDo() throws Exception {
        Path file = sweep("vary:\n  nic.dcqcn.profile: [paper, nvidia]\n");
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("2 runs (2 ran now, 0 complete before) · 0 failed");
        assertThat(run.err()).contains("sweep 2/2 runs done · 0 running · 0 failed");
        assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(3);
        assertThat(out.resolve("sweep.html")).isRegularFile();

        CliRun again = CliRun.of("sweep", file.toString(), "--out", out.toString(), "-q");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).isEmpty();
        assertThat(again.err()).isEmpty();

        CliRun listed = CliRun.of("sweep", file.toString(), "--dry-run");
        assertThat(listed.out().lines().toList()).hasSize(3).first()
                .isEqualTo("point\tseed\tnic.dcqcn.profile\tlint_errors\tlint_error_rules");
    }

    /** A run whose scenario has lint errors is named on stderr, also with -q, as rocelab run names its own. */
    @Test
    void warnsOfTheRunsWithLintErrors() throws Exception {
        Path file = sweep("vary:\n  switch.ecn: [{marking: red, kmin: 100KB, kmax: 400KB}, {marking: red, kmin: 3MB,"
                + " kmax: 3500KB}]\n");
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "2", "-q");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err().lines()).containsExactly("warning: 1 of 2 runs have lint errors (L5): results.csv"
                + " lint_error_rules names them, sweep.html marks them");
        List<String> rows = Files.readAllLines(out.resolve("results.csv"));
        assertThat(rows.get(2)).contains(",L5,");
        assertThat(rows.get(1)).doesNotContain(",L5,");
    }

    @Test
    void saysThatThreadsIsRunsOptionAndJobsIsTheSweeps() throws Exception {
        // A parallel audit: "sweep --threads 2 x.yaml" read 2 as the sweep file and said "Unknown options: '--threads',
        // 'x.yaml'".
        Path file = sweep("vary:\n  switch.ecn: [{marking: red, kmin: 100KB, kmax: 400KB}]\n");
        CliRun run = CliRun.of("sweep", "--threads", "2", file.toString(), "--out", dir.resolve("t").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--threads is run's option: a sweep runs each point on one thread and --jobs N"
                + " points at once").doesNotContain("Unknown options");
        assertThat(dir.resolve("t")).doesNotExist();
    }

    /** The dry run lints each point as the sweep would, and names the ones with errors before anything runs. */
    @Test
    void dryRunListsEachPointsLintErrors() throws Exception {
        Path file = sweep("vary:\n  switch.ecn: [{marking: red, kmin: 100KB, kmax: 400KB}, {marking: red, kmin: 3MB,"
                + " kmax: 3500KB}]\n");
        CliRun listed = CliRun.of("sweep", file.toString(), "--dry-run");
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        List<String> rows = listed.out().lines().toList();
        assertThat(rows).hasSize(3);
        assertThat(rows.get(1).split("\t", -1)).endsWith("0", "");
        String[] broken = rows.get(2).split("\t", -1);
        assertThat(Integer.parseInt(broken[broken.length - 2])).isPositive();
        assertThat(broken[broken.length - 1]).isEqualTo("L5");
        assertThat(listed.err().lines()).containsExactly("warning: 1 of 2 points have lint errors (L5): the"
                + " lint_error_rules column names them");
    }

    @Test
    void aRunsFolderAndASweepsFolderAreNotTakenForEachOther() throws Exception {
        Path file = sweep("vary:\n  nic.dcqcn.profile: [paper, nvidia]\n");
        Path runDir = dir.resolve("run");
        assertThat(CliRun.of("run", dir.resolve("base.yaml").toString(), "--out", runDir.toString(), "-q").exitCode())
                .isZero();
        List<String> runFiles = Files.list(runDir).map(p -> p.getFileName().toString()).sorted().toList();
        CliRun sweepIntoRun = CliRun.of("sweep", file.toString(), "--out", runDir.toString(), "-q");
        assertThat(sweepIntoRun.exitCode()).isEqualTo(2);
        assertThat(sweepIntoRun.err()).isEqualTo("error: --out " + runDir + ": is an earlier run's output folder (it"
                + " holds summary.json): a sweep adds its points to its folder and replaces nothing, so its files would be"
                + " left mixed with the sweep's; expected a new or empty folder, or an earlier sweep's output folder"
                + " (it goes on there)\n");
        assertThat(Files.list(runDir).map(p -> p.getFileName().toString()).sorted().toList()).isEqualTo(runFiles);

        Path sweepDir = dir.resolve("sweep");
        assertThat(CliRun.of("sweep", file.toString(), "--out", sweepDir.toString(), "-q").exitCode()).isZero();
        CliRun runIntoSweep = CliRun.of("run", dir.resolve("base.yaml").toString(), "--out", sweepDir.toString(),
                "-q");
        assertThat(runIntoSweep.exitCode()).isEqualTo(2);
        assertThat(runIntoSweep.err()).isEqualTo("error: --out " + sweepDir + ": is a sweep's output folder (it holds"
                + " points/), which this would replace as a whole, the sweep's runs with it; expected a new or empty"
                + " folder, or the output folder of an earlier run (its files are replaced as a whole)\n");
        assertThat(sweepDir.resolve("points")).isDirectory();
        // A sweep goes on in its own folder.
        assertThat(CliRun.of("sweep", file.toString(), "--out", sweepDir.toString(), "-q").exitCode()).isZero();
    }

    /**
     * A sweep run on Spark (rocelab-spark's SweepApp, through Hadoop's local file system) leaves results.parquet and
     * checksum files beside the sweep's own: the sweep goes on in its folder, as in any earlier sweep's.
     */
    @Test
    void aSweepGoesOnInTheFolderOfTheSameSweepRunOnSpark() throws Exception {
        Path file = sweep("vary:\n  nic.dcqcn.profile: [paper, nvidia]\n");
        Path out = dir.resolve("spark");
        assertThat(CliRun.of("sweep", file.toString(), "--out", out.toString(), "-q").exitCode()).isZero();
        Files.createDirectories(out.resolve("results.parquet"));
        Files.writeString(out.resolve("results.parquet/_SUCCESS"), "");
        Files.writeString(out.resolve(".results.csv.crc"), "crc");
        Files.writeString(out.resolve(".sweep.html.crc"), "crc");
        CliRun again = CliRun.of("sweep", file.toString(), "--out", out.toString());
        assertThat(again.err()).doesNotContain("error");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("2 runs (0 ran now, 2 complete before)");
        // Hadoop's checksums of the files this sweep wrote again would no longer match them.
        assertThat(out.resolve(".results.csv.crc")).doesNotExist();
        assertThat(out.resolve(".sweep.html.crc")).doesNotExist();
        assertThat(out.resolve("results.parquet")).isDirectory();

        // A checksum file of something a sweep does not write is still not rocelab's.
        Files.writeString(out.resolve(".notes.txt.crc"), "crc");
        CliRun foreign = CliRun.of("sweep", file.toString(), "--out", out.toString(), "-q");
        assertThat(foreign.exitCode()).isEqualTo(2);
        assertThat(foreign.err()).contains("holds .notes.txt.crc, which rocelab did not write");
    }

    @Test
    void badInputExitsTwoWithThePositionAndWritesNothing() throws Exception {
        Path out = dir.resolve("out");
        for (String[] c : List.of(
                new String[] {"vary:\n  switch.ecn.kmin: [100KB, 3parsecs]\n", "s.yaml:3:28: "},
                new String[] {"vary:\n  switch.bufer: [1MB]\n", "s.yaml:3:3: unknown key 'bufer' in switch"},
                new String[] {"vary: {}\n", "s.yaml:2:7: the sweep varies nothing"},
                new String[] {"combine: cartesian\nvary:\n  switch.buffer: [1MB]\n", "s.yaml:2:10: 'cartesian'"})) {
            CliRun run = CliRun.of("sweep", sweep(c[0]).toString(), "--out", out.toString());
            assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
            assertThat(run.errorLines()).hasSize(1);
            assertThat(run.errorLines().get(0)).contains(c[1]);
            assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(out).doesNotExist();
        }
        CliRun missing = CliRun.of("sweep", dir.resolve("nope.yaml").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.errorLines().get(0)).contains("nope.yaml:1:1: file not found");
    }

    @Test
    void runsStoppedBeforeTheirWorkloadCompletedAreCountedApartAndDoNotFail() throws Exception {
        Path file = sweep("vary:\n  run.stop-at: [2us, 1ms]\n");
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "1");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("2 runs (2 ran now, 0 complete before) · 0 failed · 1 stopped before their"
                + " workload completed (1 stop-at)");
        assertThat(Files.readString(out.resolve("sweep.html"))).contains("1 stopped before it completed (1 stop-at)");
    }

    @Test
    void aPointWhoseSummaryIsDamagedRunsAgainAndTheResultsAreRewritten() throws Exception {
        Path file = sweep("vary:\n  nic.dcqcn.profile: [paper, nvidia]\n");
        Path out = dir.resolve("out");
        assertThat(CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "1", "-q").exitCode())
                .isZero();
        String csv = Files.readString(out.resolve("results.csv"));
        String id = csv.lines().skip(1).findFirst().orElseThrow().split(",")[0];
        Path summary = out.resolve("points").resolve(id).resolve("summary.json");
        String good = Files.readString(summary);
        Files.writeString(summary, good.substring(0, good.indexOf("\"stop_reason\"")) + "\"stop_reason: \"com");
        Files.writeString(out.resolve("results.csv"), "stale\n");

        CliRun again = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "1", "-q");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.err().lines().toList()).singleElement().asString()
                .startsWith("warning: points/" + id + "/summary.json is damaged (line ")
                .endsWith("): running point " + id + " again");
        assertThat(Files.readString(summary)).contains("\"stop_reason\": \"completed\"");
        assertThat(Files.readString(out.resolve("results.csv")).lines().map(l -> l.split(",")[0])
                .filter(l -> !l.equals("point")).toList()).hasSize(2).contains(id);
        assertThat(out.resolve("points").toFile().list()).hasSize(2);

        CliRun third = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "1");
        assertThat(third.out()).contains("2 runs (0 ran now, 2 complete before) · 0 failed");

        // A point folder without its summary.json is not complete either.
        Files.delete(summary);
        CliRun fourth = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "1", "-q");
        assertThat(fourth.err().lines().toList()).containsExactly("warning: points/" + id + " has no summary.json:"
                + " running point " + id + " again");
        assertThat(summary).isRegularFile();
    }

    @Test
    void eachFailedPointsReasonIsPrintedInWords() throws Exception {
        Path file = sweep("vary:\n  nic.dcqcn.profile: [paper, nvidia]\n");
        Path out = dir.resolve("out");
        String id = CliRun.of("sweep", file.toString(), "--dry-run").out().lines().skip(2).findFirst().orElseThrow()
                .split("\t")[0];
        Files.createDirectories(out.resolve("points"));
        Files.writeString(out.resolve("points").resolve(id), "mine");
        CliRun run = CliRun.of("sweep", file.toString(), "--out", out.toString(), "--jobs", "1", "-q");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().lines().toList()).containsExactly("error: point " + id + " (nic.dcqcn.profile=nvidia,"
                + " seed 1) failed: points/" + id + " is a file where the point's run folder goes: remove it and run the"
                + " sweep again to run this point");
    }
}
