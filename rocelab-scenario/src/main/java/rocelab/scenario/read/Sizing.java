package rocelab.scenario.read;

import java.util.List;
import org.yaml.snakeyaml.nodes.Node;
import rocelab.fabric.topology.TopologySpec;
import rocelab.scenario.Footprint;
import rocelab.scenario.MemoryBudget;
import rocelab.workload.collective.Collectives;
import rocelab.workload.job.Dim;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.Step;
import rocelab.workload.traffic.TrafficSpec;

/**
 * The running {@link Footprint} of the scenario being read, checked against the {@link MemoryBudget} as each part is
 * read and before it is built or unrolled: the topology, each traffic item, each job (its program's steps times its
 * repeats, ranks and iterations, counted arithmetically). The refusal is located at the part that made it too big.
 */
final class Sizing {
    private final Doc doc;
    private final MemoryBudget budget;
    private final long perServer;
    private Footprint footprint;

    Sizing(Doc doc, MemoryBudget budget, TopologySpec topology) {
        this.doc = doc;
        this.budget = budget;
        this.footprint = Footprint.of(topology);
        this.perServer = topology instanceof rocelab.fabric.topology.RailOptimizedSpec r ? r.gpusPerServer() : 1;
    }

    Footprint footprint() {
        return footprint;
    }

    /** Refuses, at {@code node}, a footprint that does not fit. */
    void require(Node node) throws ScenarioException {
        String refusal = budget.refusal(footprint);
        if (refusal != null) {
            throw doc.at(node, refusal);
        }
    }

    void traffic(Node list, List<TrafficSpec> items) throws ScenarioException {
        List<Node> nodes = doc.list(list, "traffic", "a list of traffic items");
        for (int i = 0; i < items.size(); i++) {
            long flows = items.get(i) instanceof rocelab.workload.traffic.CollectiveTraffic c ? collectiveFlows(c)
                    : items.get(i).flowCount((int) footprint.hosts());
            footprint = footprint.plusFlows(flows);
            require(i < nodes.size() ? nodes.get(i) : list);
        }
    }

    /** The estimated flows of a collective traffic item, its servers taken into account. */
    long collectiveFlows(rocelab.workload.traffic.CollectiveTraffic c) {
        return Footprint.mulSat(c.iterations(), Collectives.estimatedMessages(c.call().op(), c.call().algorithm(),
                c.call().rankCount(), c.call().channels(), perServer));
    }

    /** Refuses, at {@code node}, what is read so far plus {@code flows} more, when that does not fit. */
    void requireWith(Node node, long flows) throws ScenarioException {
        String refusal = budget.refusal(footprint.plusFlows(flows));
        if (refusal != null) {
            throw doc.at(node, refusal);
        }
    }

    /** A job's tasks: every step instance on every rank in every iteration, plus its collectives' messages. */
    void job(Node where, JobSpec job) throws ScenarioException {
        long ranks = job.layout().size();
        long[] tasks = {0};
        steps(job.program(), 1, ranks, job, tasks, new java.util.HashMap<>(), false, perServer);
        footprint = footprint.plusTasks(Footprint.mulSat(tasks[0], job.iterations()));
        require(where);
    }

    /**
     * Adds the tasks of {@code steps}, each run {@code times} times per iteration, on the ranks where its condition
     * holds (evaluated once per distinct condition; inside a loop with a variable, on every rank); saturates.
     */
    private static void steps(List<Step> steps, long times, long ranks, JobSpec job, long[] tasks,
            java.util.Map<String, Long> activeByCondition, boolean inLoop, long perServer) {
        for (Step s : steps) {
            if (tasks[0] == Long.MAX_VALUE) {
                return;
            }
            if (s instanceof Step.Repeat r) {
                steps(r.steps(), Footprint.mulSat(times, r.count()), ranks, job, tasks, activeByCondition,
                        inLoop || r.variable() != null, perServer);
                continue;
            }
            long active = s.meta().when() == null || inLoop ? ranks
                    : activeByCondition.computeIfAbsent(s.meta().when().toString(), k -> activeRanks(job, s));
            long perRun = active;
            if (s instanceof Step.Collective c) {
                long group = 1;
                for (Dim d : c.dims()) {
                    group *= job.layout().degree(d);
                }
                long messages = group < 2 ? 0 : Collectives.estimatedMessages(c.op(), c.algorithm(), group,
                        c.channels(), perServer);
                perRun = Footprint.addSat(perRun, Footprint.mulSat(active / Math.max(1, group), messages));
            }
            tasks[0] = Footprint.addSat(tasks[0], Footprint.mulSat(perRun, times));
        }
    }

    /** The ranks on which a step's condition holds (a condition that cannot be evaluated counts as true). */
    private static long activeRanks(JobSpec job, Step step) {
        long n = 0;
        for (int r = 0; r < job.layout().size(); r++) {
            try {
                n += step.meta().when().test(job.layout().variables(r)) ? 1 : 0;
            } catch (RuntimeException e) {
                n++;
            }
        }
        return n;
    }
}
