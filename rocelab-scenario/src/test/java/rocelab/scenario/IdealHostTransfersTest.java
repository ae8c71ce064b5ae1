package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import rocelab.engine.Saturating;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.graph.TaskGraph;

/**
 * The ideal account's transfer intervals per host are the union of the host's own transfers and every busy period of
 * its ports, whatever is left out on the way: the busy periods of one transfer alone that its own interval covers,
 * and the split over two threads of a large account. Laid out from one job's tasks, they are the job's transfers and
 * its own ports' periods only, not the other job's on the same hosts.
 */
class IdealHostTransfersTest {
    /** Two jobs whose AlltoAlls share hosts 4-7, so ports queue several transfers (periods of more than one). */
    private static final String SCENARIO = """
            name: ideal-ports
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            jobs:
              - {name: a, hosts: 0-7, parallelism: {dp: 8},
                 program: [{op: compute, duration: 10us}, {op: alltoall, group: dp, size-total: 8MiB}]}
              - {name: b, hosts: 4-7, parallelism: {dp: 4},
                 program: [{op: compute, duration: 30us}, {op: allreduce, group: dp, size: 4MiB}]}
            """;

    @Test
    void shouldBeTheUnionOfOwnTransfersAndEveryPortBusyPeriod() {
        Simulation s = Simulation.assemble(Scenarios.parse(SCENARIO), Simulation.Model.IDEAL);
        s.run(ProgressListener.NONE);
        IdealBound bound = s.idealBound();
        TaskGraph g = bound.graph();
        HostTransfers.Layout layout = HostTransfers.layout(g);
        List<List<long[]>> expected = oracle(bound, layout.hosts(), 0, g.taskCount());
        int[] sizes = new int[2];
        busyPeriods(bound, layout.hosts(), sizes, 0, g.taskCount());
        // Both kinds occur, so the test sees periods left out (of one transfer) and periods kept (of more).
        assertThat(sizes[0]).as("periods of one transfer").isPositive();
        assertThat(sizes[1]).as("periods of more").isPositive();

        for (int parallelFrom : new int[] {0, Integer.MAX_VALUE}) {
            List<List<long[]>> got = HostTransfers.of(bound, layout, parallelFrom);
            assertThat(got).hasSize(expected.size());
            for (int h = 0; h < expected.size(); h++) {
                assertThat(got.get(h)).as("host %d, parallel from %d", h, parallelFrom)
                        .containsExactlyElementsOf(expected.get(h));
            }
        }
    }

    @Test
    void shouldCountEachJobsOwnTransfersAndPortsOnly() {
        Simulation s = Simulation.assemble(Scenarios.parse(SCENARIO), Simulation.Model.IDEAL);
        s.run(ProgressListener.NONE);
        IdealBound bound = s.idealBound();
        TaskGraph g = bound.graph();
        List<List<long[]>> all = HostTransfers.of(bound, HostTransfers.layout(g));
        List<BesideIndex.Part> jobs = s.jobParts();
        assertThat(jobs).extracting(BesideIndex.Part::name).containsExactly("job a", "job b");
        for (BesideIndex.Part job : jobs) {
            HostTransfers.Layout layout = HostTransfers.layout(g, job.firstTask(), job.endTask());
            List<List<long[]>> expected = oracle(bound, layout.hosts(), job.firstTask(), job.endTask());
            for (int parallelFrom : new int[] {0, Integer.MAX_VALUE}) {
                List<List<long[]>> got = HostTransfers.of(bound, layout, parallelFrom);
                assertThat(got).hasSize(expected.size());
                for (int h = 0; h < expected.size(); h++) {
                    assertThat(got.get(h)).as("%s host %d, parallel from %d", job.name(), h, parallelFrom)
                            .containsExactlyElementsOf(expected.get(h));
                }
            }
        }
        // On the shared hosts 4-7, job b's own (an all-reduce after 30 us of compute) are not the hosts' (both jobs':
        // job a's AlltoAll there from 10 us on).
        HostTransfers.Layout b = HostTransfers.layout(g, jobs.get(1).firstTask(), jobs.get(1).endTask());
        for (int h = 4; h < 8; h++) {
            assertThat(flat(HostTransfers.of(bound, b).get(h))).as("job b host %d", h).isNotEqualTo(flat(all.get(h)));
        }
    }

    /** The intervals as one list of their starts and ends, to compare by value. */
    private static List<Long> flat(List<long[]> intervals) {
        List<Long> out = new ArrayList<>();
        for (long[] iv : intervals) {
            out.add(iv[0]);
            out.add(iv[1]);
        }
        return out;
    }

    /**
     * Own intervals of tasks {@code [from, to)} and every busy period of their ports (none left out), per host, merged
     * by sorting the intervals.
     */
    private static List<List<long[]>> oracle(IdealBound bound, int hosts, int from, int to) {
        TaskGraph g = bound.graph();
        List<List<long[]>> all = busyPeriods(bound, hosts, new int[2], from, to);
        for (int t = from; t < to; t++) {
            TaskGraph.Kind k = g.kind(t);
            if (k != TaskGraph.Kind.FLOW && k != TaskGraph.Kind.NVLINK || bound.taskStartPs(t) < 0) {
                continue;
            }
            long end = bound.taskEndPs(t);
            long sentEnd = k == TaskGraph.Kind.FLOW ? bound.completedPs(g.flowIndex(t)) : end;
            all.get(g.transferSource(t)).add(new long[] {bound.taskStartPs(t), sentEnd < 0 ? Long.MAX_VALUE : sentEnd});
            all.get(g.transferDestination(t)).add(new long[] {bound.taskStartPs(t), end < 0 ? Long.MAX_VALUE : end});
        }
        List<List<long[]>> merged = new ArrayList<>();
        for (List<long[]> host : all) {
            merged.add(IntervalUnion.of(host));
        }
        return merged;
    }

    /**
     * Every port's busy periods (its transfers served one at a time from their releases, in release order), per host;
     * {@code sizes[0]} counts the periods of one transfer, {@code sizes[1]} those of more. Tasks {@code [from, to)}.
     */
    private static List<List<long[]>> busyPeriods(IdealBound bound, int hosts, int[] sizes, int from, int to) {
        Map<Long, List<long[]>> byPort = new TreeMap<>();
        Map<Long, Integer> hostOf = new HashMap<>();
        long[] w = new long[8];
        for (int t = from; t < to; t++) {
            if (bound.portWork(t, w)) {
                for (int side = 0; side < 8; side += 4) {
                    byPort.computeIfAbsent(w[side], k -> new ArrayList<>()).add(new long[] {w[side + 2], w[side + 3]});
                    hostOf.put(w[side], (int) w[side + 1]);
                }
            }
        }
        List<List<long[]>> out = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            out.add(new ArrayList<>());
        }
        byPort.forEach((port, entries) -> {
            entries.sort((x, y) -> Long.compare(x[0], y[0]));
            long start = entries.get(0)[0];
            long free = start;
            int n = 0;
            for (long[] e : entries) {
                if (e[0] > free) {
                    out.get(hostOf.get(port)).add(new long[] {start, free});
                    sizes[n == 1 ? 0 : 1]++;
                    start = e[0];
                    free = e[0];
                    n = 0;
                }
                free = Saturating.add(free, e[1]);
                n++;
            }
            out.get(hostOf.get(port)).add(new long[] {start, free});
            sizes[n == 1 ? 0 : 1]++;
        });
        return out;
    }
}
