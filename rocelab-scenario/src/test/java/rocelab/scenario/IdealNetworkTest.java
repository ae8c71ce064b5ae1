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
    void shouldNeverLetACollectiveRunFasterThanItsLinksOnTheIdealNetwork() {
        // The moe-alltoall symptom: 16 ranks, every receiver takes 15/16 of S from 15 senders through one port.
        RunResult r = ideal("""
                name: a2a
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 8, link: {rate: 400Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: alltoall, ranks: 0-15, size: 16MiB}
                """);
        double portGBps = 400e9 / 8 / 1e9;
        // busbw of an AlltoAll is (N-1)/N x S / t: what one RNIC moves per second, at most its port rate.
        assertThat(r.collectives().get(0).busbwGBps()).isLessThan(portGBps);
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
            case 1 -> "traffic:\n  - {kind: permutation, hosts: 0-7, size: " + kb + "KB}";
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
                    + "     program: [{op: compute, duration: 10us}, {op: send, to: next-stage, size: " + kb + "KB},\n"
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

    @Test
    void shouldNeverFinishATaskOfThePacketLevelEarlierThanOnTheIdealNetwork() {
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
            WorkloadDriver packet = s.driver();
            WorkloadDriver ideal = s.idealRun();
            // Slack: one largest frame at the slowest rate per hop of the longest path (4 links).
            long slack = 4 * Rates.serializationPs(s.config().nic().mtuBytes() + 100, 100_000_000_000L);
            TaskGraph g = packet.graph();
            for (int t = 0; t < g.taskCount(); t++) {
                long p = packet.taskEndPs(t);
                long i = ideal.taskEndPs(t);
                assertThat(i).as("the ideal run finishes every task").isGreaterThanOrEqualTo(0);
                if (p >= 0 && p < i - slack) {
                    violations.add("case " + c + " task " + t + " (" + g.kind(t) + "): packet " + p + " ps < ideal "
                            + i + " ps\n" + yaml);
                }
                int f = g.flowIndex(t);
                if (f >= 0 && packet.completedPs(f) >= 0 && packet.completedPs(f) < ideal.completedPs(f) - slack) {
                    violations.add("case " + c + " flow " + f + " acked: packet " + packet.completedPs(f)
                            + " ps < ideal " + ideal.completedPs(f) + " ps\n" + yaml);
                }
            }
        }
        assertThat(violations).as("tasks the packet level finished before the ideal network").isEmpty();
    }
}
