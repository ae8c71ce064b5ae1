package rocelab.scenario.device;

import java.util.List;

/**
 * Every switch's and every RNIC's resolved settings, indexed like the topology (switch i is node hosts + i), and
 * what imported switch configurations held that was not applied.
 */
public record Devices(List<SwitchConfig> switches, List<NicConfig> nics, List<ImportNote> importNotes) {
    public Devices {
        switches = List.copyOf(switches);
        nics = List.copyOf(nics);
        importNotes = List.copyOf(importNotes);
    }

    public SwitchConfig switchAt(int index) {
        return switches.get(index);
    }

    public NicConfig nic(int host) {
        return nics.get(host);
    }
}
