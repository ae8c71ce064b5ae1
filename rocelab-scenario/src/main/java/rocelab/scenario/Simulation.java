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
import rocelab.workload.traffic.DscpTraffic;
import rocelab.workload.traffic.FlowDriver;
import rocelab.workload.traffic.RingCollectiveTraffic;
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
    private final FlowDriver driver;
    private final TimeSeriesSampler series;
    private final PfcLog pfcLog;

    /** A collective of the traffic list and the run of flows it expanded into. */
    private record CollectiveFlows(int item, RingCollectiveTraffic spec, int firstFlow, int flowCount) {}

    private final List<CollectiveFlows> collectives;

    private Simulation(ScenarioConfig config, Simulator sim, Network network, FlowDriver driver,
            List<CollectiveFlows> collectives) {
        this.collectives = List.copyOf(collectives);
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
                        config.cnpPriority()));
        if (config.infiniband() != null) {
            InfinibandSettings ib = config.infiniband();
            builder.infiniband(ib.fabric()).managementSweep(ib.smSweepPs()).ecnMarking(ib.fecn() == null
                    ? rocelab.fabric.congestion.EcnMarkingFactory.NONE : new rocelab.congestion.ibcc.FecnMarkings(ib.fecn()));
        }
        Network network = builder.build(topology);
        List<FlowSpec> flows = new ArrayList<>();
        List<CollectiveFlows> collectives = new ArrayList<>();
        List<TrafficSpec> traffic = config.traffic();
        for (int i = 0; i < traffic.size(); i++) {
            int base = flows.size();
            for (FlowSpec f : traffic.get(i).expand(topology.hostCount(), streams.forComponent("traffic/" + i))) {
                flows.add(f.shifted(base));
            }
            TrafficSpec t = traffic.get(i) instanceof DscpTraffic d ? d.inner() : traffic.get(i);
            if (t instanceof RingCollectiveTraffic ring) {
                collectives.add(new CollectiveFlows(i, ring, base, flows.size() - base));
            }
        }
        return new Simulation(config, sim, network, new FlowDriver(network, flows), collectives);
    }

    public Simulator simulator() {
        return sim;
    }

    public Network network() {
        return network;
    }

    public FlowDriver driver() {
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
        boolean more = driver.flowCount() > 0;
        while (more && !driver.allFinished()) {
            long windowEnd = Math.min(config.stopAtPs(), satAdd(sim.nowPs(), CHECK_WINDOW_PS));
            more = sim.run(windowEnd, BATCH_EVENTS) && !driver.allFinished();
            long activity = dataActivity();
            if (activity != lastActivity) {
                lastActivity = activity;
                lastActivityPs = sim.nowPs();
            } else if (more && driver.startedCount() > driver.finishedCount()) {
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
            progress.onProgress(sim.nowPs(), sim.eventsProcessed(), System.nanoTime() - startNanos,
                    driver.finishedCount(), driver.flowCount());
        }
        if (driver.allFinished()) {
            stopReason = "completed";
        } else if (stopReason == null) {
            stopReason = "no-events";
        }
        double wallSeconds = (System.nanoTime() - startNanos) / 1e9;
        long endPs = driver.allFinished() ? driver.lastFinishPs() : Math.min(sim.nowPs(), config.stopAtPs());
        return new RunResult(config.name(), config.seed(), config.mode().key(), Version.CURRENT, scenarioHash(),
                endPs, wallSeconds, sim.eventsProcessed(), driver.allFinished(), stopReason, deadlock, deadlockSincePs,
                flowRecords(), collectiveRecords(),
                FabricTotals.of(network), network, series, pfcLog);
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

    /** Each collective from its first post to its last delivery. */
    private List<CollectiveRecord> collectiveRecords() {
        List<CollectiveRecord> out = new ArrayList<>();
        for (CollectiveFlows c : collectives) {
            RingCollectiveTraffic a = c.spec();
            long start = Long.MAX_VALUE;
            long end = 0;
            boolean done = true;
            for (int f = c.firstFlow(); f < c.firstFlow() + c.flowCount(); f++) {
                if (driver.startedPs(f) >= 0) {
                    start = Math.min(start, driver.startedPs(f));
                }
                done &= driver.deliveredPs(f) >= 0;
                end = Math.max(end, driver.deliveredPs(f));
            }
            out.add(new CollectiveRecord("traffic item " + (c.item() + 1), a.op().key() + " ring", a.ranks().length,
                    a.sizeBytes(), start == Long.MAX_VALUE ? a.startPs() : start, end, done,
                    a.op().busFactor(a.ranks().length)));
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
                    driver.queuePair(i).id(), driver.queuePair(i).entropy()));
        }
        return out;
    }

    /** SHA-256 of the resolved scenario and the effective seed. */
    public String scenarioHash() {
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
