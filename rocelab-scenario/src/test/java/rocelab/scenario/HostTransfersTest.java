package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;

/**
 * Each host's merged transfer intervals, gathered in one pass into stretches laid out from the graph, are the union of
 * that host's transfers as sender (posted to acknowledged) and receiver (posted to delivered), counted one by one;
 * laid out from a range of tasks (a job's own), those of the range only.
 */
class HostTransfersTest {
    /** Task times given by the test: some tasks never started, some never ended, flows acknowledged after delivery. */
    private record Times(TaskGraph graph, long[] start, long[] end, long[] completed) implements TaskTimes {
        @Override
        public long taskStartPs(int task) {
            return start[task];
        }

        @Override
        public long taskEndPs(int task) {
            return end[task];
        }

        @Override
        public long completedPs(int flow) {
            return completed[flow];
        }
    }

    @Test
    void shouldGatherEachHostsTransfersAsTheirUnion() {
        SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 200; trial++) {
            int hosts = random.nextInt(1, 12);
            TaskGraph g = new TaskGraph();
            int[] server = new int[hosts];
            for (int h = 0; h < hosts; h++) {
                server[h] = h / 4; // four GPUs a server: transfers between them go over NVLink
            }
            g.localLinks(new LocalLinks(server, 1_000_000_000L, 0));
            int tasks = random.nextInt(0, 60);
            for (int i = 0; i < tasks; i++) {
                int kind = random.nextInt(3);
                int src = random.nextInt(hosts);
                int dst = random.nextInt(hosts);
                if (kind == 0 || src == dst) {
                    g.compute(10, src);
                } else {
                    g.flow(src, dst, 1 + random.nextInt(1000), -1, -1, 0);
                }
            }
            int n = g.taskCount();
            long[] start = new long[n];
            long[] end = new long[n];
            long[] completed = new long[g.flowCount()];
            for (int t = 0; t < n; t++) {
                start[t] = random.nextInt(6) == 0 ? -1 : random.nextLong(0, 200);
                end[t] = start[t] < 0 || random.nextInt(6) == 0 ? -1 : start[t] + random.nextLong(0, 30);
            }
            for (int f = 0; f < completed.length; f++) {
                long delivered = end[g.flowTask(f)];
                completed[f] = delivered < 0 || random.nextInt(5) == 0 ? -1 : delivered + random.nextLong(0, 10);
            }
            Times times = new Times(g, start, end, completed);

            // Every other trial, a range of the tasks, as a job's own among other items' (which it must not count).
            boolean whole = trial % 2 == 0;
            int first = whole ? 0 : random.nextInt(0, n + 1);
            int last = whole ? n : random.nextInt(first, n + 1);
            List<List<long[]>> merged = HostTransfers.of(times,
                    whole ? HostTransfers.layout(g) : HostTransfers.layout(g, first, last));

            for (int h = 0; h < hosts; h++) {
                List<long[]> own = new ArrayList<>();
                for (int t = first; t < last; t++) {
                    TaskGraph.Kind k = g.kind(t);
                    if ((k != TaskGraph.Kind.FLOW && k != TaskGraph.Kind.NVLINK) || start[t] < 0) {
                        continue;
                    }
                    boolean flow = k == TaskGraph.Kind.FLOW;
                    int src = flow ? g.flowSource(g.flowIndex(t)) : g.owner(t);
                    int dst = flow ? g.flowDestination(g.flowIndex(t)) : g.nvlinkDestination(t);
                    long sent = flow ? completed[g.flowIndex(t)] : end[t];
                    if (src == h) {
                        own.add(new long[] {start[t], sent < 0 ? Long.MAX_VALUE : sent});
                    }
                    if (dst == h) {
                        own.add(new long[] {start[t], end[t] < 0 ? Long.MAX_VALUE : end[t]});
                    }
                }
                List<long[]> expected = IntervalUnion.of(own);
                List<long[]> actual = h < merged.size() ? merged.get(h) : List.of();
                assertThat(actual).as("trial %d host %d tasks [%d, %d)", trial, h, first, last).containsExactlyElementsOf(expected);
            }
        }
    }
}
