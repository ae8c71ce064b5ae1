package rocelab.workload.collective;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The bytes of an AlltoAllv: {@code bytes(i, j)} is what rank index i sends to rank index j (the diagonal is a rank's
 * copy to itself, which never touches the network). The nccl-tests size of such a call is the largest amount any
 * rank sends or receives, its own part included.
 */
public final class PairSizes {
    private final long[][] bytes;

    private PairSizes(long[][] bytes) {
        this.bytes = bytes;
    }

    /** Explicit sizes, rows are senders and columns receivers (rank indices); every entry at least 0. */
    public static PairSizes of(long[][] matrix) {
        int n = matrix.length;
        if (n < 2) {
            throw new IllegalArgumentException("an AlltoAllv matrix needs at least 2 ranks");
        }
        long[][] copy = new long[n][];
        long total = 0;
        for (int i = 0; i < n; i++) {
            if (matrix[i].length != n) {
                throw new IllegalArgumentException("row " + i + " of the AlltoAllv matrix has " + matrix[i].length
                        + " entries; expected " + n + " (one per rank)");
            }
            copy[i] = matrix[i].clone();
            for (long b : copy[i]) {
                if (b < 0) {
                    throw new IllegalArgumentException("AlltoAllv sizes must not be negative");
                }
                total = Math.addExact(total, b);
            }
        }
        if (total == 0) {
            throw new IllegalArgumentException("an AlltoAllv matrix needs at least one byte");
        }
        return new PairSizes(copy);
    }

    /** Every rank sends {@code perRank} bytes (its own part included) split evenly: a plain AlltoAll. */
    public static PairSizes uniform(int n, long perRank) {
        long[][] m = new long[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m[i][j] = Collective.part(perRank, n, j);
            }
        }
        return of(m);
    }

    /**
     * Skewed destinations, as tokens routed to hot experts: every rank sends {@code perRank} bytes (its own part
     * included), split over destinations with Zipf weights 1/k^exponent, where k is a destination's popularity rank
     * 1..n drawn as a random permutation from {@code seed}. All senders share the popularity (a hot expert is hot for
     * everyone), so the hottest rank receives about n x perRank / H(n, exponent) bytes. Rows sum exactly to
     * {@code perRank} (largest remainders).
     */
    public static PairSizes zipf(int n, long perRank, double exponent, long seed) {
        if (!(exponent >= 0) || Double.isInfinite(exponent)) {
            throw new IllegalArgumentException("the Zipf exponent must be a finite number >= 0, got " + exponent);
        }
        int[] popularity = new int[n];
        for (int i = 0; i < n; i++) {
            popularity[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = popularity[i];
            popularity[i] = popularity[j];
            popularity[j] = t;
        }
        double[] weight = new double[n];
        double sum = 0;
        for (int j = 0; j < n; j++) {
            weight[j] = 1.0 / Math.pow(popularity[j] + 1, exponent);
            sum += weight[j];
        }
        long[] row = new long[n];
        double[] remainder = new double[n];
        long given = 0;
        for (int j = 0; j < n; j++) {
            double exact = perRank * weight[j] / sum;
            row[j] = (long) Math.floor(exact);
            remainder[j] = exact - row[j];
            given += row[j];
        }
        Integer[] order = new Integer[n];
        for (int j = 0; j < n; j++) {
            order[j] = j;
        }
        Arrays.sort(order, (a, b) -> remainder[a] != remainder[b] ? Double.compare(remainder[b], remainder[a])
                : Integer.compare(a, b));
        for (int k = 0; given < perRank; k++, given++) {
            row[order[k % n]]++;
        }
        long[][] m = new long[n][];
        for (int i = 0; i < n; i++) {
            m[i] = row.clone();
        }
        return of(m);
    }

    public int rankCount() {
        return bytes.length;
    }

    /** Bytes rank index i sends to rank index j. */
    public long bytes(int i, int j) {
        return bytes[i][j];
    }

    /** Bytes rank i sends, its own part included. */
    public long sent(int i) {
        long s = 0;
        for (long b : bytes[i]) {
            s += b;
        }
        return s;
    }

    /** Bytes rank i receives, its own part included. */
    public long received(int j) {
        long s = 0;
        for (long[] row : bytes) {
            s += row[j];
        }
        return s;
    }

    /** The nccl-tests size S: max over ranks of max(sent, received), own parts included. */
    public long ncclSize() {
        long max = 0;
        for (int i = 0; i < bytes.length; i++) {
            max = Math.max(max, Math.max(sent(i), received(i)));
        }
        return max;
    }

    /** The most bytes one rank sends to or receives from the others (own part excluded): the wire bound. */
    public long maxOffRank() {
        long max = 0;
        for (int i = 0; i < bytes.length; i++) {
            max = Math.max(max, Math.max(sent(i) - bytes[i][i], received(i) - bytes[i][i]));
        }
        return max;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PairSizes p && Arrays.deepEquals(bytes, p.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(bytes);
    }
}
