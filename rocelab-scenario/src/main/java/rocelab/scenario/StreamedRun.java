package rocelab.scenario;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.RailOptimizedSpec;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowsBySize;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.workload.collective.Collectives;
import rocelab.workload.collective.StreamedCollective;
import rocelab.workload.flow.EcmpFabric;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.StreamedDriver;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.traffic.CollectiveTraffic;
import rocelab.workload.traffic.TrafficSpec;

/**
 * A flow-level run whose task graph is streamed ({@link StreamedDriver}): the collective's tasks are added as the
 * run reaches them and retired once done, its flows are aggregated ({@link FlowAggregate}) instead of kept one by
 * one, and the ideal bound follows the same stream ({@link IdealBound#streamed}). What it can run: one ring or
 * hierarchical AllReduce, AllGather or ReduceScatter traffic item, without jobs, inference or link events (see
 * {@link #why}).
 */
public final class StreamedRun {
    /** Tasks a streamed graph holds at once: the lookahead, what is kept behind it, and room for parts. */
    static final int WINDOW = 1 << 21;
    static final int LOOKAHEAD = 1 << 19;
    static final int KEEP = 1 << 19;

    private final ScenarioConfig config;
    private final Simulator sim;
    private final Network network;
    private final TaskGraph graph;
    private final StreamedCollective source;
    private final StreamedDriver driver;
    private final IdealBound ideal;
    private final FlowsBySize flows = new FlowsBySize();
    private final IdealFlowTime idealFlowTime;
    // Per queue pair (its two hosts never change), the time alone of its last message size.
    private long[] aloneBytes = new long[1 << 12];
    private long[] alonePs = new long[1 << 12];

    private StreamedRun(ScenarioConfig config) {
        this(config, WINDOW, LOOKAHEAD, KEEP);
    }

    private StreamedRun(ScenarioConfig config, int window, int lookahead, int keep) {
        this.config = config;
        this.sim = new Simulator();
        RandomStreams streams = new RandomStreams(config.seed());
        Topology topology = config.topology().build();
        this.network = Simulation.network(config, sim, streams, topology);
        this.graph = new TaskGraph();
        graph.streamed(window);
        graph.servers(Simulation.serverMap(topology));
        if (config.nvlink() != null) {
            graph.localLinks(LocalLinks.of(topology, config.nvlink().rateBps(), config.nvlink().latencyPs()));
        }
        CollectiveTraffic item = (CollectiveTraffic) config.traffic().get(0);
        this.source = new StreamedCollective(item.call(), item.startPs(), item.iterations());
        this.idealFlowTime = new IdealFlowTime(network, Simulation.pathTiming(network, config));
        Arrays.fill(aloneBytes, -1);
        this.ideal = IdealBound.streamed(graph, Simulation.idealNetwork(network, config), network.hostCount());
        this.driver = new StreamedDriver(sim, graph, source,
                new EcmpFabric(network, Simulation.pathTiming(network, config)), network.hostCount(), lookahead, keep,
                this::flowDone, g -> ideal.advance());
    }

    /** Why these traffic items cannot be run streamed, or null when they can (jobs, inference, events aside). */
    public static String why(List<TrafficSpec> traffic) {
        if (traffic.size() != 1 || !(traffic.get(0) instanceof CollectiveTraffic c)) {
            return "a streamed run has exactly one traffic item, a collective";
        }
        if (!StreamedCollective.supports(c.call())) {
            return "a streamed run's collective is a ring or hierarchical AllReduce, AllGather or ReduceScatter";
        }
        return null;
    }

    /** Why the scenario cannot be run streamed, or null when it can. */
    public static String why(ScenarioConfig config) {
        String traffic = why(config.traffic());
        if (traffic != null) {
            return traffic;
        }
        if (!config.jobs().isEmpty() || !config.inference().isEmpty()) {
            return "a streamed run has no jobs or inference services";
        }
        if (!config.linkEvents().isEmpty()) {
            return "a streamed run has no link events";
        }
        return null;
    }

    /**
     * Whether a run of the scenario with {@code model} is streamed and its flows aggregated: flow level, a workload
     * {@link #why} accepts, and {@link FlowsOutput} choosing it (asked for, or {@code auto} above its threshold).
     */
    public static boolean chosen(ScenarioConfig config, Simulation.Model model) {
        return model == Simulation.Model.FLOW && why(config) == null
                && config.flowsOutput().aggregated(true, true, estimatedFlows(config));
    }

    /** Why the run was streamed, as the note before it says. */
    public static String reason(ScenarioConfig config) {
        return config.flowsOutput().choice() == FlowsOutput.Choice.AGGREGATED
                ? "observe: {flows: aggregated} at " + config.flowsOutput().where()
                : String.format(Locale.ROOT, "about %,d flows, more than the %,d of observe: {flows: auto};"
                        + " observe: {flows: per-flow} asks for a row per flow", estimatedFlows(config),
                        FlowsOutput.AUTO_THRESHOLD);
    }

    /** The flows of the scenario's collective (its messages across the fabric), estimated as the reader sizes them. */
    static long estimatedFlows(ScenarioConfig config) {
        CollectiveTraffic item = (CollectiveTraffic) config.traffic().get(0);
        var call = item.call();
        long perServer = config.topology().shape() instanceof RailOptimizedSpec r ? r.gpusPerServer() : 1;
        long perRun = config.nvlink() != null && perServer > 1
                ? Collectives.estimatedFabricMessages(call.op(), call.algorithm(),
                        call.rankCount(), call.channels(), perServer)
                : Collectives.estimatedMessages(call.op(), call.algorithm(),
                        call.rankCount(), call.channels(), perServer);
        return Footprint.mulSat(item.iterations(), perRun);
    }

    /** Hears a flow's source, destination and DSCP (-1: the RNIC's default). */
    public interface FlowVisitor {
        void flow(int src, int dst, int dscp);
    }

    /**
     * Every flow of the scenario's streamed workload, in the order the streamed run adds them, a part at a time (the
     * lint's walk of a workload too large to hold): nothing waits, so each part is retired once visited.
     */
    public static void forEachFlow(ScenarioConfig config, Topology topology, FlowVisitor visitor) {
        TaskGraph g = new TaskGraph();
        g.streamed(WINDOW);
        g.servers(Simulation.serverMap(topology));
        if (config.nvlink() != null) {
            g.localLinks(LocalLinks.of(topology, config.nvlink().rateBps(), config.nvlink().latencyPs()));
        }
        CollectiveTraffic item = (CollectiveTraffic) config.traffic().get(0);
        StreamedCollective source = new StreamedCollective(item.call(), item.startPs(), item.iterations());
        int seen = 0;
        boolean more = true;
        while (more) {
            more = source.emitMore(g);
            for (; seen < g.flowCount(); seen++) {
                visitor.flow(g.flowSource(seen), g.flowDestination(seen), g.flowDscp(seen));
            }
            g.retire(g.taskCount() - KEEP);
        }
    }

        /** Assembles the streamed run of a scenario {@link #why} accepts. */
    public static StreamedRun assemble(ScenarioConfig config) {
        String why = why(config);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        return new StreamedRun(config);
    }

    /** As {@link #assemble(ScenarioConfig)} with another window (tests: a window small enough to be reused). */
    static StreamedRun assemble(ScenarioConfig config, int window, int lookahead, int keep) {
        String why = why(config);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        return new StreamedRun(config, window, lookahead, keep);
    }

    private void flowDone(int flow, int task, long startPs, long deliveredPs, long completedPs, int queuePair) {
        int src = graph.flowSource(flow);
        int dst = graph.flowDestination(flow);
        long bytes = graph.flowBytes(flow);
        if (queuePair >= aloneBytes.length) {
            int old = aloneBytes.length;
            aloneBytes = Arrays.copyOf(aloneBytes, Math.max(queuePair + 1, 2 * old));
            alonePs = Arrays.copyOf(alonePs, aloneBytes.length);
            Arrays.fill(aloneBytes, old, aloneBytes.length, -1);
        }
        if (aloneBytes[queuePair] != bytes) {
            aloneBytes[queuePair] = bytes;
            alonePs[queuePair] = idealFlowTime.fctPs(src, dst, bytes);
        }
        flows.completed(bytes, startPs, completedPs, alonePs[queuePair]);
    }

    /** Runs to the end (every task added and finished, or the scenario's stop time). */
    public void run() {
        run(ProgressListener.NONE);
    }

    /** How many tasks the run will add, about (for the progress display: messages and a few joins per rank). */
    private long estimatedTasks() {
        CollectiveTraffic item = (CollectiveTraffic) config.traffic().get(0);
        long perServer = config.topology().shape() instanceof RailOptimizedSpec r ? r.gpusPerServer() : 1;
        long messages = Collectives.estimatedMessages(item.call().op(),
                item.call().algorithm(), item.call().rankCount(), item.call().channels(), perServer);
        return Footprint.mulSat(item.iterations(), Footprint.addSat(messages, 4L * item.call().rankCount()));
    }

    private void run(ProgressListener progress) {
        long startNanos = System.nanoTime();
        long total = estimatedTasks();
        while (!driver.allFinished()) {
            boolean more = sim.run(config.stopAtPs(), 1 << 22);
            progress.onProgress(new RunProgress(sim.nowPs(), sim.eventsProcessed(), System.nanoTime() - startNanos,
                    0, 0, driver.finishedCount(), Math.max(total, driver.tasksAdded())));
            if (!more || sim.nowPs() >= config.stopAtPs()) {
                break;
            }
        }
    }

    /** Runs, and collects what the writers need: the collective, the flows aggregated, the fabric's totals. */
    public RunResult result(ProgressListener progress) {
        return result(progress, null);
    }

    /** As {@link #result(ProgressListener)}, with the note of a run that asked for threads ({@code threads_note}). */
    public RunResult result(ProgressListener progress, String threadsNote) {
        long startNanos = System.nanoTime();
        run(progress);
        String stopReason = driver.allFinished()
                ? RunResult.endedReason(flows.all().completedCount(), flows.all().failedCount())
                : sim.nowPs() >= config.stopAtPs() ? "stop-at" : "no-events";
        // Flows added and not acknowledged (a run stopped early) are counted unfinished; those never added are not
        // counted at all, which summary.json's count then says.
        for (int f = firstHeldFlow(); f < graph.flowCount(); f++) {
            if (!driver.acknowledged(f)) {
                flows.unfinished(graph.flowBytes(f), false);
            }
        }
        var call = source.call();
        long end = collectiveEndPs();
        long idealEnd = idealCollectiveEndPs();
        long start = driver.firstTransferStartPs();
        CollectiveTraffic item = (CollectiveTraffic) config.traffic().get(0);
        List<CollectiveRecord> collectives = List.of(new CollectiveRecord("", "traffic item 1", call.op().key() + " "
                + call.algorithm().key(), call.rankCount(), call.sizeBytes(), start < 0 ? item.startPs() : start,
                Math.max(0, end), end >= 0, call.op().busFactor(call.rankCount()),
                idealEnd < 0 ? -1 : idealEnd - item.startPs(), -1, item.iterations()));
        double wallSeconds = (System.nanoTime() - startNanos) / 1e9;
        long endPs = driver.allFinished() ? driver.lastFinishPs() : Math.min(sim.nowPs(), config.stopAtPs());
        return new RunResult(config.name(), config.seed(), config.mode().key(), Version.CURRENT,
                Simulation.scenarioHash(config), endPs, wallSeconds, sim.eventsProcessed(), driver.allFinished(),
                stopReason, List.of(), -1, List.of(), collectives, FabricTotals.of(network), network, null, null, null, null,
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Simulation.Model.FLOW.key(), null, threadsNote,
                flows, RunResult.notModelled(network.isInfiniband(), false) + (config.faults().isEmpty() ? ""
                        : RunResult.faultsNotModelled(config.faults().size())), graph.nvlinkTransferCount(),
                graph.nvlinkTransferBytes(), List.of());
        // one collective: one traffic class
    }

    /** The first flow the graph still holds (every flow before it was acknowledged and retired). */
    private int firstHeldFlow() {
        int f = graph.flowCount();
        while (f > 0 && graph.flowTask(f - 1) >= graph.retiredTasks() && f - 1 > graph.flowCount() - graph.windowTasks() + 1) {
            f--;
        }
        return f;
    }

    public StreamedDriver driver() {
        return driver;
    }

    public FlowsBySize flows() {
        return flows;
    }

    public Simulator simulator() {
        return sim;
    }

    public Network network() {
        return network;
    }

    public IdealBound ideal() {
        return ideal;
    }

    public StreamedCollective source() {
        return source;
    }

    /** When the collective's last run ended: the latest of its ranks' done tasks, or -1 if not all ended. */
    public long collectiveEndPs() {
        int[] done = source.lastDone();
        if (done == null) {
            return -1;
        }
        long end = 0;
        for (int t : done) {
            long e = driver.taskEndPs(t);
            if (e < 0) {
                return -1;
            }
            end = Math.max(end, e);
        }
        return end;
    }

    /** The ideal bound of the collective's last run's end (its ranks' done tasks' bounds), or -1. */
    public long idealCollectiveEndPs() {
        int[] done = source.lastDone();
        return done == null ? -1 : ideal.streamedLastEndPs(done);
    }
}
