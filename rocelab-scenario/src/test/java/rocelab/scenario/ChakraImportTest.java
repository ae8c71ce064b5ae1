package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.scenario.chakra.ChakraTraces;
import rocelab.scenario.chakra.proto.EtDef.CollectiveCommType;
import rocelab.scenario.chakra.proto.EtDef;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.job.JobEmitter;
import rocelab.workload.job.JobSpec;

/**
 * Chakra execution traces, written here through the classes generated from the published schema, read into jobs:
 * the same task graph and the same results, at packet and at flow level, as the same workload in the step language.
 */
class ChakraImportTest {
    private static final String FABRIC = """
            name: chakra
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: rail-optimized, servers: 2, gpus-per-server: 2, spines: 1, link: {rate: 100Gbps}}
            nvlink: {rate: 900Gbps}
            nic: {cc: dcqcn}
            """;

    private static ScenarioConfig read(Path dir, String yaml) throws ScenarioException {
        return new ScenarioReader().read(yaml, dir.resolve("s.yaml").toString(), dir);
    }

    /** Every task of the job's graph: what it is, its times, its owner, what it moves, its dependencies (sorted). */
    static List<String> graph(JobSpec job) {
        TaskGraph g = new TaskGraph();
        JobEmitter.emit(g, job);
        List<String> out = new ArrayList<>();
        for (int t = 0; t < g.taskCount(); t++) {
            int[] deps = new int[g.dependencyCount(t)];
            for (int i = 0; i < deps.length; i++) {
                deps[i] = g.dependency(t, i);
            }
            Arrays.sort(deps);
            String what = switch (g.kind(t)) {
                case FLOW -> {
                    var f = g.flows().get(g.flowIndex(t));
                    yield f.src() + ">" + f.dst() + " " + f.sizeBytes() + " qp " + g.connection(g.flowIndex(t));
                }
                case NVLINK -> g.owner(t) + ">" + g.nvlinkDestination(t) + " " + g.nvlinkBytes(t);
                default -> "";
            };
            out.add(t + " " + g.kind(t) + " " + g.notBeforePs(t) + " " + g.durationPs(t) + " @" + g.owner(t) + " "
                    + what + " after " + Arrays.toString(deps));
        }
        List<String> late = new ArrayList<>();
        for (int i = 0; i < g.lateDependencyCount(); i++) {
            late.add(g.lateTask(i) + " after " + g.lateDependency(i));
        }
        late.sort(null);
        out.addAll(late);
        return out;
    }

    /** Imported and written: one task graph, and one result at packet and at flow level. */
    private static void assertSameWorkload(ScenarioConfig imported, ScenarioConfig written) {
        JobSpec a = imported.jobs().get(0);
        JobSpec b = written.jobs().get(0);
        assertThat(a.layout()).usingRecursiveComparison().isEqualTo(b.layout());
        assertThat(graph(a)).isEqualTo(graph(b)).isNotEmpty();
        for (Simulation.Model model : new Simulation.Model[] {Simulation.Model.PACKET, Simulation.Model.FLOW}) {
            RunResult x = Simulation.assemble(imported, model).run(ProgressListener.NONE);
            RunResult y = Simulation.assemble(written, model).run(ProgressListener.NONE);
            assertThat(x.jobs().get(0).completed()).as(model.toString()).isTrue();
            assertThat(x.jobs().get(0).jctPs()).as(model.toString()).isEqualTo(y.jobs().get(0).jctPs()).isPositive();
            assertThat(x.jobs().get(0).idealJctPs()).isEqualTo(y.jobs().get(0).idealJctPs());
            assertThat(x.flows()).hasSameSizeAs(y.flows());
            for (int i = 0; i < x.flows().size(); i++) {
                assertThat(x.flows().get(i).finishPs()).isEqualTo(y.flows().get(i).finishPs());
            }
            assertThat(x.collectives()).hasSameSizeAs(y.collectives());
            for (int i = 0; i < x.collectives().size(); i++) {
                assertThat(x.collectives().get(i).endPs()).isEqualTo(y.collectives().get(i).endPs());
            }
        }
    }

    @Test
    void shouldRunAnAllReduceMicrobenchmarkLikeTheStepLanguage(@TempDir Path dir) throws Exception {
        ChakraTraces t = new ChakraTraces(4);
        for (int r = 0; r < 4; r++) {
            long c = t.rank(r).comp("warmup", 5);
            long ar = t.rank(r).coll("allreduce", CollectiveCommType.ALL_REDUCE, 1 << 20, null, c);
            t.rank(r).coll("allreduce-2", CollectiveCommType.ALL_REDUCE, 1 << 20, null, ar);
        }
        t.write(dir.resolve("ar"), "ar");
        ScenarioConfig imported = read(dir, FABRIC + "jobs: [{name: ar, chakra: ar, hosts: 0-3, iterations: 2}]\n");
        ScenarioConfig written = read(dir, FABRIC + """
                jobs:
                  - name: ar
                    hosts: 0-3
                    parallelism: {dp: 4}
                    iterations: 2
                    program:
                      - {op: compute, duration: 5us}
                      - {op: allreduce, size-total: 1MiB}
                      - {op: allreduce, size-total: 1MiB}
                """);
        assertThat(imported.jobs().get(0).program()).hasSize(3);
        assertSameWorkload(imported, written);
        // Gzip-compressed traces (Chakra's protolib reads both) are the same workload.
        Files.createDirectories(dir.resolve("gz"));
        for (int r = 0; r < 4; r++) {
            try (var out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("gz/ar." + r + ".et")))) {
                out.write(t.rank(r).bytes());
            }
        }
        ScenarioConfig gz = read(dir, FABRIC + "jobs: [{name: ar, chakra: gz, hosts: 0-3, iterations: 2}]\n");
        assertThat(graph(gz.jobs().get(0))).isEqualTo(graph(written.jobs().get(0)));
        RunResult r = Simulation.assemble(imported).run(ProgressListener.NONE);
        assertThat(r.collectives()).hasSize(2 * 2);
        assertThat(r.collectives().get(0).name()).isEqualTo("ar/allreduce/world");
    }

    @Test
    void shouldRunATwoStagePipelineWithSendAndRecvLikeTheStepLanguage(@TempDir Path dir) throws Exception {
        // pp 2 x dp 2: ranks 0, 1 are stage 0, ranks 2, 3 stage 1 (rank = dp + 2 pp). Two micro-batches; the
        // second is sent with tag 1 before the first (tag 0) is received? No: tags pair the sends with the
        // receives, so stage 1 receives tag 0 first and tag 1 second whatever order the sends have.
        ChakraTraces t = new ChakraTraces(4);
        for (int dp = 0; dp < 2; dp++) {
            ChakraTraces.Rank s0 = t.rank(dp);
            long f0 = s0.comp("fwd-mb0", 10);
            long x0 = s0.send("send-mb0", dp + 2, 0, 1 << 20, f0);
            long f1 = s0.comp("fwd-mb1", 10, x0);
            s0.send("send-mb1", dp + 2, 1, 1 << 20, f1);
            ChakraTraces.Rank s1 = t.rank(dp + 2);
            long r0 = s1.recv("recv-mb0", dp, 0, 1 << 20);
            long b0 = s1.comp("fwd2-mb0", 12, r0);
            long r1 = s1.recv("recv-mb1", dp, 1, 1 << 20, b0);
            s1.comp("fwd2-mb1", 12, r1);
        }
        t.write(dir.resolve("pipe"), "pipe");
        ScenarioConfig imported = read(dir, FABRIC + """
                jobs: [{name: pipe, chakra: pipe/, hosts: 0-3, parallelism: {pp: 2, dp: 2}, iterations: 2}]
                """);
        ScenarioConfig written = read(dir, FABRIC + """
                jobs:
                  - name: pipe
                    hosts: 0-3
                    parallelism: {pp: 2, dp: 2}
                    iterations: 2
                    program:
                      - {op: compute, duration: 10us, when: pp == 0}
                      - {op: send, peer: pp+1, size: 1MiB, when: pp == 0}
                      - {op: recv, peer: pp-1, when: pp == 1}
                      - {op: compute, duration: 10us, when: pp == 0}
                      - {op: compute, duration: 12us, when: pp == 1}
                      - {op: send, peer: pp+1, size: 1MiB, when: pp == 0}
                      - {op: recv, peer: pp-1, when: pp == 1}
                      - {op: compute, duration: 12us, when: pp == 1}
                """);
        assertSameWorkload(imported, written);
        RunResult r = Simulation.assemble(imported).run(ProgressListener.NONE);
        // One flow per send and iteration, each stage-0 rank to its stage-1 peer across the fabric.
        assertThat(r.flows()).hasSize(2 * 2 * 2).allSatisfy(f -> assertThat(f.dst()).isEqualTo(f.src() + 2));
    }

    @Test
    void shouldPairSendsAndReceivesByTagNotByOrder(@TempDir Path dir) throws Exception {
        // Rank 0 issues a 1 MiB tag-7 send, then a 64 KiB tag-3 one (independent); rank 1 receives tag 3 first.
        // Matched by order, the 1 MiB send would pair with the first receive; matched by tag, rank 1's first
        // receive is the 64 KiB one.
        ChakraTraces t = new ChakraTraces(2);
        t.rank(0).send("big", 1, 7, 1 << 20);
        t.rank(0).send("small", 1, 3, 64 << 10);
        long r = t.rank(1).recv("small-in", 0, 3, 64 << 10);
        long c = t.rank(1).comp("use-small", 3, r);
        t.rank(1).recv("big-in", 0, 7, 1 << 20, c);
        t.write(dir.resolve("tags"), "tags");
        ScenarioConfig c2 = read(dir, FABRIC + "jobs: [{name: tags, chakra: tags, hosts: [0, 2]}]\n");
        RunResult res = Simulation.assemble(c2).run(ProgressListener.NONE);
        assertThat(res.jobs().get(0).completed()).isTrue();
        assertThat(res.flows()).hasSize(2);
        var big = res.flows().stream().filter(f -> f.sizeBytes() == 1 << 20).findFirst().orElseThrow();
        var small = res.flows().stream().filter(f -> f.sizeBytes() == 64 << 10).findFirst().orElseThrow();
        // The big send waits for rank 1's receive, which waits for the small message's delivery and 3 us of compute.
        assertThat(big.startPs()).isGreaterThanOrEqualTo(small.deliveredPs() + 3_000_000);
    }

    @Test
    void shouldRunADpTpStepLikeTheStepLanguageAndSayWhatIsNotModelled(@TempDir Path dir) throws Exception {
        // tp 2 x dp 2 (rank = tp + 2 dp): TP groups {0,1}, {2,3} inside a server, DP groups {0,2}, {1,3}.
        ChakraTraces t = new ChakraTraces(4);
        for (int r = 0; r < 4; r++) {
            ChakraTraces.Rank k = t.rank(r);
            String tp = "tp" + r / 2;
            String dp = "dp" + r % 2;
            long load = k.mem("load-weights", true, 2);
            long fwd = k.comp("fwd", 20, load);
            long tpc = k.coll("tp-allreduce", CollectiveCommType.ALL_REDUCE, 1 << 20, tp, fwd);
            long b1 = k.comp("bwd1", 30, tpc);
            long g1 = k.coll("dp-allreduce1", CollectiveCommType.ALL_REDUCE, 4 << 20, dp, b1);
            long b2 = k.comp("bwd2", 30, b1);
            long g2 = k.coll("dp-allreduce2", CollectiveCommType.ALL_REDUCE, 4 << 20, dp, g1, b2);
            k.comp("optimizer", 5, b2, g2);
        }
        t.write(dir.resolve("step"), "step");
        ScenarioConfig imported = read(dir, FABRIC + """
                jobs: [{name: step, chakra: step, hosts: 0-3, parallelism: {tp: 2, dp: 2}, iterations: 2}]
                """);
        ScenarioConfig written = read(dir, FABRIC + """
                jobs:
                  - name: step
                    hosts: 0-3
                    parallelism: {tp: 2, dp: 2}
                    iterations: 2
                    program:
                      - {op: delay, duration: 2us}
                      - {op: compute, duration: 20us}
                      - {op: allreduce, group: tp, size-total: 1MiB}
                      - {id: bwd1, op: compute, duration: 30us}
                      - {op: allreduce, group: dp, size-total: 4MiB, stream: grads, after: [bwd1]}
                      - {id: bwd2, op: compute, duration: 30us}
                      - {id: dp2, op: allreduce, group: dp, size-total: 4MiB, stream: grads, after: [bwd2]}
                      - {op: compute, duration: 5us, after: [dp2]}
                """);
        assertSameWorkload(imported, written);
        assertThat(imported.jobs().get(0).notes()).containsExactly(
                "4 MEM_LOAD_NODE nodes run as delays of their duration_micros (no memory model)",
                "node attributes read and not used: is_cpu_op (12 nodes), tensor_size (4 nodes)");
        RunResult r = Simulation.assemble(imported).run(ProgressListener.NONE);
        assertThat(r.collectives().stream().map(c -> c.name()).distinct().toList()).contains(
                "step/tp-allreduce/tp(dp=0)", "step/tp-allreduce/tp(dp=1)", "step/dp-allreduce1/dp(tp=0)",
                "step/dp-allreduce2/dp(tp=1)");
    }

    @Test
    void shouldRunARanksGpuComputeNodesOneAtATimeInAstraSimsIssueOrder(@TempDir Path dir) throws Exception {
        // Each rank: fwd and aux with no dependency between them, an all-reduce after fwd, opt after the all-reduce.
        // ASTRA-sim runs one GPU compute node at a time (fwd, then aux: the lower id first), the all-reduce
        // alongside aux: compute per rank 100 + 100 + 50 us on rank 0, 300 + 100 + 50 us on rank 1.
        String fabric = """
                name: chk
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                """;
        ChakraTraces t = new ChakraTraces(2);
        for (int r = 0; r < 2; r++) {
            long fwd = t.rank(r).comp("fwd", r == 0 ? 100 : 300);
            t.rank(r).comp("aux", 100);
            long ar = t.rank(r).coll("ar", CollectiveCommType.ALL_REDUCE, 8 << 20, "dp", fwd);
            t.rank(r).comp("opt", 50, ar);
        }
        t.write(dir.resolve("t1"), "t");
        ScenarioConfig imported = read(dir, fabric + "jobs: [{name: t, chakra: t1, hosts: 0-1, iterations: 2,"
                + " warmup: 1}]\n");
        assertThat(imported.jobs().get(0).notes()).contains("4 dependencies added so that each rank's GPU compute"
                + " nodes, and its is_cpu_op nodes, run one at a time in ASTRA-sim's issue order (the ready node with"
                + " the lowest id first)");
        RunResult run = Simulation.assemble(imported).run(ProgressListener.NONE);
        assertThat(run.ranks()).extracting(x -> x.computeUs()).containsExactly(250.0, 450.0);
        // The all-reduce overlaps aux: it starts when rank 1's fwd ends (300 us), not after its aux (400 us).
        assertThat(run.collectives().get(0).startPs()).isEqualTo(300_000_000L);
        // Written as a program: aux after fwd on the one GPU, the all-reduce after fwd alone.
        ScenarioConfig written = read(dir, fabric + """
                jobs:
                  - name: t
                    hosts: 0-1
                    parallelism: {dp: 2}
                    iterations: 2
                    warmup: 1
                    program:
                      - {id: fwd0, op: compute, duration: 100us, when: dp == 0, stream: fwd0}
                      - {id: fwd1, op: compute, duration: 300us, when: dp == 1, stream: fwd1}
                      - {id: aux, op: compute, duration: 100us, after: [fwd0, fwd1], stream: aux}
                      - {id: ar, op: allreduce, size-total: 8MiB, after: [fwd0, fwd1], stream: ar}
                      - {id: opt, op: compute, duration: 50us, after: [ar, aux], stream: opt}
                """);
        RunResult w = Simulation.assemble(written).run(ProgressListener.NONE);
        assertThat(run.jobs().get(0).jctPs()).isEqualTo(w.jobs().get(0).jctPs());

        // A real dependency (aux after fwd, as ASTRA-sim would also order them) is unchanged: no dependency added.
        ChakraTraces d = new ChakraTraces(2);
        for (int r = 0; r < 2; r++) {
            long fwd = d.rank(r).comp("fwd", r == 0 ? 100 : 300);
            long aux = d.rank(r).comp("aux", 100, fwd);
            long ar = d.rank(r).coll("ar", CollectiveCommType.ALL_REDUCE, 8 << 20, "dp", fwd);
            d.rank(r).comp("opt", 50, ar, aux);
        }
        d.write(dir.resolve("t2"), "t");
        ScenarioConfig dep = read(dir, fabric + "jobs: [{name: t, chakra: t2, hosts: 0-1, iterations: 2,"
                + " warmup: 1}]\n");
        assertThat(dep.jobs().get(0).notes()).noneMatch(n -> n.contains("dependencies added"));
        assertThat(graph(dep.jobs().get(0))).isEqualTo(graph(written.jobs().get(0)));

        // Compute behind communication is issued after compute that does not wait for it, whatever the ids: here
        // late (id 2) waits for the all-reduce and free (id 3) does not, so free runs first, during the call.
        ChakraTraces c = new ChakraTraces(2);
        for (int r = 0; r < 2; r++) {
            long ar = c.rank(r).coll("ar", CollectiveCommType.ALL_REDUCE, 8 << 20, "dp");
            c.rank(r).comp("late", 10, ar);
            c.rank(r).comp("free", 100);
        }
        c.write(dir.resolve("t3"), "t");
        ScenarioConfig comm = read(dir, fabric + "jobs: [{name: t, chakra: t3, hosts: 0-1}]\n");
        RunResult cr = Simulation.assemble(comm).run(ProgressListener.NONE);
        ScenarioConfig commWritten = read(dir, fabric + """
                jobs:
                  - name: t
                    hosts: 0-1
                    parallelism: {dp: 2}
                    program:
                      - {id: ar, op: allreduce, size-total: 8MiB}
                      - {id: free, op: compute, duration: 100us, stream: gpu}
                      - {op: compute, duration: 10us, after: [ar, free]}
                """);
        assertThat(cr.jobs().get(0).jctPs()).isEqualTo(Simulation.assemble(commWritten).run(ProgressListener.NONE)
                .jobs().get(0).jctPs());
    }

    /**
     * A trace cut short at a node's end loses its rank from a process group that has no other clue to its members: a
     * tp 2 x dp 2 step whose rank 2 issues none of its DP AllReduce made group 'dp0' of rank 0 alone, and its
     * AllReduces free no-ops (an audit's 12 MB AllReduce and AllGather, with only a note). Refused where the same
     * calls run over two ranks in another group.
     */
    @Test
    void shouldRefuseAGroupOfOneWhereTheSameCallsRunOverSeveralRanksElsewhere(@TempDir Path dir) throws Exception {
        ChakraTraces t = new ChakraTraces(4);
        for (int r = 0; r < 4; r++) {
            ChakraTraces.Rank k = t.rank(r);
            long fwd = k.comp("fwd", 20);
            if (r != 2) {
                k.coll("dp-allreduce", CollectiveCommType.ALL_REDUCE, 4 << 20, "dp" + r % 2, fwd);
            }
        }
        t.write(dir.resolve("cut"), "cut");
        assertThatThrownBy(() -> read(dir, FABRIC + """
                jobs: [{name: step, chakra: cut, hosts: 0-3, parallelism: {tp: 2, dp: 2}}]
                """)).hasMessageContaining("cut.0.et:").hasMessageContaining("process group 'dp0' has one rank, 0, so its"
                + " 1 collective would exchange nothing, but the same call (AllReduce of 4194304 bytes, 'dp-allreduce')"
                + " run over 2 ranks in process group 'dp1'; expected the traces of the group's other ranks to issue"
                + " them too (a trace cut short?)");
        // A group of one whose calls run nowhere else is the trace's own (a rank's private collectives): no-ops.
        ChakraTraces own = new ChakraTraces(2);
        for (int r = 0; r < 2; r++) {
            long c = own.rank(r).comp("c", 1);
            own.rank(r).coll("solo-" + r, CollectiveCommType.ALL_REDUCE, 4096, "solo" + r, c);
        }
        own.write(dir.resolve("own"), "own");
        assertThat(read(dir, FABRIC + "jobs: [{name: own, chakra: own, hosts: 0-1}]\n").jobs()).hasSize(1);
    }

    @Test
    void shouldRejectMalformedTracesNamingTheFileAndTheNode(@TempDir Path dir) throws Exception {
        String job = "jobs: [{name: bad, chakra: bad, hosts: 0-1}]\n";
        ChakraTraces ok = new ChakraTraces(2);
        for (int r = 0; r < 2; r++) {
            long c = ok.rank(r).comp("c", 1);
            ok.rank(r).coll("ar", CollectiveCommType.ALL_REDUCE, 4096, null, c);
        }
        String file1 = dir.resolve("bad/bad.1.et").toString();
        // A truncated stream: the last node cut short.
        ok.write(dir.resolve("bad"), "bad");
        byte[] whole = Files.readAllBytes(dir.resolve("bad/bad.1.et"));
        Files.write(dir.resolve("bad/bad.1.et"), Arrays.copyOf(whole, whole.length - 3));
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageStartingWith(file1 + ":3:1: the message after"
                + " node 1 is truncated: its length prefix at byte ");
        // Cut anywhere inside the last message, on a field boundary too (where a parser reading what is there takes
        // the rest for a whole message: a wrong diagnosis, or an optional attribute silently lost), or inside its
        // length prefix: the message is truncated, said with where it starts and the length it announced.
        int lastStart = whole.length - ok.rank(1).lastMessageLength();
        for (int cut = lastStart + 1; cut < whole.length; cut++) {
            Files.write(dir.resolve("bad/bad.1.et"), Arrays.copyOf(whole, cut));
            int at = cut;
            assertThatThrownBy(() -> read(dir, FABRIC + job)).as("cut at byte %d", at).hasMessageMatching(
                    java.util.regex.Pattern.quote(file1) + ":3:1: the message after node 1 is truncated: (its length"
                    + " prefix at byte " + lastStart + " announces \\d+ bytes, but the file ends \\d+ bytes into it"
                    + "|the file ends inside its length prefix at byte " + lastStart + "); expected whole"
                    + " length-delimited messages to the end of the file");
        }
        // The same, compressed: the gzip stream whole, the message in it cut.
        try (var out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("bad/bad.1.et")))) {
            out.write(Arrays.copyOf(whole, whole.length - 3));
        }
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageStartingWith(file1 + ":3:1: the message after"
                + " node 1 is truncated: its length prefix at byte " + lastStart + " of the decompressed stream");
        // A cut gzip stream.
        java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
        try (var out = new GZIPOutputStream(zipped)) {
            out.write(whole);
        }
        Files.write(dir.resolve("bad/bad.1.et"), Arrays.copyOf(zipped.toByteArray(), zipped.size() - 12));
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageContaining("bad.1.et:").hasMessageContaining(
                "cannot be decompressed");
        // A dependency on a node that is not in the file.
        ChakraTraces dangling = new ChakraTraces(2);
        for (int r = 0; r < 2; r++) {
            long c = dangling.rank(r).comp("c", 1, r == 1 ? new long[] {99} : new long[0]);
            dangling.rank(r).coll("ar", CollectiveCommType.ALL_REDUCE, 4096, null, c);
        }
        dangling.write(dir.resolve("bad"), "bad");
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessage(file1 + ":2:1: node 1 (c): depends on node 99,"
                + " which is not in this rank's trace; expected ctrl_deps and data_deps naming nodes of the same file");
        // A send to a rank the trace set does not have.
        ChakraTraces peer = new ChakraTraces(2);
        peer.rank(0).comp("c", 1);
        peer.rank(1).send("s", 5, 0, 4096);
        peer.write(dir.resolve("bad"), "bad");
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessage(file1 + ":2:1: node 1 (s): comm_dst 5 is not a"
                + " rank of the trace set; expected another rank 0..1");
        // A send nobody receives.
        ChakraTraces lonely = new ChakraTraces(2);
        lonely.rank(0).comp("c", 1);
        lonely.rank(1).send("s", 0, 4, 4096);
        lonely.write(dir.resolve("bad"), "bad");
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageStartingWith(file1 + ":2:1: node 1 (s): a send to"
                + " rank 0 with tag 4 that rank 0 never receives");
        // A collective one member does not issue.
        ChakraTraces half = new ChakraTraces(2);
        half.rank(0).coll("ar", CollectiveCommType.ALL_REDUCE, 4096, "g");
        half.rank(0).coll("ar2", CollectiveCommType.ALL_REDUCE, 4096, "g");
        half.rank(1).coll("ar", CollectiveCommType.ALL_REDUCE, 4096, "g");
        half.write(dir.resolve("bad"), "bad");
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageContaining("bad.0.et:3:1: node 2 (ar2): collective"
                + " 2 of rank 0 in process group 'g' has no partner: rank 1 issues only 1");
        // A node type the schema has but no trace may use, and a gather rocelab does not model.
        ChakraTraces invalid = new ChakraTraces(2);
        invalid.rank(0).raw(EtDef.Node.newBuilder().setId(4).setName("x").build());
        invalid.rank(1).coll("g", CollectiveCommType.GATHER, 4096, null);
        invalid.write(dir.resolve("bad"), "bad");
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageContaining("bad.0.et:2:1: node 4 (x): node type"
                + " INVALID_NODE cannot be run");
        // Traces that wait on each other: each rank's receive before its send.
        ChakraTraces deadlock = new ChakraTraces(2);
        for (int r = 0; r < 2; r++) {
            long rv = deadlock.rank(r).recv("in", 1 - r, 0, 4096);
            deadlock.rank(r).send("out", 1 - r, 0, 4096, rv);
        }
        deadlock.write(dir.resolve("bad"), "bad");
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageContaining("bad.0.et:2:1: node 1 (in): can never"
                + " start");
        // The scenario side: a missing folder, a missing rank, unknown keys, a parallelism that does not fit.
        assertThatThrownBy(() -> read(dir, FABRIC + "jobs: [{name: x, chakra: none, hosts: 0-1}]\n"))
                .hasMessageContaining("s.yaml:6:").hasMessageContaining("folder not found");
        Files.delete(dir.resolve("bad/bad.0.et"));
        assertThatThrownBy(() -> read(dir, FABRIC + job)).hasMessageContaining("has no trace for rank 0 but one for"
                + " rank 1");
        ok.write(dir.resolve("bad"), "bad");
        assertThatThrownBy(() -> read(dir, FABRIC + "jobs: [{name: x, chakra: {traces: bad, gpu: 1}, hosts: 0-1}]\n"))
                .hasMessageContaining("s.yaml:6:").hasMessageContaining("'gpu'");
        assertThatThrownBy(() -> read(dir, FABRIC + "jobs: [{name: x, chakra: bad, hosts: 0-3, parallelism: {dp: 4}}]"))
                .hasMessageContaining("the parallelism makes 4 ranks but the trace folder has 2");
        ChakraTraces groups = new ChakraTraces(4);
        for (int r = 0; r < 4; r++) {
            groups.rank(r).coll("ar", CollectiveCommType.ALL_REDUCE, 4096, r == 0 || r == 3 ? "odd" : "even");
        }
        groups.write(dir.resolve("groups"), "g");
        assertThatThrownBy(() -> read(dir, FABRIC + "jobs: [{name: x, chakra: groups, hosts: 0-3}]\n"))
                .hasMessageContaining("g.1.et:2:1: node 1 (ar): process group 'even' has ranks 1-2, which are not a"
                        + " group of the job's layout (dp 4, tp fastest)");
    }
}
