package rocelab.fabric.nic;

import java.util.Arrays;

/**
 * The home plane of every queue pair of a multi-plane fabric in per-QP mode, fixed as the QP opens (in QP id order,
 * at both levels: the packet level as it connects them, the flow level as it numbers them, so a QP has the same home
 * at both). A pair's QPs (NCCL's channels, qps-per-connection) take the planes in turn: the k-th QP from host s to
 * host d takes the plane after the (k-1)-th's. The first of every P takes the plane with the fewest QPs opened so far
 * out of s and into d together (ties: the first from plane s mod P on), so that a host's peers spread over its ports
 * both sending and receiving whatever order a collective opens its connections in and whichever hosts they are.
 * QP ids are global to the run, so {@code id mod P} does not do that (an AlltoAll over 16 ranks gives host h the ids
 * h, h + 16, h + 32, ..., every one on plane h mod 2); nor does a fixed function of the two hosts such as
 * (s + d) mod P, which on 2 planes depends on d - s only: the inter-server peers of a rail (d - s a multiple of the
 * GPUs per server) would all share plane 0, and every QP of a ring, or of one step of a pairwise AlltoAll, one plane.
 */
public final class HomePlanes {
    private final int planes;
    private final int hosts;
    private int[] homeOfQueuePair = new int[64];
    private int opened;
    /** By host and plane: the QPs opened out of the host on that plane, and into it. */
    private final int[] sending;
    private final int[] receiving;
    /**
     * Open addressing by ordered host pair: key {@code src * hosts + dst + 1} (0: a free slot), the QPs opened
     * between the pair so far (mod P) and the plane the first of the last P took. Only pairs that have a QP take a
     * slot, not hosts squared.
     */
    private long[] pairKey = new long[64];
    private int[] pairOpened = new int[64];
    private int[] pairFirst = new int[64];
    private int pairs;

    public HomePlanes(int planes, int hosts) {
        if (planes < 2) {
            throw new IllegalArgumentException("home planes need planes >= 2, got " + planes);
        }
        this.planes = planes;
        this.hosts = hosts;
        this.sending = new int[hosts * planes];
        this.receiving = new int[hosts * planes];
    }

    /** Records the home of queue pair {@code queuePair} from {@code src} to {@code dst}, the next id, and returns it. */
    public int open(int queuePair, int src, int dst) {
        if (queuePair != opened) {
            throw new IllegalStateException("queue pairs open in id order: QP " + queuePair + " opened after "
                    + opened + " others");
        }
        int slot = slot((long) src * hosts + dst + 1);
        int k = pairOpened[slot];
        if (k == 0) {
            pairFirst[slot] = leastUsed(src, dst);
        }
        int home = (pairFirst[slot] + k) % planes;
        pairOpened[slot] = (k + 1) % planes;
        sending[src * planes + home]++;
        receiving[dst * planes + home]++;
        if (opened == homeOfQueuePair.length) {
            homeOfQueuePair = Arrays.copyOf(homeOfQueuePair, opened + (opened >> 1));
        }
        homeOfQueuePair[opened++] = home;
        return home;
    }

    /** The home plane of an opened queue pair. */
    public int home(int queuePair) {
        if (queuePair < 0 || queuePair >= opened) {
            throw new IllegalStateException("QP " + queuePair + " has no home plane: " + opened + " QPs opened");
        }
        return homeOfQueuePair[queuePair];
    }

    /** The plane with the fewest QPs out of {@code src} and into {@code dst} together, the first from src mod P on. */
    private int leastUsed(int src, int dst) {
        int best = -1;
        int bestQueuePairs = Integer.MAX_VALUE;
        for (int j = 0; j < planes; j++) {
            int p = (src + j) % planes;
            int n = sending[src * planes + p] + receiving[dst * planes + p];
            if (n < bestQueuePairs) {
                best = p;
                bestQueuePairs = n;
            }
        }
        return best;
    }

    /** The slot of {@code key}, claimed for it if it has none yet. */
    private int slot(long key) {
        if (2 * (pairs + 1) > pairKey.length) {
            grow();
        }
        int mask = pairKey.length - 1;
        int i = index(key, mask);
        while (pairKey[i] != 0 && pairKey[i] != key) {
            i = (i + 1) & mask;
        }
        if (pairKey[i] == 0) {
            pairKey[i] = key;
            pairs++;
        }
        return i;
    }

    private void grow() {
        long[] oldKeys = pairKey;
        int[] oldOpened = pairOpened;
        int[] oldFirst = pairFirst;
        pairKey = new long[oldKeys.length * 2];
        pairOpened = new int[oldKeys.length * 2];
        pairFirst = new int[oldKeys.length * 2];
        int mask = pairKey.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != 0) {
                int i = index(oldKeys[j], mask);
                while (pairKey[i] != 0) {
                    i = (i + 1) & mask;
                }
                pairKey[i] = oldKeys[j];
                pairOpened[i] = oldOpened[j];
                pairFirst[i] = oldFirst[j];
            }
        }
    }

    private static int index(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
