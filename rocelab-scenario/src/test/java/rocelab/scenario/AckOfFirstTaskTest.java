package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.flow.EcmpFabric;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.graph.StreamedDriver;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskSource;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.graph.WorkloadDriver;

/**
 * A wait on the ACK of task 0 is a wait like any other: task 0's acknowledgement must not be mistaken for "no
 * dependency" (which is what {@code acked(0)} was, as {@code ~0 == -1}), in the graph, in a run at packet and at flow
 * level, in a streamed run and in the ideal bound. Shipped emitters start every graph with a start task, so only a
 * graph made directly, like these, has a flow as task 0.
 */
class AckOfFirstTaskTest {
    private static final String FABRIC = """
            name: ack-of-task-0
            fabric: {mode: roce-lossless, mtu: 1000}
            nic: {cc: none}
            topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
            """;
    private static final long COMPUTE_PS = 1_000_000;

    /** Task ids of {@link #graph}. */
    private static final int FLOW = 0;
    private static final int AFTER_ACK = 1;
    private static final int PROMISE = 2;
    private static final int OTHER_FLOW = 3;

    /**
     * Task 0 a flow of 1 MB; task 1 a compute on its ACK (given when added); task 2 a promise fulfilled with its ACK
     * (a late dependency); task 3 a flow on the promise. Each must wait for the first flow's last ACK.
     */
    private static TaskGraph graph() {
        TaskGraph g = new TaskGraph();
        int flow = g.flow(0, 1, 1_000_000, -1, -1, 0);
        int compute = g.compute(COMPUTE_PS, 0, TaskGraph.acked(flow));
        int promise = g.promise(0);
        int other = g.flow(0, 2, 10_000, -1, -1, 0, promise);
        g.fulfil(promise, TaskGraph.acked(flow));
        assertThat(new int[] {flow, compute, promise, other}).containsExactly(FLOW, AFTER_ACK, PROMISE, OTHER_FLOW);
        return g;
    }

    private static ScenarioConfig config() throws ScenarioException {
        return new ScenarioReader().fabricOnly().read(FABRIC, "test.yaml", Path.of("."));
    }

    @Test
    void shouldKeepTheAckOfTaskZeroAsADependency() {
        TaskGraph g = graph();

        assertThat(g.dependencyCount(AFTER_ACK)).isEqualTo(1);
        assertThat(g.dependency(AFTER_ACK, 0)).isEqualTo(TaskGraph.acked(FLOW));
        assertThat(g.lateDependencyCount()).isEqualTo(1);
        assertThat(g.lateTask(0)).isEqualTo(PROMISE);
        assertThat(g.lateDependency(0)).isEqualTo(TaskGraph.acked(FLOW));
        assertThat(g.tasksInCycles()).isZero();
    }

    @Test
    void shouldStartNothingBeforeTaskZerosAckAtPacketLevel() throws ScenarioException {
        Simulation simulation = Simulation.assemble(config());
        WorkloadDriver driver = new WorkloadDriver(simulation.network(), graph());
        simulation.simulator().run(Long.MAX_VALUE, Long.MAX_VALUE);

        assertThat(driver.allFinished()).isTrue();
        assertWaitedForTheAck(driver);
    }

    @Test
    void shouldStartNothingBeforeTaskZerosAckAtFlowLevel() throws ScenarioException {
        ScenarioConfig config = config();
        Simulation simulation = Simulation.assemble(config);
        WorkloadDriver driver = WorkloadDriver.flowLevel(simulation.simulator(), graph(),
                new EcmpFabric(simulation.network(), Simulation.pathTiming(simulation.network(), config)),
                simulation.network().hostCount());
        simulation.simulator().run(Long.MAX_VALUE, Long.MAX_VALUE);

        assertThat(driver.allFinished()).isTrue();
        assertWaitedForTheAck(driver);
    }

    @Test
    void shouldStartNothingBeforeTaskZerosAckInTheIdealBound() throws ScenarioException {
        ScenarioConfig config = config();
        Simulation simulation = Simulation.assemble(config);
        IdealBound bound = new IdealBound(graph(), Simulation.idealNetwork(simulation.network(), config),
                simulation.network().hostCount(), null);

        assertWaitedForTheAck(bound);
        assertThat(bound.lastFinishPs()).isGreaterThanOrEqualTo(bound.taskEndPs(AFTER_ACK));
    }

    /** A streamed graph has no promises: task 0 a flow, task 1 a compute on its ACK, added by the next part. */
    @Test
    void shouldStartNothingBeforeTaskZerosAckInAStreamedRun() throws ScenarioException {
        ScenarioConfig config = config();
        Simulation simulation = Simulation.assemble(config);
        TaskGraph g = new TaskGraph();
        g.streamed(64);
        TaskSource source = new TaskSource() {
            private int parts;

            @Override
            public boolean emitMore(TaskGraph graph) {
                if (parts++ == 0) {
                    graph.flow(0, 1, 1_000_000, -1, -1, 0);
                } else {
                    graph.compute(COMPUTE_PS, 0, TaskGraph.acked(FLOW));
                }
                return parts < 2;
            }

            @Override
            public int largestPart() {
                return 1;
            }
        };
        long[] flowTimes = new long[2];
        StreamedDriver driver = new StreamedDriver(simulation.simulator(), g, source,
                new EcmpFabric(simulation.network(), Simulation.pathTiming(simulation.network(), config)),
                simulation.network().hostCount(), 8, 8, (flow, task, startPs, deliveredPs, completedPs, qp) -> {
                    flowTimes[0] = deliveredPs;
                    flowTimes[1] = completedPs;
                }, null);
        simulation.simulator().run(Long.MAX_VALUE, Long.MAX_VALUE);

        assertThat(driver.allFinished()).isTrue();
        assertThat(flowTimes[1]).as("ACKed after delivery").isGreaterThan(flowTimes[0]);
        assertThat(driver.taskStartPs(AFTER_ACK)).isEqualTo(flowTimes[1]);
        assertThat(driver.lastFinishPs()).isEqualTo(flowTimes[1] + COMPUTE_PS);
    }

    /** Tasks 1 to 3 started when task 0 was acknowledged, which is after it was delivered. */
    private static void assertWaitedForTheAck(TaskTimes times) {
        long delivered = times.taskEndPs(FLOW);
        long acked = times.completedPs(times.graph().flowIndex(FLOW));
        assertThat(delivered).isPositive();
        assertThat(acked).as("ACKed after delivery").isGreaterThan(delivered);
        assertThat(times.taskStartPs(AFTER_ACK)).isEqualTo(acked);
        assertThat(times.taskEndPs(AFTER_ACK)).isEqualTo(acked + COMPUTE_PS);
        assertThat(times.taskStartPs(PROMISE)).isEqualTo(acked);
        assertThat(times.taskStartPs(OTHER_FLOW)).isEqualTo(acked);
    }
}
