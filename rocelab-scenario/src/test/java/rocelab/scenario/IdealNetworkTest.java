package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import rocelab.engine.Rates;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.flow.IdealBound;
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
    void shouldCountEveryCompletedFlowsBytesAsDelivered() {
        // An audit: an ideal run's flows were completed, each with its delivery time, but delivered_bytes 0, and the
        // summary's bytes_delivered and delivered goodput 0 beside the completed bytes and goodput.
        RunResult r = ideal(FABRIC + """
                traffic:
                  - {kind: incast, senders: 1-4, receiver: 0, size: 4MB}
                """);
        assertThat(r.flows()).hasSize(4).allSatisfy(f -> {
            assertThat(f.completed()).isTrue();
            assertThat(f.deliveredBytes()).isEqualTo(f.sizeBytes());
        });
        Map<?, ?> flows = (Map<?, ?>) Summary.of(r).get("flows");
        assertThat(flows.get("bytes_delivered")).isEqualTo(flows.get("bytes_completed")).isEqualTo(16_000_000L);
        assertThat(flows.get("delivered_goodput_gbps")).isEqualTo(flows.get("aggregate_goodput_gbps"));
    }

    @Test
    void shouldTakeTheReceivePipelinesRateWhenTheReceiverCannotTakeDataAtLineRate() {
        // h2 takes data in at 40 Gb/s (nic.rx) behind a 100 Gb/s link; h1 takes in its ACKs the same way. The ideal
        // network ignored it: 3 MB "took" its wire bytes at 100 Gb/s, 2.5 times less than any run can.
        String yaml = FABRIC + """
                nics:
                  - {hosts: 1-2, rx: {rate: 40Gbps, buffer: 16MB}}
                traffic:
                  - {kind: flow, src: 1, dst: 2, size: 3000017B}
                """;
        FrameFormat frames = new FrameFormat(false);
        PathTiming timing = new PathTiming(frames, 1000, 0);
        long wire = timing.wireBytes(3_000_017);
        long firstFrame = frames.onWire(frames.dataFrameBytes(1000, true));
        long ackFrame = frames.onWire(frames.ackFrameBytes());
        // 40 Gb/s is 200 ps a byte, 100 Gb/s 80: the message's wire bytes at the receiver's pipeline, after its first
        // frame has crossed both links (store and forward) and their 1 us each; the ACK back over both links, then
        // through the sender's pipeline.
        long delivery = wire * 200 + 2 * firstFrame * 80 + 2_000_000;
        long ack = 2 * ackFrame * 80 + 2_000_000 + ackFrame * 200;
        FlowRecord ideal = ideal(yaml).flows().get(0);
        assertThat(ideal.deliveredPs() - ideal.startPs()).isEqualTo(delivery);
        assertThat(ideal.finishPs() - ideal.startPs()).isEqualTo(delivery + ack);
        // The packet level alone on the path takes exactly that: the bound is the closed form, and tight.
        FlowRecord run = Scenarios.assemble(yaml).run(ProgressListener.NONE).flows().get(0);
        assertThat(run.deliveredPs() - run.startPs()).isEqualTo(delivery);
        assertThat(run.finishPs() - run.startPs()).isEqualTo(delivery + ack);
    }

    @Test
    void shouldBoundAnIncastByTheReceivePipelinesRate() {
        String yaml = FABRIC + """
                nics:
                  - {hosts: 0, rx: {rate: 40Gbps, buffer: 16MB}}
                traffic:
                  - {kind: incast, senders: 1-4, receiver: 0, size: 1000000B}
                """;
        long wire = new PathTiming(new FrameFormat(false), 1000, 0).wireBytes(1_000_000);
        RunResult ideal = ideal(yaml);
        RunResult run = Scenarios.assemble(yaml).run(ProgressListener.NONE);
        // The receiver's pipeline takes in 4 messages' wire bytes at 40 Gb/s at best.
        assertThat(ideal.simulatedPs()).isGreaterThan(4 * wire * 200).isLessThanOrEqualTo(run.simulatedPs());
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
        IdealBound b = s.idealBound();
        int[] flows = new int[k];
        for (int i = 0; i < k; i++) {
            flows[i] = b.graph().flowTask(i);
        }
        assertThat(b.lastEndPs(flows, new int[0], 0)).isEqualTo(expected);
        // The run ends when the last ACK is back: one ACK latency after that.
        assertThat(r.simulatedPs()).isEqualTo(expected + timing.ackLatencyPs(rates, delays, 2));
        // One flow alone can be first (the receiver may serve it before the others): its own bound is its closed form.
        long alone = Rates.serializationPs(timing.wireBytes(size), rate)
                + timing.deliveryLatencyPs(rates, delays, 2, size);
        for (FlowRecord f : r.flows()) {
            assertThat(f.deliveredPs() - f.startPs()).as("flow %d", f.id()).isEqualTo(alone);
        }
        // So the flows' times are not one schedule (eight flows ending together at one port's rate each), and the
        // run says so where it says what it leaves out: an outside probe read 'FCT max 12.759 us' next to '400,000
        // payload bytes delivered in 38.731 us' in --ideal's summary, with nothing telling why.
        assertThat(r.notModelled()).endsWith(RunResult.IDEAL_BOUNDS).contains("not one schedule");
        assertThat(SummaryText.render(r, null)).contains("each flow's FCT is the least it"
                + " could take even if it went first (after its own QP's earlier messages");
        assertThat((String) Summary.of(r).get("not_modelled")).endsWith(RunResult.IDEAL_BOUNDS);
    }

    @Test
    void shouldGiveAPermutationTheTimeOfOneFlow() {
        long size = 2_000_000;
        Simulation s = Simulation.assemble(Scenarios.parse(FABRIC.replace("hosts: 9", "hosts: 8") + """
                traffic:
                  - {kind: permutation, size: %dB}
                """.formatted(size)), true);
        RunResult r = s.run(ProgressListener.NONE);
        IdealFlowTime closed = new IdealFlowTime(s.network(), s.config().nic(),
                s.config().switches().forwardingLatencyPs());
        FlowRecord first = r.flows().get(0);
        assertThat(r.simulatedPs()).isEqualTo(closed.fctPs(first.src(), first.dst(), size));
    }

    /** 2(N-1) steps of S/N, each its serialisation and the path latency, then the last step's ACK. */
    @Test
    void shouldGiveARingAllReduceOnOneChannelItsClosedForm() {
        int n = 8;
        long size = 8 << 20;
        Simulation s = Simulation.assemble(Scenarios.parse(FABRIC.replace("hosts: 9", "hosts: 8") + """
                traffic:
                  - {kind: allreduce, ranks: 0-7, size: %dB}
                """.formatted(size)), true);
        RunResult r = s.run(ProgressListener.NONE);
        PathTiming timing = new PathTiming(new FrameFormat(false), 1000, s.config().switches().forwardingLatencyPs());
        long rate = 100_000_000_000L;
        long[] rates = {rate, rate};
        long[] delays = {1_000_000, 1_000_000};
        long step = Rates.serializationPs(timing.wireBytes(size / n), rate)
                + timing.deliveryLatencyPs(rates, delays, 2, size / n);
        assertThat(r.collectives().get(0).idealTimePs())
                .isEqualTo(2 * (n - 1) * step + timing.ackLatencyPs(rates, delays, 2));
    }

    /**
     * With two channels every RNIC port carries 2(N-1)/N x S in all whatever the channels do, so that is the bound, not
     * two channels sharing each port in lockstep and each waiting out every step's latency (which the packet level
     * beats: its channels take turns). Fails on a max-min fair fluid ideal.
     */
    @Test
    void shouldBoundARingOnTwoChannelsByTheWorkOfItsPorts() {
        int n = 8;
        long size = 8 << 20;
        // The ring-allreduce example's fabric: there the packet level (1,239.5 us) beat the fluid ideal (1,245.4 us).
        String yaml = """
                name: two-channels
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: allreduce, ranks: 0-7, size: %dB, channels: 2}
                """.formatted(size);
        RunResult ideal = Simulation.assemble(Scenarios.parse(yaml), true).run(ProgressListener.NONE);
        RunResult packet = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        PathTiming timing = new PathTiming(new FrameFormat(false), 4096, 0);
        long rate = 100_000_000_000L;
        // Each RNIC sends 2(N-1) steps of S/N/2 on each of the two channels.
        long portWork = Rates.serializationPs(2 * 2 * (n - 1) * timing.wireBytes(size / n / 2), rate);
        long idealTime = ideal.collectives().get(0).idealTimePs();
        assertThat(idealTime).isGreaterThan(portWork).isLessThan(portWork + 20_000_000);
        assertThat(packet.collectives().get(0).idealTimePs()).isEqualTo(idealTime);
        assertThat(packet.collectives().get(0).timePs()).isGreaterThanOrEqualTo(idealTime);
    }

    /**
     * Two independent streams into one port, each with compute after it: whichever message the port serves last, its
     * compute still follows, so the job takes both messages' bytes at the receiver's rate, the path latency and one
     * compute. A bound that counts only the port's work (2 x S at the rate, then the latency) is one compute short;
     * each message's tail, the compute after it, closes the gap. The schedule that serves one message, then the other,
     * takes exactly that, so the bound is the optimum here.
     */
    @Test
    void shouldCountTheComputeAfterTheLastMessageThroughAPort() {
        long size = 4 << 20;
        String yaml = FABRIC + """
                jobs:
                  - name: two-streams
                    hosts: 0-2
                    parallelism: {pp: 3}
                    program:
                      - {op: send, peer: {pp: 0}, size: %dB, when: "pp > 0"}
                      - {op: recv, peer: {pp: 1}, when: "pp == 0", stream: a}
                      - {op: compute, duration: 50us, when: "pp == 0", stream: a}
                      - {op: recv, peer: {pp: 2}, when: "pp == 0", stream: b}
                      - {op: compute, duration: 50us, when: "pp == 0", stream: b}
                """.formatted(size);
        RunResult ideal = ideal(yaml);
        PathTiming timing = new PathTiming(new FrameFormat(false), 1000, 0);
        long rate = 100_000_000_000L;
        long[] rates = {rate, rate};
        long[] delays = {1_000_000, 1_000_000};
        long expected = Rates.serializationPs(2 * timing.wireBytes(size), rate)
                + timing.deliveryLatencyPs(rates, delays, 2, size) + 50_000_000;
        assertThat(ideal.jobs().get(0).idealJctPs()).isEqualTo(expected);
        RunResult packet = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(packet.jobs().get(0).jctPs()).isGreaterThanOrEqualTo(expected);
        assertThat(packet.jobs().get(0).idealJctPs()).isEqualTo(expected);
    }

    @Test
    void shouldNeverLetACollectiveRunFasterThanItsPortsOnTheIdealNetwork() throws Exception {
        // The moe-alltoall example with --ideal: every receiver takes its share from 15 senders through one port.
        ScenarioConfig c = new ScenarioReader().read(
                Path.of("../scenarios/examples/moe-alltoall.yaml"));
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
        ScenarioConfig c = new ScenarioReader().read(
                Path.of("../scenarios/examples/ring-allreduce.yaml"));
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
        // Two servers of four GPUs on four rails, NVLink inside: hierarchical and PXN collectives use both.
        "topology: {kind: rail-optimized, servers: 2, gpus-per-server: 4, spines: 1,"
                + " link: {rate: 100Gbps, delay: 500ns}}"
                + "\nnvlink: {rate: 400Gbps, latency: 1us}",
    };

    private static String traffic(SplittableRandom rnd) {
        int kb = 64 << rnd.nextInt(5);
        // NCCL channels (and several QPs per connection): the queue pairs between two RNICs that take turns.
        String ch = ", channels: " + (1 + rnd.nextInt(4));
        String qps = rnd.nextInt(4) == 0 ? ", qps-per-connection: 2" : "";
        return switch (rnd.nextInt(15)) {
            case 0 -> "traffic:\n  - {kind: incast, senders: 1-" + (2 + rnd.nextInt(6)) + ", receiver: 0, size: "
                    + kb + "KB}\n  - {kind: flow, src: 6, dst: 7, size: " + kb + "KB}";
            case 1 -> "traffic:\n  - {kind: permutation, size: " + kb + "KB}";
            case 2 -> "traffic:\n  - {kind: allreduce, ranks: 0-7, size: " + 8 * kb + "KB" + ch + qps + "}";
            case 3 -> "traffic:\n  - {kind: allreduce, ranks: 0-7, size: " + 8 * kb + "KB, algorithm: tree" + ch + "}";
            case 4 -> "traffic:\n  - {kind: allreduce, ranks: 0-5, size: " + 8 * kb
                    + "KB, algorithm: halving-doubling" + ch + "}";
            case 5 -> "traffic:\n  - {kind: allreduce, ranks: 0-7, size: " + kb
                    + "KB, algorithm: recursive-doubling" + ch + "}";
            case 6 -> "traffic:\n  - {kind: allgather, ranks: 0-7, size: " + 8 * kb + "KB" + ch + "}\n"
                    + "  - {kind: reduce-scatter, ranks: 0-3, size: " + 4 * kb + "KB, algorithm: halving-doubling}";
            case 7 -> "traffic:\n  - {kind: alltoall, ranks: 0-7, size: " + 8 * kb + "KB" + ch + "}";
            case 8 -> "traffic:\n  - {kind: alltoallv, ranks: 0-7, size: " + 8 * kb
                    + "KB, algorithm: pairwise, skew: {zipf: 1.2}}";
            case 9 -> "traffic:\n  - {kind: broadcast, ranks: 0-7, size: " + 8 * kb + "KB" + ch + "}\n"
                    + "  - {kind: reduce, ranks: 0-7, size: " + 4 * kb + "KB, root: 3}\n"
                    + "  - {kind: barrier, ranks: 0-7}";
            case 10 -> "traffic:\n  - {kind: sendrecv, ranks: 0-7, size: " + kb + "KB}\n"
                    + "  - {kind: allreduce, ranks: [0, 2, 4, 6], size: " + 4 * kb + "KB" + ch + "}";
            case 11 -> "jobs:\n  - {name: dp, hosts: 0-7, parallelism: {dp: 4, pp: 2}, iterations: 2,\n"
                    + "     program: [{op: recv, peer: pp-1, when: \"pp > 0\"}, {op: compute, duration: 10us},\n"
                    + "               {op: send, peer: pp+1, size: " + kb + "KB, when: \"pp < PP-1\"},\n"
                    + "               {op: allreduce, group: dp, size-total: " + 4 * kb + "KB" + ch + "}]}";
            case 12 -> "traffic:\n  - {kind: allreduce, ranks: 0-7, size: " + 8 * kb + "KB, algorithm: hierarchical"
                    + ch + "}\n  - {kind: allgather, ranks: 0-7, size: " + 4 * kb + "KB, algorithm: hierarchical}";
            case 13 -> "traffic:\n  - {kind: alltoall, ranks: 0-7, size: " + 8 * kb + "KB, algorithm: pxn" + ch + "}";
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
     * Over random workloads (incasts, permutations, every collective algorithm on 1 to 4 channels, jobs, inference;
     * lossless, lossy and InfiniBand; four fabrics, one with NVLink; random seeds), the packet level never finishes a
     * task earlier than its ideal bound (every flow delivered and acknowledged, every NVLink transfer, compute step and
     * join), nor a collective, a job, a request or the plain traffic as a whole. Slack: one largest frame per hop of
     * the longest path.
     */
    @Property(tries = 24, seed = "20261201")
    void shouldNeverFinishAnythingOnThePacketLevelEarlierThanItsIdealBound(@ForAll("workloads") String yaml) {
        Simulation s = Simulation.assemble(Scenarios.parse(yaml));
        RunResult r = s.run(ProgressListener.NONE);
        assertThat(r.finished()).as(yaml).isTrue();
        long slack = 4 * Rates.serializationPs(s.config().nic().mtuBytes() + 100, 100_000_000_000L);
        List<String> violations = new ArrayList<>();
        for (var col : r.collectives()) {
            if (col.timePs() < col.idealTimePs() - slack) {
                violations.add(col.name() + " " + col.algorithm() + ": " + col.timePs() + " ps < ideal "
                        + col.idealTimePs() + " ps");
            }
        }
        for (var j : r.jobs()) {
            if (j.jctPs() < j.idealJctPs() - slack) {
                violations.add("job " + j.job() + ": " + j.jctPs() + " < " + j.idealJctPs());
            }
        }
        for (var q : r.requests()) {
            if (q.e2ePs() < q.idealE2ePs() - slack) {
                violations.add("request " + q.request() + ": " + q.e2ePs() + " < " + q.idealE2ePs());
            }
        }
        WorkloadDriver packet = s.driver();
        IdealBound ideal = s.idealRun();
        TaskGraph g = packet.graph();
        for (int t = 0; t < g.taskCount(); t++) {
            if (packet.taskEndPs(t) < ideal.taskEndPs(t) - slack) {
                violations.add("task " + t + " (" + g.kind(t) + "): " + packet.taskEndPs(t) + " < "
                        + ideal.taskEndPs(t));
            }
        }
        for (int f = 0; f < g.flowCount(); f++) {
            if (packet.completedPs(f) < ideal.completedPs(f) - slack) {
                violations.add("flow " + f + " acknowledged: " + packet.completedPs(f) + " < " + ideal.completedPs(f));
            }
        }
        // The bound's one assumption about schedules: a connection's messages are posted in the order they were added.
        long[] lastPost = new long[g.connectionCount()];
        for (int f = 0; f < g.flowCount(); f++) {
            int c = g.connection(f);
            if (c >= 0) {
                if (packet.startedPs(f) < lastPost[c]) {
                    violations.add("flow " + f + " posted before an earlier message of connection " + c);
                }
                lastPost[c] = Math.max(lastPost[c], packet.startedPs(f));
            }
        }
        // And an NVLink connection's transfers (the bound sends them one after the other in that order).
        long[] lastOffer = new long[g.connectionCount()];
        for (int t = 0; t < g.taskCount(); t++) {
            int c = g.nvlinkConnection(t);
            if (c >= 0) {
                if (packet.taskStartPs(t) < lastOffer[c]) {
                    violations.add("NVLink transfer " + t + " ready before an earlier one of connection " + c);
                }
                lastOffer[c] = Math.max(lastOffer[c], packet.taskStartPs(t));
            }
        }
        // The plain traffic (flows, incasts, permutations): its last delivery, bounded by the work of its ports.
        List<Integer> plain = new ArrayList<>();
        for (int f = 0; f < g.flowCount(); f++) {
            if (plain(r, g.flowTask(f), s)) {
                plain.add(g.flowTask(f));
            }
        }
        if (!plain.isEmpty()) {
            int[] tasks = plain.stream().mapToInt(Integer::intValue).toArray();
            long packetLast = JobResults.latest(packet, tasks);
            long idealLast = ideal.lastEndPs(tasks, new int[0], 0);
            if (packetLast < idealLast - slack) {
                violations.add("plain traffic: " + packetLast + " < " + idealLast);
            }
        }
        assertThat(violations).as("what the packet level finished before its ideal bound in\n" + yaml).isEmpty();
    }

    /**
     * Found by the property with more tries: a PXN proxy's connection carries the chunks of several local GPUs, each
     * after its own NVLink hop; the proxy must post them in the order they were queued, or a queue pair's messages
     * are posted out of the order the bound (and each rank's done, which waits on a queue pair's last message)
     * assumes.
     */
    @Test
    void shouldPostAPxnProxysMessagesInTheOrderTheyWereQueued() {
        shouldNeverFinishAnythingOnThePacketLevelEarlierThanItsIdealBound("""
                name: bound
                seed: 967
                fabric: {mode: roce-lossless, mtu: 4096}
                nic: {cc: none}
                topology: {kind: rail-optimized, servers: 2, gpus-per-server: 4, spines: 1, link: {rate: 100Gbps, delay: 500ns}}
                nvlink: {rate: 400Gbps, latency: 1us}
                traffic:
                  - {kind: alltoall, ranks: 0-7, size: 8192KB, algorithm: pxn, channels: 4}
                """);
    }

    /**
     * A pipeline's receives are promises (each waits on a send its peer's program adds later), so the tasks are not in
     * the order of their waits and a walk back from the end that takes them from the highest down meets tails that
     * grow after they were passed on. Passing each on again at once re-walked its cone, quadratic in the pipeline's
     * depth and micro-batches (a 43.5-million-task job's end bound ran for minutes); in an order of the waits each
     * task of the whole-graph walk passes its tail on exactly once.
     */
    @Test
    void shouldPassEachTailOnOnceWhenPromisesWaitOnLaterTasks() {
        Simulation s = Simulation.assemble(Scenarios.parse(FABRIC + """
                jobs:
                  - name: pipeline
                    hosts: 0-7
                    parallelism: {pp: 8}
                    iterations: 2
                    generator:
                      type: megatron
                      model: {layers: 16, hidden: 1024, seq: 256, vocab: 1000}
                      batch: {micro: 1, global: 32}
                      compute: {forward-per-layer: 10us, optimizer: 20us}
                """), true);
        TaskGraph g = s.driver().graph();
        assertThat(g.lateDependencyCount()).as("receives given their sends later").isGreaterThan(100);
        IdealBound bound = s.idealRun();
        assertThat(bound.lastFinishPs()).isPositive();
        assertThat(bound.lastWalkPasses()).as("tails passed on, of " + g.taskCount() + " tasks")
                .isEqualTo(g.taskCount());
    }

    /**
     * A message that waits, through a promise, on the message added after it on its connection closes a cycle of
     * waits and connection order (no emitter makes one): its chains have no longest one, since each turn adds the
     * messages' times. The walk passes each task on once with the tail it has (a shorter tail only weakens the
     * bound) instead of passing them round until the tails saturate, which did not end.
     */
    @Test
    void shouldEndAWalkRoundACycleOfWaitsAndConnectionOrder() {
        Simulation s = Simulation.assemble(Scenarios.parse(FABRIC + """
                traffic:
                  - {kind: flow, src: 1, dst: 2, size: 1000B}
                """), true);
        TaskGraph g = new TaskGraph();
        int c = g.newConnection();
        int wait = g.promise(-1);
        int first = g.flow(1, 2, 100_000, -1, c, 0, wait);
        int second = g.flow(1, 2, 100_000, -1, c, 0);
        g.fulfil(wait, second);
        int end = g.compute(1_000_000, -1, first);
        IdealBound bound = new IdealBound(g, Simulation.idealNetwork(s.network(), s.config()), 9, null);
        long finish = bound.lastFinishPs();
        assertThat(bound.lastWalkPasses()).isEqualTo(g.taskCount());
        assertThat(finish).isGreaterThanOrEqualTo(bound.taskEndPs(end))
                .isGreaterThan(bound.taskEndPs(second) + 1_000_000);
        assertThat(bound.lastEndPs(new int[] {end}, new int[0], 0)).isGreaterThanOrEqualTo(bound.taskEndPs(end));
        assertThat(bound.lastWalkPasses()).isEqualTo(g.taskCount());
    }

    @Provide
    Arbitrary<String> workloads() {
        return Arbitraries.longs().between(1, Long.MAX_VALUE).map(key -> {
            SplittableRandom rnd = new SplittableRandom(key);
            long seed = 1 + rnd.nextInt(1000);
            String topology = TOPOLOGIES[rnd.nextInt(TOPOLOGIES.length)];
            String traffic = traffic(rnd);
            // Hierarchical and PXN collectives need servers of several GPUs: those run on the rail-optimized fabric.
            if (traffic.contains("hierarchical") || traffic.contains("pxn")) {
                topology = TOPOLOGIES[TOPOLOGIES.length - 1];
            }
            return "name: bound\nseed: " + seed + "\n" + FABRICS[rnd.nextInt(FABRICS.length)] + "\n" + topology + "\n"
                    + traffic + "\n";
        });
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

    /**
     * A slow hop between faster ones (100G, 25G, then 100G to the receiver): frames leave the 25G hop spaced out, so
     * every later hop holds only the last frame, not the largest. The closed form charged the largest frame there and
     * put the ideal time above what the message takes alone (6,144 B: 3.4208 us ideal, 2.92544 us run, a slowdown of
     * 0.855). Now the packet-level run alone on the path takes exactly the ideal time, for one frame, two, and many
     * with a short last one, and the flow model ends there too.
     */
    @Test
    void shouldGiveALoneFlowOnAPathWithASlowMiddleHopItsPacketLevelTime() {
        for (String size : List.of("3000", "6144", "40000", "65536")) {
            String yaml = """
                    name: slow-middle
                    fabric: {mode: roce-lossy, mtu: 4096}
                    topology:
                      kind: custom
                      hosts: 2
                      switches: [s1, s2, s3, s4]
                      link: {rate: 100Gbps, delay: 100ns}
                      links:
                        - {a: h0, b: s1}
                        - {a: s1, b: s2, rate: 25Gbps}
                        - {a: s2, b: s3}
                        - {a: s3, b: s4, rate: 400Gbps}
                        - {a: s4, b: h1}
                    nic: {cc: none}
                    traffic:
                      - {kind: flow, src: 0, dst: 1, size: SIZE}
                    """.replace("SIZE", size);
            RunResult packet = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
            FlowRecord f = packet.flows().get(0);
            assertThat(f.fctPs()).as("%s B alone: the run is the ideal", size).isEqualTo(f.idealFctPs());
            RunResult flow = Simulation.assemble(Scenarios.parse(yaml), Simulation.Model.FLOW)
                    .run(ProgressListener.NONE);
            assertThat(flow.flows().get(0).fctPs()).as("%s B, flow model", size).isEqualTo(f.fctPs());
        }
    }

    /**
     * Audit: with one of two spine uplinks slowed (25 Gb/s, or 200 us long), the closed form took the switches' first
     * equal-cost path, through spine0, whatever path a flow was hashed onto. A flow through spine1 then ran faster than
     * its "ideal" (slowdown 0.64), and the one fault read "at ideal" or "4x slow" by which spine it was numbered on.
     * Now every flow's ideal is the best of its equal-cost paths: flows that took the good spine alone take exactly
     * it, those through the slowed link are slower, none is faster, and numbering the fault on either spine gives the
     * same ideals and the same collective bound.
     */
    private static final int LONE_FLOWS = 16;

    @Test
    void shouldBoundEveryFlowByTheBestOfItsEqualCostPathsWhateverTheSpinesAreNumbered() {
        for (String fault : List.of("rate: 25Gbps", "delay: 200us")) {
            List<Long> idealsBySpine = new ArrayList<>();
            List<Long> collectiveIdeals = new ArrayList<>();
            // Sixteen flows one at a time (600 us apart), between the leaves both ways, each on its own QP: their
            // hashes take both spines.
            StringBuilder flows = new StringBuilder();
            for (int i = 0; i < LONE_FLOWS; i++) {
                int a = i % 2;
                int b = 2 + (i / 2) % 2;
                flows.append(String.format("      - {kind: flow, src: %d, dst: %d, size: 200KB, start: %dus}%n",
                        i < 8 ? a : b, i < 8 ? b : a, i * 600));
            }
            String lone = flows.toString().replace("      - ", "  - ");
            for (int slowSpine = 0; slowSpine < 2; slowSpine++) {
                String yaml = """
                        name: one-slow-uplink
                        fabric: {mode: roce-lossless, mtu: 4096}
                        topology:
                          kind: custom
                          hosts: 4
                          switches: [leaf0, leaf1, spine0, spine1]
                          link: {rate: 100Gbps, delay: 1us}
                          links:
                            - {a: h0, b: leaf0}
                            - {a: h1, b: leaf0}
                            - {a: h2, b: leaf1}
                            - {a: h3, b: leaf1}
                            - {a: leaf0, b: spine0}
                            - {a: leaf0, b: spine1}
                            - {a: leaf1, b: spine0SLOW0}
                            - {a: leaf1, b: spine1SLOW1}
                        nic: {cc: none}
                        traffic:
                          LONE
                          - {kind: allreduce, ranks: 0-3, size: 4MB, start: 10ms}
                        """.replace("SLOW" + slowSpine, ", " + fault).replaceAll("SLOW\\d", "")
                        .replace("  LONE\n", lone);
                RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
                assertThat(r.finished()).isTrue();
                long slack = Rates.serializationPs(4200, 100_000_000_000L);
                for (FlowRecord f : r.flows()) {
                    assertThat(f.fctPs()).as("%s, slow spine%d, flow %d", fault, slowSpine, f.id())
                            .isGreaterThanOrEqualTo(f.idealFctPs() - slack);
                }
                // Each lone flow's hash takes one spine: those that took the good one ran at their ideal, those that
                // crossed the slowed link were slower (some of each).
                List<FlowRecord> alone = r.flows().subList(0, LONE_FLOWS);
                assertThat(alone).anySatisfy(f -> assertThat(f.fctPs()).isEqualTo(f.idealFctPs()));
                assertThat(alone).anySatisfy(f -> assertThat(f.fctPs()).isGreaterThan(f.idealFctPs() + 10 * slack));
                alone.forEach(f -> idealsBySpine.add(f.idealFctPs()));
                var col = r.collectives().get(0);
                assertThat(col.timePs()).isGreaterThanOrEqualTo(col.idealTimePs() - slack);
                collectiveIdeals.add(col.idealTimePs());
            }
            assertThat(idealsBySpine.subList(0, LONE_FLOWS)).as(fault)
                    .isEqualTo(idealsBySpine.subList(LONE_FLOWS, 2 * LONE_FLOWS));
            assertThat(collectiveIdeals.get(0)).as(fault).isEqualTo(collectiveIdeals.get(1));
        }
    }

    /**
     * Audit: leaf0-spine0 and leaf1-spine1 at 25 Gb/s among 100 Gb/s links. The best link at each hop is a fast one,
     * but no path has both: every path between the leaves crosses a 25 Gb/s link. The ideal took the hop-wise
     * 100 Gb/s, so a lone flow's closed form was a quarter of what it could take alone (slowdown about 4 with nothing
     * else on the fabric) and a 2-rank ring's GPU wait was the slow links' rate. Now a message that keeps one path is
     * held to the widest path's slowest link (25 Gb/s): still a bound of the run, and the closed form of the flow alone.
     */
    @Test
    void shouldHoldAMessageToItsWidestPathWhenEveryPathCrossesASlowLinkAtSomeHop() {
        String yaml = """
                name: crossed-slow-uplinks
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 1, link: {rate: 100Gbps, delay: 1us}}
                links:
                  - {a: leaf0, b: spine0, rate: 25Gbps}
                  - {a: leaf1, b: spine1, rate: 25Gbps}
                nic: {cc: none}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 1MB}
                  - {kind: allreduce, ranks: 0-1, size: 2MB, start: 1ms}
                """;
        RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(r.finished()).isTrue();
        PathTiming timing = new PathTiming(new FrameFormat(false), 4096, 0);
        long at25 = Rates.serializationPs(timing.wireBytes(1_000_000), 25_000_000_000L);
        long slack = Rates.serializationPs(4200, 25_000_000_000L);
        FlowRecord lone = r.flows().get(0);
        assertThat(lone.idealFctPs()).isGreaterThan(at25);
        assertThat(lone.fctPs()).isGreaterThanOrEqualTo(lone.idealFctPs());
        assertThat((double) lone.fctPs() / lone.idealFctPs()).as("alone, without congestion control").isLessThan(1.05);
        // The ring's two steps of 1 MB each cross one 25 Gb/s link, one after the other.
        var ring = r.collectives().get(0);
        assertThat(ring.idealTimePs()).isGreaterThan(2 * at25);
        assertThat(ring.timePs()).isGreaterThanOrEqualTo(ring.idealTimePs() - slack);
        // The ideal network run alone gives the same bound.
        RunResult bound = ideal(yaml);
        assertThat(bound.collectives().get(0).idealTimePs()).isEqualTo(ring.idealTimePs());
    }

    /**
     * The same on a fat-tree, where a path's slow link can come early and faster links follow it: there the
     * hop-wise store-and-forward (the largest frame at every hop) added to the slow link's serialisation was
     * 0.14 us past the run of a lone 1 MB flow (its last frame, 576 B, is all that remains after the slow link).
     */
    @Test
    void shouldStayABoundOfALoneFlowWhoseSlowLinkComesEarlyOnItsPath() {
        String yaml = """
                name: crossed-fat-tree
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: fat-tree, k: 4, link: {rate: 100Gbps, delay: 1us}}
                links:
                  - {a: pod0-edge0, b: pod0-agg0, rate: 25Gbps}
                  - {a: pod0-agg1, b: core2, rate: 25Gbps}
                  - {a: pod0-agg1, b: core3, rate: 25Gbps}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: flow, src: 0, dst: 4, size: 1MB}
                  - {kind: flow, src: 0, dst: 5, size: 1MB, start: 1ms}
                  - {kind: flow, src: 1, dst: 6, size: 1MB, start: 2ms}
                  - {kind: flow, src: 0, dst: 7, size: 1MB, start: 3ms}
                """;
        RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(r.finished()).isTrue();
        long at25 = Rates.serializationPs(new PathTiming(new FrameFormat(false), 4096, 0).wireBytes(1_000_000),
                25_000_000_000L);
        for (FlowRecord f : r.flows()) {
            assertThat(f.fctPs()).as("flow %d alone", f.id()).isGreaterThanOrEqualTo(f.idealFctPs());
            assertThat(f.idealFctPs()).as("flow %d: every path from h0 or h1 out of its pod crosses 25 Gb/s", f.id())
                    .isGreaterThan(at25);
        }
    }
}
