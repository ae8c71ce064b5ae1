package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.TaskGraph;

/**
 * The port work of a large walk made port by port (each port's entries made and bounded alone) gives the bound of all
 * the walk's entries at once, on random graphs of flows on connections, NVLink transfers, computes, joins, ACK waits
 * and promises, in one group or several, for group walks dense and sparse and for the whole graph's end. The
 * threshold is forced to 0 so that these small graphs take the port-by-port path.
 */
class IdealBoundPortByPortTest {
    @Test
    void shouldGiveTheSameBoundPortByPort() {
        OneSwitchIdeal network = OneSwitchIdeal.of(8);
        IdealNetwork ideal = network.ideal();
        SplittableRandom random = new SplittableRandom(34);
        int raised = 0;
        int portsBounded = 0;
        for (int graphs = 1; graphs <= 300; graphs++) {
            TaskGraph g = BoundCases.acyclic(random, IdealBoundPortByPortTest::randomGraph);
            int n = g.taskCount();
            int[] groups = graphs % 3 == 0 ? random.ints(n, 0, 3).toArray() : null;
            IdealBound together = new IdealBound(g, ideal, network.hosts(), groups);
            together.portByPortAbove(Integer.MAX_VALUE);
            IdealBound byPort = new IdealBound(g, ideal, network.hosts(), groups);
            byPort.portByPortAbove(0);
            for (int k = 0; k < 6; k++) {
                BoundCases.Group group = BoundCases.group(random, n, k, 3);
                boolean dense = k % 3 == 0;
                long expected = group.walk(together, dense);
                assertThat(group.walk(byPort, dense)).as("graph %d, group %d", graphs, k).isEqualTo(expected);
                raised += expected > group.aloneEndPs(together) ? 1 : 0;
            }
            assertThat(byPort.lastFinishPs()).as("graph %d's end", graphs).isEqualTo(together.lastFinishPs());
            portsBounded += byPort.portsInClosedForm() > 0 ? 1 : 0;
        }
        assertThat(raised).as("group walks whose port work raised the bound").isGreaterThan(100);
        assertThat(portsBounded).as("graphs with a port of one entry, bounded in closed form").isGreaterThan(50);
    }

    /**
     * Up to 120 tasks on 8 hosts in two servers of 4 (NVLink between the GPUs of a server); each waits on up to three
     * earlier ones (some on a transfer's ACK); some promises wait on later ones.
     */
    private static TaskGraph randomGraph(SplittableRandom random) {
        TaskGraph g = new TaskGraph();
        g.localLinks(new LocalLinks(new int[] {0, 0, 0, 0, 1, 1, 1, 1}, 900_000_000_000L, 1_000_000L));
        int[] connections = new int[4];
        for (int i = 0; i < connections.length; i++) {
            connections[i] = g.newConnection();
        }
        List<Integer> promises = new ArrayList<>();
        List<Boolean> transfer = new ArrayList<>();
        int n = 5 + random.nextInt(116);
        for (int i = 0; i < n; i++) {
            int[] after = random.ints(i == 0 ? 0 : random.nextInt(4), 0, Math.max(i, 1)).distinct().toArray();
            for (int k = 0; k < after.length; k++) {
                if (transfer.get(after[k]) && random.nextInt(3) == 0) {
                    after[k] = TaskGraph.acked(after[k]);
                }
            }
            int kind = random.nextInt(10);
            if (kind < 5) {
                int src = random.nextInt(8);
                int dst = (src + 1 + random.nextInt(7)) % 8;
                boolean local = src / 4 == dst / 4;
                int c = local || random.nextInt(3) == 0 ? -1 : connections[random.nextInt(connections.length)];
                if (c >= 0) {
                    // A connection's flows go between one pair of hosts.
                    src = c;
                    dst = 4 + c;
                }
                g.flow(src, dst, 1000L * (1 + random.nextInt(200)), -1, c, 0, after);
                transfer.add(true);
                continue;
            }
            if (kind < 7) {
                g.compute(1_000L * random.nextInt(5_000), random.nextInt(8), after);
            } else if (kind < 9) {
                g.join(-1, after);
            } else {
                promises.add(g.promise(-1));
            }
            transfer.add(false);
        }
        for (int p : promises) {
            int[] after = random.ints(1 + random.nextInt(3), 0, n).filter(t -> t != p).distinct().toArray();
            g.fulfil(p, after);
        }
        return g;
    }
}
