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
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.sample.TimeSeriesSampler;
import rocelab.workload.traffic.FlowDriver;
import rocelab.workload.traffic.FlowSpec;
import rocelab.workload.traffic.TrafficSpec;

/** One simulation of a scenario: assembles the fabric and the traffic, runs it, and collects the result. */
public final class Simulation {
    /** Events between progress reports and wall-clock checks. */
    private static final long BATCH_EVENTS = 1 << 20;

    private final ScenarioConfig config;
    private final Simulator sim;
    private final Network network;
    private final FlowDriver driver;
    private final TimeSeriesSampler series;
    private final PfcLog pfcLog;

    private Simulation(ScenarioConfig config, Simulator sim, Network network, FlowDriver driver) {
        this.config = config;
        this.sim = sim;
        this.network = network;
        this.driver = driver;
        this.series = config.sampleIntervalPs() > 0 ? new TimeSeriesSampler(network, config.sampleIntervalPs()) : null;
        this.pfcLog = config.pfc().enabled() ? new PfcLog(network) : null;
        if (pfcLog != null) {
            for (int s = 0; s < network.switchCount(); s++) {
                network.switchAt(s).pfcProbe(pfcLog);
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
        Network network = new NetworkBuilder(sim, streams)
                .nic(config.nic())
                .switches(config.switches())
                .frames(new FrameFormat(config.vlanTagged()))
                .congestionControl(cc)
                .ecnMarking(new EcnMarkings(config.ecn()))
                .pfc(config.pfc())
                .notificationPoint(algorithm.notificationPoint(config.congestion(), config.cnpDscp(),
                        config.cnpPriority()))
                .build(topology);
        List<FlowSpec> flows = new ArrayList<>();
        List<TrafficSpec> traffic = config.traffic();
        for (int i = 0; i < traffic.size(); i++) {
            flows.addAll(traffic.get(i).expand(topology.hostCount(), streams.forComponent("traffic/" + i)));
        }
        return new Simulation(config, sim, network, new FlowDriver(network, flows));
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

    /** Runs until every flow has finished (or the scenario's stop time) and collects the result. */
    public RunResult run(ProgressListener progress) {
        long startNanos = System.nanoTime();
        boolean more = driver.flowCount() > 0;
        while (more && !driver.allFinished()) {
            more = sim.run(config.stopAtPs(), BATCH_EVENTS) && sim.nowPs() <= config.stopAtPs()
                    && !driver.allFinished();
            if (more && nextEventAfterStop()) {
                more = false;
            }
            progress.onProgress(sim.nowPs(), sim.eventsProcessed(), System.nanoTime() - startNanos,
                    driver.finishedCount(), driver.flowCount());
        }
        double wallSeconds = (System.nanoTime() - startNanos) / 1e9;
        long endPs = driver.allFinished() ? driver.lastFinishPs() : Math.min(sim.nowPs(), config.stopAtPs());
        return new RunResult(config.name(), config.seed(), config.mode().key(), Version.CURRENT, scenarioHash(),
                endPs, wallSeconds, sim.eventsProcessed(), driver.allFinished(), flowRecords(),
                FabricTotals.of(network), network, series, pfcLog);
    }

    private boolean nextEventAfterStop() {
        return !sim.calendar().isEmpty() && sim.calendar().firstTimePs() > config.stopAtPs();
    }

    private List<FlowRecord> flowRecords() {
        IdealFlowTime ideal = new IdealFlowTime(network, config.nic(), config.switches().forwardingLatencyPs());
        List<FlowRecord> out = new ArrayList<>(driver.flowCount());
        for (int i = 0; i < driver.flowCount(); i++) {
            FlowSpec f = driver.flow(i);
            out.add(new FlowRecord(i, f.src(), f.dst(), f.sizeBytes(), f.startPs(), driver.deliveredPs(i),
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
