package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.workload.collective.PairSizes;
import rocelab.workload.traffic.CollectiveTraffic;

/** The new collective keys from YAML to the wire: AlltoAllv matrices and skews, queue pairs per connection. */
class CollectiveScenarioTest {
    private static final String HEAD = """
            name: c
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
            """;

    @Test
    void shouldSendEachPairItsMatrixEntryAndReportTheLargestSendOrReceive() {
        RunResult r = Scenarios.assemble(HEAD + """
                  - kind: alltoallv
                    ranks: [3, 0, 1]
                    matrix: [[0, 100KB, 0], [1000, 0, 300KB], [5, 5, 7]]
                """).run(ProgressListener.NONE);
        long[][] expected = {{0, 100_000, 0}, {1000, 0, 300_000}, {5, 5, 7}};
        int[] host = {3, 0, 1};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                int src = host[i];
                int dst = host[j];
                long sent = r.flows().stream().filter(f -> f.src() == src && f.dst() == dst)
                        .mapToLong(FlowRecord::sizeBytes).sum();
                assertThat(sent).isEqualTo(i == j ? 0 : expected[i][j]);
            }
        }
        assertThat(r.collectives().get(0).sizeBytes()).isEqualTo(PairSizes.of(expected).ncclSize()).isEqualTo(301_000);
        assertThat(r.collectives().get(0).completed()).isTrue();
    }

    @Test
    void shouldDrawTheSkewFromItsOwnSeed() {
        ScenarioConfig c = Scenarios.parse(HEAD + """
                  - {kind: alltoallv, ranks: 0-3, size-per-rank: 1MB, skew: {zipf: 0.8, seed: 11}, algorithm: pairwise}
                """);
        CollectiveTraffic t = (CollectiveTraffic) c.traffic().get(0);
        assertThat(t.call().pairs()).isEqualTo(PairSizes.zipf(4, 4_000_000, 0.8, 11));
        assertThat(t.call().sizeBytes()).isEqualTo(t.call().pairs().ncclSize());
    }

    @Test
    void shouldRoundRobinMessagesOverTheQueuePairsOfEachConnection() {
        RunResult r = Scenarios.assemble(HEAD + """
                  - {kind: allreduce, ranks: 0-3, size: 4MB, qps-per-connection: 3}
                """).run(ProgressListener.NONE);
        assertThat(r.collectives().get(0).completed()).isTrue();
        for (int h = 0; h < 4; h++) {
            int host = h;
            List<FlowRecord> mine = r.flows().stream().filter(f -> f.src() == host).toList();
            assertThat(mine).hasSize(6);
            for (int k = 0; k < mine.size(); k++) {
                assertThat(mine.get(k).queuePair()).isEqualTo(mine.get(k % 3).queuePair());
            }
            // Three QPs, three UDP source ports: three chances for ECMP to spread the connection.
            assertThat(mine.stream().map(FlowRecord::queuePair).distinct().count()).isEqualTo(3);
        }
        assertThat(r.totals().packetsDropped()).isZero();
    }

    @Test
    void shouldGiveIdenticalFlowsForTheSameSeed() {
        String yaml = HEAD + """
                  - {kind: alltoallv, ranks: 0-3, size: 2MB, skew: {zipf: 1.5, seed: 3}}
                  - {kind: allreduce, ranks: 0-3, size: 2MB, algorithm: tree, channels: 2, qps-per-connection: 2}
                  - {kind: broadcast, ranks: [2, 0, 3, 1], size: 1MB, root: 3, start: 5us}
                """;
        RunResult a = Scenarios.assemble(yaml).run(ProgressListener.NONE);
        RunResult b = Scenarios.assemble(yaml).run(ProgressListener.NONE);
        assertThat(a.flows()).isEqualTo(b.flows());
        assertThat(a.collectives()).isEqualTo(b.collectives()).allMatch(c -> c.completed());
    }
}
