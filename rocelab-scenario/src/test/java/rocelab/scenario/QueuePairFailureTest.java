package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.WorkloadDriver;

/**
 * A queue pair that exhausts its retries fails every unfinished flow posted on it, and everything waiting for them;
 * flows on other queue pairs are untouched.
 */
class QueuePairFailureTest {
    @Test
    void shouldFailEveryFlowOfTheFailedQueuePairAndWhatWaitsForThemOnly() throws ScenarioException {
        ScenarioConfig config = new ScenarioReader().fabricOnly().read("""
                name: qp-failure
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 8, retry-count: 1}
                events:
                  - {kind: link-down, a: leaf0, b: spine0, at: 1us}
                  - {kind: link-down, a: leaf0, b: spine1, at: 1us}
                """, "test.yaml", Path.of("."));
        Simulation simulation = Simulation.assemble(config);
        TaskGraph graph = new TaskGraph();
        // An unrelated flow first, so the failing QP is not the driver's first one.
        int local = graph.flow(1, 0, 200_000, -1, -1, 0);
        int shared = graph.newConnection();
        int first = graph.flow(0, 2, 4_000_000, -1, shared, 0);
        int second = graph.flow(0, 2, 1_000_000, -1, shared, 0);
        int after = graph.compute(1_000_000, 0, second);
        int alone = graph.flow(3, 2, 300_000, -1, -1, 0);
        WorkloadDriver driver = new WorkloadDriver(simulation.network(), graph);
        simulation.simulator().run(Long.MAX_VALUE, Long.MAX_VALUE);

        assertThat(driver.allFinished()).isTrue();
        assertThat(driver.queuePair(graph.flowIndex(first)).failed()).isTrue();
        assertThat(driver.queuePair(graph.flowIndex(second))).isSameAs(driver.queuePair(graph.flowIndex(first)));
        assertThat(driver.failed(graph.flowIndex(first))).isTrue();
        assertThat(driver.failed(graph.flowIndex(second))).isTrue();
        assertThat(driver.taskFailed(after)).as("waited for a failed flow").isTrue();
        // By identity: the failure that reached the compute is the flow it waited for, failed by its own QP.
        assertThat(driver.failedBy(after)).isEqualTo(second);
        assertThat(driver.failedBy(second)).isEqualTo(WorkloadDriver.OWN_QUEUE_PAIR);
        assertThat(driver.failedUnposted(graph.flowIndex(second))).as("posted on the QP behind the first").isFalse();
        assertThat(driver.failed(graph.flowIndex(local))).isFalse();
        assertThat(driver.completedPs(graph.flowIndex(local))).isPositive();
        assertThat(driver.failed(graph.flowIndex(alone))).isFalse();
        assertThat(driver.completedPs(graph.flowIndex(alone))).isPositive();
    }
}
