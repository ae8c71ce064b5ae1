package rocelab.workload.graph;

import java.util.Arrays;

/**
 * NVLink transfers of one connection go one after the other, as an RDMA queue pair's messages do and as an NCCL
 * channel's steps do over NVLink: the next starts when the one before has put its last byte on the sending GPU's
 * NVLink. Without this, the steps a late ring member released all at once shared the link and each arrived late
 * (a 4-GPU ring AllGather 1.82x its ideal, the GPUs "waiting on the network" for a sharing rule). Per connection:
 * the transfer on the link (or -1) and a FIFO of those waiting, linked through their task slots.
 */
final class LinkQueues {
    private final int mask;
    private final int[] next;
    private int[] busy = new int[0];
    private int[] head = new int[0];
    private int[] tail = new int[0];

    /** For tasks whose slot is {@code task & mask} in an array of {@code slots}. */
    LinkQueues(int slots, int mask) {
        this.mask = mask;
        this.next = new int[slots];
    }

    /** Whether transfer {@code task} on {@code connection} may go now (it then holds the connection); else it waits. */
    boolean offer(int connection, int task) {
        if (connection < 0) {
            return true;
        }
        if (connection >= busy.length) {
            int old = busy.length;
            int m = Math.max(connection + 1, 2 * old);
            busy = Arrays.copyOf(busy, m);
            head = Arrays.copyOf(head, m);
            tail = Arrays.copyOf(tail, m);
            Arrays.fill(busy, old, m, -1);
            Arrays.fill(head, old, m, -1);
            Arrays.fill(tail, old, m, -1);
        }
        if (busy[connection] < 0) {
            busy[connection] = task;
            return true;
        }
        next[task & mask] = -1;
        if (tail[connection] < 0) {
            head[connection] = task;
        } else {
            next[tail[connection] & mask] = task;
        }
        tail[connection] = task;
        return false;
    }

    /** The transfer on {@code connection} has left its GPU: the next one waiting (it now holds the connection), or -1. */
    int sent(int connection) {
        if (connection < 0) {
            return -1;
        }
        int t = head[connection];
        busy[connection] = t;
        if (t >= 0) {
            head[connection] = next[t & mask];
            if (head[connection] < 0) {
                tail[connection] = -1;
            }
        }
        return t;
    }
}
