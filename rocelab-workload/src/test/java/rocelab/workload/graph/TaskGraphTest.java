package rocelab.workload.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import rocelab.workload.traffic.FlowSpec;

/** The task graph's primitive storage: flows, NVLink transfers and timed tasks read back as they were added. */
class TaskGraphTest {
    @Test
    void shouldReadEveryKindOfTaskBackAfterTrimmingAndGrowingAgain() {
        TaskGraph g = new TaskGraph();
        g.servers(new int[] {0, 0, 1, 1});
        g.localLinks(new LocalLinks(new int[] {0, 0, 1, 1}, 1_000_000_000_000L, 1000));
        int c = g.newConnection();
        int start = g.at(5, -1);
        int f = g.flow(0, 2, 4096, 26, c, 10, start);
        int nv = g.flow(0, 1, 777, -1, -1, 0, start);
        int comp = g.compute(1234, 3, f, TaskGraph.acked(f));
        int delay = g.delay(99, -1, nv);
        g.trimToSize();
        int late = g.flow(3, 1, 64, -1, -1, 0, comp, delay);

        assertThat(g.kind(f)).isEqualTo(TaskGraph.Kind.FLOW);
        assertThat(g.flowIndex(f)).isZero();
        assertThat(g.flowSpec(0)).isEqualTo(new FlowSpec(0, 2, 4096, 10, 26));
        assertThat(g.flows()).containsExactly(new FlowSpec(0, 2, 4096, 10, 26), new FlowSpec(3, 1, 64, 0, -1));
        assertThat(g.connection(0)).isEqualTo(c);
        assertThat(g.connection(1)).isEqualTo(-1);
        assertThat(g.flowTask(1)).isEqualTo(late);
        assertThat(g.durationPs(f)).isZero();

        assertThat(g.kind(nv)).isEqualTo(TaskGraph.Kind.NVLINK);
        assertThat(g.flowIndex(nv)).isEqualTo(-1);
        assertThat(g.nvlinkBytes(nv)).isEqualTo(777);
        assertThat(g.nvlinkDestination(nv)).isEqualTo(1);
        assertThat(g.owner(nv)).isZero();
        assertThat(g.durationPs(nv)).isZero();

        assertThat(g.durationPs(comp)).isEqualTo(1234);
        assertThat(g.nvlinkBytes(comp)).isZero();
        assertThat(g.flowIndex(comp)).isEqualTo(-1);
        assertThat(g.dependencyCount(comp)).isEqualTo(2);
        assertThat(g.dependency(comp, 1)).isEqualTo(TaskGraph.acked(f));
        assertThat(g.durationPs(delay)).isEqualTo(99);
        assertThat(g.notBeforePs(start)).isEqualTo(5);
        assertThat(g.taskCount()).isEqualTo(6);
        assertThat(g.flowCount()).isEqualTo(2);
        assertThatThrownBy(() -> g.flowSpec(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
