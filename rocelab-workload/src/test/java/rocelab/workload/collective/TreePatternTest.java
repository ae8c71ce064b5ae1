package rocelab.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The double binary tree against NCCL's trees.cc (its pictures for 12 and 13 ranks) and its byte counts. */
class TreePatternTest {
    private static DoubleBinaryTree.Node node(int n, int r, int tree) {
        return DoubleBinaryTree.node(n, r, tree);
    }

    private static void assertNode(int n, int tree, int r, int parent, int child0, int child1) {
        assertThat(node(n, r, tree)).as("tree %d of %d ranks, rank %d", tree, n, r)
                .isEqualTo(new DoubleBinaryTree.Node(parent, child0, child1));
    }

    @Test
    void shouldBuildNcclsTreeAndItsMirrorForTwelveRanks() {
        // 0---8; 8: 4, 10; 4: 2, 6; 2: 1, 3; 6: 5, 7; 10: 9, 11. The mirror: 11---3; 3: 7, 1; ...
        assertNode(12, 0, 0, -1, -1, 8);
        assertNode(12, 0, 8, 0, 4, 10);
        assertNode(12, 0, 4, 8, 2, 6);
        assertNode(12, 0, 10, 8, 9, 11);
        assertNode(12, 0, 5, 6, -1, -1);
        assertNode(12, 1, 11, -1, -1, 3);
        assertNode(12, 1, 3, 11, 7, 1);
        assertNode(12, 1, 1, 3, 2, 0);
        assertNode(12, 1, 7, 3, 9, 5);
        assertThat(DoubleBinaryTree.depth(12, 0)).isEqualTo(5);
        // Every odd rank is a leaf of tree 0 and interior (or the root) of tree 1, every even one the other way.
        for (int r = 0; r < 12; r++) {
            boolean leaf0 = node(12, r, 0).child0() == -1 && node(12, r, 0).child1() == -1;
            boolean leaf1 = node(12, r, 1).child0() == -1 && node(12, r, 1).child1() == -1;
            assertThat(leaf0).isEqualTo(r % 2 == 1);
            assertThat(leaf1).isEqualTo(r % 2 == 0);
        }
    }

    @Test
    void shouldShiftTheSecondTreeByOneForThirteenRanks() {
        // 0---8; 8: 4, 12; 12: 10. Shifted: 1---9; 9: 5, 0; 0: 11; 11: 10, 12.
        assertNode(13, 0, 8, 0, 4, 12);
        assertNode(13, 0, 12, 8, 10, -1);
        assertNode(13, 1, 1, -1, -1, 9);
        assertNode(13, 1, 9, 1, 5, 0);
        assertNode(13, 1, 0, 9, 11, -1);
        assertNode(13, 1, 11, 0, 10, 12);
        assertThat(DoubleBinaryTree.root(13, 1)).isEqualTo(1);
    }

    @Test
    void shouldReduceUpThenBroadcastDownHalfTheDataPerTreeAboutTwoSPerRank() {
        int n = 8;
        long s = 64 << 10;
        Sends x = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.TREE, n, s);
        for (Sends.Send f : x.sends) {
            boolean edge = false;
            for (int t = 0; t < 2; t++) {
                DoubleBinaryTree.Node a = node(n, f.src(), t);
                edge |= a.parent() == f.dst() || a.child0() == f.dst() || a.child1() == f.dst();
            }
            assertThat(edge).as("%d -> %d is a tree edge", f.src(), f.dst()).isTrue();
        }
        long most = 0;
        for (int r = 0; r < n; r++) {
            long expected = 0;
            for (int t = 0; t < 2; t++) {
                DoubleBinaryTree.Node a = node(n, r, t);
                expected += (a.parent() == -1 ? 0 : s / 2) + (a.child0() == -1 ? 0 : s / 2)
                        + (a.child1() == -1 ? 0 : s / 2);
            }
            assertThat(x.sentBy(r)).as("rank %d", r).isEqualTo(expected);
            assertThat(x.receivedBy(r)).as("rank %d", r).isEqualTo(expected);
            most = Math.max(most, expected);
        }
        // Interior in one tree with two children, a leaf in the other: S/2 + 2 x S/2 + S/2.
        assertThat(most).isEqualTo(2 * s);
        // A rank sends up only what all its children sent up, and the root's result goes down after that.
        for (Sends.Send up : x.sends) {
            for (int t = 0; t < 2; t++) {
                DoubleBinaryTree.Node a = node(n, up.src(), t);
                if (a.parent() == up.dst()) {
                    for (int child : new int[] {a.child0(), a.child1()}) {
                        if (child != -1) {
                            // (1 -> 2 is an up edge of tree 0 and a down edge of tree 1: either may be the one.)
                            assertThat(x.sends.stream().filter(y -> y.src() == child && y.dst() == up.src())
                                    .anyMatch(y -> x.waitsFor(up.task(), y.task()))).isTrue();
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldCutLargeCallsIntoNcclTreeChunks() {
        assertThat(NcclChunks.treeChunk(256L << 20, 2, 4)).isEqualTo(512 << 10);
        // 1 MiB over 2 channels of a 4-deep tree: halved to 128 KiB (fewer than 8 x 4 chunks per channel), then to
        // 64 KiB (fewer than 4 x 4), and no further (8 chunks per channel are at least 4).
        assertThat(NcclChunks.treeChunk(1 << 20, 2, 4)).isEqualTo(64 << 10);
        Sends x = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.TREE, 4, 8L << 20);
        assertThat(x.sends).allMatch(f -> f.bytes() == NcclChunks.treeChunk(8L << 20, 2, 3));
    }
}
