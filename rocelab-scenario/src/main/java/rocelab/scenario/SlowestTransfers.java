package rocelab.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.TransferRecord;
import rocelab.observe.output.SummaryText;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.WorkloadDriver;
import rocelab.workload.job.JobTasks;

/**
 * A job's slowest point-to-point transfers (a pipeline's activations and gradients), named as its slowest calls are,
 * each with what flows.csv and the run's identities say was under way beside it: a pipeline waits on its sends as a
 * data-parallel step waits on its all-reduce, and only calls were named (the collectives audit's item 4).
 */
final class SlowestTransfers {
    private final WorkloadDriver driver;
    private final List<JobTasks> jobs;
    /** The workload's traffic items, which come before the jobs among its items. */
    private final int trafficItems;

    SlowestTransfers(WorkloadDriver driver, List<JobTasks> jobs, int trafficItems) {
        this.driver = driver;
        this.jobs = jobs;
        this.trafficItems = trafficItems;
    }

    /**
     * The jobs' records ({@code records}, in the order of the jobs), each with its slowest transfers over the fabric
     * after its warm-up: the ones whose flow took more than 1.05x its time alone on an idle fabric (flows.csv fct_us
     * and ideal_fct_us), the three that lost most first, each with what was under way beside it ({@code calls}: the
     * run's collective records; {@code overNvlinkOnly}: whether a call over these hosts stays in one server).
     */
    List<JobRecord> of(List<JobRecord> records, Predicate<int[]> overNvlinkOnly, List<FlowRecord> flows,
            List<CollectiveRecord> calls, BesideIndex beside, LinkBesideIndex linksBeside, long endPs) {
        List<JobRecord> out = new ArrayList<>(records.size());
        TaskGraph g = driver.graph();
        for (int j = 0; j < records.size(); j++) {
            JobTasks jt = jobs.get(j);
            List<long[]> slow = new ArrayList<>(); // {transfer, flow, time lost}
            for (int i = 0; i < jt.transfers().size(); i++) {
                JobTasks.Transfer t = jt.transfers().get(i);
                int f = t.flowTask() < 0 ? -1 : g.flowIndex(t.flowTask());
                if (t.iteration() < jt.job().warmup() || f < 0) {
                    continue; // a warm-up's, or over NVLink
                }
                FlowRecord fr = flows.get(f);
                if (fr.completed() && fr.idealFctPs() > 0 && fr.fctPs() > SummaryText.SLOWEST_ABOVE * fr.idealFctPs()) {
                    slow.add(new long[] {i, f, fr.fctPs() - fr.idealFctPs()});
                }
            }
            slow.sort(Comparator.comparingLong((long[] x) -> -x[2]).thenComparingLong(x -> x[1]));
            String job = jt.job().name();
            List<CollectiveRecord> jobCalls = calls.stream().filter(c -> c.job().equals(job)).toList();
            int own = trafficItems + j;
            List<TransferRecord> named = new ArrayList<>();
            for (long[] s : slow.subList(0, Math.min(3, slow.size()))) {
                JobTasks.Transfer t = jt.transfers().get((int) s[0]);
                FlowRecord fr = flows.get((int) s[1]);
                long from = fr.startPs();
                long to = fr.deliveredPs();
                int[] hosts = {fr.src(), fr.dst()};
                CollectiveRecord.Concurrent onHosts = callsOnHosts(jt, jobCalls, t.iteration(), hosts, from, to, endPs,
                        overNvlinkOnly);
                // The job's other transfers: on the same RNICs, and (packet level) through the same links.
                int rnicCount = 0;
                long rnicLongest = 0;
                String rnicName = "";
                int linkCount = 0;
                long linkLongest = 0;
                String linkName = "";
                String linkAt = "";
                int qp = fr.queuePair();
                for (int i = 0; i < jt.transfers().size(); i++) {
                    JobTasks.Transfer o = jt.transfers().get(i);
                    int of = o.flowTask() < 0 ? -1 : g.flowIndex(o.flowTask());
                    if (i == (int) s[0] || of < 0 || driver.taskStartPs(o.flowTask()) < 0) {
                        continue;
                    }
                    long oEnd = driver.taskEndPs(o.flowTask()) >= 0 ? driver.taskEndPs(o.flowTask()) : endPs;
                    long overlap = Math.min(to, oEnd) - Math.max(from, driver.taskStartPs(o.flowTask()));
                    if (overlap <= 0) {
                        continue;
                    }
                    String oName = o.sendName() + " from rank " + o.srcRank() + " to rank " + o.dstRank()
                            + (o.iteration() == t.iteration() ? "" : " of iteration " + o.iteration());
                    int os = g.flowSource(of);
                    int od = g.flowDestination(of);
                    if (os == hosts[0] || os == hosts[1] || od == hosts[0] || od == hosts[1]) {
                        rnicCount++;
                        if (overlap > rnicLongest) {
                            rnicLongest = overlap;
                            rnicName = oName;
                        }
                    }
                    var oqp = driver.queuePair(of);
                    String port = linksBeside == null || oqp == null || qp < 0 ? null
                            : linksBeside.sharedPort(qp, oqp.id());
                    if (port != null) {
                        linkCount++;
                        if (overlap > linkLongest) {
                            linkLongest = overlap;
                            linkName = oName;
                            linkAt = port;
                        }
                    }
                }
                CollectiveRecord.Concurrent ownJob = rnicCount == 0 ? onHosts
                        : onHosts.withTransfers(rnicCount, rnicName, rnicLongest);
                CollectiveRecord.OnLinks jobOnLinks = linkCount == 0 ? CollectiveRecord.OnLinks.NONE
                        : new CollectiveRecord.OnLinks(linkCount, linkName, linkLongest, linkAt);
                named.add(new TransferRecord(t.sendName() + " from rank " + t.srcRank() + " to rank " + t.dstRank(),
                        t.iteration(), t.bytes(), fr.id(), fr.fctPs(), fr.idealFctPs(), ownJob, jobOnLinks,
                        beside == null ? CollectiveRecord.Beside.NONE : beside.of(own, hosts, from, to),
                        linksBeside == null ? CollectiveRecord.OnLinks.NONE
                                : linksBeside.of(own, t.flowTask(), t.flowTask() + 1, from, to)));
            }
            out.add(records.get(j).withSlowestTransfers(named));
        }
        return out;
    }

    /**
     * The job's calls (its records {@code jobCalls}, in the order of {@code jt}'s calls) under way on one of
     * {@code hosts}' RNICs within [{@code from}, {@code to}): a call from its last member's entry to its end (an
     * unfinished one to {@code endPs}) on its ranks' hosts, unless it stays in one server over NVLink. How many, the
     * one there longest (with the iteration when it is not {@code iteration}) and for how long.
     */
    private static CollectiveRecord.Concurrent callsOnHosts(JobTasks jt, List<CollectiveRecord> jobCalls,
            int iteration, int[] hosts, long from, long to, long endPs, Predicate<int[]> overNvlinkOnly) {
        int count = 0;
        long longest = 0;
        String name = "";
        for (int k = 0; k < jt.calls().size() && k < jobCalls.size(); k++) {
            CollectiveRecord r = jobCalls.get(k);
            if (r.startPs() < 0) {
                continue;
            }
            long overlap = Math.min(to, r.completed() ? r.endPs() : endPs) - Math.max(from, r.startPs());
            if (overlap <= 0) {
                continue;
            }
            int[] callHosts = Simulation.hostsOf(jt.calls().get(k).call());
            if (overNvlinkOnly.test(callHosts)
                    || Arrays.stream(callHosts).noneMatch(h -> h == hosts[0] || h == hosts[1])) {
                continue;
            }
            count++;
            if (overlap > longest) {
                longest = overlap;
                name = r.name() + (r.iteration() == iteration ? "" : " of iteration " + r.iteration());
            }
        }
        return count == 0 ? CollectiveRecord.Concurrent.NONE : new CollectiveRecord.Concurrent(count, name, longest);
    }
}
