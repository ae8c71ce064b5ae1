package rocelab.scenario;

import java.nio.file.Path;
import java.util.List;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.TopologySpec;
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
 * @param nic settings shared by every RNIC (includes the MTU)
 * @param congestionControl name of the sender's congestion control ({@code none})
 * @param traffic traffic patterns, expanded in order
 * @param stopAtPs simulated time at which the run stops even if flows remain ({@code Long.MAX_VALUE}: never)
 * @param source the scenario file, or {@code null} for the built-in demo
 * @param canonicalText a canonical rendering of the resolved scenario, hashed into the manifest
 */
public record ScenarioConfig(
        String name,
        long seed,
        FabricMode mode,
        boolean vlanTagged,
        TopologySpec topology,
        SwitchParameters switches,
        NicParameters nic,
        String congestionControl,
        List<TrafficSpec> traffic,
        long stopAtPs,
        Path source,
        String canonicalText) {

    public ScenarioConfig {
        traffic = List.copyOf(traffic);
    }

    /** The same scenario with another seed (the CLI's {@code --seed}). */
    public ScenarioConfig withSeed(long newSeed) {
        return new ScenarioConfig(name, newSeed, mode, vlanTagged, topology, switches, nic, congestionControl, traffic,
                stopAtPs, source, canonicalText);
    }
}
