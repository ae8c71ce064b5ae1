package rocelab.observe.flow;

import java.util.List;
import rocelab.observe.job.JobRecord;

/**
 * What a collective achieved, in the nccl-tests terms: time from its first post to its last delivery, algorithm
 * bandwidth {@code size / time} and bus bandwidth {@code algbw x busFactor}, and the time the same call took in
 * ideal-network mode ({@code idealTimePs}, -1 when not known). {@code job} names the job that called it (empty for a
 * traffic item), {@code iteration} the job's iteration it was called in (-1 for a traffic item): a job's calls have
 * the same names in every iteration. {@code runs} is how many times the call ran back to back within the record (a
 * traffic item's {@code iterations}; 1 for a job's call, whose iterations are records of their own): the time covers
 * them all, and the bandwidths are per run, as nccl-tests divides its timed loop by its iterations. A job's call starts
 * when its last member entered it ({@code startPs} -1 when some member never did: it never started);
 * {@code firstEntryPs} is when its first did (-1 when not known: a traffic item's call, whose ranks all start it at
 * once, or a call some member never entered), and {@code idealEntrySpreadPs} how far apart the members' entries'
 * bounds on the ideal network are (-1 when not known): a pipeline's stages enter a call apart by design.
 * {@code lateEntry} says what its last member waited for before it entered (see {@link LateEntry}; found for the call
 * the summary names only).
 */
public record CollectiveRecord(String job, String name, String algorithm, int ranks, long sizeBytes, long startPs,
        long endPs, boolean completed, double busFactor, long idealTimePs, int iteration, int runs,
        Concurrent concurrent, double rateHeldShare, Beside beside, long firstEntryPs, long idealEntrySpreadPs,
        LateEntry lateEntry, OnLinks onLinks) {
    public CollectiveRecord {
        if (runs < 1) {
            throw new IllegalArgumentException("runs " + runs + " < 1");
        }
    }

    /**
     * The same job's other calls that were under way on at least one of this call's RNICs while it ran ({@code calls},
     * 0 for none or not known), and of them the one under way there longest ({@code longest}, its name) for how long
     * ({@code overlapPs}); likewise the job's own point-to-point transfers (a pipeline's sends) whose flow, from post
     * to delivery, left or reached one of those RNICs meanwhile ({@code transfers}, {@code longestTransfer},
     * {@code transferOverlapPs}). The ideal time is the call alone: on any network it shares those RNICs with them.
     */
    public record Concurrent(int calls, String longest, long overlapPs, int transfers, String longestTransfer,
            long transferOverlapPs) {
        public static final Concurrent NONE = new Concurrent(0, "", 0);

        /** Calls only, no transfers. */
        public Concurrent(int calls, String longest, long overlapPs) {
            this(calls, longest, overlapPs, 0, "", 0);
        }

        /** The same calls with these transfers. */
        public Concurrent withTransfers(int count, String longestOne, long longestPs) {
            return new Concurrent(calls, longest, overlapPs, count, longestOne, longestPs);
        }
    }

    /**
     * The workload's other items (traffic items, other jobs, inference services) that had a flow from or to one of
     * this call's ranks' hosts while it ran ({@code items}, 0 for none or not known), and of them the one there longest
     * ({@code longest}, its name) for how long ({@code overlapPs}: the union of its flows' spans, post to delivery,
     * within the call). The ideal time is the call alone: on any network it shares those RNICs with them. For a call
     * inside one server over NVLink ({@code nvlink}): the other items' NVLink transfers from or to its GPUs, which
     * share their NVLink with it.
     */
    public record Beside(int items, String longest, long overlapPs, boolean nvlink) {
        public static final Beside NONE = new Beside(0, "", 0);

        public Beside(int items, String longest, long overlapPs) {
            this(items, longest, overlapPs, false);
        }
    }

    /**
     * The workload's other items whose flows' data left by a switch port towards another switch (a link inside the
     * fabric) while one of this call's flows' data did, within the call ({@code items}, 0 for none or not known; packet level), and of them the
     * one that shared longest ({@code longest}, its name) for how long ({@code overlapPs}: the union over the ports of
     * the times one of its flows and one of the call's were on the same port) and the port where it shared most
     * ({@code at}, {@code leaf0 port 4 (towards spine0)}). The ideal time is the call alone: those links carried both.
     */
    public record OnLinks(int items, String longest, long overlapPs, String at) {
        public static final OnLinks NONE = new OnLinks(0, "", 0, "");
    }

    /**
     * What a call's last member waited for before it entered, by the run's dependencies: its way in ran from
     * {@code after} (another call of the job, named, or a point-to-point transfer) of iteration {@code afterIteration}
     * to the call, every task on the way starting when the one before it ended. {@code ownPart}: it was the member's
     * own part of that call that ended (not a task inside it); {@code behindFirstPs}: how long after the first member
     * to enter's part of that call the last member's ended (-1 when not known: the first was not in it). {@code rank}
     * and {@code firstRank} are the job's ranks that entered last and first. {@code computePs}: the compute the last
     * member ran on that way, summed, when the task it entered after was compute (0 otherwise). {@link #NONE}: not
     * found, or not looked for.
     */
    public record LateEntry(int rank, int firstRank, String after, int afterIteration, boolean ownPart,
            long behindFirstPs, long computePs) {
        public static final LateEntry NONE = new LateEntry(-1, -1, "", -1, false, -1, 0);
    }

    /** A record whose first member's entry is not known. */
    public CollectiveRecord(String job, String name, String algorithm, int ranks, long sizeBytes, long startPs,
            long endPs, boolean completed, double busFactor, long idealTimePs, int iteration, int runs,
            Concurrent concurrent, double rateHeldShare, Beside beside) {
        this(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor, idealTimePs, iteration, runs,
                concurrent, rateHeldShare, beside, -1, -1, LateEntry.NONE, OnLinks.NONE);
    }

    /** A record with nothing known of the workload's other items beside it. */
    public CollectiveRecord(String job, String name, String algorithm, int ranks, long sizeBytes, long startPs,
            long endPs, boolean completed, double busFactor, long idealTimePs, int iteration, int runs,
            Concurrent concurrent, double rateHeldShare) {
        this(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor, idealTimePs, iteration, runs,
                concurrent, rateHeldShare, Beside.NONE);
    }

    /** The same record with {@code b} beside it. */
    public CollectiveRecord withBeside(Beside b) {
        return new CollectiveRecord(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor,
                idealTimePs, iteration, runs, concurrent, rateHeldShare, b, firstEntryPs, idealEntrySpreadPs, lateEntry,
                onLinks);
    }

    /**
     * The same record with its first member's entry at {@code firstPs} and its members' entries' bounds on the ideal
     * network {@code idealSpreadPs} apart.
     */
    public CollectiveRecord withEntries(long firstPs, long idealSpreadPs) {
        return new CollectiveRecord(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor,
                idealTimePs, iteration, runs, concurrent, rateHeldShare, beside, firstPs, idealSpreadPs, lateEntry,
                onLinks);
    }

    /** The same record with its flows' time held back by their rates, {@code share} of their lives (NaN: not known). */
    public CollectiveRecord withRateHeldShare(double share) {
        return new CollectiveRecord(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor,
                idealTimePs, iteration, runs, concurrent, share, beside, firstEntryPs, idealEntrySpreadPs, lateEntry,
                onLinks);
    }

    /** The same record with {@code e} as what its last member waited for. */
    public CollectiveRecord withLateEntry(LateEntry e) {
        return new CollectiveRecord(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor,
                idealTimePs, iteration, runs, concurrent, rateHeldShare, beside, firstEntryPs, idealEntrySpreadPs, e,
                onLinks);
    }

    /** The same record with {@code l}: the other items that shared its links. */
    public CollectiveRecord withOnLinks(OnLinks l) {
        return new CollectiveRecord(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor,
                idealTimePs, iteration, runs, concurrent, rateHeldShare, beside, firstEntryPs, idealEntrySpreadPs,
                lateEntry, l);
    }

    /**
     * How much further apart its members entered it than their entries' bounds on the ideal network are (a job's
     * call; the summary names the job's call after its warm-up where this is largest).
     */
    public long entrySpreadBeyondIdealPs() {
        return entrySpreadPs() - Math.max(0, idealEntrySpreadPs);
    }

    /**
     * How long before its last member its first entered it (a job's call; -1 when not known). The call's time
     * counts from the last entry, so the others' wait for the last member is theirs (their exposed communication
     * or idle time), not the call's.
     */
    public long entrySpreadPs() {
        return firstEntryPs < 0 ? -1 : startPs - firstEntryPs;
    }

    /**
     * A record whose flows' time held back by their congestion control's rate is not known ({@code rateHeldShare}:
     * the call's flows' {@code rate_held_us} summed, over their FCTs summed; NaN when not known).
     */
    public CollectiveRecord(String job, String name, String algorithm, int ranks, long sizeBytes, long startPs,
            long endPs, boolean completed, double busFactor, long idealTimePs, int iteration, int runs,
            Concurrent concurrent) {
        this(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor, idealTimePs, iteration, runs,
                concurrent, Double.NaN);
    }

    /** A record with no concurrent calls known. */
    public CollectiveRecord(String job, String name, String algorithm, int ranks, long sizeBytes, long startPs,
            long endPs, boolean completed, double busFactor, long idealTimePs, int iteration, int runs) {
        this(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor, idealTimePs, iteration, runs,
                Concurrent.NONE);
    }

    /** A job's call: one run. */
    public CollectiveRecord(String job, String name, String algorithm, int ranks, long sizeBytes, long startPs,
            long endPs, boolean completed, double busFactor, long idealTimePs, int iteration) {
        this(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor, idealTimePs, iteration, 1);
    }

    /** A traffic item's collective (no job, no iteration), run once. */
    public CollectiveRecord(String job, String name, String algorithm, int ranks, long sizeBytes, long startPs,
            long endPs, boolean completed, double busFactor, long idealTimePs) {
        this(job, name, algorithm, ranks, sizeBytes, startPs, endPs, completed, busFactor, idealTimePs, -1, 1);
    }

    public long timePs() {
        return endPs - startPs;
    }

    /**
     * Algorithm bandwidth in GB/s (10^9 bytes per second), as nccl-tests prints it: the size over the time of one run
     * (of {@link #runs} back to back, their time over their number).
     */
    public double algbwGBps() {
        return completed ? sizeBytes * (double) runs / (timePs() / 1e12) / 1e9 : Double.NaN;
    }

    /** Time over ideal-network time: what the fabric cost this call (NaN when either is unknown). */
    public double networkSlowdown() {
        return completed && idealTimePs > 0 ? (double) timePs() / idealTimePs : Double.NaN;
    }

    /**
     * Whether this call belongs to its job's warm-up iterations (a traffic item's call has no iteration, never). The
     * one rule of every figure that leaves the warm-up out: the GPU's view (jobs.csv, ranks.csv), compare's
     * collective_us, the summary's slowest calls and the report's table of collectives.
     */
    public boolean warmUp(List<JobRecord> jobs) {
        if (iteration < 0 || job.isEmpty()) {
            return false;
        }
        for (var j : jobs) {
            if (j.job().equals(job)) {
                return iteration < j.warmup();
            }
        }
        return false;
    }

    /** Bus bandwidth in GB/s: algbw x 2(N-1)/N (AllReduce) or x (N-1)/N (AllGather, ReduceScatter). */
    public double busbwGBps() {
        return algbwGBps() * busFactor;
    }
}
