package rocelab.fabric.flowcontrol.credit;

import java.util.Arrays;

/**
 * Per virtual lane of one transmitter, the roots of its last credit stalls on the lane's credit-stall clock (the time
 * it had a packet ready that its credits did not cover): each ended stall covers the clock from the end of the one
 * before to its own end, behind the root the update that ended it carried ({@link CreditRoot}). A packet that waited
 * from clock f to clock t waited through each stall in between, behind that stall's root: a wait through two stalls
 * behind two roots is two waits, not one behind the last root. Consecutive stalls behind one root are one entry; the
 * last {@link #KEPT} entries of each lane are kept, and the part of a wait older than them has no root named.
 */
final class StallRoots {
    /** Entries kept per lane: stalls behind alternating roots a packet waited through, at most. */
    static final int KEPT = 16;

    private final int lanes;
    /** Per lane, ring of entries: where each ends on the lane's clock and its root. */
    private final long[] end;
    private final long[] root;
    /** Per lane, entries ever added (the ring holds the last {@link #KEPT}). */
    private final int[] count;
    /** Per lane, where the oldest kept entry begins: the end of the last one dropped, 0 while none was. */
    private final long[] keptFrom;

    StallRoots(int lanes) {
        this.lanes = lanes;
        this.end = new long[lanes * KEPT];
        this.root = new long[lanes * KEPT];
        this.count = new int[lanes];
        this.keptFrom = new long[lanes];
        Arrays.fill(root, CreditRoot.NONE);
    }

    /** Lane {@code vl}'s stall that ran on its clock up to {@code clockEnd} ended, behind {@code stallRoot}. */
    void ended(int vl, long clockEnd, long stallRoot) {
        int n = count[vl];
        int base = vl * KEPT;
        if (n > 0 && root[base + (n - 1) % KEPT] == stallRoot) {
            end[base + (n - 1) % KEPT] = clockEnd;
            return;
        }
        if (n >= KEPT) {
            keptFrom[vl] = end[base + n % KEPT];
        }
        end[base + n % KEPT] = clockEnd;
        root[base + n % KEPT] = stallRoot;
        count[vl] = n + 1;
    }

    /**
     * The index (for {@link #end} and {@link #root}) of lane {@code vl}'s first kept entry that ends after
     * {@code clockPs}; {@link #after} past the last.
     */
    int firstEndingAfter(int vl, long clockPs) {
        int n = count[vl];
        int from = Math.max(0, n - KEPT);
        int i = from;
        while (i < n && end[vl * KEPT + i % KEPT] <= clockPs) {
            i++;
        }
        return i;
    }

    /** One past lane {@code vl}'s last entry. */
    int after(int vl) {
        return count[vl];
    }

    /** Where lane {@code vl}'s entry {@code i} begins on its clock (its predecessor's end; {@link #keptFrom}). */
    long start(int vl, int i) {
        return i == Math.max(0, count[vl] - KEPT) ? keptFrom[vl] : end[vl * KEPT + (i - 1) % KEPT];
    }

    long end(int vl, int i) {
        return end[vl * KEPT + i % KEPT];
    }

    long root(int vl, int i) {
        return root[vl * KEPT + i % KEPT];
    }

    int lanes() {
        return lanes;
    }
}
