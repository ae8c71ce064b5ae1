package rocelab.scenario.device;

import java.util.List;

/** Every switch's and every RNIC's resolved settings, indexed like the topology (switch i is node hosts + i). */
public record Devices(List<SwitchConfig> switches, List<NicConfig> nics) {
    public Devices {
        switches = List.copyOf(switches);
        nics = List.copyOf(nics);
    }

    public SwitchConfig switchAt(int index) {
        return switches.get(index);
    }

    public NicConfig nic(int host) {
        return nics.get(host);
    }

    /** Whether any device has settings of its own. */
    public boolean anyOverride() {
        return switches.stream().anyMatch(SwitchConfig::overridden);
    }
}
