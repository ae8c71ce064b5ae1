package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L24: a GPU that two workload items compute on. Each item has its GPUs to itself in the model, so their compute steps
 * overlap at full speed: the rule names both items and the hosts they share, once per pair, and says nothing when
 * the items' hosts are apart.
 */
class SharedGpuRuleTest {
    private static ScenarioConfig read(String trainHosts, String otherJobHosts) {
        String yaml = """
                name: shared
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
                inference:
                  - name: svc
                    model: {layers: 2, hidden: 1024, heads: 8, kv-heads: 8, head-dim: 128, dtype-bytes: 2}
                    instances:
                      - {role: prefill, tp: 1, hosts: 0}
                      - {role: decode, tp: 1, hosts: 1}
                    cost: {prefill-per-token: 1us, decode-step: 100us}
                    gateway: 3
                    arrivals: {process: poisson, rate: 1000/s, count: 1}
                    request:
                      ingress: 8KiB
                      steps:
                        - llm: {prompt-tokens: 1000, output-tokens: 5}
                      egress: 1KiB
                jobs:
                  - name: train
                    hosts: "%s"
                    parallelism: {dp: 4}
                    iterations: 1
                    program:
                      - {id: c, op: compute, duration: 100us}
                      - {id: g, op: allreduce, group: dp, size-total: 1MiB}
                  - name: eval
                    hosts: "%s"
                    parallelism: {dp: 2}
                    iterations: 1
                    program:
                      - {id: c, op: compute, duration: 100us}
                """.formatted(trainHosts, otherJobHosts);
        try {
            return new ScenarioReader().read(yaml, "shared.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldNameEachPairOfItemsThatComputeOnOneGpu() {
        LintReport r = Lint.check(read("0,1,4,5", "5,6"));
        assertThat(r.of("L24")).extracting(Finding::what).containsExactly(
                "job train and job eval both compute on 1 GPU (h5)",
                "job train and inference service svc both compute on 2 GPUs (h0-h1)");
        assertThat(r.of("L24")).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.symptom()).contains("their compute steps run at once, each at full speed");
        });
        assertThat(r.of("L24").get(1).devices()).containsExactly("h0", "h1");
    }

    @Test
    void shouldStayQuietWhenEachItemHasItsOwnGpus() {
        // h3 is the service's gateway: it moves the requests' bytes and computes nothing for the service.
        assertThat(Lint.check(read("2,4,5,6", "7,3")).of("L24")).isEmpty();
    }
}
