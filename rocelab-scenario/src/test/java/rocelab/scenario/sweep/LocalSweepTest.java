package rocelab.scenario.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.output.Summary;
import rocelab.scenario.lint.Finding;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.lint.Severity;
import rocelab.scenario.read.SweepReader;

class LocalSweepTest {
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

    @TempDir
    Path dir;

    private SweepPlan plan(String kmins, String seeds) throws Exception {
        Files.writeString(dir.resolve("base.yaml"), BASE);
        Files.writeString(dir.resolve("s.yaml"), """
                scenario: base.yaml
                vary:
                  switch.ecn.kmin: [%s]
                  nic.dcqcn.profile: [paper, nvidia]
                seeds: %s
                """.formatted(kmins, seeds));
        return new SweepReader().read(dir.resolve("s.yaml"));
    }

    @Test
    void runsEveryPointInItsOwnFolderAndResumesWithoutRerunning() throws Exception {
        SweepPlan plan = plan("50KB, 200KB", "1");
        Path out = dir.resolve("out");
        List<LocalSweep.Status> statuses = new ArrayList<>();
        LocalSweep.Outcome first = new LocalSweep(plan, out, 2, statuses::add).run();
        assertThat(first.ran()).isEqualTo(4);
        assertThat(first.results().failed()).isZero();
        for (SweepPoint p : plan.points()) {
            Path point = out.resolve("points").resolve(p.id());
            assertThat(point.resolve("summary.json")).isRegularFile();
            assertThat(point.resolve("report.html")).isRegularFile();
            assertThat(Files.readString(point.resolve("scenario.yaml"))).isEqualTo(p.scenarioYaml());
            // Linted as rocelab run lints: its errors and warnings in the manifest and the report (no watchdog: L12).
            assertThat(Files.readString(point.resolve("manifest.json"))).contains("\"scenario_sha256\": \"" + p.id())
                    .contains("\"lint\": [").contains("\"rule\": \"L12\"").doesNotContain("lint_skipped");
            assertThat(Files.readString(point.resolve("report.html"))).contains("L12")
                    .doesNotContain("rocelab lint did not run");
        }
        // A point folder is made as the points folder is, by the umask; not private as a temporary folder is.
        var points = Files.getPosixFilePermissions(out.resolve("points"));
        assertThat(points).contains(PosixFilePermission.OTHERS_READ);
        for (SweepPoint p : plan.points()) {
            assertThat(Files.getPosixFilePermissions(out.resolve("points").resolve(p.id()))).as(p.id())
                    .isEqualTo(points);
        }
        LocalSweep.Status last = statuses.get(statuses.size() - 1);
        assertThat(last.done()).isEqualTo(4);
        assertThat(last.running()).isZero();
        assertThat(statuses).anySatisfy(s -> assertThat(s.running()).isPositive());

        String csv = Files.readString(out.resolve("results.csv"));
        List<String> lines = csv.lines().toList();
        assertThat(lines.get(0)).startsWith("point,seed,switch.ecn.kmin,nic.dcqcn.profile,status,stop_reason,error,")
                .contains(",flows.fct_us.p99,").contains(",counters.ecn_marked,");
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).startsWith("point,seed,switch.ecn.kmin,nic.dcqcn.profile,status,stop_reason,error,"
                + "lint_errors,lint_warnings,lint_error_rules,lint_warning_rules,");
        assertThat(lines.get(1)).startsWith(plan.points().get(0).id() + ",1,50KB,paper,completed,completed,,0,1,,L12,");
        assertThat(lines.get(4)).startsWith(plan.points().get(3).id() + ",1,200KB,nvidia,completed,");
        assertThat(Files.readString(out.resolve("sweep.html"))).contains("<svg").contains("flows.fct_us.p99");

        // Killed half way: a half-written run folder is cleared and complete points are kept.
        // Its process (id above any Linux pid_max) no longer runs.
        Files.createDirectories(out.resolve("points").resolve("." + plan.points().get(0).id()
                + ".partial-999999999-1"));
        LocalSweep.Outcome again = new LocalSweep(plan, out, 2, LocalSweep.Listener.NONE).run();
        assertThat(again.ran()).isZero();
        assertThat(again.reused()).isEqualTo(4);
        assertThat(Files.readString(out.resolve("results.csv"))).isEqualTo(csv);
        assertThat(Files.list(out.resolve("points")).map(p -> p.getFileName().toString()))
                .noneMatch(n -> n.startsWith("."));
        // One that a sweep still running (this process) is writing stays.
        Path live = out.resolve("points").resolve("." + plan.points().get(0).id() + ".partial-"
                + ProcessHandle.current().pid() + "-999");
        Files.createDirectories(live);
        new LocalSweep(plan, out, 2, LocalSweep.Listener.NONE).run();
        assertThat(live).isDirectory();
        Files.delete(live);

        // New values run only the new points; the old rows keep their bytes.
        SweepPlan more = plan("50KB, 200KB, 300KB", "1");
        LocalSweep.Outcome grown = new LocalSweep(more, out, 2, LocalSweep.Listener.NONE).run();
        assertThat(grown.ran()).isEqualTo(2);
        assertThat(grown.reused()).isEqualTo(4);
        List<String> grownLines = Files.readString(out.resolve("results.csv")).lines().toList();
        assertThat(grownLines.subList(1, 5)).isEqualTo(lines.subList(1, 5));
    }

    /**
     * Every run's lint in results.csv and sweep.html: an audit's sweep of buffer and Kmin found its lowest FCTs at
     * 2 MB and Kmin 400 KB, where ECN marks only after PFC pauses (L5), and nothing on the sweep's pages said so.
     * The cells are what rocelab lint says of the point's scenario; the run agrees (more pauses than marks there).
     */
    @Test
    void givesEveryRunsLintErrorsAndWarningsAndMarksThePointsWithErrors() throws Exception {
        Files.writeString(dir.resolve("sw-base.yaml"), """
                name: sw-base
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us},
                  uplink: {rate: 200Gbps, delay: 1us}}
                switch: {buffer: 4MB, pfc: {headroom: auto}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: incast, senders: 4-7, receiver: 0, size: 1MB}
                  - {kind: flow, src: 1, dst: 5, size: 1MB}
                observe: {sample-interval: 0}
                """);
        Files.writeString(dir.resolve("sw.yaml"), """
                scenario: sw-base.yaml
                vary:
                  switch.ecn.kmin: [50KB, 400KB]
                  switch.buffer: [2MB, 8MB]
                """);
        SweepPlan plan = new SweepReader().read(dir.resolve("sw.yaml"));
        Path out = dir.resolve("out");
        SweepResults r = new LocalSweep(plan, out, 2, LocalSweep.Listener.NONE).run().results();
        List<String> header = r.header();
        int errors = header.indexOf("lint_errors");
        assertThat(header.subList(errors, errors + 4)).containsExactly("lint_errors", "lint_warnings",
                "lint_error_rules", "lint_warning_rules");
        int broken = -1;
        for (int i = 0; i < plan.points().size(); i++) {
            SweepPoint p = plan.points().get(i);
            LintReport lint = Lint.check(PointRunner.config(p));
            List<String> row = r.rows().get(i);
            assertThat(row.get(errors)).isEqualTo(Long.toString(lint.count(Severity.ERROR)));
            assertThat(row.get(errors + 1)).isEqualTo(Long.toString(lint.count(Severity.WARNING)));
            assertThat(row.get(errors + 2)).isEqualTo(String.join(" ", lint.findings().stream()
                    .filter(f -> f.severity() == Severity.ERROR).map(Finding::rule).distinct().toList()));
            assertThat(r.lintErrors(i)).isEqualTo(lint.hasErrors());
            if (lint.hasErrors()) {
                assertThat(broken).as("one point with errors").isEqualTo(-1);
                broken = i;
            }
        }
        // The audit's point: Kmin 400 KB in 2 MB, ECN above the 2:1 incast's XOFF point.
        assertThat(plan.points().get(broken).values()).containsExactly("400KB", "2MB");
        assertThat(r.rows().get(broken).get(errors + 2)).isEqualTo("L5");
        // The run agrees: PFC did the work there, ECN barely marked.
        String summary = Files.readString(out.resolve("points").resolve(plan.points().get(broken).id())
                .resolve("summary.json"));
        assertThat(Long.parseLong(SummaryMetrics.numbers(summary).get("counters.pfc_pause_sent")))
                .isGreaterThan(Long.parseLong(SummaryMetrics.numbers(summary).get("counters.ecn_marked")));
        String html = Files.readString(out.resolve("sweep.html"));
        assertThat(html).contains("<b>1 of 4 runs have lint errors</b> (L5)", SweepReport.LINT_NOTE,
                "<h2 id=\"lint\">Lint</h2>", "<tr><td>" + plan.points().get(broken).id() + "</td><td>");
        // One dashed ring per chart: one value of each chart includes the run.
        long charts = html.split("<svg", -1).length - 1;
        assertThat(html.split("stroke-dasharray", -1).length - 1L).isEqualTo(charts);
    }

    @Test
    void aFailingPointIsRecordedAndTheOthersComplete() throws Exception {
        SweepPlan plan = plan("50KB, 200KB", "1");
        Path out = dir.resolve("out");
        // Something that is not a run folder stands where one point's folder must go.
        String broken = plan.points().get(1).id();
        Files.createDirectories(out.resolve("points"));
        Files.writeString(out.resolve("points").resolve(broken), "not a folder");
        LocalSweep.Outcome outcome = new LocalSweep(plan, out, 2, LocalSweep.Listener.NONE).run();
        assertThat(outcome.results().failed()).isEqualTo(1);
        // The broken point never ran: it is counted failed, not among the runs made now.
        assertThat(outcome.ran()).isEqualTo(3);
        List<String> lines = Files.readString(out.resolve("results.csv")).lines().toList();
        assertThat(lines).hasSize(5);
        String row = lines.stream().filter(l -> l.startsWith(broken)).findFirst().orElseThrow();
        assertThat(row).contains(",failed,,points/" + broken + " is a file where the point's run folder goes: remove it"
                + " and run the sweep again to run this point").doesNotContain("Exception").doesNotContain("java.");
        assertThat(out.resolve("points").resolve(broken)).hasContent("not a folder");
        assertThat(lines.stream().filter(l -> l.contains(",completed,"))).hasSize(3);
        assertThat(Files.readString(out.resolve("sweep.html"))).contains("Failed points");
    }

    @Test
    void twoSweepsIntoOneFolderAtOnceBothCompleteEveryPoint() throws Exception {
        SweepPlan plan = plan("50KB, 200KB, 300KB", "1");
        Path out = dir.resolve("out");
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            Callable<LocalSweep.Outcome> sweep = () -> new LocalSweep(plan, out, 1, LocalSweep.Listener.NONE).run();
            Future<LocalSweep.Outcome> a = two.submit(sweep);
            Future<LocalSweep.Outcome> b = two.submit(sweep);
            for (LocalSweep.Outcome o : List.of(a.get(), b.get())) {
                assertThat(o.results().failures()).isEmpty();
                assertThat(o.results().failed()).isZero();
            }
        } finally {
            two.shutdownNow();
        }
        // Whichever wrote results.csv last, it is built from every point's folder, metrics and all.
        List<String> lines = Files.readString(out.resolve("results.csv")).lines().toList();
        assertThat(lines).hasSize(7);
        assertThat(lines.get(0)).contains(",flows.fct_us.p99,");
        assertThat(lines.subList(1, 7)).allSatisfy(l -> assertThat(l).contains(",completed,completed,,"));
        assertThat(Files.list(out.resolve("points")).map(p -> p.getFileName().toString()))
                .noneMatch(n -> n.startsWith("."));
    }

    @Test
    void aPointFinishedByAnotherSweepFirstIsTakenFromItsFolder() throws Exception {
        SweepPlan plan = plan("50KB", "1");
        Path out = dir.resolve("out");
        new LocalSweep(plan, out, 1, LocalSweep.Listener.NONE).run();
        Path points = out.resolve("points");
        Path target = points.resolve(plan.points().get(0).id());
        String theirs = Files.readString(target.resolve("summary.json"));
        // This sweep's own copy of the same run, finished just after the other sweep's was renamed into place.
        Path mine = points.resolve("." + plan.points().get(0).id() + ".partial-" + ProcessHandle.current().pid()
                + "-77");
        Files.createDirectories(mine);
        Files.writeString(mine.resolve("summary.json"), "{\"stop_reason\": \"completed\"}");
        assertThat(PointFolders.publish(mine, target)).isEqualTo(theirs);
        assertThat(mine).doesNotExist();
        assertThat(target.resolve("summary.json")).hasContent(theirs);
    }

    @Test
    void parallelPointsGiveTheSameResultsAsOneAtATime() throws Exception {
        SweepPlan plan = plan("50KB", "2");
        String one = withoutWallClock(new LocalSweep(plan, dir.resolve("one"), 1, LocalSweep.Listener.NONE).run());
        String two = withoutWallClock(new LocalSweep(plan, dir.resolve("two"), 2, LocalSweep.Listener.NONE).run());
        assertThat(two).isEqualTo(one);
    }

    @Test
    void aFlowLevelSweepRunsItsPointsFlowLevelInFoldersOfTheirOwn() throws Exception {
        Files.writeString(dir.resolve("base.yaml"), BASE);
        Files.writeString(dir.resolve("flow.yaml"), """
                scenario: base.yaml
                vary:
                  traffic[0].senders: [1-2, 1-4]
                model: flow
                """);
        SweepPlan flow = new SweepReader().read(dir.resolve("flow.yaml"));
        LocalSweep.Outcome o = new LocalSweep(flow, dir.resolve("flow"), 1, LocalSweep.Listener.NONE).run();
        assertThat(o.results().failed()).isZero();
        for (SweepPoint p : flow.points()) {
            String summary = Files.readString(dir.resolve("flow").resolve("points").resolve(p.id())
                    .resolve("summary.json"));
            assertThat(summary).contains("\"model\": \"flow\"");
            Path folder = dir.resolve("flow").resolve("points").resolve(p.id());
            assertThat(Files.readString(folder.resolve("manifest.json"))).contains("\"model\": \"flow\"")
                    .contains("\"sweep_point\": \"" + p.id() + "\"");
            String header = Files.readAllLines(folder.resolve("scenario.yaml")).get(0);
            assertThat(header).endsWith(", seed 1, model flow (run it again with rocelab run scenario.yaml --model"
                    + " flow)");
            // The id: the scenario's hash with the model hashed in, as the docs say.
            String sha = Files.readString(folder.resolve("manifest.json")).replaceAll("(?s).*\"scenario_sha256\":"
                    + " \"([0-9a-f]+)\".*", "$1");
            assertThat(p.id()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                    (sha + "\nmodel=flow").getBytes(StandardCharsets.UTF_8))).substring(0, 12));
        }
        List<String> lines = Files.readAllLines(dir.resolve("flow").resolve("results.csv"));
        assertThat(lines).hasSize(3);
        Files.writeString(dir.resolve("packet.yaml"), """
                scenario: base.yaml
                vary:
                  traffic[0].senders: [1-2, 1-4]
                """);
        SweepPlan packet = new SweepReader().read(dir.resolve("packet.yaml"));
        assertThat(packet.points().get(0).id()).as("the same scenario under two models gets two folders")
                .isNotEqualTo(flow.points().get(0).id());
    }

    /** results.csv with the machine-dependent columns blanked. */
    static String withoutWallClock(LocalSweep.Outcome outcome) {
        SweepResults r = outcome.results();
        List<Integer> wall = new ArrayList<>();
        for (int i = 0; i < r.header().size(); i++) {
            if (Arrays.asList(Summary.WALL_CLOCK_KEYS).contains(r.header().get(i))) {
                wall.add(i);
            }
        }
        assertThat(wall).hasSize(Summary.WALL_CLOCK_KEYS.length);
        StringBuilder b = new StringBuilder(String.join(",", r.header())).append('\n');
        for (List<String> row : r.rows()) {
            List<String> cells = new ArrayList<>(row);
            wall.forEach(i -> cells.set(i, ""));
            b.append(String.join(",", cells)).append('\n');
        }
        return b.toString();
    }
}
