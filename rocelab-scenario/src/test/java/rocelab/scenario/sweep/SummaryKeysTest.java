package rocelab.scenario.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import rocelab.observe.output.RunWriter;
import rocelab.scenario.read.ScenarioReader;
import rocelab.scenario.read.SweepReader;

/**
 * The key paths a sweep's metrics may name (SummaryKeys) hold every key that real runs write to summary.json: runs of
 * every kind (flows, a deadlock with victims, InfiniBand, inference, collectives, jobs, ECMP collisions, a rate held
 * back, the flow and ideal models).
 */
class SummaryKeysTest {
    @ParameterizedTest(name = "{0} ({1})")
    @CsvSource({"pfc-deadlock-ring, packet", "infiniband-incast, packet", "agentic-inference, packet",
        "ring-allreduce, packet", "train-3d-rail, packet", "websearch-load, packet", "cc-held-back, packet",
        "multi-plane-permutation, packet", "pause-storm-watchdog, packet", "moe-alltoall, packet",
        "websearch-load, flow", "ring-allreduce, ideal"})
    void everyKeyARunWritesIsListed(String example, String model) throws Exception {
        String json = RunWriter.summaryJson(PointRunner.run(new ScenarioReader().readExample(example), model));
        Set<String> keys = new LinkedHashSet<>();
        walk(new Yaml().load(json), "", keys);
        assertThat(keys).isNotEmpty();
        assertThat(SummaryKeys.ALL).containsAll(keys);
        for (String k : SummaryMetrics.numbers(json).keySet()) {
            assertThat(SummaryKeys.known(k)).as(k).isTrue();
        }
    }

    /** A QP that ran out of retries behind a down link writes retry_failures (no shipped example has link events). */
    @Test
    void theKeysOfARetryFailureAreListed() throws Exception {
        String json = RunWriter.summaryJson(PointRunner.run(new ScenarioReader().read("""
                name: receiver-link-lost
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 8, retry-count: 1}
                events:
                  - {kind: link-down, a: h3, b: leaf1, at: 30us}
                traffic:
                  - {kind: flow, src: 1, dst: 3, size: 1MB}
                """, "test.yaml", Path.of(".")), "packet"));
        Set<String> keys = new LinkedHashSet<>();
        walk(new Yaml().load(json), "", keys);
        assertThat(keys).contains("retry_failures[].links[].down_since_us");
        assertThat(SummaryKeys.ALL).containsAll(keys);
    }

    @Test
    void selectorsAreNamesOrPrefixesAtABoundary() {
        assertThat(SummaryKeys.known("flows.fct_us.p99")).isTrue();
        assertThat(SummaryKeys.known("flows.fct_us")).isTrue();
        assertThat(SummaryKeys.known("counters")).isTrue();
        assertThat(SummaryKeys.known("collectives[0].busbw_gbytes_per_s")).isTrue();
        assertThat(SummaryKeys.known("collectives")).isTrue();
        assertThat(SummaryKeys.known("flows.fct_uss")).isFalse();
        assertThat(SummaryKeys.known("flows.fct")).isFalse();
        assertThat(SummaryKeys.nearest("flows.fct_uss")).containsExactly("flows.fct_us");
        assertThat(SummaryKeys.ALL).isSorted().doesNotHaveDuplicates();
    }

    /** Every shipped sweep's metrics are known (read in full: every point resolved). */
    @Test
    void theShippedSweepsNameKnownMetrics() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("../scenarios/sweeps"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                SweepPlan plan = new SweepReader().read(f);
                assertThat(plan.metrics()).as(f.toString()).allMatch(SummaryKeys::known);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void walk(Object n, String name, Set<String> out) {
        if (!name.isEmpty()) {
            out.add(name);
        }
        if (n instanceof java.util.Map<?, ?> m) {
            for (var e : m.entrySet()) {
                walk(e.getValue(), name.isEmpty() ? (String) e.getKey() : name + "." + e.getKey(), out);
            }
        } else if (n instanceof List<?> l) {
            for (Object o : l) {
                walk(o, name + "[]", out);
            }
        }
    }
}
