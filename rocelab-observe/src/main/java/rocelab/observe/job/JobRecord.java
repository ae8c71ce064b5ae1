package rocelab.observe.job;

import java.util.List;
import rocelab.observe.flow.CollectiveRecord;

/**
 * A job's result, seen from its GPUs: job completion time, the time per iteration (end to end, {@link
 * #withPerIteration}) and each iteration's span (over the iterations after the warm-up), in the packet-level run and
 * in ideal-network mode; per GPU and iteration (mean over ranks) compute,
 * exposed communication and idle time (see {@link RankRecord}); the network penalty (how much longer the job took
 * than on an ideal network) and the time GPUs waited on the network; {@code notes}: what an imported workload (a
 * SimAI file, a Chakra trace set) has that the run does not model as such, one sentence each.
 */
public record JobRecord(String job, int ranks, int iterations, int warmup, long startPs, long endPs,
        boolean completed, long idealEndPs, double iterationUs, double idealIterationUs, double computeUs,
        double exposedCommUs, double idleUs, double idealExposedCommUs, double idealIdleUs, double networkWaitUs,
        double maxNetworkWaitUs, List<String> notes, CollectiveRecord.Beside beside, double perIterationUs,
        double idealPerIterationUs, double lateEntryUs, List<TransferRecord> slowestTransfers) {
    public JobRecord {
        notes = List.copyOf(notes);
        slowestTransfers = List.copyOf(slowestTransfers);
    }

    /**
     * A job with nothing known of the workload's other items beside it ({@code beside}: the other items with flows on
     * its ranks' RNICs while it ran, the one there longest and for how long, as for a call).
     */
    public JobRecord(String job, int ranks, int iterations, int warmup, long startPs, long endPs, boolean completed,
            long idealEndPs, double iterationUs, double idealIterationUs, double computeUs, double exposedCommUs,
            double idleUs, double idealExposedCommUs, double idealIdleUs, double networkWaitUs,
            double maxNetworkWaitUs, List<String> notes) {
        this(job, ranks, iterations, warmup, startPs, endPs, completed, idealEndPs, iterationUs, idealIterationUs,
                computeUs, exposedCommUs, idleUs, idealExposedCommUs, idealIdleUs, networkWaitUs, maxNetworkWaitUs,
                notes, CollectiveRecord.Beside.NONE, Double.NaN, Double.NaN, Double.NaN, List.of());
    }

    /** The same record with {@code b} beside it. */
    public JobRecord withBeside(CollectiveRecord.Beside b) {
        return new JobRecord(job, ranks, iterations, warmup, startPs, endPs, completed, idealEndPs, iterationUs,
                idealIterationUs, computeUs, exposedCommUs, idleUs, idealExposedCommUs, idealIdleUs, networkWaitUs,
                maxNetworkWaitUs, notes, b, perIterationUs, idealPerIterationUs, lateEntryUs, slowestTransfers);
    }

    /**
     * The same record with its time per iteration: from one iteration's end (its last rank's) to the next's, the mean
     * over the measured iterations ({@code perIterationUs}: the end of the last iteration less the end of the last
     * warm-up iteration, or without a warm-up the first iteration's first activity, over the measured iterations), and
     * the same on the ideal network. Where iterations overlap (a pipeline starts the next before the last stage ends
     * this one) it is shorter than {@link #iterationUs}, each iteration's span, and it is the rate at which the job
     * finishes iterations.
     */
    public JobRecord withPerIteration(double perIterationUs, double idealPerIterationUs) {
        return new JobRecord(job, ranks, iterations, warmup, startPs, endPs, completed, idealEndPs, iterationUs,
                idealIterationUs, computeUs, exposedCommUs, idleUs, idealExposedCommUs, idealIdleUs, networkWaitUs,
                maxNetworkWaitUs, notes, beside, perIterationUs, idealPerIterationUs, lateEntryUs, slowestTransfers);
    }

    /**
     * The same record with {@code lateEntryUs}: the part of {@link #exposedCommUs} (per GPU and iteration, mean over
     * ranks) spent in a collective call the rank had entered while another member had not yet: before the call's own
     * time (from its last member's entry), its transfers posted, some waiting for that member and some moving between
     * the members already in. A straggler's late entry shows here, not in the call's time. The network wait is
     * unchanged by it (it counts exposed and idle time together).
     */
    public JobRecord withLateEntry(double lateEntryUs) {
        return new JobRecord(job, ranks, iterations, warmup, startPs, endPs, completed, idealEndPs, iterationUs,
                idealIterationUs, computeUs, exposedCommUs, idleUs, idealExposedCommUs, idealIdleUs, networkWaitUs,
                maxNetworkWaitUs, notes, beside, perIterationUs, idealPerIterationUs, lateEntryUs, slowestTransfers);
    }

    /**
     * The same record with {@code transfers}: its transfers over the fabric after its warm-up that took more than
     * 1.05x their flow's time alone, the ones that lost most first (at most three; packet and flow level).
     */
    public JobRecord withSlowestTransfers(List<TransferRecord> transfers) {
        return new JobRecord(job, ranks, iterations, warmup, startPs, endPs, completed, idealEndPs, iterationUs,
                idealIterationUs, computeUs, exposedCommUs, idleUs, idealExposedCommUs, idealIdleUs, networkWaitUs,
                maxNetworkWaitUs, notes, beside, perIterationUs, idealPerIterationUs, lateEntryUs, transfers);
    }

    /** A job with nothing imported to say. */
    public JobRecord(String job, int ranks, int iterations, int warmup, long startPs, long endPs, boolean completed,
            long idealEndPs, double iterationUs, double idealIterationUs, double computeUs, double exposedCommUs,
            double idleUs, double idealExposedCommUs, double idealIdleUs, double networkWaitUs,
            double maxNetworkWaitUs) {
        this(job, ranks, iterations, warmup, startPs, endPs, completed, idealEndPs, iterationUs, idealIterationUs,
                computeUs, exposedCommUs, idleUs, idealExposedCommUs, idealIdleUs, networkWaitUs, maxNetworkWaitUs,
                List.of());
    }

    public long jctPs() {
        return endPs - startPs;
    }

    public long idealJctPs() {
        return idealEndPs - startPs;
    }

    /** JCT minus ideal JCT. */
    public long networkPenaltyPs() {
        return jctPs() - idealJctPs();
    }

    /** The network penalty as a share of the ideal JCT, in percent. */
    public double networkPenaltyPercent() {
        return idealJctPs() > 0 ? 100.0 * networkPenaltyPs() / idealJctPs() : 0;
    }
}
