package rocelab.scenario;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.CongestionControls;
import rocelab.congestion.ecn.EcnMarkings;
import rocelab.congestion.ibcc.FecnMarkings;
import rocelab.engine.InexactSplitException;
import rocelab.engine.PartitionedSimulator;
import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.congestion.EcnMarkingFactory;
import rocelab.fabric.network.IdealSlowLinks;
import rocelab.fabric.network.LinkEventDriver;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.NetworkBuilder;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.network.PauseCycles;
import rocelab.fabric.nic.PauseStormFault;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.probe.CreditProbe;
import rocelab.fabric.probe.EcmpProbe;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.flow.FlowRecordList;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.output.IdealSlowLinksText;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.sample.TimeSeriesSampler;
import rocelab.observe.trace.GpuTimeline;
import rocelab.scenario.device.DevicePlans;
import rocelab.workload.flow.EcmpFabric;
import rocelab.workload.flow.FlowRouter;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.flow.IdealNetwork;
import rocelab.workload.graph.Dependents;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.PartitionPlan;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.graph.WorkloadDriver;
import rocelab.workload.inference.InferenceEmitter;
import rocelab.workload.inference.InferenceSpec;
import rocelab.workload.inference.InferenceTasks;
import rocelab.workload.job.CheckedUnrolling;
import rocelab.workload.job.JobEmitter;
import rocelab.workload.job.JobSpec;
import rocelab.workload.collective.Collective;
import rocelab.workload.job.JobTasks;
import rocelab.workload.traffic.CollectiveTraffic;
import rocelab.workload.traffic.TrafficSpec;

/** One simulation of a scenario: assembles the fabric and the traffic, runs it, and collects the result. */
public final class Simulation {
    /** Events between progress reports and wall-clock checks. */
    private static final long BATCH_EVENTS = 1 << 20;
    /**
     * An automatic choice gives a run at most one thread per this many data packets the hosts can send in one
     * window ({@link #packetsPerWindow}, an upper bound: the 128-host all-to-all of 64 KiB sends 82 % of its 391,
     * about 4,900 events per window; bench-B's permutation, slowed by ECMP collisions and DCQCN, an eighth of its
     * 1,600). A partition's share of a window must outweigh the window's two barriers and the serial delivery of what
     * crossed: 150 keeps the shipped examples (at most 63 per window; two threads made lossless-dcqcn's loop, 98
     * events per window, 8x slower on a loaded machine) on one thread, and splits the 128-host all-to-all in two
     * (faster on two threads even on a loaded machine) and the 1,024-host one in up to 20 (BENCHMARKS.md, "Threads
     * chosen automatically").
     */
    static final double PACKETS_PER_WINDOW_PER_THREAD = 150;
    /**
     * Below this many data packets an automatic choice stays on one thread. Measured on a quiet 2-core machine
     * (BENCHMARKS.md, "Threads chosen automatically, timed quietly"): two threads made bench-B's loop (128,000 data
     * packets, about 2,300 events per window) 1.4-1.8x slower and scale-alltoall-128's (260,096, about 4,900 per
     * window) 1.1-1.2x slower, and bench-B2's (1,072,896) 1.5x faster; under a million, a run's windows are too
     * light for the barriers, and its loop is a few seconds at most. The loaded machine's runs that set 100,000
     * first had measured the scheduler, not the split.
     */
    static final long MIN_DATA_PACKETS = 1_000_000;
    /** Simulated time between checks for a stall. */
    private static final long CHECK_WINDOW_PS = 1_000_000_000L;
    /** No data movement for this long in a lossless fabric prompts a search for a cycle of paused queues. */
    private static final long DEADLOCK_CHECK_PS = 1_000_000_000L;
    /** Shortest stretch without any data movement that counts as a stall. */
    private static final long STALL_PS = 1_000_000_000_000L;

    private final ScenarioConfig config;
    private Simulator sim;
    private Network network;
    private WorkloadDriver driver;
    private TimeSeriesSampler series;
    private PfcLog pfcLog;
    /** InfiniBand at packet level: every wait for credits, with the root its credit update carried. */
    private CreditLog creditLog;
    /** Packet level with switches that hash among equal-cost ports: every ECMP collision and its waits (else null). */
    private EcmpLog ecmpLog;
    /**
     * The partitions and threads of a parallel run; null on one thread. The fields above and the workload's lists
     * below are replaced when a checked parallel run is run again on one thread ({@link #startOver}).
     */
    private ParallelRun parallel;
    /** Whether the threads were the automatic choice (then no note in the outputs: they are the same everywhere). */
    private boolean automaticThreads;
    /** Why the run was run again on one thread after it began on several (null: it was not). */
    private String startedOver;
    /** Why a run asked for several threads runs on one (null: it did not ask, or it runs on them). */
    private String threadsNote;
    /** The run goes on this long less 1 ps after the last task's end: see {@link #run}. */
    private final long lookaheadPs;

    /** A collective of the traffic list and the tasks it expanded into. */
    private record CollectiveFlows(int item, CollectiveTraffic spec, CollectiveTraffic.Emitted tasks) {}

    private List<CollectiveFlows> collectives;
    /** The workload's items by their tasks (traffic items in order, then jobs, then inference services). */
    private final List<BesideIndex.Part> parts;
    private List<JobTasks> jobs;
    private List<InferenceTasks> inference;
    private final Model model;
    private IdealGroups idealGroups;
    /** The same graph's bounds on the ideal network, once {@link #run} has made them. */
    private IdealBound idealBound;
    /** Whether the run makes its ideal figures on a second thread (null: when the machine has two cores or more). */
    private Boolean secondCore;
    /** Whether the last {@link #run} made its ideal figures on a second thread. */
    private boolean madeAside;
    /** Payload bytes of every flow of the workload, for the progress display. */
    private final long workloadBytes;

    private Simulation(ScenarioConfig config, Simulator sim, Network network, WorkloadDriver driver,
            List<CollectiveFlows> collectives, List<JobTasks> jobs, List<InferenceTasks> inference,
            IdealGroups idealGroups, Model model, ParallelRun parallel, String threadsNote, long lookaheadPs,
            List<BesideIndex.Part> parts) {
        this.model = model;
        this.parts = List.copyOf(parts);
        this.parallel = parallel;
        this.threadsNote = threadsNote;
        this.lookaheadPs = lookaheadPs;
        this.idealGroups = idealGroups;
        boolean packets = model == Model.PACKET;
        long bytes = 0;
        for (int i = 0; i < driver.flowCount(); i++) {
            bytes += driver.graph().flowBytes(i);
        }
        this.workloadBytes = bytes;
        this.inference = List.copyOf(inference);
        this.collectives = List.copyOf(collectives);
        this.jobs = List.copyOf(jobs);
        this.config = config;
        this.sim = sim;
        this.network = network;
        this.driver = driver;
        // Queues, rates and pauses exist only at packet level: the flow-level models leave them out (null), not zero.
        this.series = packets && config.sampleIntervalPs() > 0
                ? new TimeSeriesSampler(network, config.sampleIntervalPs()) : null;
        this.pfcLog = packets && config.pfc().enabled() ? new PfcLog(network, driver.flowCount()) : null;
        this.creditLog = packets && network.isInfiniband() ? new CreditLog(network) : null;
        if (creditLog != null) {
            creditLog.flowWaits().expectFlows(driver.flowCount());
        }
        this.ecmpLog = packets && EcmpLog.hashes(network)
                ? new EcmpLog(network, driver.flowCount()) : null;
        if (!config.linkEvents().isEmpty() && model != Model.IDEAL) {
            new LinkEventDriver(network, config.linkEvents());
        }
        if (model == Model.FLOW) {
            network.routeListener(driver::reroute);
        }
        for (PauseStormFault f : packets ? config.faults() : List.<PauseStormFault>of()) {
            network.nic(f.host()).schedulePauseStorm(f.startPs(), f.startPs() + f.durationPs(), f.priority());
        }
        if (pfcLog != null) {
            // A parallel run: each partition's devices note into a capture of their own, linked after each window.
            PfcProbe[] byPartition = new PfcProbe[partitions()];
            for (int p = 0; parallel != null && p < byPartition.length; p++) {
                byPartition[p] = pfcLog.forPartition(parallel.partitions().partition(p));
            }
            int hosts = network.hostCount();
            for (int s = 0; s < network.switchCount(); s++) {
                network.switchAt(s).pfcProbe(parallel == null ? pfcLog
                        : byPartition[network.simulatorOf(hosts + s).partition()]);
            }
            for (int h = 0; h < hosts; h++) {
                network.nic(h).pfcProbe(parallel == null ? pfcLog : byPartition[network.simulatorOf(h).partition()]);
            }
            if (parallel != null) {
                parallel.pfcLog(pfcLog);
            }
        }
        if (creditLog != null) {
            attachCreditLog(parallel);
        }
        if (ecmpLog != null) {
            // A parallel run: each partition's switches note into notes of their own, taken after each window.
            EcmpProbe[] byPartition = new EcmpProbe[partitions()];
            for (int p = 0; parallel != null && p < byPartition.length; p++) {
                byPartition[p] = ecmpLog.forPartition(parallel.partitions().partition(p));
            }
            int hosts = network.hostCount();
            for (int s = 0; s < network.switchCount(); s++) {
                network.switchAt(s).ecmpProbe(parallel == null ? ecmpLog
                        : byPartition[network.simulatorOf(hosts + s).partition()]);
            }
            if (parallel != null) {
                parallel.ecmpLog(ecmpLog);
            }
        }
    }

    /**
     * How the fabric is modelled: every packet ({@code packet}, the lab), flows as max-min fair fluids over the
     * links of their ECMP paths ({@code flow}, the fast mode), or the ideal network alone ({@code ideal}: fluids
     * sharing only the RNICs at both ends and NVLink, the best case every "waited on the network" figure is measured
     * against).
     */
    public enum Model {
        PACKET("packet"), FLOW("flow"), IDEAL("ideal");

        private final String key;

        Model(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        public static Optional<Model> byKey(String key) {
            for (Model m : values()) {
                if (m.key.equals(key)) {
                    return Optional.of(m);
                }
            }
            return Optional.empty();
        }
    }

    public static Simulation assemble(ScenarioConfig config) {
        return assemble(config, Model.PACKET);
    }

    /** As {@link #assemble(ScenarioConfig, Model)}: {@code idealOnly} is the ideal network alone. */
    public static Simulation assemble(ScenarioConfig config, boolean idealOnly) {
        return assemble(config, idealOnly ? Model.IDEAL : Model.PACKET);
    }

    /** Assembles the run of the scenario with the fabric modelled as {@code model}, on one thread. */
    public static Simulation assemble(ScenarioConfig config, Model model) {
        return assemble(config, model, 1);
    }

    /**
     * Assembles the run of the scenario with the fabric modelled as {@code model}, on up to {@code threads} threads:
     * a packet-level run of traffic whose tasks wait for nothing, or only for tasks of their own partition
     * ({@link PartitionPlan}), is split into partitions of the fabric (at most one per leaf) that run in parallel,
     * with outputs byte-identical to one thread's; anything else runs on one thread, and {@link #threadsNote()} says
     * why.
     */
    public static Simulation assemble(ScenarioConfig config, Model model, int threads) {
        return assemble(config, model, threads, false);
    }

    /**
     * As {@link #assemble(ScenarioConfig, Model, int)} with the threads chosen for this run on a machine of
     * {@code processors} cores: as many as pay off ({@link #automaticThreads}), one when the run cannot be split.
     * No note either way: the outputs of an automatic choice are the same on every machine.
     */
    public static Simulation assembleAutomatic(ScenarioConfig config, Model model, int processors) {
        return assemble(config, model, processors, true);
    }

    private static Simulation assemble(ScenarioConfig config, Model model, int asked, boolean automatic) {
        if (asked < 1) {
            throw new IllegalArgumentException("at least one thread: " + asked);
        }
        RandomStreams streams = new RandomStreams(config.seed());
        Topology topology = config.topology().build();
        // Random streams are by component name, so building the workload before the network draws the same values.
        Workload w = workload(config, topology, streams, true);
        long lookahead = FabricPartition.lookaheadPs(topology);
        String whyOne = asked > 1 ? oneThreadReason(config, model, w.graph(), topology) : null;
        int threads = whyOne != null ? 1
                : automatic ? automaticThreads(asked, FabricPartition.leaves(topology),
                        dataPackets(w.graph(), config.nic().mtuBytes()),
                        packetsPerWindow(w.graph(), topology, config.nic().mtuBytes(), lookahead))
                : asked;
        int parts = threads > 1 ? Math.min(threads, FabricPartition.leaves(topology)) : 1;
        // Tasks that wait for one another run partitioned only when every dependency stays in its partition.
        PartitionPlan plan = null;
        if (parts > 1 && waitsForOthers(w.graph())) {
            plan = PartitionPlan.of(w.graph(), Arrays.copyOf(FabricPartition.of(topology, parts),
                    topology.hostCount()));
            if (plan.reason() != null) {
                whyOne = "the workload's tasks wait for one another across partitions: " + plan.reason();
                threads = 1;
                parts = 1;
                plan = null;
            }
        }
        ParallelRun parallel = null;
        Simulator sim;
        if (parts > 1) {
            parallel = new ParallelRun(new PartitionedSimulator(parts, lookahead), threads, lookahead);
            sim = parallel.partitions().serial();
        } else {
            sim = new Simulator();
        }
        NetworkBuilder builder = builder(config, sim, streams);
        int[] partitionOfNode = parallel == null ? null : FabricPartition.of(topology, parts);
        if (parallel != null) {
            builder.partitioned(parallel.partitions(), partitionOfNode);
        }
        Network network = builder.build(topology);
        if (plan != null && !everyQpPlacesInOrder(network)) {
            // Out-of-order placement delivers by the sender's list of posted messages, which a lane adds to
            // mid-window on the sender's thread: the run is assembled again, on one thread.
            Simulation one = assemble(config, model, 1, false);
            if (!automatic) {
                one.threadsNote("asked for " + asked + " threads, ran on one: the workload's tasks wait for one"
                        + " another, and out-of-order placement (nic.ooo) reads each sender's posted messages at its"
                        + " receiver");
            }
            return one;
        }
        if (parallel != null && plan == null) {
            network.deferNotifications(parallel.notifications(), partitionOfNode);
        }
        TaskGraph graph = w.graph();
        List<CollectiveFlows> collectives = w.collectives();
        List<JobTasks> jobs = w.jobs();
        List<InferenceTasks> inference = w.inference();
        WorkloadDriver driver = switch (model) {
            case PACKET -> plan == null ? new WorkloadDriver(network, graph)
                    : new WorkloadDriver(network, graph, parallel.partitions(), plan, partitionOfNode);
            case FLOW -> WorkloadDriver.flowLevel(sim, graph, new EcmpFabric(network, pathTiming(network, config)),
                    network.hostCount());
            case IDEAL -> WorkloadDriver.flowLevel(sim, graph, idealNetwork(network, config), network.hostCount(),
                    w.groups().groupOfTask(), w.groups().count());
        };
        if (parallel != null) {
            parallel.driver(driver, network);
        }
        String note = automatic ? null
                : whyOne != null ? "asked for " + asked + " threads, ran on one: " + whyOne
                : parts > 1 && parts < asked ? "asked for " + asked + " threads, ran on " + parts + ": the fabric"
                        + " splits into at most " + parts + " partitions, " + perLeaf(topology)
                : null;
        Simulation made = new Simulation(config, sim, network, driver, collectives, jobs, inference, w.groups(), model,
                parallel, note, lookahead, w.parts());
        made.automaticThreads = automatic;
        return made;
    }

    /**
     * Why a run cannot be split over threads, the workload aside (null: it can). A workload whose tasks wait for one
     * another is checked after this, for the partitions the run would have ({@link PartitionPlan}): the driver hears
     * every completion and starts what waited for it at the same picosecond, so only dependencies inside a partition
     * have a lookahead. These reasons are parts of a run that read or change the whole fabric at once and are not
     * partitioned yet.
     */
    static String oneThreadReason(ScenarioConfig config, Model model, TaskGraph graph, Topology topology) {
        if (model != Model.PACKET) {
            return "only the packet level is partitioned (this run is " + model.key() + " level)";
        }
        if (!config.linkEvents().isEmpty()) {
            return "link events reroute every switch at once";
        }
        if (config.infiniband() != null && config.infiniband().smSweepPs() > 0) {
            return "the subnet manager's sweep sends on every switch at once";
        }
        if (FabricPartition.leaves(topology) < 2) {
            return topology.planes() > 1 ? "the fabric has one leaf switch per plane, and host links are not cut"
                    : "the fabric has one leaf switch, and host links are not cut";
        }
        return null;
    }

    /**
     * Whether some task of the graph waits for another (or is not a flow): then it runs partitioned only when its
     * {@link PartitionPlan} keeps every dependency inside a partition.
     */
    static boolean waitsForOthers(TaskGraph graph) {
        if (graph.lateDependencyCount() > 0) {
            return true;
        }
        for (int t = 0; t < graph.taskCount(); t++) {
            if (graph.flowIndex(t) < 0 || graph.dependencyCount(t) > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The threads an automatic choice gives a run that can be split: the machine's {@code processors}, at most one
     * per leaf ({@code leaves}: a partition is at least a leaf), at most one per
     * {@link #PACKETS_PER_WINDOW_PER_THREAD} of the data packets the hosts can send in one window, and one when the
     * run has fewer than {@link #MIN_DATA_PACKETS} data packets. Every window ends in two barriers and a serial
     * delivery of what crossed; a thread whose share of a window is a few dozen events waits more than it works.
     */
    static int automaticThreads(int processors, int leaves, long dataPackets, double packetsPerWindow) {
        if (dataPackets < MIN_DATA_PACKETS) {
            return 1;
        }
        long bySize = (long) (packetsPerWindow / PACKETS_PER_WINDOW_PER_THREAD);
        return (int) Math.max(1, Math.min(Math.min(processors, leaves), bySize));
    }

    /** The data packets of the workload's flows, in frames of {@code mtuBytes} (a message's last one may be short). */
    static long dataPackets(TaskGraph graph, int mtuBytes) {
        long packets = 0;
        int mtu = Math.max(1, mtuBytes);
        for (int f = 0; f < graph.flowCount(); f++) {
            packets += (graph.flowBytes(f) + mtu - 1) / mtu;
        }
        return packets;
    }

    /**
     * The most data packets the workload's hosts can put on the wire in one window of {@code lookaheadPs}: the
     * sending hosts' rate or the receiving hosts', whichever is less, over one window, in frames of {@code mtuBytes}.
     * An upper bound known before the run (congestion control and collisions lower what is sent: bench-B sends
     * about an eighth of it), and what a window's work grows with: about 12 events per data packet.
     */
    static double packetsPerWindow(TaskGraph graph, Topology topology, int mtuBytes, long lookaheadPs) {
        int hosts = topology.hostCount();
        boolean[] sends = new boolean[hosts];
        boolean[] receives = new boolean[hosts];
        for (int f = 0; f < graph.flowCount(); f++) {
            sends[graph.flowSource(f)] = true;
            receives[graph.flowDestination(f)] = true;
        }
        double out = 0;
        double in = 0;
        for (int h = 0; h < hosts; h++) {
            double rate = topology.hostRateBps(h);
            out += sends[h] ? rate : 0;
            in += receives[h] ? rate : 0;
        }
        return Math.min(out, in) * (lookaheadPs * 1e-12) / (8.0 * Math.max(1, mtuBytes));
    }

    /** Why this run asked for several threads and runs on one, or null. */
    public String threadsNote() {
        return threadsNote;
    }

    /** Why this run, asked to use several threads, runs on one for a reason of its caller's (such as a capture). */
    public void threadsNote(String note) {
        this.threadsNote = note;
    }

    /** The partitions this run is split into (1: not split). */
    public int partitions() {
        return parallel == null ? 1 : parallel.partitions().partitions();
    }

    /** The threads this run runs on (1: not split). */
    public int threads() {
        return parallel == null ? 1 : Math.min(parallel.threads(), partitions());
    }

    /** The partitioned engine of a parallel run (null on one thread), for its counters. */
    public PartitionedSimulator partitionedSimulator() {
        return parallel == null ? null : parallel.partitions();
    }

    /** The last event a run that completed at {@code lastFinishPs} runs: see {@link #run}. */
    static long lastEventPs(long lastFinishPs, long lookaheadPs) {
        long r = lastFinishPs + lookaheadPs - 1;
        return r < lastFinishPs ? Long.MAX_VALUE : r;
    }

    /** The scenario's fabric on {@code sim}, on one thread (shared with {@link StreamedRun}). */
    static Network network(ScenarioConfig config, Simulator sim, RandomStreams streams, Topology topology) {
        return builder(config, sim, streams).build(topology);
    }

    /** Every device of the scenario's fabric with its settings, on {@code sim}. */
    private static NetworkBuilder builder(ScenarioConfig config, Simulator sim, RandomStreams streams) {
        CongestionAlgorithm algorithm = CongestionControls.byName(config.congestion().name())
                .orElseThrow(() -> new IllegalArgumentException("unknown congestion control "
                        + config.congestion().name()));
        CongestionControlFactory cc = algorithm.factory(config.congestion());
        NetworkBuilder builder = new NetworkBuilder(sim, streams)
                .nic(config.nic())
                .switches(config.switches())
                .frames(new FrameFormat(config.vlanTagged()))
                .congestionControl(cc)
                .ecnMarking(new EcnMarkings(config.ecn()))
                .pfc(config.pfc())
                .pauseLoop(config.pauseLoop())
                .receive(config.receive())
                .notificationPoint(algorithm.notificationPoint(config.congestion(), config.cnpDscp(),
                        config.cnpPriority()))
                .devices(DevicePlans.of(config.devices(), config.vlanTagged(),
                        config.infiniband() != null));
        if (config.infiniband() != null) {
            InfinibandSettings ib = config.infiniband();
            builder.infiniband(ib.fabric()).managementSweep(ib.smSweepPs()).ecnMarking(ib.fecn() == null
                    ? EcnMarkingFactory.NONE : new FecnMarkings(ib.fecn()));
        }
        return builder;
    }

    /** Everything the scenario asks of the fabric, as one task graph, and where each part of it landed. */
    private record Workload(TaskGraph graph, List<CollectiveFlows> collectives, List<JobTasks> jobs,
            List<InferenceTasks> inference, IdealGroups groups, List<BesideIndex.Part> parts) {}

    /**
     * Which tasks run together on the ideal network: every collective traffic item, every job and every inference
     * service alone (its ideal is what it would take on an ideal network of its own, a true lower bound whatever
     * else shares the fabric), and the plain traffic (flows, incasts, ...) together in group 0.
     */
    private record IdealGroups(int[] groupOfTask, int count) {}

    /** Collects the task ranges of the workload items as they are emitted, in order. */
    private static final class GroupRanges {
        private final List<int[]> ranges = new ArrayList<>();

        void add(int from, int to) {
            ranges.add(new int[] {from, to});
        }

        IdealGroups build(int taskCount) {
            int[] group = new int[taskCount];
            for (int i = 0; i < ranges.size(); i++) {
                Arrays.fill(group, ranges.get(i)[0], ranges.get(i)[1], i + 1);
            }
            return new IdealGroups(group, ranges.size() + 1);
        }
    }

    /**
     * With {@code takeChecked}, a job that is the first thing in the graph takes the unrolling the scenario reader
     * made to check it, when that graph was built as this one would be ({@link CheckedUnrolling}): the same tasks
     * in the same order, so the same run, without unrolling tens of millions of tasks twice.
     */
    private static Workload workload(ScenarioConfig config, Topology topology, RandomStreams streams,
            boolean takeChecked) {
        TaskGraph graph = new TaskGraph();
        graph.servers(serverMap(topology));
        if (config.nvlink() != null) {
            graph.localLinks(LocalLinks.of(topology, config.nvlink().rateBps(), config.nvlink().latencyPs()));
        }
        List<CollectiveFlows> collectives = new ArrayList<>();
        List<TrafficSpec> traffic = config.traffic();
        GroupRanges groups = new GroupRanges();
        // Every item's tasks by name, in the order made: what ran beside a collective (BesideIndex).
        List<BesideIndex.Part> parts = new ArrayList<>();
        for (int i = 0; i < traffic.size(); i++) {
            int first = graph.taskCount();
            if (traffic.get(i) instanceof CollectiveTraffic c) {
                collectives.add(new CollectiveFlows(i, c, c.emit(graph)));
                groups.add(first, graph.taskCount());
            } else {
                traffic.get(i).addTo(graph, topology.hostCount(), streams.forComponent("traffic/" + i));
            }
            parts.add(new BesideIndex.Part("traffic item " + (i + 1), first, graph.taskCount()));
        }
        List<JobTasks> jobs = new ArrayList<>();
        for (JobSpec job : config.jobs()) {
            int first = graph.taskCount();
            CheckedUnrolling.Kept kept = takeChecked && first == 0 && traffic.isEmpty()
                    ? CheckedUnrolling.take(job) : null;
            if (kept != null && builtAlike(kept.graph(), graph, topology.hostCount())) {
                // The emission reads the local links only for which transfers stay in a server: the same map.
                kept.graph().localLinks(graph.localLinks());
                graph = kept.graph();
                jobs.add(kept.tasks());
            } else {
                jobs.add(JobEmitter.emit(graph, job));
            }
            groups.add(first, graph.taskCount());
            parts.add(new BesideIndex.Part("job " + job.name(), first, graph.taskCount()));
        }
        List<InferenceTasks> inference = new ArrayList<>();
        for (InferenceSpec service : config.inference()) {
            int first = graph.taskCount();
            inference.add(InferenceEmitter.emit(graph, service, streams.forComponent("inference/" + service.name())));
            groups.add(first, graph.taskCount());
            parts.add(new BesideIndex.Part("inference service " + service.name(), first, graph.taskCount()));
        }
        return new Workload(graph, collectives, jobs, inference, groups.build(graph.taskCount()), parts);
    }

    /** Whether two graphs place hosts in the same servers and have NVLink between the same hosts, or both none. */
    private static boolean builtAlike(TaskGraph a, TaskGraph b, int hosts) {
        for (int h = 0; h <= hosts; h++) {
            if (a.serverOf(h) != b.serverOf(h)) {
                return false;
            }
        }
        if (a.localLinks() == null || b.localLinks() == null) {
            return a.localLinks() == b.localLinks();
        }
        return Arrays.equals(a.localLinks().serverOfHost(), b.localLinks().serverOfHost());
    }

    /**
     * The task graph of the scenario's whole workload (traffic, jobs, inference) on a topology, as a run builds it:
     * its flows are every transfer that crosses the fabric (NVLink transfers are not flows). It leaves the reader's
     * unrolling of a job for the run.
     */
    public static TaskGraph workloadGraph(ScenarioConfig config, Topology topology) {
        return workload(config, topology, new RandomStreams(config.seed()), false).graph();
    }

    /** The server of every host of a topology. */
    public static int[] serverMap(Topology topology) {
        int[] servers = new int[topology.hostCount()];
        for (int h = 0; h < servers.length; h++) {
            servers[h] = topology.serverOf(h);
        }
        return servers;
    }

    public Simulator simulator() {
        return sim;
    }

    public Network network() {
        return network;
    }

    /** The tasks of each collective traffic item, in traffic order. */
    public List<CollectiveTraffic.Emitted> collectiveTasks() {
        return collectives.stream().map(CollectiveFlows::tasks).toList();
    }

    public WorkloadDriver driver() {
        return driver;
    }

    public ScenarioConfig config() {
        return config;
    }

    public Model model() {
        return model;
    }

    /** The jobs' tasks in the graph (tests: their group bounds). */
    List<JobTasks> jobTasks() {
        return jobs;
    }

    /**
     * The bounds of the same task graph on the ideal network, after {@link #run} (null when the scenario has nothing
     * an ideal figure is reported for: no collectives, jobs or inference, and not the ideal model);
     * {@link #idealRun()} makes them anyway.
     */
    public IdealBound idealBound() {
        return idealBound;
    }

    /**
     * Whether {@link #run} makes the ideal figures on a thread of their own while it goes (when nothing the run
     * writes is read by them: see {@link #idealOnSecondCore}) or after it; by default when the machine has two cores
     * or more. The figures are the same either way (tests).
     */
    void secondCore(boolean aside) {
        secondCore = aside;
    }

    /** Whether the last {@link #run} made its ideal figures on a second thread (tests). */
    boolean madeAside() {
        return madeAside;
    }

    /** The task graph's bounds on the ideal network, made now, whatever the scenario reports. */
    public IdealBound idealRun() {
        return runIdeal();
    }

    /** The PFC frame log (null when PFC is off). */
    public PfcLog pfcLog() {
        return pfcLog;
    }

    /** InfiniBand at packet level: the waits for credits and their roots (null otherwise). */
    public CreditLog creditLog() {
        return creditLog;
    }

    /** Packet level with switches that hash among equal-cost ports: the ECMP collisions (null otherwise). */
    public EcmpLog ecmpLog() {
        return ecmpLog;
    }

    /**
     * Every credit update names what its buffer held, and every wait for credits goes to the credit log: in a parallel
     * run through each partition's notes, taken after each window.
     */
    private void attachCreditLog(ParallelRun parallel) {
        network.traceCreditRoots();
        int hosts = network.hostCount();
        CreditProbe[] byPartition = new CreditProbe[partitions()];
        for (int p = 0; parallel != null && p < byPartition.length; p++) {
            byPartition[p] = creditLog.forPartition(parallel.partitions().partition(p));
        }
        for (int s = 0; s < network.switchCount(); s++) {
            network.switchAt(s).creditProbe(parallel == null ? creditLog
                    : byPartition[network.simulatorOf(hosts + s).partition()]);
        }
        for (int h = 0; h < hosts; h++) {
            network.nic(h).creditProbe(parallel == null ? creditLog : byPartition[network.simulatorOf(h).partition()]);
        }
        if (parallel != null) {
            parallel.creditLog(creditLog);
        }
    }

    /**
     * Runs the event loop to simulated time {@code endPs} on the run's threads (its partitions when it has several),
     * and nothing else: no records, no outputs. For benchmarks that time a window of a run, the same on one thread
     * and on several ({@code rocelab.bench.ScaleProfile --until-us}).
     */
    public void runLoopUntil(long endPs) {
        if (parallel != null) {
            parallel.runUntil(endPs);
        } else {
            sim.runUntil(endPs);
        }
    }

    /** Events run so far, by every partition when there are several. */
    public long eventsProcessed() {
        return events();
    }

    /**
     * Runs until every flow has finished, the scenario's stop time, or a stall, and collects the result. A stall is
     * a stretch of simulated time in which no RNIC sent or received a data packet although flows remain (for
     * example a PFC deadlock, whose pause refreshes would otherwise keep the run alive forever): at least 1 s and
     * three local ACK timeouts, so a legitimate wait for a timeout is not mistaken for one. A stall with a cycle of
     * paused queues is reported as a PFC deadlock, with the cycle: in a lossless fabric the search runs once no data
     * has moved for 1 ms, so a deadlock ends the run before the RNICs' retries give up on it.
     */
    public RunResult run(ProgressListener progress) {
        if (model == Model.IDEAL) {
            return runIdealOnly();
        }
        long startNanos = System.nanoTime();
        Aside<IdealFigures> aside = idealOnSecondCore();
        madeAside = aside != null;
        Ended ended;
        try {
            ended = loop(startNanos, progress);
        } catch (InexactSplitException e) {
            startOver(e);
            aside = idealOnSecondCore();
            madeAside = aside != null;
            ended = loop(startNanos, progress);
        }
        Aside<IdealFigures> early = aside;
        String stopReason = ended.stopReason();
        List<String> deadlock = ended.deadlock();
        long deadlockSincePs = ended.deadlockSincePs();
        settlePauses();
        // What only the loop read is not held through the figures' join and the outputs (a bound still to be made
        // makes the dependents again).
        driver.releaseRunState();
        // Nor the pool's free packets, as many as were ever in flight at once (a large lossless run's: hundreds of
        // megabytes), which the records and outputs need the room of.
        network.dropFreePackets();
        // Nor the calendars' arrays and handler tables, sized for the run's peak of pending events (the 1,024-host
        // all-to-all's: 63 MB); what is still pending would only have expired.
        if (parallel != null) {
            parallel.partitions().endRun();
        } else {
            sim.endRun();
        }
        progress.onPhase("loop");
        // What needs only the run is made now, while the ideal figures may still be in the making on the second core:
        // the jobs' account of the run and their timeline, and the flow records. The jobs' ideal account is made on a
        // thread of its own as soon as the figures are there, beside the run's when they come early.
        JobShape shape = jobs.isEmpty() ? null : JobShape.of(jobs, driver.graph(), jobParts());
        Aside<JobAccount> idealJobs = early != null && shape != null
                ? new Aside<>("rocelab-ideal-jobs", () -> JobAccount.of(shape, early.join().bound())) : null;
        JobAccount realJobs = shape == null ? null : JobAccount.of(shape, driver);
        JobTimeline timeline = realJobs == null ? null : new JobTimeline(realJobs);
        List<TimelineRecord> timelineRecords = timeline == null ? List.of() : timeline.timeline();
        GpuTimeline gpuTimeline = gpuTimeline(timeline, driver);
        if (gpuTimeline != null) {
            gpuTimeline.render();
        }
        List<FlowRecord> flows = flowRecords(driver);
        if (driver.allFinished()) {
            stopReason = RunResult.endedReason(flows.stream().filter(FlowRecord::completed).count(),
                    flows.stream().filter(FlowRecord::failed).count());
        }
        // A run that ended with nothing left to happen ends at its last event, not at the end of the check window
        // the clock went on to (its goodput is over the time it ran).
        long endPs = driver.allFinished() ? driver.lastFinishPs() : "no-events".equals(stopReason)
                ? Math.min(lastEventPs(), config.stopAtPs()) : Math.min(nowPs(), config.stopAtPs());
        if (series != null) {
            series.finish(endPs);
        }
        progress.onFlowRecords(flows, pfcLog, creditLog, ecmpLog, endPs, model == Model.PACKET);
        progress.onPhase("run's records");
        long[][] fromEntries = null;
        if (early != null && callWalks != null) {
            // Rather than wait for the figures, walk the jobs' ends and calls that their thread has not claimed yet.
            callWalks.help();
            // And bound each call from its members' entries in the run, which needs only the bound of every task:
            // the figures' thread, meanwhile, bounds the jobs' ends and iterations.
            IdealBound bound = realJobs == null ? null : callWalks.awaitBound();
            if (bound != null) {
                fromEntries = JobResults.idealFromEntries(jobs, realJobs.times, bound);
            }
        }
        IdealFigures figures = early != null ? early.join() : reportsIdeal() ? idealFigures() : null;
        progress.onPhase("ideal figures wait");
        IdealBound ideal = figures == null ? null : figures.bound();
        idealBound = ideal;
        JobAccount idealAccount = idealJobs != null ? idealJobs.join() : shape == null ? null : JobAccount.of(shape, ideal);
        JobResults jobResults = shape == null ? null
                : new JobResults(realJobs, idealAccount, ideal, figures.jobs(), fromEntries);
        // What else of the workload ran on each call's, job's and request's RNICs (only when it has more than one item).
        BesideIndex beside = parts.size() < 2 ? null : new BesideIndex(driver, parts, network.hostCount(), endPs);
        // And, for a call inside one server, what else of the workload moved over its GPUs' NVLink.
        nvlinkBeside = parts.size() < 2 || model == Model.IDEAL || driver.graph().nvlinkTransferCount() == 0 ? null
                : new BesideIndex(driver, parts, network.hostCount(), endPs, true);
        // And what else crossed each call's switch ports while its own data did (packet level: the switches' routes).
        // Not with link events: the paths are the switches' routes at the end, which those changed during the run.
        LinkBesideIndex linksBeside = parts.size() < 2 || model != Model.PACKET || !config.linkEvents().isEmpty()
                || collectives.isEmpty() && jobs.isEmpty() ? null : new LinkBesideIndex(driver, network, parts, endPs);
        InferenceResults served = new InferenceResults(inference, driver, ideal, beside,
                config.traffic().size() + config.jobs().size(), endPs);
        List<CollectiveRecord> calls = collectives(driver, figures, jobResults, beside, linksBeside, endPs);
        List<JobRecord> jobRecords = jobResults == null ? List.of() : new SlowestTransfers(driver, jobs,
                config.traffic().size()).of(withBeside(
                jobResults.jobRecords(), beside, endPs), this::overNvlinkOnly, flows, calls, beside, linksBeside,
                endPs);
        double wallSeconds = (System.nanoTime() - startNanos) / 1e9;
        return new RunResult(config.name(), config.seed(), config.mode().key(),
                Version.CURRENT, scenarioHash(),
                endPs, wallSeconds, events(), driver.allFinished(), stopReason, deadlock, deadlockSincePs,
                flows, calls, FabricTotals.of(network), network,
                series, pfcLog, creditLog, ecmpLog,
                jobRecords,
                jobResults == null ? List.of() : jobResults.rankRecords(), served.requests(), served.calls(),
                served.serviceRecords(), timelineRecords, model.key(), gpuTimeline, threadsNote, null, notModelled(),
                driver.graph().nvlinkTransferCount(), driver.graph().nvlinkTransferBytes(),
                JobTransfers.of(jobs, driver, flows));
    }

    /** How the event loop ended: why, and the cycle of a deadlock with when data last moved (-1: none). */
    private record Ended(String stopReason, List<String> deadlock, long deadlockSincePs) {}

    /**
     * The event loop: runs until every task has finished, the stop time, a deadlock or a stall. A partitioned run
     * whose checks between windows find it inexact throws {@link InexactSplitException} from here.
     */
    private Ended loop(long startNanos, ProgressListener progress) {
        long ackTimeout = config.nic().ackTimeoutPs();
        long stallLimitPs = ackTimeout == Long.MAX_VALUE ? STALL_PS : Math.max(STALL_PS, 3 * ackTimeout);
        long lastActivity = dataActivity();
        long lastActivityPs = 0;
        String stopReason = null;
        List<String> deadlock = List.of();
        long deadlockSincePs = -1;
        // A cycle that a PFC watchdog on one of its queues will break: the run goes on for it until then, however long
        // the watchdog's detection takes (past the stall limit too), and looks for a cycle again once data moves.
        boolean watchedCycle = false;
        long watchdogDeadlinePs = -1;
        boolean more = driver.taskCount() > 0;
        while (more && !driver.allFinished()) {
            // A window starts at the next event: idle time (a flow that starts at 1000 s) costs no loop turns.
            long next = nextEventPs() == Long.MAX_VALUE ? nowPs() : Math.max(nowPs(), nextEventPs());
            long windowEnd = Math.min(config.stopAtPs(), satAdd(next, CHECK_WINDOW_PS));
            runTo(windowEnd, startNanos, progress);
            more = nextEventPs() != Long.MAX_VALUE && !driver.allFinished();
            long activity = dataActivity();
            if (activity != lastActivity) {
                lastActivity = activity;
                lastActivityPs = nowPs();
                watchedCycle = false;
            } else if (more && driver.flowsInFlight() > 0) {
                long still = nowPs() - lastActivityPs;
                if ((pfcLog != null || creditLog != null) && still >= DEADLOCK_CHECK_PS && !watchedCycle
                        && (deadlock.isEmpty() || watchdogDeadlinePs >= 0)) {
                    PauseCycles.Cycle cycle = PauseCycles.find(network);
                    if (!cycle.isEmpty()) {
                        if (deadlock.isEmpty()) {
                            deadlock = cycle.queues();
                            deadlockSincePs = lastActivityPs;
                        }
                        if (cycle.watched()) {
                            watchedCycle = true;
                            watchdogDeadlinePs = nowPs() + cycle.watchdogActsWithinPs();
                        } else {
                            deadlock = cycle.queues();
                            deadlockSincePs = lastActivityPs;
                            stopReason = "deadlock";
                            more = false;
                        }
                    }
                }
                if (more && still >= stallLimitPs && nowPs() > watchdogDeadlinePs) {
                    stopReason = "stalled";
                    more = false;
                }
            }
            if (more && (nowPs() >= config.stopAtPs() || nextEventAfterStop())) {
                if (nowPs() < config.stopAtPs()) {
                    // Nothing happens before the stop time (a flow with no route waits; a timer lies beyond it): the
                    // run still lasts to the stop time, as its stop reason says.
                    runTo(config.stopAtPs(), startNanos, progress);
                }
                stopReason = "stop-at";
                more = false;
            }
            progress.onProgress(progress(System.nanoTime() - startNanos));
        }
        if (driver.allFinished()) {
            // The run goes on to the end of the lookahead after the last task's end (every event before the last
            // end plus the lookahead): a parallel run has run its window to there, and one thread does the same, so
            // both end on the same events.
            runTo(Math.min(config.stopAtPs(), lastEventPs(driver.lastFinishPs(), lookaheadPs)), startNanos, progress);
            stopReason = "completed";
        } else if (stopReason == null) {
            stopReason = "no-events";
        }
        return new Ended(stopReason, deadlock, deadlockSincePs);
    }

    /**
     * A checked parallel run ({@link PartitionPlan#checked()}) found that a task of one partition was last waiting
     * for a completion in another, inside one window: the partitions could not keep one thread's order. Nothing of
     * it is kept: the scenario is assembled again on one thread, whose parts replace this run's, and the note says
     * so (the outputs are one thread's, as always).
     */
    private void startOver(InexactSplitException e) {
        int threads = threads();
        // The partitioned run's parts are dropped before the new ones are made.
        sim = null;
        network = null;
        driver = null;
        series = null;
        pfcLog = null;
        creditLog = null;
        ecmpLog = null;
        parallel = null;
        Simulation one = assemble(config, model, 1, false);
        sim = one.sim;
        network = one.network;
        driver = one.driver;
        series = one.series;
        pfcLog = one.pfcLog;
        creditLog = one.creditLog;
        ecmpLog = one.ecmpLog;
        collectives = one.collectives;
        jobs = one.jobs;
        inference = one.inference;
        idealGroups = one.idealGroups;
        startedOver = "ran again on one thread after starting on " + threads + ": " + e.getMessage() + " (such a"
                + " dependency is checked between windows; here it was its task's last wait, which only one thread"
                + " keeps exact)";
        if (!automaticThreads) {
            threadsNote = "asked for " + threads + " threads, ran on one: " + e.getMessage() + ", so the split run"
                    + " was not exact and was run again";
        }
    }

    /**
     * How a fabric's partitions are counted, for the note of a run asked for more threads: a multi-plane fabric has
     * a leaf per plane for the same hosts, which stay together ("one per leaf switch" counted each plane's).
     */
    private static String perLeaf(Topology topology) {
        return topology.planes() > 1
                ? "one per leaf switch of a plane (a host's leaves on its " + topology.planes() + " planes stay together:"
                        + " host links are not cut)"
                : "one per leaf switch (host links are not cut)";
    }

    /** Why the run was run again on one thread after it began on several, or null. */
    public String startedOver() {
        return startedOver;
    }

    /**
     * The run's end: pauses still in force count as paused time so far, and the waits behind them are told (a run
     * that ends in a PFC deadlock or a pause storm, or at its stop time, ends paused); on InfiniBand, so are the waits
     * for credits still open (a credit-loop deadlock, a stop time in a stall). A parallel run's devices note
     * into their partitions' captures, which take notes only in a window: the log takes these at once.
     */
    private void settlePauses() {
        if (creditLog != null && parallel != null) {
            for (int s = 0; s < network.switchCount(); s++) {
                network.switchAt(s).creditProbe(creditLog);
            }
            for (int h = 0; h < network.hostCount(); h++) {
                network.nic(h).creditProbe(creditLog);
            }
        }
        if (ecmpLog != null && parallel != null) {
            for (int s = 0; s < network.switchCount(); s++) {
                network.switchAt(s).ecmpProbe(ecmpLog);
            }
        }
        if (pfcLog != null && parallel != null) {
            for (int s = 0; s < network.switchCount(); s++) {
                network.switchAt(s).pfcProbe(pfcLog);
            }
            for (int h = 0; h < network.hostCount(); h++) {
                network.nic(h).pfcProbe(pfcLog);
            }
        }
        network.settlePauses(nowPs());
        // The partitions' notes are all replayed and no more are written: their arrays are the outputs' room.
        if (pfcLog != null) {
            pfcLog.trimNotes();
        }
        if (creditLog != null) {
            creditLog.trimNotes();
        }
        if (ecmpLog != null) {
            ecmpLog.trimNotes();
        }
    }

    /**
     * Runs every event at or before {@code endPs}, or until the workload has finished: on one thread in batches
     * (progress between them), or in windows on the partitions' threads.
     */
    private void runTo(long endPs, long startNanos, ProgressListener progress) {
        if (parallel != null) {
            parallel.runUntil(endPs);
            return;
        }
        while (true) {
            boolean more = sim.run(endPs, BATCH_EVENTS);
            network.trimIdlePackets(sim.nowPs());
            if (driver.allFinished()) {
                return;
            }
            if (!more) {
                sim.runUntil(endPs); // nothing left: the clock moves to the end, as the partitions' do
                return;
            }
            if (sim.calendar().firstTimePs() > endPs) {
                return;
            }
            progress.onProgress(progress(System.nanoTime() - startNanos));
        }
    }

    private long lastEventPs() {
        return parallel == null ? sim.lastEventPs() : parallel.partitions().lastEventPs();
    }

    private long nowPs() {
        return parallel == null ? sim.nowPs() : parallel.partitions().nowPs();
    }

    private long events() {
        return parallel == null ? sim.eventsProcessed() : parallel.partitions().eventsProcessed();
    }

    /**
     * What this run's model leaves out: nothing at packet level (null); at flow level also the switches' scheduler
     * when the workload's flows are in more than one traffic class (as the first switch maps their DSCPs); and, by
     * name, what the scenario asks for that only the packet level acts on (its pause-storm faults; the ideal network
     * also its link events), so a run without them never reads as a run of them.
     */
    private String notModelled() {
        if (model == Model.PACKET) {
            return null;
        }
        StringBuilder s = new StringBuilder(RunResult.notModelled(network.isInfiniband(), model == Model.IDEAL));
        if (model == Model.IDEAL) {
            // Which of this fabric's links are the slow ones the note speaks of, by name.
            String slow = IdealSlowLinksText.links(IdealSlowLinks.of(network.topology()));
            if (!slow.isEmpty()) {
                s.append("; this fabric's slow links, in the ideal as in the run: ").append(slow);
            }
        }
        if (model == Model.FLOW && splitsFlows()) {
            s.append(RunResult.REORDERING_NOT_MODELLED);
        }
        if (model == Model.FLOW && network.switchCount() > 0) {
            TaskGraph graph = driver.graph();
            var sw = network.switchAt(0);
            int classes = 0;
            for (int f = 0; f < graph.flowCount() && Integer.bitCount(classes) < 2; f++) {
                int dscp = graph.flowDscp(f);
                if (dscp < 0) {
                    dscp = network.nic(graph.flowSource(f)).parameters().dataDscp();
                }
                classes |= 1 << sw.trafficClass(dscp);
            }
            if (Integer.bitCount(classes) > 1) {
                s.append(RunResult.SCHEDULER_NOT_MODELLED);
            }
        }
        if (!config.faults().isEmpty()) {
            s.append(RunResult.faultsNotModelled(config.faults().size()));
        }
        if (model == Model.IDEAL && !config.linkEvents().isEmpty()) {
            s.append(RunResult.linkEventsNotModelled(config.linkEvents().size()));
        }
        if (model == Model.IDEAL) {
            s.append(RunResult.IDEAL_BOUNDS);
        }
        return s.toString();
    }

    /** Whether a switch or the RNICs send one QP's packets down several paths (what lint L18 looks at). */
    private boolean splitsFlows() {
        for (int i = 0; i < network.switchCount(); i++) {
            if (network.switchAt(i).loadBalancing() != LoadBalancing.ECMP) {
                return true;
            }
        }
        Topology t = network.topology();
        return t.planes() > 1 && t.planeSelection() == PlaneSelection.SPRAY;
    }

    /**
     * The jobs' items among {@link #parts} (after the traffic items, in the jobs' order): each job's own tasks, whose
     * transfers alone are its GPUs' communication ({@link JobShape}).
     */
    List<BesideIndex.Part> jobParts() {
        int first = config.traffic().size();
        return parts.subList(first, first + jobs.size());
    }

    /** The earliest pending event, Long.MAX_VALUE when none. */
    private long nextEventPs() {
        return sim.runFirstEventPs();
    }

    /**
     * The ideal model ({@code --ideal}): no run, every figure the ideal network's bound ({@link IdealBound}); the
     * workload's end is the bound of its last completion.
     */
    private RunResult runIdealOnly() {
        long startNanos = System.nanoTime();
        IdealFigures figures = idealFigures();
        IdealBound ideal = figures.bound();
        idealBound = ideal;
        // The run is the bound: one account of the jobs serves as both.
        JobAccount account = jobs.isEmpty() ? null
                : JobAccount.of(JobShape.of(jobs, ideal.graph(), jobParts()), ideal);
        JobResults jobResults = account == null ? null : new JobResults(account, null, ideal, figures.jobs());
        JobTimeline timeline = account == null ? null : new JobTimeline(account);
        InferenceResults served = new InferenceResults(inference, ideal, ideal);
        double wallSeconds = (System.nanoTime() - startNanos) / 1e9;
        List<FlowRecord> flows = flowRecords(ideal);
        return new RunResult(config.name(), config.seed(), "ideal-network", Version.CURRENT, scenarioHash(),
                ideal.lastFinishPs(), wallSeconds, 0, true, "completed", List.of(), -1, flows,
                collectives(ideal, figures, jobResults, null, null, -1), FabricTotals.of(network), network, series, pfcLog,
                null, null,
                jobResults == null ? List.of() : jobResults.jobRecords(),
                jobResults == null ? List.of() : jobResults.rankRecords(), served.requests(), served.calls(),
                served.serviceRecords(), timeline == null ? List.of() : timeline.timeline(), model.key(),
                gpuTimeline(timeline, ideal), threadsNote, null, notModelled(),
                driver.graph().nvlinkTransferCount(), driver.graph().nvlinkTransferBytes(),
                JobTransfers.of(jobs, ideal, flows));
    }

    /**
     * The GPUs' timelines of the jobs and inference services in the account {@code times} (the run's; the ideal
     * bound's in the ideal model), or null when the run has neither.
     */
    private GpuTimeline gpuTimeline(JobTimeline jobTimeline, TaskTimes times) {
        if (jobTimeline == null && inference.isEmpty()) {
            return null;
        }
        var t = new GpuTimeline();
        if (jobTimeline != null) {
            jobTimeline.timeline(t);
        }
        // The services' timeline reads the run's times only: no ideal bound is needed for it.
        new InferenceResults(inference, times, null).timeline(t);
        return t;
    }

    /** Where the run stands: bytes delivered of the workload's bytes, tasks done of its tasks. */
    private RunProgress progress(long wallNanos) {
        long done = 0;
        if (model != Model.PACKET) {
            // Flow level: no RNIC counts bytes; a flow's bytes are there when it is delivered.
            done = driver.deliveredBytes();
        } else {
            for (int h = 0; h < network.hostCount(); h++) {
                done += network.nic(h).counter(NicCounter.RX_DELIVERED_BYTES);
            }
        }
        // A partitioned run's clock stands at its window's end, up to a lookahead past the events it ran: the time
        // reached is told as the result will tell it (the last task's end once all ended, never past the stop time).
        long reachedPs = driver.allFinished() ? driver.lastFinishPs() : Math.min(nowPs(), config.stopAtPs());
        return new RunProgress(reachedPs, events(), wallNanos, done, workloadBytes,
                driver.finishedCount(), driver.taskCount());
    }

    /** Flows started plus data packets sent and received: it stands still only when nothing moves anywhere. */
    private long dataActivity() {
        long n = driver.startedCount() + driver.fluid().departures();
        for (int h = 0; h < network.hostCount(); h++) {
            n += network.nic(h).counter(NicCounter.TX_DATA_PACKETS) + network.nic(h).counter(NicCounter.RX_DATA_PACKETS);
        }
        return n;
    }

    private static long satAdd(long a, long b) {
        long r = a + b;
        return r < a ? Long.MAX_VALUE : r;
    }

    private boolean nextEventAfterStop() {
        return nextEventPs() != Long.MAX_VALUE && nextEventPs() > config.stopAtPs();
    }

    /**
     * The bounds of the same task graph on the ideal network ({@link IdealNetwork}'s capacities: each RNIC's egress
     * and ingress and each GPU's NVLink ports, a non-blocking fabric between; {@link IdealBound}: each message at
     * its closed form along its dependencies, and the work of the ports), each workload item alone. One pass over
     * the tasks: no packets, no events.
     */
    private IdealBound runIdeal() {
        return runIdeal(idealNetwork(network, config));
    }

    private IdealBound runIdeal(IdealNetwork idealNetwork) {
        return runIdeal(idealNetwork, driver.dependents());
    }

    /** With the driver's dependents (taken before the run releases them; null: the bound makes its own). */
    private IdealBound runIdeal(IdealNetwork idealNetwork, Dependents dependents) {
        return new IdealBound(driver.graph(), idealNetwork, network.hostCount(), idealGroups.groupOfTask(),
                dependents, iterationEnds(jobs));
    }

    /**
     * A job's iteration ends are walked (below) when its ranks times its tasks are at most this: each rank's walk
     * goes over about one iteration's tasks, some 140 ns each here, so at most about 2 s for the whole job.
     */
    static final long ITERATION_END_WALKS = 1L << 24;

    /**
     * Each job's iteration ends, each rank's, for the bound to walk back to the iteration before in its pass
     * ({@link IdealBound.OwnEnds}): so each iteration starts from a bound that counts its ranks' ports. Not for a job
     * whose walks would cost more than {@link #ITERATION_END_WALKS} task visits (its bound stays a bound, only looser
     * where its ranks' streams share ports): a 256-rank data-parallel job of six iterations took 28 s of walks.
     */
    static List<IdealBound.OwnEnds> iterationEnds(List<JobTasks> jobs) {
        List<IdealBound.OwnEnds> out = new ArrayList<>();
        for (JobTasks jt : jobs) {
            int[][] ends = jt.ends();
            if (walkVisits(jt) > ITERATION_END_WALKS) {
                continue;
            }
            for (int k = 0; k < ends.length; k++) {
                out.add(new IdealBound.OwnEnds(ends[k], k == 0 ? new int[0] : ends[k - 1]));
            }
        }
        return out;
    }

    /** The task visits of a job's iteration-end walks: its ranks times the span of its task ids. */
    private static long walkVisits(JobTasks jt) {
        int low = Integer.MAX_VALUE;
        int high = -1;
        for (int[] g : jt.gates()) {
            for (int t : g) {
                low = Math.min(low, t);
            }
        }
        for (int[] e : jt.ends()) {
            for (int t : e) {
                high = Math.max(high, t);
            }
        }
        return high < low ? 0 : (long) jt.job().layout().size() * (high - low + 1);
    }

    /** Whether an output reports an ideal figure of the run: a collective, a job or an inference service. */
    private boolean reportsIdeal() {
        return !(collectives.isEmpty() && jobs.isEmpty() && inference.isEmpty());
    }

    /** The ideal bound and the group bounds the outputs report ({@link IdealFigures}), made now. */
    private IdealFigures idealFigures() {
        return idealFigures(idealNetwork(network, config));
    }

    private IdealFigures idealFigures(IdealNetwork idealNetwork) {
        return idealFigures(idealNetwork, driver.dependents());
    }

    private IdealFigures idealFigures(IdealNetwork idealNetwork, Dependents dependents) {
        return idealFigures(idealNetwork, dependents, new CallWalks(jobs, CallWalks.CHUNK, model == Model.IDEAL));
    }

    private IdealFigures idealFigures(IdealNetwork idealNetwork, Dependents dependents, CallWalks calls) {
        List<int[]> done = new ArrayList<>();
        int[] first = new int[collectives.size()];
        for (int i = 0; i < collectives.size(); i++) {
            CollectiveTraffic.Emitted e = collectives.get(i).tasks();
            done.add(e.done()[e.done().length - 1]);
            first[i] = e.firstTask();
        }
        return IdealFigures.make(() -> runIdeal(idealNetwork, dependents), done, first, jobs, calls);
    }

    /**
     * The ideal figures started on a thread of their own, to be joined after the run, or null to make them after it
     * on this thread. They read the task graph and the switches' routes, which a run on one thread without link
     * events never writes (a streamed graph retires its tasks, and link events reroute); the figures are the same
     * either way, so this only decides where their time goes: on the second core, beside the event loop.
     */
    private Aside<IdealFigures> idealOnSecondCore() {
        boolean cores = secondCore != null ? secondCore : Runtime.getRuntime().availableProcessors() >= 2;
        if (!cores || !reportsIdeal() || parallel != null || !config.linkEvents().isEmpty()
                || driver.graph().isStreamed()) {
            return null;
        }
        IdealNetwork idealNetwork = idealNetwork(network, config);
        Dependents dependents = driver.dependents();
        CallWalks calls = new CallWalks(jobs, CallWalks.CHUNK, model == Model.IDEAL);
        callWalks = calls;
        return new Aside<>("rocelab-ideal-bound", () -> idealFigures(idealNetwork, dependents, calls));
    }

    /** The jobs' calls of the figures being made on their own thread, which main helps walk instead of waiting. */
    private CallWalks callWalks;

    /** Whether no RNIC places out of order (a QP does when both its ends have {@code nic.ooo}). */
    static boolean everyQpPlacesInOrder(Network network) {
        for (int h = 0; h < network.hostCount(); h++) {
            if (network.nic(h) != null && network.nic(h).parameters().ooo()) {
                return false;
            }
        }
        return true;
    }

    static PathTiming pathTiming(Network network, ScenarioConfig config) {
        return new PathTiming(network.frames(), config.nic().mtuBytes(), config.switches().forwardingLatencyPs(),
                everyQpPlacesOutOfOrder(network), network.telemetryHeaderBytes());
    }

    /**
     * Whether every RNIC has {@code nic.ooo}, so every QP places out of order and every data frame carries a RETH.
     * With only some, the closed forms count the RETH on a message's first frame only: still a lower bound.
     */
    static boolean everyQpPlacesOutOfOrder(Network network) {
        for (int h = 0; h < network.hostCount(); h++) {
            if (network.nic(h) == null || !network.nic(h).parameters().ooo()) {
                return false;
            }
        }
        return network.hostCount() > 0;
    }

    static IdealNetwork idealNetwork(Network network, ScenarioConfig config) {
        return new IdealNetwork(network, pathTiming(network, config));
    }

    /**
     * The run's collectives; {@code beside} (null: none, as in the ideal model, whose spans are bounds each of its own,
     * not one run) tells what else of the workload ran on each call's RNICs, a call still under way at the run's end
     * ({@code endPs}) counted to there.
     */
    private List<CollectiveRecord> collectives(TaskTimes real, IdealFigures ideal, JobResults jobResults,
            BesideIndex beside, LinkBesideIndex linksBeside, long endPs) {
        List<CollectiveRecord> out = new ArrayList<>(ideal == null ? List.of()
                : collectiveRecords(real, ideal.bound(), ideal.collectiveEndPs(), beside, linksBeside, endPs));
        if (jobResults != null) {
            List<CollectiveRecord> calls = jobResults.collectiveRecords();
            if (model == Model.PACKET && !jobs.isEmpty()) {
                // Each call's flows' time held back by their rates (the packet level's measure).
                int k = 0;
                for (JobTasks jt : jobs) {
                    for (JobTasks.Call c : jt.calls()) {
                        calls.set(k, calls.get(k).withRateHeldShare(rateHeldShare(real, c.firstTask(), c.endTask(),
                                endPs)));
                        k++;
                    }
                }
            }
            if (beside != null && !jobs.isEmpty()) {
                // The job's records in its calls' order, jobs in order: each call with its hosts.
                int k = 0;
                for (int j = 0; j < jobs.size(); j++) {
                    int own = config.traffic().size() + j;
                    for (JobTasks.Call c : jobs.get(j).calls()) {
                        CollectiveRecord r = calls.get(k);
                        int[] hosts = hostsOf(c.call());
                        // A call inside one server moves its data over NVLink, not through its RNICs: what shared
                        // its GPUs' NVLink is beside it; one that never started ran beside nothing.
                        if (r.startPs() < 0) {
                            k++;
                            continue;
                        }
                        long to = r.completed() ? r.endPs() : endPs;
                        if (overNvlinkOnly(hosts)) {
                            if (nvlinkBeside != null) {
                                calls.set(k, r.withBeside(nvlinkBeside.of(own, hosts, r.startPs(), to)));
                            }
                            k++;
                            continue;
                        }
                        r = r.withBeside(beside.of(own, hosts, r.startPs(), to));
                        if (linksBeside != null) {
                            r = r.withOnLinks(linksBeside.of(own, c.firstTask(), c.endTask(), r.startPs(), to));
                        }
                        calls.set(k++, r);
                    }
                }
            }
            out.addAll(calls);
        }
        return out;
    }

    /** Whether a call over these hosts stays on NVLink: the scenario has NVLink and they are GPUs of one server. */
    private boolean overNvlinkOnly(int[] hosts) {
        TaskGraph g = driver.graph();
        if (g.localLinks() == null) {
            return false;
        }
        for (int h : hosts) {
            if (g.serverOf(h) != g.serverOf(hosts[0])) {
                return false;
            }
        }
        return true;
    }

    /** The jobs' records, each with the workload's other items that had flows on its ranks' RNICs while it ran. */
    private List<JobRecord> withBeside(List<JobRecord> records, BesideIndex beside, long endPs) {
        if (beside == null) {
            return records;
        }
        List<JobRecord> out = new ArrayList<>(records.size());
        for (int j = 0; j < records.size(); j++) {
            JobRecord r = records.get(j);
            int[] hosts = Arrays.stream(jobs.get(j).job().layout().hosts()).distinct().toArray();
            out.add(r.withBeside(beside.of(config.traffic().size() + j, hosts, r.startPs(),
                    r.completed() ? r.endPs() : endPs)));
        }
        return out;
    }

    /** What else of the workload moved over the NVLink of a call inside one server (null: nothing to tell). */
    private BesideIndex nvlinkBeside;

    /** The distinct hosts of a call's ranks. */
    static int[] hostsOf(Collective call) {
        int[] hosts = new int[call.rankCount()];
        for (int r = 0; r < hosts.length; r++) {
            hosts[r] = call.host(r);
        }
        return Arrays.stream(hosts).distinct().toArray();
    }

    /** Each collective from its first post until every rank's part of its last run was done. */
    private List<CollectiveRecord> collectiveRecords(TaskTimes real, IdealBound ideal, long[] idealEndPs,
            BesideIndex beside, LinkBesideIndex linksBeside, long endPs) {
        List<CollectiveRecord> out = new ArrayList<>();
        for (int i = 0; i < collectives.size(); i++) {
            CollectiveFlows c = collectives.get(i);
            CollectiveTraffic.Emitted e = c.tasks();
            long start = Long.MAX_VALUE;
            for (int t = e.firstTask(); t < e.endTask(); t++) {
                // Its first transfer, over the fabric or NVLink (a hierarchical collective starts inside a server).
                boolean transfer = real.graph().flowIndex(t) >= 0
                        || real.graph().kind(t) == TaskGraph.Kind.NVLINK;
                if (transfer && real.taskStartPs(t) >= 0) {
                    start = Math.min(start, real.taskStartPs(t));
                }
            }
            long end = 0;
            boolean done = true;
            for (int t : e.done()[e.done().length - 1]) {
                done &= real.taskEndPs(t) >= 0;
                end = Math.max(end, real.taskEndPs(t));
            }
            var call = c.spec().call();
            long idealStart = c.spec().startPs();
            long idealEnd = idealEndPs[i];
            if (real == ideal) {
                // The ideal model: the collective's own time is its bound too.
                end = Math.max(end, idealEnd);
            }
            long from = start == Long.MAX_VALUE ? c.spec().startPs() : start;
            out.add(new CollectiveRecord("", "traffic item " + (c.item() + 1), call.op().key() + " "
                    + call.algorithm().key(), call.rankCount(), call.sizeBytes(), from, end, done,
                    call.op().busFactor(call.rankCount()), idealEnd < 0 ? -1 : idealEnd - idealStart, -1,
                    c.spec().iterations(), CollectiveRecord.Concurrent.NONE,
                    real == ideal ? Double.NaN : rateHeldShare(real, e.firstTask(), e.endTask(), endPs))
                    .withBeside(overNvlinkOnly(hostsOf(call))
                            ? nvlinkBeside == null || real == ideal ? CollectiveRecord.Beside.NONE
                                    : nvlinkBeside.of(c.item(), hostsOf(call), from, done ? end : endPs)
                            : beside == null ? CollectiveRecord.Beside.NONE
                            : beside.of(c.item(), hostsOf(call), from, done ? end : endPs))
                    .withOnLinks(linksBeside == null || real == ideal || overNvlinkOnly(hostsOf(call))
                            ? CollectiveRecord.OnLinks.NONE
                            : linksBeside.of(c.item(), e.firstTask(), e.endTask(), from, done ? end : endPs)));
        }
        return out;
    }

    /**
     * The share of a collective's flows' time their congestion control's rate held back (flows.csv rate_held_us
     * summed over their lives summed: a completed flow's FCT, an unfinished one's time from its post to the run's end,
     * to which its rate_held_us runs too), its flows being the flow tasks in [{@code firstTask}, {@code endTask});
     * NaN where the model does not know it (flow level) or no flow of the call was posted. Read from the driver, not
     * the flow records: a record computes its flow's time alone on an idle fabric, which a job's every call would
     * pay for.
     */
    private double rateHeldShare(TaskTimes real, int firstTask, int endTask, long endPs) {
        if (model != Model.PACKET) {
            return Double.NaN;
        }
        TaskGraph g = real.graph();
        long held = 0;
        long fct = 0;
        for (int t = firstTask; t < endTask; t++) {
            int f = g.flowIndex(t);
            if (f < 0) {
                continue;
            }
            long start = real.taskStartPs(t) >= 0 ? real.taskStartPs(t) : g.flowStartPs(f);
            long finish = real.completedPs(f);
            long life = finish >= 0 ? finish - start : real.taskStartPs(t) >= 0 && start < endPs ? endPs - start : -1;
            long rateHeld = driver.rateHeldPs(f, endPs);
            if (life > 0 && rateHeld >= 0) {
                held += rateHeld;
                fct += life;
            }
        }
        return fct > 0 ? (double) held / fct : Double.NaN;
    }

    /**
     * Every flow's record from {@code times} (the run's, or the ideal network's bounds in the ideal model), as a view
     * over the driver's arrays: a record is made when it is read, so a run of millions of flows does not hold an
     * object per flow while its outputs are written (the time alone on an idle fabric, which walks the flow's path,
     * is computed here, once per flow or per repeated (source, destination, size)).
     */
    private List<FlowRecord> flowRecords(TaskTimes times) {
        IdealFlowTime ideal = new IdealFlowTime(network, pathTiming(network, config));
        TaskGraph g = driver.graph();
        int n = driver.flowCount();
        return new FlowRecordView(driver, times, network, IdealFcts.of(ideal, g, n));
    }

    /**
     * The flows of a finished run as records, made on each read from the driver's state and the task times, which no
     * longer change: the output writers read it from several threads.
     */
    private static final class FlowRecordView extends FlowRecordList {
        private final WorkloadDriver driver;
        private final TaskTimes times;
        private final long[] idealFct;
        /**
         * Flow level: the entropy (UDP source port) of each QP id, made here once per QP: flows on one connection share
         * a QP, and its entropy is drawn from a random stream made from the QP's name (a string and a hash each
         * time). QP ids are below the flow count (one per connection or flow, numbered in flow order).
         */
        private final int[] entropyOfQp;
        /** InfiniBand: no UDP header, so no UDP source port in the records. */
        private final boolean infiniband;
        /** The run's end: an unfinished flow's rate-held time counts to there. */
        private final long endPs;

        FlowRecordView(WorkloadDriver driver, TaskTimes times, Network network, long[] idealFct) {
            this.endPs = network.simulator().nowPs();
            this.infiniband = network.isInfiniband();
            this.driver = driver;
            this.times = times;
            this.idealFct = idealFct;
            this.entropyOfQp = driver.flowLevel() ? new int[idealFct.length] : null;
            for (int i = 0; entropyOfQp != null && i < idealFct.length; i++) {
                int qp = driver.flowLevelQueuePair(i);
                if (qp >= 0 && entropyOfQp[qp] == 0) {
                    entropyOfQp[qp] = network.entropy(qp); // 0xC000 or more: 0 is never an entropy
                }
            }
        }

        @Override
        public int size() {
            return idealFct.length;
        }

        @Override
        public FlowRecord get(int i) {
            Objects.checkIndex(i, idealFct.length);
            TaskGraph g = driver.graph();
            int task = g.flowTask(i);
            // A flow a failure kept from being posted has no start (not its earliest one: it never got there).
            FlowRecord.NotPosted why = !driver.failedUnposted(i) ? FlowRecord.NotPosted.NO
                    : driver.failedBy(task) == WorkloadDriver.OWN_QUEUE_PAIR
                            ? FlowRecord.NotPosted.QUEUE_PAIR_FAILED_FIRST : FlowRecord.NotPosted.WAITED_ON_FAILURE;
            boolean notPosted = why != FlowRecord.NotPosted.NO;
            long started = times.taskStartPs(task) >= 0 ? times.taskStartPs(task) : notPosted ? -1 : g.flowStartPs(i);
            // Flow level: the QP the packet level would open for the flow, and the UDP source port it hashes with.
            var queuePair = driver.queuePair(i);
            int qp = queuePair != null ? queuePair.id() : driver.flowLevelQueuePair(i);
            int entropy = queuePair != null ? queuePair.entropy() : qp >= 0 ? entropyOfQp[qp] : -1;
            long[] recovery = driver.recovery(i);
            // A completed flow delivered all its bytes, whatever model ran it: the ideal network's bounds complete
            // flows the driver never sent, so its count of delivered bytes was 0 for them (an audit).
            // InfiniBand packets have no UDP header: the QP's entropy only stands in for the path a subnet would give
            // it (a switch forwards by the destination LID), so the record has no UDP source port.
            return new FlowRecord(i, g.flowSource(i), g.flowDestination(i), g.flowBytes(i), started,
                    times.taskEndPs(task), times.completedPs(i), idealFct[i], driver.failed(i) && !notPosted, qp,
                    infiniband ? FlowRecord.NO_UDP_SOURCE_PORT : entropy, driver.rateHeldPs(i, endPs), why,
                    recovery == null ? -1 : recovery[0], recovery == null ? -1 : recovery[1],
                    driver.qpWaitPs(i, endPs), times.completedPs(i) >= 0 ? g.flowBytes(i)
                            : driver.flowDeliveredBytes(i));
        }

        @Override
        public long[] notificationSources(int id) {
            Objects.checkIndex(id, idealFct.length);
            return driver.notificationSources(id);
        }
    }

    /** SHA-256 of the resolved scenario and the effective seed. */
    public String scenarioHash() {
        return scenarioHash(config);
    }

    /** SHA-256 of a resolved scenario and its effective seed, as manifest.json records it. */
    public static String scenarioHash(ScenarioConfig config) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(config.canonicalText().getBytes(StandardCharsets.UTF_8));
            d.update(("\nseed=" + config.seed()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
