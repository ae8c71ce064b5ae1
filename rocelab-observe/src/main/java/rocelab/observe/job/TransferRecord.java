package rocelab.observe.job;

import rocelab.observe.flow.CollectiveRecord;

/**
 * One of a job's point-to-point transfers over the fabric (a send paired with its receive, such as a pipeline's
 * activations or gradients), by its flow: {@code name} ({@code step/send-act-mb1 from rank 0 to rank 4}), the job's
 * iteration, its size, its flow's id in flows.csv, and that flow's FCT against its time alone on an idle fabric (flows.csv
 * {@code fct_us}, {@code ideal_fct_us}). The summary names a job's slowest after its warm-up, as it names its slowest
 * collective calls: a pipeline waits on its sends as a data-parallel step waits on its all-reduce. As for a call, what
 * else was under way beside it from its post to its delivery: the same job's calls and other transfers on its two
 * RNICs ({@code job}: how many of each, the one there longest, for how long), the job's other transfers whose data
 * left by a switch port towards another switch that its own data left by ({@code jobOnLinks}: how many, the one there
 * longest, for how long, the first such port on its way), and the workload's other items on its RNICs
 * ({@code beside}) and on those links ({@code onLinks}).
 */
public record TransferRecord(String name, int iteration, long bytes, int flow, long fctPs, long idealFctPs,
        CollectiveRecord.Concurrent job, CollectiveRecord.OnLinks jobOnLinks, CollectiveRecord.Beside beside,
        CollectiveRecord.OnLinks onLinks) {
    /** The time it took beyond its flow's time alone. */
    public long lostPs() {
        return fctPs - idealFctPs;
    }

    /** Its FCT over its time alone. */
    public double slowdown() {
        return (double) fctPs / idealFctPs;
    }
}
