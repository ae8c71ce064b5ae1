package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.engine.Rates;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.WorkloadDriver;

/**
 * The ideal network is a true lower bound of the packet level, and with no contention it is the closed form. (These
 * fail on a model that shares only the sender's RNIC: an incast's receiver is then never a bottleneck.)
 */
class IdealNetworkTest {
    private static final String FABRIC = """
            name: ideal
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            """;

    private static RunResult ideal(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml), true).run(ProgressListener.NONE);
    }

    @Test
    void shouldGiveALoneFlowItsClosedFormToThePicosecond() {
        Simulation s = Simulation.assemble(Scenarios.parse(FABRIC + """
                traffic:
                  - {kind: flow, src: 1, dst: 2, size: 3000017B}
                """), true);
        RunResult r = s.run(ProgressListener.NONE);
        IdealFlowTime closed = new IdealFlowTime(s.network(), s.config().nic(),
                s.config().switches().forwardingLatencyPs());
        FlowRecord f = r.flows().get(0);
        assertThat(f.deliveredPs() - f.startPs()).isEqualTo(closed.deliveryPs(1, 2, 3_000_017));
        assertThat(f.finishPs() - f.startPs()).isEqualTo(closed.fctPs(1, 2, 3_000_017));
        assertThat(f.finishPs() - f.startPs()).isEqualTo(f.idealFctPs());
    }

    @Test
    void shouldTakeKTimesTheSizeAtTheReceiversRateForAnIncast() {
        int k = 8;
        long size = 1_000_000;
        Simulation s = Simulation.assemble(Scenarios.parse(FABRIC + """
                traffic:
                  - {kind: incast, senders: 1-8, receiver: 0, size: %dB}
                """.formatted(size)), true);
        RunResult r = s.run(ProgressListener.NONE);
        PathTiming timing = new PathTiming(new FrameFormat(false), 1000, s.config().switches().forwardingLatencyPs());
        long rate = 100_000_000_000L;
        long[] rates = {rate, rate};
        long[] delays = {1_000_000, 1_000_000};
        // The receiver's port carries every sender's wire bytes; then the last frame's path latency.
        long expected = Rates.serializationPs(k * timing.wireBytes(size), rate)
                + timing.deliveryLatencyPs(rates, delays, 2, size);
        for (FlowRecord f : r.flows()) {
            assertThat(Math.abs(f.deliveredPs() - expected)).as("flow %d", f.id()).isLessThanOrEqualTo(k);
        }
    }

    @Test
    void shouldNeverLetACollectiveRunFasterThanItsPortsOnTheIdealNetwork() throws Exception {
        // The moe-alltoall example with --ideal: every receiver takes its share from 15 senders through one port.
        ScenarioConfig c = new rocelab.scenario.read.ScenarioReader().read(
                java.nio.file.Path.of("../scenarios/examples/moe-alltoall.yaml"));
        RunResult r = Simulation.assemble(c, true).run(ProgressListener.NONE);
        double portGBps = 400e9 / 8 / 1e9;
        for (var col : r.collectives()) {
            // busbw of an AlltoAll is (N-1)/N x S / t: what one RNIC moves per second, at most its port rate.
            assertThat(col.busbwGBps()).as(col.algorithm()).isLessThan(portGBps);
            long start = col.startPs();
            long end = start + col.timePs();
            long hottest = 0;
            for (int h = 0; h < 16; h++) {
                int host = h;
                hottest = Math.max(hottest, r.flows().stream().filter(f -> f.dst() == host && f.startPs() >= start
                        && f.startPs() < end).mapToLong(FlowRecord::sizeBytes).sum());
            }
            assertThat(col.timePs()).as("the hottest receiver's bytes through its port")
                    .isGreaterThanOrEqualTo(Rates.serializationPs(hottest, 400_000_000_000L));
        }
    }

    @Test
    void shouldBeNoSlowerThanThePacketLevelOnTheShippedRingExample() throws Exception {
        ScenarioConfig c = new rocelab.scenario.read.ScenarioReader().read(
                java.nio.file.Path.of("../scenarios/examples/ring-allreduce.yaml"));
        RunResult r = Simulation.assemble(c).run(ProgressListener.NONE);
        for (var col : r.collectives()) {
            assertThat(col.idealTimePs()).as(col.name()).isLessThanOrEqualTo(col.timePs());
        }
    }

    // ---- the bound, over random workloads ----

    private static final String[] FABRICS = {
        "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: dcqcn}",
        "fabric: {mode: roce-lossless, mtu: 4096}\nnic: {cc: none}",
        "fabric: {mode: roce-lossy, mtu: 1000}\nnic: {cc: dcqcn}",
        "fabric: {mode: infiniband, mtu: 4096}\nnic: {cc: none}",
    };
    private static final String[] TOPOLOGIES = {
        "topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}",
        "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 500ns}}",
        "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}",
    };

    private static String traffic(SplittableRandom rnd) {
        int kb = 64 << rnd.nextInt(5);
        return switch (rnd.nextInt(13)) {
            case 0 -> "traffic:\n  - {kind: incast, senders: 1-" + (2 + rnd.nextInt(6)) + ", receiver: 0, size: "
                    + kb + "KB}\n  - {kind: flow, src: 6, dst: 7, size: " + kb + "KB}";
            case 1 -> "traffic:\n  - {kind: permutation, size: " + kb + "KB}";
            case 2 -> "traffic:\n  - {kind: allreduce, ranks: 0-7, size: " + 8 * kb + "KB}";
            case 3 -> "traffic:\n  - {kind: allreduce, ranks: 0-7, size: " + 8 * kb + "KB, algorithm: tree}";
            case 4 -> "traffic:\n  - {kind: allreduce, ranks: 0-5, size: " + 8 * kb
                    + "KB, algorithm: halving-doubling}";
            case 5 -> "traffic:\n  - {kind: allreduce, ranks: 0-7, size: " + kb
                    + "KB, algorithm: recursive-doubling}";
            case 6 -> "traffic:\n  - {kind: allgather, ranks: 0-7, size: " + 8 * kb + "KB}\n"
                    + "  - {kind: reduce-scatter, ranks: 0-3, size: " + 4 * kb + "KB, algorithm: halving-doubling}";
            case 7 -> "traffic:\n  - {kind: alltoall, ranks: 0-7, size: " + 8 * kb + "KB}";
            case 8 -> "traffic:\n  - {kind: alltoallv, ranks: 0-7, size: " + 8 * kb
                    + "KB, algorithm: pairwise, skew: {zipf: 1.2}}";
            case 9 -> "traffic:\n  - {kind: broadcast, ranks: 0-7, size: " + 8 * kb + "KB}\n"
                    + "  - {kind: reduce, ranks: 0-7, size: " + 4 * kb + "KB, root: 3}\n"
                    + "  - {kind: barrier, ranks: 0-7}";
            case 10 -> "traffic:\n  - {kind: sendrecv, ranks: 0-7, size: " + kb + "KB}\n"
                    + "  - {kind: allreduce, ranks: [0, 2, 4, 6], size: " + 4 * kb + "KB}";
            case 11 -> "jobs:\n  - {name: dp, hosts: 0-7, parallelism: {dp: 4, pp: 2}, iterations: 2,\n"
                    + "     program: [{op: recv, peer: pp-1, when: \"pp > 0\"}, {op: compute, duration: 10us},\n"
                    + "               {op: send, peer: pp+1, size: " + kb + "KB, when: \"pp < PP-1\"},\n"
                    + "               {op: allreduce, group: dp, size-total: " + 4 * kb + "KB}]}";
            default -> """
                    inference:
                      - name: chat
                        model: {layers: 4, hidden: 512, heads: 16, kv-heads: 8, head-dim: 128}
                        instances:
                          - {role: prefill, tp: 2, hosts: 0-1}
                          - {role: decode, tp: 2, hosts: 2-3}
                        cost: {prefill-per-token: 1us, decode-step: 20us}
                        arrivals: {process: poisson, rate: 5000/s, count: 3}
                        request:
                          steps: [{llm: {prompt-tokens: 300, output-tokens: 3}}]
                    traffic:
                      - {kind: incast, senders: [4, 5, 6], receiver: 3, size: 256KB}
                    """;
        };
    }

    /**
     * Over random workloads (incasts, permutations, every collective algorithm, jobs, inference; lossless, lossy and
     * InfiniBand; three fabrics; random seeds), the packet level never completes a unit of work earlier than the
     * ideal network: a collective, a job, a request, or the plain traffic as a whole (its last flow). Slack: one
     * largest frame per hop of the longest path. (Single flows are not bounded one by one: a switch's FIFO can give
     * one flow more than its max-min share at the others' expense; what they finish together is bounded.)
     */
    @Test
    void shouldNeverCompleteWorkOnThePacketLevelEarlierThanOnTheIdealNetwork() {
        SplittableRandom rnd = new SplittableRandom(20261201);
        List<String> violations = new ArrayList<>();
        int cases = 30;
        for (int c = 0; c < cases; c++) {
            long seed = 1 + rnd.nextInt(1000);
            String yaml = "name: bound-" + c + "\nseed: " + seed + "\n" + FABRICS[rnd.nextInt(FABRICS.length)] + "\n"
                    + TOPOLOGIES[rnd.nextInt(TOPOLOGIES.length)] + "\n" + traffic(rnd) + "\n";
            Simulation s = Simulation.assemble(Scenarios.parse(yaml));
            RunResult r = s.run(ProgressListener.NONE);
            assertThat(r.finished()).as(yaml).isTrue();
            long slack = 4 * Rates.serializationPs(s.config().nic().mtuBytes() + 100, 100_000_000_000L);
            for (var col : r.collectives()) {
                if (col.timePs() < col.idealTimePs() - slack) {
                    violations.add(col.name() + " " + col.algorithm() + ": " + col.timePs() + " ps < ideal "
                            + col.idealTimePs() + " ps in\n" + yaml);
                }
            }
            for (var j : r.jobs()) {
                if (j.jctPs() < j.idealJctPs() - slack) {
                    violations.add("job " + j.job() + ": " + j.jctPs() + " < " + j.idealJctPs() + " in\n" + yaml);
                }
            }
            for (var q : r.requests()) {
                if (q.e2ePs() < q.idealE2ePs() - slack) {
                    violations.add("request " + q.request() + ": " + q.e2ePs() + " < " + q.idealE2ePs() + " in\n"
                            + yaml);
                }
            }
            // The plain traffic (group 0 of the ideal run): its last delivery and its last ACK.
            WorkloadDriver packet = s.driver();
            WorkloadDriver ideal = s.idealRun();
            TaskGraph g = packet.graph();
            long packetLast = -1;
            long idealLast = -1;
            for (int f = 0; f < g.flowCount(); f++) {
                assertThat(ideal.completedPs(f)).as("the ideal run finishes every flow").isGreaterThanOrEqualTo(0);
                if (plain(r, g.flowTask(f), s)) {
                    packetLast = Math.max(packetLast, packet.completedPs(f));
                    idealLast = Math.max(idealLast, ideal.completedPs(f));
                }
            }
            if (packetLast < idealLast - slack) {
                violations.add("plain traffic: " + packetLast + " < " + idealLast + " in\n" + yaml);
            }
        }
        assertThat(violations).as("work the packet level completed before the ideal network").isEmpty();
    }

    /** Whether a task belongs to the plain traffic (flows, incasts, permutations) rather than a collective. */
    private static boolean plain(RunResult r, int task, Simulation s) {
        for (var e : s.collectiveTasks()) {
            if (task >= e.firstTask() && task < e.endTask()) {
                return false;
            }
        }
        return r.jobs().isEmpty() && r.requests().isEmpty();
    }
}
