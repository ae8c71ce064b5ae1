package rocelab.workload.collective;

/**
 * NCCL's double binary tree over n ranks (src/graph/trees.cc), one rank per node. Tree 0 is {@code ncclGetBtree}:
 * rooted at 0, with bit the lowest set bit of r, the parent is (r ^ bit) | (bit << 1), or r ^ bit when that is
 * outside the tree; the children are r - bit/2 and r + bit/2, the second one's offset halved until it is inside;
 * rank 0's only child is half the smallest power of two >= n. Odd ranks are leaves. Tree 1 is {@code ncclGetDtree}: for even n the mirror image (rank r has the tree-0 relations of
 * n-1-r, mapped back through n-1-x), for odd n the tree shifted by one (the relations of (r-1) mod n, mapped back
 * through (x+1) mod n). Most ranks are interior in one tree and a leaf in the other.
 */
public final class DoubleBinaryTree {
    /** Parent and up to two children of one rank in one tree; -1 where there is none. */
    public record Node(int parent, int child0, int child1) {}

    private DoubleBinaryTree() {}

    /** Rank r in tree 0 ({@code ncclGetBtree}). */
    public static Node btree(int n, int r) {
        int bit = 1;
        while (bit < n && (bit & r) == 0) {
            bit <<= 1;
        }
        if (r == 0) {
            return new Node(-1, -1, n > 1 ? bit >> 1 : -1);
        }
        int up = (r ^ bit) | (bit << 1);
        if (up >= n) {
            up = r ^ bit;
        }
        int lowbit = bit >> 1;
        int down0 = lowbit == 0 ? -1 : r - lowbit;
        int down1 = lowbit == 0 ? -1 : r + lowbit;
        while (down1 >= n) {
            down1 = lowbit == 0 ? -1 : r + lowbit;
            lowbit >>= 1;
        }
        return new Node(up, down0, down1);
    }

    /** Rank r in tree {@code tree} (0 or 1) of the double binary tree ({@code ncclGetDtree}). */
    public static Node node(int n, int r, int tree) {
        if (tree == 0) {
            return btree(n, r);
        }
        if (n % 2 == 1) {
            Node s = btree(n, (r - 1 + n) % n);
            return new Node(shift(s.parent, n), shift(s.child0, n), shift(s.child1, n));
        }
        Node m = btree(n, n - 1 - r);
        return new Node(mirror(m.parent, n), mirror(m.child0, n), mirror(m.child1, n));
    }

    private static int shift(int x, int n) {
        return x == -1 ? -1 : (x + 1) % n;
    }

    private static int mirror(int x, int n) {
        return x == -1 ? -1 : n - 1 - x;
    }

    /** The root of a tree: the rank without a parent. */
    public static int root(int n, int tree) {
        for (int r = 0; r < n; r++) {
            if (node(n, r, tree).parent() == -1) {
                return r;
            }
        }
        throw new IllegalStateException("a tree without a root");
    }

    /** Levels of a tree: 1 for the root alone, plus one per generation below it. */
    public static int depth(int n, int tree) {
        return levels(n, tree, root(n, tree));
    }

    private static int levels(int n, int tree, int r) {
        Node x = node(n, r, tree);
        int below = 0;
        for (int child : new int[] {x.child0(), x.child1()}) {
            if (child != -1) {
                below = Math.max(below, levels(n, tree, child));
            }
        }
        return 1 + below;
    }
}
