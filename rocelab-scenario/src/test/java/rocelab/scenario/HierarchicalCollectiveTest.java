package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;

/** Hierarchical collectives on multi-GPU servers: NVLink inside, one rail per local GPU index between servers. */
class HierarchicalCollectiveTest {
    private static final int SERVERS = 4;
    private static final int GPUS = 4;
    private static final long SIZE = 16L << 20;

    private static RunResult run(String algorithm, String op) {
        return Scenarios.assemble("""
                name: hier
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: rail-optimized, servers: %d, gpus-per-server: %d, spines: 2,
                           link: {rate: 400Gbps, delay: 500ns}}
                nvlink: {rate: 3600Gbps, latency: 1us}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: %s, ranks: 0-15, size-total: %d, algorithm: %s}
                """.formatted(SERVERS, GPUS, op, SIZE, algorithm)).run(ProgressListener.NONE);
    }

    @Test
    void shouldKeepEveryNetworkTransferOnOneRailAndMoveTheReferenceBytesPerNic() {
        RunResult r = run("hierarchical", "allreduce");
        assertThat(r.flows()).isNotEmpty().allSatisfy(f -> {
            assertThat(f.src() % GPUS).as("rail of the sender").isEqualTo(f.dst() % GPUS);
            assertThat(f.src() / GPUS).as("another server").isNotEqualTo(f.dst() / GPUS);
        });
        // Per RNIC: 2(M-1)/M x S/G (reference 1.3.8).
        for (int h = 0; h < SERVERS * GPUS; h++) {
            int host = h;
            long sent = r.flows().stream().filter(f -> f.src() == host).mapToLong(FlowRecord::sizeBytes).sum();
            assertThat(sent).isEqualTo(2L * (SERVERS - 1) * (SIZE / GPUS) / SERVERS);
        }
        assertThat(r.collectives().get(0).completed()).isTrue();
    }

    @Test
    void shouldBeatTheFlatRingThatCrossesRailsThroughTheSpines() {
        CollectiveRecord flat = run("ring", "allreduce").collectives().get(0);
        CollectiveRecord hier = run("hierarchical", "allreduce").collectives().get(0);
        assertThat(hier.timePs()).isLessThan(flat.timePs());
        assertThat(hier.busbwGBps()).isGreaterThan(flat.busbwGBps());
    }

    @Test
    void shouldGatherAndScatterHierarchicallyToo() {
        for (String op : new String[] {"allgather", "reduce-scatter"}) {
            RunResult r = run("hierarchical", op);
            assertThat(r.collectives().get(0).completed()).isTrue();
            for (int h = 0; h < SERVERS * GPUS; h++) {
                int host = h;
                long sent = r.flows().stream().filter(f -> f.src() == host).mapToLong(FlowRecord::sizeBytes).sum();
                // (M-1)/M of the rail's shard S/G crosses the network per RNIC.
                assertThat(sent).as(op).isEqualTo((SERVERS - 1) * (SIZE / GPUS) / SERVERS);
            }
        }
    }

    @Test
    void shouldRejectServersWithDifferentRankCountsWhereTheScenarioSaysSo() {
        assertThatThrownBy(() -> Scenarios.parse("""
                name: hier
                fabric: {mode: roce-lossless}
                topology: {kind: rail-optimized, servers: 2, gpus-per-server: 4, spines: 1, link: {rate: 400Gbps}}
                traffic:
                  - {kind: allreduce, ranks: 0-5, size: 1MB, algorithm: hierarchical}
                """)).hasMessage("test.yaml:5:5: a hierarchical AllReduce needs the same number of ranks on every"
                        + " server, got [4, 2]; expected valid values for traffic item 1 (allreduce)");
    }
}
