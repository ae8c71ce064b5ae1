package rocelab.workload.flow;

import java.nio.file.Path;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * The ideal network of one switch and some hosts on 100 Gb/s links, which the bound's property tests on random graphs
 * share (the network needs the scenario reader, so these tests live in this module).
 *
 * @param ideal the ideal network
 * @param hosts its hosts
 */
record OneSwitchIdeal(IdealNetwork ideal, int hosts) {
    static OneSwitchIdeal of(int hosts) {
        String yaml = "name: one-switch\nfabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: none}\n"
                + "topology: {kind: single-switch, hosts: " + hosts + ", link: {rate: 100Gbps, delay: 1us}}\n"
                + "traffic:\n  - {kind: flow, src: 0, dst: 1, size: 1000B}\n";
        try {
            ScenarioConfig config = new ScenarioReader().read(yaml, "test.yaml", Path.of("."));
            Network network = Simulation.assemble(config).network();
            return new OneSwitchIdeal(new IdealNetwork(network, new PathTiming(network.frames(),
                    config.nic().mtuBytes(), config.switches().forwardingLatencyPs())), network.hostCount());
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
