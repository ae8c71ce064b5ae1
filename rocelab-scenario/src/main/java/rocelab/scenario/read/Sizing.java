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
    private Footprint footprint;

    Sizing(Doc doc, MemoryBudget budget, TopologySpec topology) {
        this.doc = doc;
        this.budget = budget;
        this.footprint = Footprint.of(topology);
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
            footprint = footprint.plusFlows(items.get(i).flowCount((int) footprint.hosts()));
            require(i < nodes.size() ? nodes.get(i) : list);
        }
    }

    /** A job's tasks: every step instance on every rank in every iteration, plus its collectives' messages. */
    void job(Node where, JobSpec job) throws ScenarioException {
        long ranks = job.layout().size();
        long[] tasks = {0};
        steps(job.program(), 1, ranks, job, tasks, new java.util.HashMap<>(), false);
        footprint = footprint.plusTasks(Footprint.mulSat(tasks[0], job.iterations()));
        require(where);
    }

    /**
     * Adds the tasks of {@code steps}, each run {@code times} times per iteration, on the ranks where its condition
     * holds (evaluated once per distinct condition; inside a loop with a variable, on every rank); saturates.
     */
    private static void steps(List<Step> steps, long times, long ranks, JobSpec job, long[] tasks,
            java.util.Map<String, Long> activeByCondition, boolean inLoop) {
        for (Step s : steps) {
            if (tasks[0] == Long.MAX_VALUE) {
                return;
            }
            if (s instanceof Step.Repeat r) {
                steps(r.steps(), Footprint.mulSat(times, r.count()), ranks, job, tasks, activeByCondition,
                        inLoop || r.variable() != null);
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
                        c.channels());
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
