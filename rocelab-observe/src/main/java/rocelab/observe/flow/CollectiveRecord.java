package rocelab.observe.flow;

/**
 * What a collective achieved, in the nccl-tests terms: time from its first post to its last delivery, algorithm
 * bandwidth {@code size / time} and bus bandwidth {@code algbw x busFactor}.
 */
public record CollectiveRecord(String name, String algorithm, int ranks, long sizeBytes, long startPs, long endPs,
        boolean completed, double busFactor) {
    public long timePs() {
        return endPs - startPs;
    }

    /** Algorithm bandwidth in GB/s (10^9 bytes per second), as nccl-tests prints it. */
    public double algbwGBps() {
        return completed ? sizeBytes / (timePs() / 1e12) / 1e9 : Double.NaN;
    }

    /** Bus bandwidth in GB/s: algbw x 2(N-1)/N (AllReduce) or x (N-1)/N (AllGather, ReduceScatter). */
    public double busbwGBps() {
        return algbwGBps() * busFactor;
    }
}
