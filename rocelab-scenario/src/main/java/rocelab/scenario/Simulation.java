package rocelab.scenario;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.CongestionControls;
import rocelab.congestion.ecn.EcnMarkings;
import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.NetworkBuilder;
import rocelab.fabric.network.LinkEventDriver;
import rocelab.fabric.network.PauseCycles;
import rocelab.fabric.nic.PauseStormFault;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.sample.TimeSeriesSampler;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.workload.graph.IdealTransfers;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.inference.InferenceEmitter;
import rocelab.workload.inference.InferenceSpec;
import rocelab.workload.inference.InferenceTasks;
import rocelab.workload.job.JobEmitter;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.JobTasks;
import rocelab.workload.graph.WorkloadDriver;
import rocelab.workload.traffic.CollectiveTraffic;
import rocelab.workload.traffic.FlowSpec;
import rocelab.workload.traffic.TrafficSpec;

/** One simulation of a scenario: assembles the fabric and the traffic, runs it, and collects the result. */
public final class Simulation {
    /** Events between progress reports and wall-clock checks. */
    private static final long BATCH_EVENTS = 1 << 20;
    /** Simulated time between checks for a stall. */
    private static final long CHECK_WINDOW_PS = 1_000_000_000L;
    /** No data movement for this long in a lossless fabric prompts a search for a cycle of paused queues. */
    private static final long DEADLOCK_CHECK_PS = 1_000_000_000L;
    /** Shortest stretch without any data movement that counts as a stall. */
    private static final long STALL_PS = 1_000_000_000_000L;

    private final ScenarioConfig config;
    private final Simulator sim;
    private final Network network;
    private final WorkloadDriver driver;
    private final TimeSeriesSampler series;
    private final PfcLog pfcLog;

    /** A collective of the traffic list and the tasks it expanded into. */
    private record CollectiveFlows(int item, CollectiveTraffic spec, CollectiveTraffic.Emitted tasks) {}

    private final List<CollectiveFlows> collectives;
    private final List<JobTasks> jobs;
    private final List<InferenceTasks> inference;
    private final boolean idealOnly;
    /** Payload bytes of every flow of the workload, for the progress display. */
    private final long workloadBytes;

    private Simulation(ScenarioConfig config, Simulator sim, Network network, WorkloadDriver driver,
            List<CollectiveFlows> collectives, List<JobTasks> jobs, List<InferenceTasks> inference,
            boolean idealOnly) {
        this.idealOnly = idealOnly;
        long bytes = 0;
        for (int i = 0; i < driver.flowCount(); i++) {
            bytes += driver.flow(i).sizeBytes();
        }
        this.workloadBytes = bytes;
        this.inference = List.copyOf(inference);
        this.collectives = List.copyOf(collectives);
        this.jobs = List.copyOf(jobs);
        this.config = config;
        this.sim = sim;
        this.network = network;
        this.driver = driver;
        this.series = config.sampleIntervalPs() > 0 ? new TimeSeriesSampler(network, config.sampleIntervalPs()) : null;
        this.pfcLog = config.pfc().enabled() ? new PfcLog(network) : null;
        if (!config.linkEvents().isEmpty()) {
            new LinkEventDriver(network, config.linkEvents());
        }
        for (PauseStormFault f : config.faults()) {
            network.nic(f.host()).schedulePauseStorm(f.startPs(), f.startPs() + f.durationPs(), f.priority());
        }
        if (pfcLog != null) {
            for (int s = 0; s < network.switchCount(); s++) {
                network.switchAt(s).pfcProbe(pfcLog);
            }
            for (int h = 0; h < network.hostCount(); h++) {
                network.nic(h).pfcProbe(pfcLog);
            }
        }
    }

    public static Simulation assemble(ScenarioConfig config) {
        return assemble(config, false);
    }

    /**
     * Assembles the run; with {@code idealOnly} the workload runs only in ideal-network mode (no packets: every
     * message takes its closed-form time), a quick best case for a workload too large to simulate packet by packet.
     */
    public static Simulation assemble(ScenarioConfig config, boolean idealOnly) {
        Simulator sim = new Simulator();
        RandomStreams streams = new RandomStreams(config.seed());
        Topology topology = config.topology().build();
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
                .receive(config.receive())
                .notificationPoint(algorithm.notificationPoint(config.congestion(), config.cnpDscp(),
                        config.cnpPriority()))
                .devices(rocelab.scenario.device.DevicePlans.of(config.devices(), config.vlanTagged()));
        if (config.infiniband() != null) {
            InfinibandSettings ib = config.infiniband();
            builder.infiniband(ib.fabric()).managementSweep(ib.smSweepPs()).ecnMarking(ib.fecn() == null
                    ? rocelab.fabric.congestion.EcnMarkingFactory.NONE : new rocelab.congestion.ibcc.FecnMarkings(ib.fecn()));
        }
        Network network = builder.build(topology);
        Workload w = workload(config, topology, streams);
        TaskGraph graph = w.graph();
        List<CollectiveFlows> collectives = w.collectives();
        List<JobTasks> jobs = w.jobs();
        List<InferenceTasks> inference = w.inference();
        WorkloadDriver driver = idealOnly
                ? WorkloadDriver.ideal(sim, graph, idealTransfers(network, config), network.hostCount())
                : new WorkloadDriver(network, graph);
        return new Simulation(config, sim, network, driver, collectives, jobs, inference, idealOnly);
    }

    /** Everything the scenario asks of the fabric, as one task graph, and where each part of it landed. */
    private record Workload(TaskGraph graph, List<CollectiveFlows> collectives, List<JobTasks> jobs,
            List<InferenceTasks> inference) {}

    private static Workload workload(ScenarioConfig config, Topology topology, RandomStreams streams) {
        TaskGraph graph = new TaskGraph();
        graph.servers(serverMap(topology));
        if (config.nvlink() != null) {
            graph.localLinks(LocalLinks.of(topology, config.nvlink().rateBps(), config.nvlink().latencyPs()));
        }
        List<CollectiveFlows> collectives = new ArrayList<>();
        List<TrafficSpec> traffic = config.traffic();
        for (int i = 0; i < traffic.size(); i++) {
            if (traffic.get(i) instanceof CollectiveTraffic c) {
                collectives.add(new CollectiveFlows(i, c, c.emit(graph)));
            } else {
                traffic.get(i).addTo(graph, topology.hostCount(), streams.forComponent("traffic/" + i));
            }
        }
        List<JobTasks> jobs = new ArrayList<>();
        for (JobSpec job : config.jobs()) {
            jobs.add(JobEmitter.emit(graph, job));
        }
        List<InferenceTasks> inference = new ArrayList<>();
        for (InferenceSpec service : config.inference()) {
            inference.add(InferenceEmitter.emit(graph, service, streams.forComponent("inference/" + service.name())));
        }
        return new Workload(graph, collectives, jobs, inference);
    }

    /**
     * The task graph of the scenario's whole workload (traffic, jobs, inference) on a topology, as a run builds it:
     * its flows are every transfer that crosses the fabric (NVLink transfers are not flows).
     */
    public static TaskGraph workloadGraph(ScenarioConfig config, Topology topology) {
        return workload(config, topology, new RandomStreams(config.seed())).graph();
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

    /** The PFC frame log (null when PFC is off). */
    public PfcLog pfcLog() {
        return pfcLog;
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
        long startNanos = System.nanoTime();
        long ackTimeout = config.nic().ackTimeoutPs();
        long stallLimitPs = ackTimeout == Long.MAX_VALUE ? STALL_PS : Math.max(STALL_PS, 3 * ackTimeout);
        long lastActivity = dataActivity();
        long lastActivityPs = 0;
        String stopReason = null;
        List<String> deadlock = List.of();
        long deadlockSincePs = -1;
        boolean more = driver.taskCount() > 0;
        while (more && !driver.allFinished()) {
            // A window starts at the next event: idle time (a flow that starts at 1000 s) costs no loop turns.
            long next = sim.calendar().isEmpty() ? sim.nowPs() : Math.max(sim.nowPs(), sim.calendar().firstTimePs());
            long windowEnd = Math.min(config.stopAtPs(), satAdd(next, CHECK_WINDOW_PS));
            more = sim.run(windowEnd, BATCH_EVENTS) && !driver.allFinished();
            long activity = dataActivity();
            if (activity != lastActivity) {
                lastActivity = activity;
                lastActivityPs = sim.nowPs();
            } else if (more && driver.flowsInFlight() > 0) {
                long still = sim.nowPs() - lastActivityPs;
                if (config.pfc().enabled() && still >= DEADLOCK_CHECK_PS && deadlock.isEmpty()) {
                    deadlock = PauseCycles.find(network);
                    if (!deadlock.isEmpty()) {
                        deadlockSincePs = lastActivityPs;
                        stopReason = "deadlock";
                        more = false;
                    }
                }
                if (more && still >= stallLimitPs) {
                    stopReason = "stalled";
                    more = false;
                }
            }
            if (more && (sim.nowPs() >= config.stopAtPs() || nextEventAfterStop())) {
                stopReason = "stop-at";
                more = false;
            }
            progress.onProgress(progress(System.nanoTime() - startNanos));
        }
        if (driver.allFinished()) {
            stopReason = "completed";
        } else if (stopReason == null) {
            stopReason = "no-events";
        }
        WorkloadDriver ideal = idealOnly ? driver
                : collectives.isEmpty() && jobs.isEmpty() && inference.isEmpty() ? null : runIdeal();
        JobResults jobResults = jobs.isEmpty() ? null : new JobResults(jobs, driver, ideal);
        InferenceResults served = new InferenceResults(inference, driver, ideal);
        double wallSeconds = (System.nanoTime() - startNanos) / 1e9;
        long endPs = driver.allFinished() ? driver.lastFinishPs() : Math.min(sim.nowPs(), config.stopAtPs());
        return new RunResult(config.name(), config.seed(), idealOnly ? "ideal-network" : config.mode().key(),
                Version.CURRENT, scenarioHash(),
                endPs, wallSeconds, sim.eventsProcessed(), driver.allFinished(), stopReason, deadlock, deadlockSincePs,
                flowRecords(), collectives(ideal, jobResults), FabricTotals.of(network), network, series, pfcLog,
                jobResults == null ? List.of() : jobResults.jobRecords(),
                jobResults == null ? List.of() : jobResults.rankRecords(), served.requests(), served.calls(),
                jobResults == null ? List.of() : jobResults.timeline(), gpuTimeline(jobResults, served));
    }

    /** The GPUs' timelines of the jobs and inference services, or null when the run has neither. */
    private rocelab.observe.trace.GpuTimeline gpuTimeline(JobResults jobResults, InferenceResults served) {
        if (jobResults == null && inference.isEmpty()) {
            return null;
        }
        var t = new rocelab.observe.trace.GpuTimeline();
        if (jobResults != null) {
            jobResults.timeline(t);
        }
        served.timeline(t);
        return t;
    }

    /** Where the run stands: bytes delivered of the workload's bytes, tasks done of its tasks. */
    private RunProgress progress(long wallNanos) {
        long done = 0;
        if (idealOnly) {
            for (int i = 0; i < driver.flowCount(); i++) {
                if (driver.deliveredPs(i) >= 0) {
                    done += driver.flow(i).sizeBytes();
                }
            }
        } else {
            for (int h = 0; h < network.hostCount(); h++) {
                done += network.nic(h).counter(NicCounter.RX_DELIVERED_BYTES);
            }
        }
        return new RunProgress(sim.nowPs(), sim.eventsProcessed(), wallNanos, done, workloadBytes,
                driver.finishedCount(), driver.taskCount());
    }

    /** Flows started plus data packets sent and received: it stands still only when nothing moves anywhere. */
    private long dataActivity() {
        long n = driver.startedCount();
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
        return !sim.calendar().isEmpty() && sim.calendar().firstTimePs() > config.stopAtPs();
    }

    /**
     * The same task graph in ideal-network mode: every RNIC sends its messages one after the other at line rate
     * and each arrives after its path's fixed latency. Cheap: no packets.
     */
    private WorkloadDriver runIdeal() {
        Simulator idealSim = new Simulator();
        WorkloadDriver d = WorkloadDriver.ideal(idealSim, driver.graph(), idealTransfers(network, config),
                network.hostCount());
        idealSim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        return d;
    }

    private static IdealTransfers idealTransfers(Network network, ScenarioConfig config) {
        IdealFlowTime closed = new IdealFlowTime(network, config.nic(), config.switches().forwardingLatencyPs());
        return new IdealTransfers() {
            @Override
            public long senderBusyPs(int src, int dst, long bytes) {
                return closed.senderBusyPs(src, dst, bytes);
            }

            @Override
            public long deliveryPs(int src, int dst, long bytes) {
                return closed.deliveryPs(src, dst, bytes);
            }

            @Override
            public long acknowledgedPs(int src, int dst, long bytes) {
                return closed.fctPs(src, dst, bytes);
            }
        };
    }

    private List<CollectiveRecord> collectives(WorkloadDriver ideal, JobResults jobResults) {
        List<CollectiveRecord> out = new ArrayList<>(collectiveRecords(ideal));
        if (jobResults != null) {
            out.addAll(jobResults.collectiveRecords());
        }
        return out;
    }

    /** Each collective from its first post until every rank's part of its last run was done. */
    private List<CollectiveRecord> collectiveRecords(WorkloadDriver ideal) {
        List<CollectiveRecord> out = new ArrayList<>();
        for (CollectiveFlows c : collectives) {
            CollectiveTraffic.Emitted e = c.tasks();
            long start = Long.MAX_VALUE;
            for (int t = e.firstTask(); t < e.endTask(); t++) {
                if (driver.graph().flowIndex(t) >= 0 && driver.taskStartPs(t) >= 0) {
                    start = Math.min(start, driver.taskStartPs(t));
                }
            }
            long end = 0;
            boolean done = true;
            for (int t : e.done()[e.done().length - 1]) {
                done &= driver.taskEndPs(t) >= 0;
                end = Math.max(end, driver.taskEndPs(t));
            }
            var call = c.spec().call();
            long idealStart = c.spec().startPs();
            long idealEnd = JobResults.latest(ideal, e.done()[e.done().length - 1]);
            out.add(new CollectiveRecord("", "traffic item " + (c.item() + 1), call.op().key() + " "
                    + call.algorithm().key(), call.rankCount(), call.sizeBytes(),
                    start == Long.MAX_VALUE ? c.spec().startPs() : start, end, done,
                    call.op().busFactor(call.rankCount()), idealEnd < 0 ? -1 : idealEnd - idealStart));
        }
        return out;
    }

    private List<FlowRecord> flowRecords() {
        IdealFlowTime ideal = new IdealFlowTime(network, config.nic(), config.switches().forwardingLatencyPs());
        List<FlowRecord> out = new ArrayList<>(driver.flowCount());
        for (int i = 0; i < driver.flowCount(); i++) {
            FlowSpec f = driver.flow(i);
            long started = driver.startedPs(i) >= 0 ? driver.startedPs(i) : f.startPs();
            out.add(new FlowRecord(i, f.src(), f.dst(), f.sizeBytes(), started, driver.deliveredPs(i),
                    driver.completedPs(i), ideal.fctPs(f.src(), f.dst(), f.sizeBytes()), driver.failed(i),
                    driver.queuePair(i) == null ? -1 : driver.queuePair(i).id(),
                    driver.queuePair(i) == null ? -1 : driver.queuePair(i).entropy()));
        }
        return out;
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
