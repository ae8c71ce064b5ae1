package rocelab.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.workload.graph.TaskGraph;

/** Chain, AlltoAll, SendRecv and Barrier against the reference's send patterns, read from the task graph. */
class PointToPointPatternTest {
    private static final long STEP = NcclChunks.STEP_BYTES;
    private static final long P2P = NcclChunks.P2P_CHUNK_BYTES;

    @Test
    void shouldBroadcastAlongTheRingFromTheRootInPipelinedChunks() {
        long s = STEP + STEP / 2;
        Sends x = Sends.of(new Collective(CollectiveOp.BROADCAST, Algorithm.RING, Sends.range(4), s, 2, 1, -1));
        // root 2 -> 3 -> 0 -> 1, every hop S in a 512 KiB chunk and the rest.
        assertThat(x.sends.stream().map(f -> f.src() + ">" + f.dst() + ":" + f.bytes()).toList()).containsExactly(
                "2>3:" + STEP, "3>0:" + STEP, "0>1:" + STEP, "2>3:" + STEP / 2, "3>0:" + STEP / 2, "0>1:" + STEP / 2);
        // Chunk k leaves a rank only after chunk k arrived there: hop p of chunk k is at step p + (k pipelined).
        assertThat(x.steps()).isEqualTo(3);
        assertThat(x.sentBy(1)).isZero();
        for (int r : new int[] {2, 3, 0}) {
            assertThat(x.sentBy(r)).isEqualTo(s);
        }
    }

    @Test
    void shouldReduceAlongTheRingTowardsTheRoot() {
        Sends x = Sends.of(new Collective(CollectiveOp.REDUCE, Algorithm.RING, Sends.range(4), 1000, 2, 1, -1));
        assertThat(x.sends.stream().map(f -> f.src() + ">" + f.dst()).toList()).containsExactly("3>0", "0>1", "1>2");
        assertThat(x.steps()).isEqualTo(3);
        assertThat(x.sentBy(2)).isZero();
        assertThat(x.receivedBy(2)).isEqualTo(1000);
    }

    @Test
    void shouldSendToAllPeersAtOnceInP2pChunksForDirectAlltoAll() {
        int n = 4;
        long perPeer = 2 * P2P + 1000;
        Sends x = Sends.of(CollectiveOp.ALL_TO_ALL, Algorithm.DIRECT, n, n * perPeer);
        assertThat(x.steps()).isEqualTo(1);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                assertThat(x.between(i, j)).isEqualTo(i == j ? 0 : perPeer);
            }
            // (N-1)/N of S out and in; the part for itself stays home.
            assertThat(x.sentBy(i)).isEqualTo((n - 1) * perPeer);
        }
        assertThat(x.sends).hasSize(n * (n - 1) * 3).allMatch(f -> f.bytes() == P2P || f.bytes() == 1000);
    }

    @Test
    void shouldExchangeWithRPlusKAtStepKForPairwiseAlltoAll() {
        int n = 5;
        Sends x = Sends.of(CollectiveOp.ALL_TO_ALL, Algorithm.PAIRWISE, n, n * 100L);
        assertThat(x.steps()).isEqualTo(n - 1);
        for (int k = 1; k < n; k++) {
            List<Sends.Send> step = x.atStep(k - 1);
            assertThat(step).hasSize(n);
            for (Sends.Send f : step) {
                assertThat(f.dst()).isEqualTo((f.src() + k) % n);
                assertThat(f.bytes()).isEqualTo(100);
            }
        }
    }

    @Test
    void shouldSendEachPairItsMatrixEntryForAlltoAllv() {
        long[][] m = {{5, 0, 300_000}, {7, 9, 1}, {0, 2_000, 0}};
        PairSizes pairs = PairSizes.of(m);
        Sends x = Sends.of(Collective.allToAllv(Algorithm.DIRECT, Sends.range(3), pairs, 1, -1));
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertThat(x.between(i, j)).isEqualTo(i == j ? 0 : m[i][j]);
            }
        }
        // nccl-tests size: the largest send or receive, own part included (rank 0 sends 300005 bytes).
        assertThat(pairs.ncclSize()).isEqualTo(300_005);
        assertThat(pairs.received(2)).isEqualTo(300_001);
        assertThat(pairs.maxOffRank()).isEqualTo(300_001);
        assertThat(x.sends.stream().mapToLong(Sends.Send::bytes).max().getAsLong()).isEqualTo(P2P);
    }

    @Test
    void shouldSendToTheNextRankForSendRecv() {
        Sends x = Sends.of(CollectiveOp.SEND_RECV, Algorithm.DIRECT, 4, 3 * P2P);
        assertThat(x.sends).hasSize(12).allMatch(f -> f.dst() == (f.src() + 1) % 4 && f.bytes() == P2P);
        for (int r = 0; r < 4; r++) {
            assertThat(x.sentBy(r)).isEqualTo(3 * P2P);
        }
    }

    @Test
    void shouldKeepAtMostEightMessagesInFlightPerConnection() {
        Sends x = Sends.of(CollectiveOp.SEND_RECV, Algorithm.DIRECT, 2, 20 * P2P);
        List<Sends.Send> from0 = x.sends.stream().filter(f -> f.src() == 0).toList();
        assertThat(from0).hasSize(20);
        for (int k = 0; k < 20; k++) {
            for (int j = 0; j < k; j++) {
                // Message k waits for the delivery of message k - 8 (and so for k - 16, ...), nothing closer.
                assertThat(x.waitsFor(from0.get(k).task(), from0.get(j).task()))
                        .isEqualTo(j <= k - NcclChunks.WINDOW && (k - j) % NcclChunks.WINDOW == 0);
            }
        }
    }

    @Test
    void shouldDisseminateSoThatNoRankLeavesBeforeEveryRankEntered() {
        int n = 5;
        TaskGraph g = new TaskGraph();
        int[] entry = new int[n];
        for (int i = 0; i < n; i++) {
            entry[i] = g.at(i * 1000L, i);
        }
        Collective call = new Collective(CollectiveOp.BARRIER, Algorithm.DISSEMINATION, Sends.range(n), 0);
        int[] done = Collectives.emit(g, call, entry);
        Sends probe = Sends.of(call);
        assertThat(probe.steps()).isEqualTo(3).isEqualTo(DisseminationBarrier.rounds(n));
        for (int k = 0; k < 3; k++) {
            for (Sends.Send f : probe.atStep(k)) {
                assertThat(f.dst()).isEqualTo((f.src() + (1 << k)) % n);
                assertThat(f.bytes()).isEqualTo(1);
            }
        }
        Sends graph = new Sends(g, done);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                assertThat(graph.waitsFor(done[i], entry[j])).as("rank %d waits for rank %d", i, j).isTrue();
            }
        }
    }

    @Test
    void shouldRoundRobinWholeMessagesOverTheQueuePairsOfAConnection() {
        Collective one = new Collective(CollectiveOp.ALL_REDUCE, Algorithm.RING, Sends.range(4), 4000);
        TaskGraph g1 = new TaskGraph();
        int[] entry = new int[4];
        Arrays.fill(entry, -1);
        Collectives.emit(g1, one, entry);
        TaskGraph g2 = new TaskGraph();
        Collectives.emit(g2, one.withQpsPerConnection(2), entry);
        for (int host = 0; host < 4; host++) {
            assertThat(connections(g1, host).stream().distinct().count()).isEqualTo(1);
            List<Integer> two = connections(g2, host);
            assertThat(two.stream().distinct().count()).isEqualTo(2);
            for (int k = 2; k < two.size(); k++) {
                assertThat(two.get(k)).isEqualTo(two.get(k - 2)).isNotEqualTo(two.get(k - 1));
            }
        }
    }

    private static List<Integer> connections(TaskGraph g, int src) {
        List<Integer> out = new ArrayList<>();
        for (int f = 0; f < g.flowCount(); f++) {
            if (g.flows().get(f).src() == src) {
                out.add(g.connection(f));
            }
        }
        return out;
    }
}
