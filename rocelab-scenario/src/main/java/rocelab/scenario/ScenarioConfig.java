package rocelab.scenario;

import java.nio.file.Path;
import java.util.List;
import rocelab.congestion.CcSettings;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.network.LinkEvent;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.PauseStormFault;
import rocelab.fabric.nic.ReceiveParameters;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.TopologySpec;
import rocelab.scenario.device.Devices;
import rocelab.workload.graph.NvlinkParameters;
import rocelab.workload.inference.InferenceSpec;
import rocelab.workload.job.JobSpec;
import rocelab.workload.traffic.TrafficSpec;

/**
 * A resolved scenario: every value parsed, unit-converted and validated. It only composes the parameter records
 * that live next to the models they configure.
 *
 * @param name scenario name (names the default output folder)
 * @param seed master seed of all random streams
 * @param mode fabric mode
 * @param vlanTagged whether RoCE frames carry an 802.1Q tag (4 bytes more on the wire)
 * @param topology the topology shape
 * @param switches settings shared by every switch
 * @param pfc priority flow control of the switches (off in roce-lossy)
 * @param ecn ECN marking at switch egress queues
 * @param nic settings shared by every RNIC (includes the MTU)
 * @param receive the RNICs' receive pipeline
 * @param congestion the sender's congestion control, its profile and overrides
 * @param cnpDscp DSCP of congestion notification packets
 * @param cnpPriority 802.1p priority of congestion notification packets
 * @param traffic traffic patterns, expanded in order
 * @param faults faults to inject (pause storms)
 * @param linkEvents link failures and recoveries
 * @param stopAtPs simulated time at which the run stops even if flows remain ({@code Long.MAX_VALUE}: never)
 * @param sampleIntervalPs interval of the rate and queue time series (0: none)
 * @param source the scenario file, or {@code null} for the built-in demo
 * @param canonicalText a canonical rendering of the resolved scenario, hashed into the manifest
 * @param jobs AI jobs (layouts and programs) running next to the traffic
 * @param nvlink the scale-up links between GPUs of one server, or null when every transfer crosses the fabric
 * @param inference request-driven inference services running next to the traffic and jobs
 * @param devices every switch's and RNIC's own settings ({@code switch}/{@code nic} with the per-device
 *     overrides applied); {@code switches}, {@code pfc}, {@code ecn} and {@code nic} above are the uniform defaults
 * @param infiniband virtual lanes, credits and FECN marking in infiniband mode; null in the RoCE modes
 * @param flowsOutput how the run reports its flows: a row per flow, or aggregated from a streamed run
 */
public record ScenarioConfig(
        String name,
        long seed,
        FabricMode mode,
        boolean vlanTagged,
        TopologySpec topology,
        SwitchParameters switches,
        PfcParameters pfc,
        EcnParameters ecn,
        NicParameters nic,
        ReceiveParameters receive,
        CcSettings congestion,
        int cnpDscp,
        int cnpPriority,
        List<TrafficSpec> traffic,
        List<PauseStormFault> faults,
        List<LinkEvent> linkEvents,
        long stopAtPs,
        long sampleIntervalPs,
        Path source,
        String canonicalText,
        List<JobSpec> jobs,
        NvlinkParameters nvlink,
        List<InferenceSpec> inference,
        Devices devices,
        InfinibandSettings infiniband,
        FlowsOutput flowsOutput) {

    public ScenarioConfig {
        inference = List.copyOf(inference);
        traffic = List.copyOf(traffic);
        jobs = List.copyOf(jobs);
        faults = List.copyOf(faults);
        linkEvents = List.copyOf(linkEvents);
    }

    /**
     * The delays between every switch port and its peer as the simulator applies them (forwarding latency, pause
     * response times): what auto headroom, the lint and the fabric all use.
     */
    public PauseLoop pauseLoop() {
        return new PauseLoop(switches.forwardingLatencyPs(), pfc.pauseResponsePs(),
                nic.pauseResponsePs());
    }

    /** Default interval of the rate and queue time series. */
    public static final long DEFAULT_SAMPLE_INTERVAL_PS = 10_000_000L;

    /** The same scenario with another seed (the CLI's {@code --seed}). */
    public ScenarioConfig withSeed(long newSeed) {
        return new ScenarioConfig(name, newSeed, mode, vlanTagged, topology, switches, pfc, ecn, nic, receive, congestion, cnpDscp,
                cnpPriority, traffic, faults, linkEvents, stopAtPs, sampleIntervalPs, source, canonicalText, jobs, nvlink, inference,
                devices, infiniband, flowsOutput);
    }

    /**
     * The same fabric with other traffic and no {@code run.stop-at} (that belonged to the old traffic), as
     * {@code rocelab nccl-tests} uses it.
     */
    public ScenarioConfig withTraffic(List<TrafficSpec> newTraffic) {
        return new ScenarioConfig(name, seed, mode, vlanTagged, topology, switches, pfc, ecn, nic, receive, congestion,
                cnpDscp, cnpPriority, newTraffic, faults, linkEvents, Long.MAX_VALUE, sampleIntervalPs, source,
                canonicalText, List.of(), nvlink, List.of(), devices, infiniband, flowsOutput);
    }
}
