package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.List;
import rocelab.workload.graph.TaskGraph;

/**
 * NCCL's double binary tree AllReduce ({@code runTreeUpDown}/{@code runTreeSplit}) with one rank per node: the
 * buffer is split in half, one half per tree of {@link DoubleBinaryTree}, and each half over the call's channels
 * (NCCL doubles its channels for trees, the first copy on tree 0, the second on tree 1). Each part moves in chunks of
 * {@link NcclChunks#treeChunk}. Reduce up: a rank sends chunk k to its parent once chunk k has arrived from each of
 * its children (leaves at once). Broadcast down: the root sends chunk k to its children once it has chunk k from
 * all of its children; every other rank forwards chunk k to its children as soon as it arrives from its parent. A
 * rank frees the buffer slot of a chunk (NCCL's credit, {@link NcclChunks#WINDOW} per connection) when it has sent
 * what it made of it, so a fast child cannot run ahead of a slow parent by more than the window. Up
 * and down run at the same time on different chunks, so a rank sends about 2S in all (S/2 up in each tree, plus
 * S/2 to each of two children in the tree where it is interior) and on a non-blocking fabric the time is about
 * 2S/B plus the tree depth in chunk times and hop latencies.
 */
public final class TreeAlgorithm implements CollectiveAlgorithm {
    @Override
    public void check(Collective call) {
        if (call.op() != CollectiveOp.ALL_REDUCE) {
            throw new IllegalArgumentException("the tree runs AllReduce only, not " + call.op().title());
        }
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        check(call);
        Schedule schedule = new Schedule(graph, call, entry, communicator);
        int n = call.rankCount();
        int channels = (int) Math.max(1, Math.min(call.channels(), call.sizeBytes() / 2));
        int parts = 2 * channels;
        int depth = Math.max(DoubleBinaryTree.depth(n, 0), DoubleBinaryTree.depth(n, 1));
        long chunk = NcclChunks.treeChunk(call.sizeBytes(), parts, depth);
        for (int tree = 0; tree < 2; tree++) {
            DoubleBinaryTree.Node[] node = new DoubleBinaryTree.Node[n];
            for (int r = 0; r < n; r++) {
                node[r] = DoubleBinaryTree.node(n, r, tree);
            }
            int root = DoubleBinaryTree.root(n, tree);
            List<Integer> preorder = new ArrayList<>();
            walk(node, root, preorder);
            for (int c = 0; c < channels; c++) {
                int key = tree * channels + c;
                long bytes = Collective.part(call.sizeBytes(), parts, key);
                int chunks = NcclChunks.chunks(bytes, chunk);
                for (int k = 0; k < chunks; k++) {
                    long size = Math.max(1, NcclChunks.chunk(bytes, chunk, k));
                    int[] up = new int[n];
                    int[] down = new int[n];
                    // Children before parents on the way up, parents before children on the way down.
                    for (int i = n - 1; i >= 0; i--) {
                        int r = preorder.get(i);
                        if (r != root) {
                            up[r] = schedule.send(schedule.connection(key, r, node[r].parent()), size,
                                    fromChildren(node[r], up));
                            consumed(schedule, key, node[r], r, k, up[r]);
                        }
                    }
                    for (int r : preorder) {
                        int[] ready = r == root ? fromChildren(node[r], up) : new int[] {down[r]};
                        for (int child : new int[] {node[r].child0(), node[r].child1()}) {
                            if (child != -1) {
                                down[child] = schedule.send(schedule.connection(key, r, child), size, ready);
                                // The root consumes its children's chunk when it sends the result down; every other
                                // rank consumes its parent's chunk when it forwards it.
                                if (r == root) {
                                    consumed(schedule, key, node[r], r, k, down[child]);
                                } else {
                                    schedule.consumedBy(schedule.connection(key, node[r].parent(), r), k, down[child]);
                                }
                            }
                        }
                    }
                }
            }
        }
        return schedule.done();
    }

    /** Rank r has consumed chunk k from each of its children once {@code task} is done. */
    private static void consumed(Schedule s, int key, DoubleBinaryTree.Node x, int r, int k, int task) {
        for (int child : new int[] {x.child0(), x.child1()}) {
            if (child != -1) {
                s.consumedBy(s.connection(key, child, r), k, task);
            }
        }
    }

    private static int[] fromChildren(DoubleBinaryTree.Node x, int[] up) {
        return new int[] {x.child0() == -1 ? -1 : up[x.child0()], x.child1() == -1 ? -1 : up[x.child1()]};
    }

    private static void walk(DoubleBinaryTree.Node[] node, int r, List<Integer> order) {
        order.add(r);
        for (int child : new int[] {node[r].child0(), node[r].child1()}) {
            if (child != -1) {
                walk(node, child, order);
            }
        }
    }
}
