package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.graph.TaskGraph;

/**
 * The ideal bound's closed forms (a join's small set sorted in place, a port with one entry bounded without Jackson's
 * schedule) give every bound to the picosecond that the general path gives: every task's start and end, every flow's
 * ACK and the whole graph's end, over workloads whose joins put one, two or many entries on a port (rings on several
 * channels and queue pairs, trees, AlltoAlls, incasts, NVLink inside servers, jobs). In this package, in this module,
 * because the switch is package-private and the workloads need the scenario reader.
 */
class IdealBoundClosedFormTest {
    private static final String LOSSLESS = "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: dcqcn}\n";
    private static final String LEAF_SPINE = "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4,"
            + " link: {rate: 100Gbps, delay: 500ns}}\n";
    private static final String RAILS = "topology: {kind: rail-optimized, servers: 2, gpus-per-server: 4, spines: 1,"
            + " link: {rate: 100Gbps, delay: 500ns}}\nnvlink: {rate: 400Gbps, latency: 1us}\n";

    private static final List<String> WORKLOADS = List.of(
            LEAF_SPINE + "traffic:\n  - {kind: allreduce, ranks: 0-7, size: 1MB, channels: 2, qps-per-connection: 2}",
            LEAF_SPINE + "traffic:\n  - {kind: allreduce, ranks: 0-7, size: 512KB, algorithm: tree, channels: 3}",
            LEAF_SPINE + "traffic:\n  - {kind: alltoall, ranks: 0-7, size: 1MB, channels: 2}",
            LEAF_SPINE + "traffic:\n  - {kind: incast, senders: 1-6, receiver: 0, size: 256KB}\n"
                    + "  - {kind: flow, src: 6, dst: 7, size: 256KB}",
            LEAF_SPINE + "traffic:\n  - {kind: allreduce, ranks: 0-5, size: 768KB, algorithm: halving-doubling}\n"
                    + "  - {kind: broadcast, ranks: 0-7, size: 512KB, channels: 2}\n  - {kind: barrier, ranks: 0-7}",
            RAILS + "traffic:\n  - {kind: allreduce, ranks: 0-7, size: 1MB, algorithm: hierarchical, channels: 2}\n"
                    + "  - {kind: allgather, ranks: 0-7, size: 256KB, algorithm: hierarchical}",
            RAILS + "traffic:\n  - {kind: alltoall, ranks: 0-7, size: 1MB, algorithm: pxn, channels: 4}",
            LEAF_SPINE + "jobs:\n  - {name: dp, hosts: 0-7, parallelism: {dp: 4, pp: 2}, iterations: 2,\n"
                    + "     program: [{op: recv, peer: pp-1, when: \"pp > 0\"}, {op: compute, duration: 10us},\n"
                    + "               {op: send, peer: pp+1, size: 128KB, when: \"pp < PP-1\"},\n"
                    + "               {op: allreduce, group: dp, size-total: 512KB, channels: 2}]}");

    @Test
    void shouldGiveEveryBoundTheGeneralPathGives() throws ScenarioException {
        long closedForms = 0;
        for (String w : WORKLOADS) {
            ScenarioConfig config = new ScenarioReader().read("name: closed\n" + LOSSLESS + w + "\n", "test.yaml",
                    Path.of("."));
            Simulation s = Simulation.assemble(config);
            TaskGraph g = s.driver().graph();
            Network network = s.network();
            IdealNetwork ideal = new IdealNetwork(network, new PathTiming(network.frames(), config.nic().mtuBytes(),
                    config.switches().forwardingLatencyPs()));
            IdealBound closed = new IdealBound(g, ideal, network.hostCount(), null, true);
            IdealBound general = new IdealBound(g, ideal, network.hostCount(), null, false);
            for (int t = 0; t < g.taskCount(); t++) {
                assertThat(closed.taskStartPs(t)).as("%s: task %d start", w, t).isEqualTo(general.taskStartPs(t));
                assertThat(closed.taskEndPs(t)).as("%s: task %d end", w, t).isEqualTo(general.taskEndPs(t));
            }
            for (int f = 0; f < g.flowCount(); f++) {
                assertThat(closed.completedPs(f)).as("%s: flow %d ACK", w, f).isEqualTo(general.completedPs(f));
            }
            assertThat(closed.lastFinishPs()).as(w).isEqualTo(general.lastFinishPs());
            closedForms += closed.portsInClosedForm();
            assertThat(general.portsInClosedForm()).isZero();
        }
    }
}
