package rocelab.workload.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.graph.TaskGraph;

/** Programs unrolled into task graphs: dependencies, groups and point-to-point pairing. */
class JobEmitterTest {
    private static final Set<String> NAMES = Layout.names();

    private static Expr expr(String text) {
        try {
            return Expr.parse(text, NAMES);
        } catch (Expr.ParseException e) {
            throw new AssertionError(e);
        }
    }

    private static Step.Meta meta(String id, String stream, String when, String... after) {
        return new Step.Meta(id, stream, List.of(after), when == null ? null : expr(when), 3, 7);
    }

    private static JobSpec job(Map<Dim, Integer> degrees, List<Step> program, int iterations) {
        int n = degrees.values().stream().reduce(1, (a, b) -> a * b);
        return new JobSpec("j", new Layout(degrees, Layout.MEGATRON_ORDER,
                IntStream.range(0, n).map(i -> 10 + i).toArray()), program, iterations, 0, 0, -1);
    }

    @Test
    void shouldPairSendsWithReceivesInProgramOrderAcrossStages() {
        // Two stages; the receive is written before the send, so it is promised first and fulfilled later.
        List<Step> program = List.of(
                new Step.Transfer(meta("rx", "recv", "pp > 0"), false, Map.of(Dim.PP, expr("pp-1")), 0),
                new Step.Compute(meta("f", "main", null, "rx"), 1000),
                new Step.Transfer(meta("tx", "send", "pp < PP-1", "f"), true, Map.of(Dim.PP, expr("pp+1")), 4096));
        TaskGraph g = new TaskGraph();
        JobTasks t = JobEmitter.emit(g, job(Map.of(Dim.PP, 2), program, 2));
        assertThat(g.flowCount()).isEqualTo(2);
        assertThat(g.flows().get(0).src()).isEqualTo(10);
        assertThat(g.flows().get(0).dst()).isEqualTo(11);
        assertThat(g.flows().get(0).sizeBytes()).isEqualTo(4096);
        assertThat(g.tasksInCycles()).isZero();
        assertThat(t.computeTasks()).hasSize(4);
        assertThat(t.gates()).hasNumberOfRows(2);
    }

    @Test
    void shouldRunOneCollectivePerGroup() {
        List<Step> program = List.of(new Step.Collective(meta("ar", "main", null), CollectiveOp.ALL_REDUCE,
                Algorithm.RING, EnumSet.of(Dim.DP), 4000, false, 1, 0));
        TaskGraph g = new TaskGraph();
        JobTasks t = JobEmitter.emit(g, job(Map.of(Dim.TP, 2, Dim.DP, 4), program, 1));
        assertThat(t.calls()).hasSize(2);
        assertThat(t.calls().get(0).call().ranks()).containsExactly(10, 12, 14, 16);
        assertThat(t.calls().get(1).call().ranks()).containsExactly(11, 13, 15, 17);
        assertThat(t.calls().get(0).name()).isEqualTo("j/ar/dp(tp=0)");
        // Ring AllReduce on 4 ranks: 2(N-1) = 6 steps of 4 flows each, per group.
        assertThat(g.flowCount()).isEqualTo(2 * 6 * 4);
    }

    /**
     * A sweep over tp reaches tp 1: the tensor group's AllReduce then has one rank, nothing to exchange, and the rank
     * goes on at once (it was refused, so the program could not be swept down to one GPU per tensor group).
     */
    @Test
    void shouldPassARankStraightThroughACollectiveOverAGroupOfOne() {
        List<Step> program = List.of(new Step.Compute(meta("c", "main", null), 5_000_000),
                new Step.Collective(meta("tp", "main", null), CollectiveOp.ALL_REDUCE, Algorithm.RING,
                        EnumSet.of(Dim.TP), 4000, false, 1, 0),
                new Step.Compute(meta("d", "main", null), 7_000_000));
        TaskGraph g = new TaskGraph();
        JobTasks t = JobEmitter.emit(g, job(Map.of(Dim.TP, 1, Dim.DP, 2), program, 1));
        assertThat(t.calls()).isEmpty();
        assertThat(g.flowCount()).isZero();
        assertThat(t.computeTasks()).hasSize(4);
    }

    @Test
    void shouldKeepOnlyTheChosenMembersOfEachGroupWhenMembersIsGiven() {
        // Megatron's embedding group: the first and last of four stages, per TP rank; the middle stages skip it.
        List<Step> program = List.of(new Step.Collective(meta("emb", "main", null), CollectiveOp.ALL_REDUCE,
                Algorithm.RING, EnumSet.of(Dim.PP), 4000, false, 1, 0, 1, null, expr("pp == 0 || pp == PP-1")));
        TaskGraph g = new TaskGraph();
        JobTasks t = JobEmitter.emit(g, job(Map.of(Dim.TP, 2, Dim.PP, 4), program, 1));
        assertThat(t.calls()).hasSize(2);
        assertThat(t.calls().get(0).call().ranks()).containsExactly(10, 16);
        assertThat(t.calls().get(1).call().ranks()).containsExactly(11, 17);
        assertThat(t.calls().get(0).name()).isEqualTo("j/emb/pp(tp=0)");
        // Ring AllReduce on 2 ranks: 2 steps of 2 flows each, per group.
        assertThat(g.flowCount()).isEqualTo(2 * 2 * 2);
    }

    @Test
    void shouldRejectMembersThatLeaveOneRankOfAGroup() {
        List<Step> program = List.of(new Step.Collective(meta("emb", "main", null), CollectiveOp.ALL_REDUCE,
                Algorithm.RING, EnumSet.of(Dim.PP), 4000, false, 1, 0, 1, null, expr("pp == 0")));
        assertThatThrownBy(() -> JobEmitter.emit(new TaskGraph(), job(Map.of(Dim.PP, 4), program, 1)))
                .hasMessageContaining("leave its group only one rank");
    }

    @Test
    void shouldChainEachRankThroughOnlyTheInstancesItRuns() {
        // One stage runs two collectives in a row between steps every rank runs: each call enters after the previous
        // step of its own members, and a rank of the other stage goes from its first compute straight to its last.
        List<Step> program = List.of(
                new Step.Compute(meta("a", "main", null), 10),
                new Step.Collective(meta("x", "main", "pp == 0"), CollectiveOp.ALL_REDUCE, Algorithm.RING,
                        EnumSet.of(Dim.DP), 4000, false, 1, 0),
                new Step.Collective(meta("y", "main", "pp == 0"), CollectiveOp.ALL_REDUCE, Algorithm.RING,
                        EnumSet.of(Dim.DP), 4000, false, 1, 0),
                new Step.Compute(meta("b", "main", null), 20));
        TaskGraph g = new TaskGraph();
        JobTasks t = JobEmitter.emit(g, job(Map.of(Dim.DP, 2, Dim.PP, 2), program, 1));
        // Ranks 0 and 1 are stage 0 (dp fastest): one call per collective step, of their group.
        assertThat(t.calls()).hasSize(2);
        JobTasks.Call x = t.calls().get(0);
        JobTasks.Call y = t.calls().get(1);
        assertThat(x.call().ranks()).containsExactly(10, 11);
        assertThat(y.call().ranks()).containsExactly(10, 11);
        int[] a = Arrays.copyOfRange(t.computeTasks(), 0, 4);
        int[] b = Arrays.copyOfRange(t.computeTasks(), 4, 8);
        for (int i = 0; i < 2; i++) {
            assertThat(dependencies(g, x.entries()[i])).contains(a[i]);
            assertThat(dependencies(g, y.entries()[i])).contains(x.done()[i]).doesNotContain(a[i]);
            assertThat(dependencies(g, g.dependency(b[i], 0))).contains(y.done()[i]);
        }
        for (int r = 2; r < 4; r++) {
            assertThat(dependencies(g, g.dependency(b[r], 0))).contains(a[r]);
        }
        assertThat(g.tasksInCycles()).isZero();
    }

    @Test
    void shouldComputePerRankSizesInTheNcclTestsConvention() {
        List<Step> program = List.of(new Step.Collective(meta("ag", "main", null), CollectiveOp.ALL_GATHER,
                Algorithm.RING, EnumSet.of(Dim.DP), 1000, true, 1, 0));
        JobTasks t = JobEmitter.emit(new TaskGraph(), job(Map.of(Dim.DP, 4), program, 1));
        assertThat(t.calls().get(0).call().sizeBytes()).isEqualTo(4000);
    }

    @Test
    void shouldNameTheStepWhenAGroupMemberIsMissingOrASendIsUnmatched() {
        List<Step> partial = List.of(new Step.Collective(meta("ar", "main", "dp > 0"), CollectiveOp.ALL_REDUCE,
                Algorithm.RING, EnumSet.of(Dim.DP), 4000, false, 1, 0));
        assertThatThrownBy(() -> JobEmitter.emit(new TaskGraph(), job(Map.of(Dim.DP, 3), partial, 1)))
                .isInstanceOf(JobException.class)
                .hasMessageContaining("rank 1 runs step 'ar' but its group member rank 0 does not")
                .satisfies(e -> assertThat(((JobException) e).meta().line()).isEqualTo(3));
        List<Step> lonely = List.of(new Step.Transfer(meta("tx", "main", "pp == 0"), true,
                Map.of(Dim.PP, expr("pp+1")), 10));
        assertThatThrownBy(() -> JobEmitter.emit(new TaskGraph(), job(Map.of(Dim.PP, 2), lonely, 1)))
                .hasMessageContaining("rank 0's send in step 'tx' has no matching receive");
        List<Step> outside = List.of(new Step.Transfer(meta("tx", "main", null), true,
                Map.of(Dim.PP, expr("pp+1")), 10));
        assertThatThrownBy(() -> JobEmitter.emit(new TaskGraph(), job(Map.of(Dim.PP, 2), outside, 1)))
                .hasMessageContaining("rank 1's peer has pp = 2, outside 0..1");
    }

    @Test
    void shouldFindASendAndReceiveThatWaitForEachOther() {
        // Both stages first receive, then send, on one stream: each send waits for a receive that waits for it.
        List<Step> program = List.of(
                new Step.Transfer(meta("rx", "main", null), false, Map.of(Dim.PP, expr("1 - pp")), 0),
                new Step.Transfer(meta("tx", "main", null), true, Map.of(Dim.PP, expr("1 - pp")), 100));
        TaskGraph g = new TaskGraph();
        JobEmitter.emit(g, job(Map.of(Dim.PP, 2), program, 1));
        assertThat(g.tasksInCycles()).isPositive();
    }

    @Test
    void shouldGiveEachConnectionItsQueuePairsPerConnection() {
        List<Step> program = List.of(new Step.Collective(meta("ar", "main", null), CollectiveOp.ALL_REDUCE,
                Algorithm.RING, EnumSet.of(Dim.DP), 8000, false, 1, 0, 2));
        TaskGraph g = new TaskGraph();
        JobEmitter.emit(g, job(Map.of(Dim.DP, 4), program, 1));
        Set<Integer> connections = new HashSet<>();
        for (int f = 0; f < g.flowCount(); f++) {
            connections.add(g.connection(f));
        }
        // Four ring connections, each with two queue pairs that its messages alternate over.
        assertThat(connections).hasSize(8);
    }

    @Test
    void shouldEvaluateTheSameConditionAgainForEachLoopBindingAndChainByStreamAndAfter() {
        // "pp == i" under a loop over i: the same text, a different rank set each time round (one compute per stage).
        Set<String> names = new HashSet<>(NAMES);
        names.add("i");
        Expr when;
        try {
            when = Expr.parse("pp == i", names);
        } catch (Expr.ParseException e) {
            throw new AssertionError(e);
        }
        List<Step> program = List.of(
                new Step.Compute(meta("warm", "side", null), 7),
                new Step.Repeat(meta("loop", "main", null), 2, "i", List.of(
                        new Step.Compute(new Step.Meta("c", "main", List.of("warm"), when, 3, 7), 1000))),
                new Step.Compute(meta("tail", "main", null), 5));
        TaskGraph g = new TaskGraph();
        JobTasks t = JobEmitter.emit(g, job(Map.of(Dim.PP, 2), program, 1));
        // warm on both ranks, c once per rank (rank 0 at i = 0, rank 1 at i = 1), tail on both.
        assertThat(t.computeTasks()).hasSize(6);
        assertThat(t.computeNames()).containsExactly("warm", "warm", "c[i=0]", "c[i=1]", "tail", "tail");
        assertThat(t.computeRanks()).containsExactly(0, 1, 0, 1, 0, 1);
        int c0 = t.computeTasks()[2];
        int c1 = t.computeTasks()[3];
        int tail1 = t.computeTasks()[5];
        // c waits for the gate and (after: warm) the rank's warm-up; the tail waits for the last c of its stream.
        assertThat(dependencies(g, g.dependency(c0, 0))).contains(t.computeTasks()[0]);
        assertThat(dependencies(g, g.dependency(c1, 0))).contains(t.computeTasks()[1]);
        assertThat(dependencies(g, g.dependency(tail1, 0))).contains(c1);
    }

    private static List<Integer> dependencies(TaskGraph g, int task) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < g.dependencyCount(task); i++) {
            out.add(g.dependency(task, i));
        }
        return out;
    }
}
