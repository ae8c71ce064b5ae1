package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.sweep.PointRunner;
import rocelab.scenario.sweep.SweepPlan;
import rocelab.scenario.sweep.SweepPoint;
import rocelab.workload.traffic.IncastTraffic;

class SweepReaderTest {
    private static final String BASE = """
            name: base
            seed: 5
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
            switch:
              buffer: 4MB
              ecn: {marking: red, kmin: 400KB, kmax: 1600KB}
            nic: {cc: dcqcn, dcqcn: {profile: hpcc-ns3}}
            switches:
              - {name: switch0, buffer: 8MB}
            traffic:
              - {kind: incast, senders: 1-4, receiver: 0, size: 100KB}
            """;

    @TempDir
    Path dir;

    private SweepPlan read(String sweep) throws Exception {
        Files.writeString(dir.resolve("base.yaml"), BASE);
        Files.writeString(dir.resolve("s.yaml"), sweep);
        return new SweepReader().read(dir.resolve("s.yaml"));
    }

    private ScenarioException error(String sweep) {
        try {
            read(sweep);
        } catch (ScenarioException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no error for\n" + sweep);
    }

    @Test
    void gridVariesTheLastKeyFastestAndEachPointIsTheEditedScenario() throws Exception {
        SweepPlan plan = read("""
                scenario: base.yaml
                vary:
                  switch.ecn.kmin: [100KB, 200KB]
                  traffic[0].senders: [1-2, 1-8]
                  switches[0].buffer: [2MB]
                """);
        assertThat(plan.keys()).containsExactly("switch.ecn.kmin", "traffic[0].senders", "switches[0].buffer");
        assertThat(plan.points()).extracting(SweepPoint::values).containsExactly(List.of("100KB", "1-2", "2MB"),
                List.of("100KB", "1-8", "2MB"), List.of("200KB", "1-2", "2MB"), List.of("200KB", "1-8", "2MB"));
        SweepPoint last = plan.points().get(3);
        ScenarioConfig c = PointRunner.config(last);
        assertThat(c.ecn().kminBytes()).isEqualTo(200_000);
        assertThat(c.ecn().kmaxBytes()).isEqualTo(1_600_000);
        assertThat(((IncastTraffic) c.traffic().get(0)).senders()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(c.devices().switches().get(0).parameters().bufferBytes()).isEqualTo(2_000_000);
        assertThat(c.seed()).isEqualTo(5);
        // The folder name is manifest.json's scenario hash.
        assertThat(Simulation.scenarioHash(c)).startsWith(last.id());
        assertThat(last.id()).hasSize(SweepPoint.ID_LENGTH);
    }

    @Test
    void zipPairsValuesAndSeedsMultiplyPoints() throws Exception {
        SweepPlan plan = read("""
                scenario: base.yaml
                combine: zip
                vary:
                  switch.ecn.kmin: [100KB, 200KB]
                  switch.ecn.kmax: [300KB, 600KB]
                seeds: 3
                """);
        assertThat(plan.points()).hasSize(6);
        assertThat(plan.points()).extracting(SweepPoint::seed).containsExactly(5L, 6L, 7L, 5L, 6L, 7L);
        assertThat(plan.points().get(5).values()).containsExactly("200KB", "600KB");
        assertThat(PointRunner.config(plan.points().get(5)).seed()).isEqualTo(7);
        assertThat(plan.points()).extracting(SweepPoint::id).doesNotHaveDuplicates();
    }

    @Test
    void randomSampleIsSeededDistinctAndInGridOrder() throws Exception {
        String sweep = """
                scenario: base.yaml
                combine: random
                samples: 5
                sample-seed: %d
                vary:
                  switch.ecn.kmin: [10KB, 20KB, 30KB, 40KB]
                  switch.ecn.kmax: [2MB, 3MB, 4MB]
                """;
        SweepPlan a = read(sweep.formatted(3));
        SweepPlan again = read(sweep.formatted(3));
        SweepPlan other = read(sweep.formatted(4));
        assertThat(a.points()).hasSize(5);
        assertThat(a.points()).extracting(SweepPoint::id).doesNotHaveDuplicates();
        assertThat(again.points()).extracting(SweepPoint::id).isEqualTo(a.points().stream().map(SweepPoint::id).toList());
        assertThat(other.points()).extracting(SweepPoint::id)
                .isNotEqualTo(a.points().stream().map(SweepPoint::id).toList());
        List<String> order = a.points().stream().map(p -> p.values().get(0) + p.values().get(1)).toList();
        assertThat(order).isSortedAccordingTo((x, y) -> Integer.compare(grid(x), grid(y)));
        // Every value as written, sampled or not: sweep.html sets them along x in this order.
        assertThat(a.values()).containsExactly(List.of("10KB", "20KB", "30KB", "40KB"), List.of("2MB", "3MB", "4MB"));
    }

    private static int grid(String v) {
        return Integer.parseInt(v.substring(0, 2)) * 10 + Integer.parseInt(v.substring(4, 5));
    }

    @Test
    void exampleBaseAndAMissingKeyIsAdded() throws Exception {
        Files.writeString(dir.resolve("s.yaml"), """
                example: lossless-dcqcn
                vary:
                  switch.ecn.at: [enqueue]
                """);
        SweepPlan plan = new SweepReader().read(dir.resolve("s.yaml"));
        assertThat(plan.baseScenario()).isEqualTo("lossless-dcqcn.yaml");
        assertThat(PointRunner.config(plan.points().get(0)).ecn().atEnqueue()).isTrue();
    }

    @Test
    void theResolvedScenarioTextReadsBackToTheSameScenario() throws Exception {
        SweepPlan plan = read("""
                scenario: base.yaml
                vary:
                  nic.dcqcn: [{profile: paper}, {profile: nvidia, g: 1/256}]
                """);
        assertThat(plan.points().get(1).values().get(0)).isEqualTo("{profile: nvidia, g: 1/256}");
        String yaml = plan.points().get(1).scenarioYaml();
        assertThat(yaml).startsWith("# A point of the sweep").contains("g: 1/256");
        ScenarioConfig fromText = new ScenarioReader().read(yaml, "x.yaml", dir);
        assertThat(Simulation.scenarioHash(fromText)).startsWith(plan.points().get(1).id());
    }

    /** Bad input names the sweep file's line and column (of the value, or of the key path). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            wrong unit           | s.yaml | 3 | 28 | vary:\\n  switch.ecn.kmin: [100KB, 4XB]                         | not a size
            wrong type           | s.yaml | 3 | 30 | vary:\\n  nic.dcqcn.profile: [paper, [1]]                      | is a list
            unknown key path     | s.yaml | 3 | 3  | vary:\\n  switch.ecn.kmim: [100KB]                             | unknown key 'kmim'
            unknown top key      | s.yaml | 3 | 3  | vary:\\n  swich.buffer: [1MB]                                  | unknown key 'swich'
            index out of range   | s.yaml | 3 | 3  | vary:\\n  traffic[3].size: [1MB]                               | traffic[3] does not exist
            bad path syntax      | s.yaml | 3 | 10 | vary:\\n  switch..buffer: [1MB]                                | is not a key name
            host out of range    | s.yaml | 3 | 31 | vary:\\n  traffic[0].senders: [1-2, 1-20]                      | host 20 is out of range
            empty sweep          | s.yaml | 2 | 7  | vary: {}                                                     | varies nothing
            no values            | s.yaml | 3 | 20 | vary:\\n  switch.ecn.kmin: []                                  | has no values
            unknown combine      | s.yaml | 2 | 10 | combine: product\\nvary:\\n  switch.ecn.kmin: [1KB]             | expected one of: grid, zip, random
            zip lengths          | s.yaml | 5 | 3  | combine: zip\\nvary:\\n  switch.ecn.kmin: [1KB]\\n  switch.ecn.kmax: [1MB, 2MB] | the same length
            too many samples     | s.yaml | 3 | 10 | combine: random\\nsamples: 9\\nvary:\\n  switch.ecn.kmin: [1KB]   | more than the grid
            samples without random | s.yaml | 2 | 1 | samples: 2\\nvary:\\n  switch.ecn.kmin: [1KB]                | only with that
            no effect            | s.yaml | 3 | 28 | vary:\\n  switch.ecn.kmin: [100KB, 100000B]                    | gives the same scenario
            varying the seed     | s.yaml | 3 | 3  | vary:\\n  seed: [1, 2]                                         | seeds
            overlapping keys     | s.yaml | 4 | 3  | vary:\\n  switch.ecn: [{kmin: 1KB}]\\n  switch.ecn.kmax: [1MB]  | overlaps
            unknown model        | s.yaml | 2 | 8  | model: fluid\\nvary:\\n  switch.ecn.kmin: [1KB]                 | expected one of: packet, flow, ideal
            bad metric           | s.yaml | 2 | 11 | metrics: [fct p99]\\nvary:\\n  switch.ecn.kmin: [1KB]           | not a metric name
            misspelt metric      | s.yaml | 2 | 28 | metrics: [max_queue_bytes, flows.fct_uss]\\nvary:\\n  switch.ecn.kmin: [1KB] | 'flows.fct_uss' is not a key of summary.json (did you mean flows.fct_us?)
            unknown metric index | s.yaml | 3 | 5  | metrics:\\n  - collectives[0].busbw\\nvary:\\n  switch.ecn.kmin: [1KB] | 'collectives[0].busbw' is not a key of summary.json
            unknown sweep key    | s.yaml | 2 | 1  | vari:\\n  switch.ecn.kmin: [1KB]                                | unknown key 'vari'
            duplicate seeds      | s.yaml | 2 | 12 | seeds: [1, 1]\\nvary:\\n  switch.ecn.kmin: [1KB]                | listed twice
            combination in base  | base.yaml | 7 | 42 | vary:\\n  switch.ecn.kmin: [100KB, 2000KB]                 | must not be below kmin
            """)
    void badInputIsPositioned(String what, String file, int line, int column, String body, String expected) {
        String sweep = "scenario: base.yaml\n" + body.replace("\\n", "\n") + "\n";
        ScenarioException e = error(sweep);
        assertThat(e.file()).as(e.getMessage()).endsWith(file);
        assertThat(e.line()).as(e.getMessage()).isEqualTo(line);
        assertThat(e.column()).as(e.getMessage()).isEqualTo(column);
        assertThat(e.detail()).contains(expected);
    }

    @Test
    void aMissingBaseScenarioIsReportedAtItsName() {
        ScenarioException e = error("scenario: nowhere.yaml\nvary:\n  switch.ecn.kmin: [1KB]\n");
        assertThat(e.getMessage()).endsWith("").contains("s.yaml:1:11: file not found");
        assertThatThrownBy(() -> read("example: no-such-example\nvary:\n  switch.ecn.kmin: [1KB]\n"))
                .hasMessageContaining("s.yaml:1:10: there is no example named 'no-such-example'");
        assertThatThrownBy(() -> read("vary:\n  switch.ecn.kmin: [1KB]\n"))
                .hasMessageContaining("missing key 'scenario'");
    }
}
