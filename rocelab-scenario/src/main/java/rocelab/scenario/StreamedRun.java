package rocelab.scenario;

import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowAggregate;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.workload.collective.StreamedCollective;
import rocelab.workload.flow.EcmpFabric;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.StreamedDriver;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.traffic.CollectiveTraffic;

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
    private final FlowAggregate flows = new FlowAggregate();
    private final IdealFlowTime idealFlowTime;
    // The time alone of the last host pair and size seen, direct-mapped (a collective has few sizes per pair).
    private final long[] aloneKey = new long[1 << 12];
    private final long[] aloneBytes = new long[1 << 12];
    private final long[] alonePs = new long[1 << 12];

    private StreamedRun(ScenarioConfig config) {
        this.config = config;
        this.sim = new Simulator();
        RandomStreams streams = new RandomStreams(config.seed());
        Topology topology = config.topology().build();
        this.network = Simulation.network(config, sim, streams, topology);
        this.graph = new TaskGraph();
        graph.streamed(WINDOW);
        graph.servers(Simulation.serverMap(topology));
        if (config.nvlink() != null) {
            graph.localLinks(LocalLinks.of(topology, config.nvlink().rateBps(), config.nvlink().latencyPs()));
        }
        CollectiveTraffic item = (CollectiveTraffic) config.traffic().get(0);
        this.source = new StreamedCollective(item.call(), item.startPs(), item.iterations());
        this.idealFlowTime = new IdealFlowTime(network, config.nic(), config.switches().forwardingLatencyPs());
        java.util.Arrays.fill(aloneKey, -1);
        this.ideal = IdealBound.streamed(graph, Simulation.idealNetwork(network, config), network.hostCount());
        this.driver = new StreamedDriver(sim, graph, source,
                new EcmpFabric(network, Simulation.pathTiming(network, config)), network.hostCount(), LOOKAHEAD, KEEP,
                this::flowDone, g -> ideal.advance());
    }

    /** Why the scenario cannot be run streamed, or null when it can. */
    public static String why(ScenarioConfig config) {
        if (config.traffic().size() != 1 || !(config.traffic().get(0) instanceof CollectiveTraffic c)) {
            return "a streamed run has exactly one traffic item, a collective";
        }
        if (!StreamedCollective.supports(c.call())) {
            return "a streamed run's collective is a ring or hierarchical AllReduce, AllGather or ReduceScatter";
        }
        if (!config.jobs().isEmpty() || !config.inference().isEmpty()) {
            return "a streamed run has no jobs or inference services";
        }
        if (!config.linkEvents().isEmpty()) {
            return "a streamed run has no link events";
        }
        return null;
    }

    /** Assembles the streamed run of a scenario {@link #why} accepts. */
    public static StreamedRun assemble(ScenarioConfig config) {
        String why = why(config);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        return new StreamedRun(config);
    }

    private void flowDone(int flow, int task, long startPs, long deliveredPs, long completedPs, int queuePair) {
        int src = graph.flowSource(flow);
        int dst = graph.flowDestination(flow);
        long bytes = graph.flowBytes(flow);
        long key = (long) src * network.hostCount() + dst;
        int slot = (int) ((key * 0x9E3779B97F4A7C15L + bytes) >>> 52);
        if (aloneKey[slot] != key || aloneBytes[slot] != bytes) {
            aloneKey[slot] = key;
            aloneBytes[slot] = bytes;
            alonePs[slot] = idealFlowTime.fctPs(src, dst, bytes);
        }
        flows.completed(bytes, startPs, completedPs, alonePs[slot]);
    }

    /** Runs to the end (every task added and finished, or the scenario's stop time). */
    public void run() {
        while (!driver.allFinished()) {
            boolean more = sim.run(config.stopAtPs(), 1 << 24);
            if (!more || sim.nowPs() >= config.stopAtPs()) {
                break;
            }
        }
    }

    public StreamedDriver driver() {
        return driver;
    }

    public FlowAggregate flows() {
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
