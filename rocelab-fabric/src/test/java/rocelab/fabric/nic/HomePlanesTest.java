package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Home planes against what a collective needs: every host's peers over its planes both ways, whatever order the
 * QPs open in; a pair's QPs on the planes in turn; a rail's inter-server peers and a ring's or pairwise step's QPs
 * not all on one plane (what QP id mod P and (s + d) mod P did).
 */
class HomePlanesTest {
    private static final int HOSTS = 16;

    /** Per host and plane, the QPs out of it ({@code [0]}) and into it ({@code [1]}). */
    private static int[][][] open(HomePlanes homes, int planes, List<int[]> pairs) {
        int[][][] count = new int[2][HOSTS * 4][planes];
        int id = 0;
        for (int[] p : pairs) {
            int home = homes.open(id++, p[0], p[1]);
            count[0][p[0]][home]++;
            count[1][p[1]][home]++;
        }
        return count;
    }

    private static List<int[]> allToAll(boolean stepMajor) {
        List<int[]> pairs = new ArrayList<>();
        // step-major: every rank's step 1, then step 2, ... (AllToAllAlgorithm); host-major: rank 0's peers first
        for (int a = stepMajor ? 1 : 0; a < HOSTS; a++) {
            for (int b = stepMajor ? 0 : 1; b < HOSTS; b++) {
                pairs.add(stepMajor ? new int[] {b, (b + a) % HOSTS} : new int[] {a, (a + b) % HOSTS});
            }
        }
        return pairs;
    }

    @Test
    void shouldSpreadEveryHostsPeersOverItsPlanesBothWaysWhateverTheOpeningOrder() {
        for (int planes : new int[] {2, 4}) {
            for (boolean stepMajor : new boolean[] {true, false}) {
                int[][][] count = open(new HomePlanes(planes, HOSTS), planes, allToAll(stepMajor));
                for (int way = 0; way < 2; way++) {
                    for (int h = 0; h < HOSTS; h++) {
                        // 15 peers over P planes: floor(15 / P) to ceil(15 / P) on each as AllToAllAlgorithm opens
                        // them; the greedy choice may leave one more on a plane in another order (host-major, P=4)
                        int slack = stepMajor ? 0 : 1;
                        for (int n : count[way][h]) {
                            assertThat(n).as("P=%d host %d %s", planes, h, way == 0 ? "sending" : "receiving")
                                    .isBetween(15 / planes - slack, (15 + planes - 1) / planes + slack);
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldGiveAPairsQueuePairsThePlanesInTurn() {
        HomePlanes homes = new HomePlanes(4, HOSTS);
        homes.open(0, 0, 5);
        homes.open(1, 3, 2);
        Set<Integer> planes = new HashSet<>();
        for (int id = 2; id < 6; id++) {
            planes.add(homes.open(id, 3, 2));
        }
        assertThat(planes).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(homes.home(1)).isEqualTo(homes.home(5));
    }

    @Test
    void shouldSpreadARailsInterServerPeersAndARingsQueuePairsOverThePlanes() {
        // 8 servers of 8 GPUs: GPU g's peers on its rail are g + 8, g + 16, ...; (s + d) mod 2 put all on plane 0.
        int hosts = 64;
        List<int[]> rail = new ArrayList<>();
        for (int s = 0; s < hosts; s++) {
            for (int d = s % 8; d < hosts; d += 8) {
                if (d != s) {
                    rail.add(new int[] {s, d});
                }
            }
        }
        HomePlanes homes = new HomePlanes(2, hosts);
        int[][] sending = new int[hosts][2];
        for (int id = 0; id < rail.size(); id++) {
            sending[rail.get(id)[0]][homes.open(id, rail.get(id)[0], rail.get(id)[1])]++;
        }
        for (int[] c : sending) {
            assertThat(c).containsExactlyInAnyOrder(3, 4);
        }
        // a ring with one channel: every host sends on one plane, but not every host on the same one
        HomePlanes ring = new HomePlanes(2, HOSTS);
        int[] onPlane = new int[2];
        for (int s = 0; s < HOSTS; s++) {
            onPlane[ring.open(s, s, (s + 1) % HOSTS)]++;
        }
        assertThat(onPlane).containsExactly(8, 8);
    }

    @Test
    void shouldRefuseAQueuePairOpenedOutOfIdOrderOrNeverOpened() {
        HomePlanes homes = new HomePlanes(2, HOSTS);
        homes.open(0, 0, 1);
        assertThatThrownBy(() -> homes.open(2, 0, 1)).hasMessageContaining("id order");
        assertThatThrownBy(() -> homes.home(1)).hasMessageContaining("no home plane");
    }

    @Test
    void shouldKeepEveryPairApartAsTheTableGrows() {
        HomePlanes homes = new HomePlanes(2, 1000);
        int id = 0;
        for (int s = 0; s < 1000; s += 7) {
            for (int d = 0; d < 1000; d += 13) {
                homes.open(id++, s, d);
                homes.open(id++, s, d);
                assertThat(homes.home(id - 1)).isNotEqualTo(homes.home(id - 2));
            }
        }
    }
}
