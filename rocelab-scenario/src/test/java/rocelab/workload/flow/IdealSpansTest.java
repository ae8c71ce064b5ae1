package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rocelab.engine.Rates;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.graph.TaskGraph;

/**
 * A span's bound is the work between its two tasks alone: what else the tasks waited on (a queue ahead of them, an
 * earlier start) is left out, and it equals the same work in a graph of its own. The difference of the two tasks'
 * own bounds is not a bound of the span: a run whose first task was late finds the queue gone.
 */
class IdealSpansTest {
    private static final String FABRIC = """
            name: spans
            fabric: {mode: roce-lossless, mtu: 4096}
            nic: {cc: dcqcn}
            topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
            traffic:
              - {kind: flow, src: 0, dst: 1, size: 1KB}
            """;

    private static IdealNetwork ideal(Network network, ScenarioConfig config) {
        return new IdealNetwork(network, new PathTiming(network.frames(), config.nic().mtuBytes(),
                config.switches().forwardingLatencyPs()));
    }

    /** The call's work after its prompt: 1 ms of compute on host 0, two flows out of host 0, 100 us on host 1. */
    private static int work(TaskGraph g, int after, int... alsoAfter) {
        int c = g.compute(1_000_000_000L, 0, after);
        int k1 = g.flow(0, 1, 256 * 1024, -1, -1, 0, c);
        int k2 = g.flow(0, 2, 512 * 1024, -1, -1, 0, c);
        int[] waits = Arrays.copyOf(new int[] {k1, k2}, 2 + alsoAfter.length);
        System.arraycopy(alsoAfter, 0, waits, 2, alsoAfter.length);
        int j = g.join(1, waits);
        return g.compute(100_000_000L, 1, j);
    }

    @Test
    void shouldBoundTheWorkBetweenTwoTasksAloneWhateverElseTheyWaitedOn() throws ScenarioException {
        ScenarioConfig config = new ScenarioReader().read(FABRIC, "spans.yaml", Path.of("."));
        Network network = Simulation.assemble(config).network();
        IdealNetwork net = ideal(network, config);

        // In a run: a 10 ms queue ahead of the compute and of the last step, the prompt a flow into host 0.
        TaskGraph g = new TaskGraph();
        int queue = g.delay(10_000_000_000L, -1);
        int ready = g.flow(2, 0, 16 * 1024, -1, -1, 0);
        int end = work(g, ready, queue);
        IdealBound bound = new IdealBound(g, net, network.hostCount(), null);
        long span = IdealSpans.of(bound, new int[] {ready}, new int[] {end})[0];

        // The same work alone, from time 0.
        TaskGraph alone = new TaskGraph();
        int start = alone.join(-1);
        int aloneEnd = work(alone, start);
        IdealBound aloneBound = new IdealBound(alone, net, network.hostCount(), null);
        long expected = aloneBound.lastEndPs(new int[] {aloneEnd}, new int[0], 0);
        assertThat(span).isEqualTo(expected);
        // The two flows leave host 0 one after the other: the port's work is in it, not only the longer flow.
        PathTiming timing = new PathTiming(network.frames(), config.nic().mtuBytes(),
                config.switches().forwardingLatencyPs());
        long bothOut = Rates.serializationPs(timing.wireBytes(256 * 1024) + timing.wireBytes(512 * 1024),
                100_000_000_000L);
        assertThat(span).isGreaterThan(1_000_000_000L + bothOut + 100_000_000L);
        // The difference of the two ends' own bounds has the queue in it: no bound of a run whose prompt came late.
        assertThat(bound.taskEndPs(end) - bound.taskEndPs(ready)).isGreaterThan(span + 5_000_000_000L);
        // Nothing between: 0; no task: -1.
        assertThat(IdealSpans.of(bound, new int[] {queue, -1}, new int[] {ready, end})).containsExactly(0, -1);
    }
}
