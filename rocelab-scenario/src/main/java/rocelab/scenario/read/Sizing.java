package rocelab.scenario.read;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import rocelab.fabric.topology.RailOptimizedSpec;
import rocelab.fabric.topology.TopologySpec;
import rocelab.scenario.FlowsOutput;
import rocelab.scenario.Footprint;
import rocelab.scenario.MemoryBudget;
import rocelab.scenario.StreamedRun;
import rocelab.workload.collective.Collectives;
import rocelab.workload.job.Dim;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.Step;
import rocelab.workload.traffic.CollectiveTraffic;
import rocelab.workload.traffic.DscpTraffic;
import rocelab.workload.traffic.PoissonTraffic;
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

    /** Whether transfers between GPUs of one server go over NVLink (tasks, not flows). */
    private final boolean nvlink;

    Sizing(Doc doc, MemoryBudget budget, TopologySpec topology, boolean nvlink) {
        this.doc = doc;
        this.budget = budget;
        this.footprint = Footprint.of(topology);
        this.perServer = topology.shape() instanceof RailOptimizedSpec r ? r.gpusPerServer() : 1;
        this.nvlink = nvlink && perServer > 1;
    }

    Footprint footprint() {
        return footprint;
    }

    /** How the scenario reports its flows, and whether it has jobs, inference services or link events. */
    private FlowsOutput flowsOutput = FlowsOutput.AUTO;
    private boolean otherWork;

    void workload(FlowsOutput output, boolean jobsInferenceOrEvents) {
        this.flowsOutput = output;
        this.otherWork = jobsInferenceOrEvents;
    }

    /**
     * Whether a run of these traffic items is streamed ({@link StreamedRun}): a {@code --model flow}
     * budget, a workload it can stream, and {@link FlowsOutput} choosing aggregated flows.
     */
    boolean streamed(List<TrafficSpec> items) {
        if (!budget.streaming() || otherWork || StreamedRun.why(items) != null) {
            return false;
        }
        var c = (CollectiveTraffic) items.get(0);
        return flowsOutput.aggregated(true, true, collectiveFlows(c));
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
        footprint = footprint.streamed(streamed(items));
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof CollectiveTraffic c) {
                footprint = withCollective(footprint, c);
            } else {
                footprint = footprint.plusFlows(items.get(i).flowCount((int) footprint.hosts()));
            }
            Node at = i < nodes.size() ? nodes.get(i) : list;
            TrafficSpec item = items.get(i) instanceof DscpTraffic d ? d.inner() : items.get(i);
            if (item instanceof PoissonTraffic && at != list) {
                // Its flows come from its duration and load: the refusal points there and says so.
                String refusal = budget.refusal(footprint);
                if (refusal != null) {
                    NodeTuple duration = YamlMap.entries(doc, at, "traffic item", "a mapping").get("duration");
                    throw doc.at(duration != null ? duration.getValueNode() : at, refusal + "; for Poisson traffic,"
                            + " a shorter duration, a lower load or fewer hosts");
                }
            }
            require(at);
        }
    }

    /** The estimated messages (flows and NVLink transfers) of a collective traffic item. */
    long collectiveMessages(CollectiveTraffic c) {
        return Footprint.mulSat(c.iterations(), Collectives.estimatedMessages(c.call().op(), c.call().algorithm(),
                c.call().rankCount(), c.call().channels(), perServer));
    }

    /** The estimated flows of a collective traffic item: its messages that cross the fabric, its servers taken into account. */
    long collectiveFlows(CollectiveTraffic c) {
        return !nvlink ? collectiveMessages(c) : Footprint.mulSat(c.iterations(), Collectives.estimatedFabricMessages(
                c.call().op(), c.call().algorithm(), c.call().rankCount(), c.call().channels(), perServer));
    }

    /** Refuses, at {@code node}, what is read so far plus a collective traffic item, when that does not fit. */
    void requireWith(Node node, CollectiveTraffic c) throws ScenarioException {
        if (StreamedRun.why(List.of(c)) == null) {
            // Checked without writing its messages (HierarchicalAlgorithm.check): what it costs is the run's.
            return;
        }
        String refusal = budget.refusal(withCollective(footprint, c));
        if (refusal != null) {
            throw doc.at(node, refusal);
        }
    }

    /** A footprint with a collective's flows (its messages across the fabric) and its NVLink transfers. */
    private Footprint withCollective(Footprint f, CollectiveTraffic c) {
        long messages = collectiveMessages(c);
        long flows = collectiveFlows(c);
        return f.plusFlows(flows).plusTasks(messages == Long.MAX_VALUE ? messages : messages - flows);
    }

    /**
     * A job's tasks: every step instance on every rank in every iteration, plus its collectives' messages. Returns
     * the job's own estimate, {tasks (flows among them), flows}, which its unrolling sizes its graph by.
     */
    long[] job(Node where, JobSpec job) throws ScenarioException {
        long ranks = job.layout().size();
        // tasks[0]: tasks that are not flows; tasks[1]: flows (collective messages that cross the fabric).
        long[] tasks = {0, 0};
        steps(job.program(), 1, ranks, job, tasks, new HashMap<>(), false);
        // Per iteration and rank, the joins that open and close it.
        long others = Footprint.mulSat(Footprint.addSat(tasks[0], 2 * ranks), job.iterations());
        long flows = Footprint.mulSat(tasks[1], job.iterations());
        footprint = footprint.plusTasks(others).plusFlows(flows);
        require(where);
        return new long[] {Footprint.addSat(others, flows), flows};
    }

    /**
     * Whether every member of the group of {@code dims} around the first and the last rank sits in one server, so
     * its messages are NVLink transfers (with NVLink).
     */
    private boolean inOneServer(JobSpec job, Set<Dim> dims) {
        for (int rank : new int[] {0, job.layout().size() - 1}) {
            int[] group = job.layout().group(rank, dims);
            long server = job.layout().host(group[0]) / perServer;
            for (int member : group) {
                if (job.layout().host(member) / perServer != server) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Adds the tasks of {@code steps}, each run {@code times} times per iteration, on the ranks where its condition
     * holds (evaluated once per distinct condition; inside a loop with a variable, on every rank); saturates.
     */
    private void steps(List<Step> steps, long times, long ranks, JobSpec job, long[] tasks,
            Map<String, Long> activeByCondition, boolean inLoop) {
        for (Step s : steps) {
            if (tasks[0] == Long.MAX_VALUE || tasks[1] == Long.MAX_VALUE) {
                return;
            }
            if (s instanceof Step.Repeat r) {
                steps(r.steps(), Footprint.mulSat(times, r.count()), ranks, job, tasks, activeByCondition,
                        inLoop || r.variable() != null);
                continue;
            }
            long active = s.meta().when() == null || inLoop ? ranks
                    : activeByCondition.computeIfAbsent(s.meta().when().toString(), k -> activeRanks(job, s));
            // Each step on each rank: its task (a collective: the join that ends it there) and the join that starts
            // it once its stream and its after-list are done.
            long perRun = Footprint.mulSat(2, active);
            long flowsPerRun = 0;
            if (s instanceof Step.Collective c) {
                long group = 1;
                for (Dim d : c.dims()) {
                    group *= job.layout().degree(d);
                }
                long messages = group < 2 ? 0 : Collectives.estimatedMessages(c.op(), c.algorithm(), group,
                        c.channels(), perServer);
                long fabric = group < 2 || nvlink && inOneServer(job, c.dims()) ? 0
                        : nvlink ? Collectives.estimatedFabricMessages(c.op(), c.algorithm(), group, c.channels(),
                                perServer) : messages;
                long groups = active / Math.max(1, group);
                // And its messages inside servers (NVLink transfers); those that cross the fabric are flows.
                perRun = Footprint.addSat(perRun, Footprint.mulSat(groups, messages == Long.MAX_VALUE ? messages
                        : messages - fabric));
                flowsPerRun = Footprint.mulSat(groups, fabric);
            }
            if (s instanceof Step.Transfer t && t.send() && !(nvlink && inOneServer(job, t.peer().keySet()))) {
                // A send to a peer in another server (or without NVLink) is a flow, and the join that waits for its
                // acknowledgement (a receive is a promise of the flow, counted as the step's task).
                flowsPerRun = active;
            }
            tasks[0] = Footprint.addSat(tasks[0], Footprint.mulSat(perRun, times));
            tasks[1] = Footprint.addSat(tasks[1], Footprint.mulSat(flowsPerRun, times));
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
