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

    /**
     * A call of two members on hosts {@code a} and {@code b}: each member's entry, then a message from a to b on a
     * connection of the call's own (a second message on it for the larger call) and one from b to a, or from c to d
     * when they are given (not -1), and the member's end. Returns {entry a, entry b, end a, end b}.
     */
    private static int[] call(TaskGraph g, int after, int a, int b, int c, int d, long bytes, boolean second) {
        int ea = g.join(a, after);
        int eb = g.delay(3_000_000L, b, after);
        int ab = g.newConnection();
        int x = g.flow(a, b, bytes, -1, ab, 0, ea);
        int y = c < 0 ? g.flow(b, a, bytes, -1, -1, 0, eb) : g.flow(c, d, bytes, -1, -1, 0, eb);
        if (second) {
            x = g.flow(a, b, bytes / 2, -1, ab, 0, x);
        }
        int da = g.join(a, x, TaskGraph.acked(y));
        int db = g.join(b, y);
        return new int[] {ea, eb, da, db};
    }

    /**
     * Groups whose copies are the same task for task share one copy and walk (a job's calls repeat layer after
     * layer): each group's bound, computed with the others, is the one it has alone, whether it repeats an earlier
     * group or differs from it in one thing only (hosts, bytes, a message more, a member's entry offset).
     */
    @Test
    void shouldGiveEveryGroupItsOwnBoundWhenGroupsRepeat() throws ScenarioException {
        ScenarioConfig config = new ScenarioReader().read(FABRIC, "spans.yaml", Path.of("."));
        Network network = Simulation.assemble(config).network();
        IdealNetwork net = ideal(network, config);
        TaskGraph g = new TaskGraph();
        int prev = g.join(-1);
        // Hosts a, b, c, d; bytes; a second message; b's entry offset.
        long[][] shapes = {{0, 1, -1, -1, 64 * 1024, 0, 0}, {0, 1, -1, -1, 64 * 1024, 0, 0},
                {2, 3, -1, -1, 64 * 1024, 0, 0}, {0, 1, -1, -1, 96 * 1024, 0, 0}, {0, 1, -1, -1, 64 * 1024, 1, 0},
                {0, 1, -1, -1, 64 * 1024, 0, 0}, {0, 1, -1, -1, 64 * 1024, 0, 2_000_000L},
                {0, 1, -1, -1, 64 * 1024, 0, 2_000_000L}, {1, 0, -1, -1, 64 * 1024, 0, 0},
                {0, 1, 2, 3, 64 * 1024, 0, 0}, {0, 1, 0, 3, 64 * 1024, 0, 0}};
        int n = shapes.length;
        int[][] from = new int[n][];
        long[][] at = new long[n][];
        int[][] to = new int[n][];
        for (int i = 0; i < n; i++) {
            long[] s = shapes[i];
            int[] c = call(g, prev, (int) s[0], (int) s[1], (int) s[2], (int) s[3], s[4], s[5] == 1);
            from[i] = new int[] {c[0], c[1]};
            at[i] = new long[] {0, s[6]};
            to[i] = new int[] {c[2], c[3]};
            prev = g.join(-1, c[2], c[3]);
        }
        IdealBound bound = new IdealBound(g, net, network.hostCount(), null);
        long[] together = IdealSpans.ofGroups(bound, from, at, to);
        for (int i = 0; i < n; i++) {
            long alone = IdealSpans.ofGroups(bound, new int[][] {from[i]}, new long[][] {at[i]},
                    new int[][] {to[i]})[0];
            assertThat(together[i]).as("group %d", i).isEqualTo(alone).isPositive();
        }
        // The shapes differ in what the bound sees: each change gives another bound (so sharing would show).
        assertThat(together[0]).isEqualTo(together[1]).isEqualTo(together[5]);
        assertThat(together[6]).isEqualTo(together[7]).isGreaterThan(together[0]);
        assertThat(together[3]).isGreaterThan(together[0]);
        assertThat(together[4]).isGreaterThan(together[0]);
        // Two messages out of one RNIC take longer than out of two: the hosts are in what makes a copy the same.
        assertThat(together[10]).isGreaterThan(together[9]);
    }
}
