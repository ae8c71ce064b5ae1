package rocelab.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.observe.output.Numbers;
import rocelab.scenario.device.SwitchConfig;

/** What manifest.json adds to a run besides version, seed and hash: its scenario file and the report's thresholds. */
public final class RunManifest {
    private RunManifest() {}

    public static Map<String, Object> extras(ScenarioConfig config) {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("scenario_file", config.source() == null ? "(built-in demo)" : config.source().toString());
        // The senders' congestion control (nic.cc, before any device's own): the report says "none" rather than
        // "it made 0 rate cuts" of a control that is not there.
        extras.put("congestion_control", config.congestion().name());
        if (config.infiniband() != null) {
            // InfiniBand switches mark FECN on their own thresholds, not IP ECN.
            extras.put("ecn_marking", config.infiniband().fecn() == null ? "none" : "fecn");
            // The queue chart draws it: a lane marks FECN while more than this waits behind the packet leaving.
            extras.put("fecn_threshold_bytes", config.infiniband().fecn() == null ? null
                    : config.infiniband().fecn().thresholdBytes());
            // As on RoCE (it was left out here, and `rocelab report` rebuilt an InfiniBand run's charts on an
            // interval guessed from the run's end: credit stalls of 2492 %).
            extras.put("sample_interval_us", sampleIntervalUs(config));
            return extras;
        }
        extras.put("ecn_marking", config.ecn().scheme().key());
        extras.put("ecn_kmin_bytes_per_gbps", config.ecn().kminBytes() >= 0 ? null
                : EcnParameters.KMIN_BYTES_PER_GBPS);
        extras.put("ecn_kmin_bytes", config.ecn().kminBytes() >= 0 ? config.ecn().kminBytes() : null);
        extras.put("ecn_kmax_bytes_per_gbps", config.ecn().kmaxBytes() >= 0 ? null
                : EcnParameters.KMAX_BYTES_PER_GBPS);
        extras.put("ecn_kmax_bytes", config.ecn().kmaxBytes() >= 0 ? config.ecn().kmaxBytes() : null);
        if (config.ecn().scheme() == EcnParameters.Scheme.STEP) {
            extras.put("ecn_k_bytes_per_gbps", config.ecn().kBytes() >= 0 ? null : EcnParameters.K_BYTES_PER_GBPS);
            extras.put("ecn_k_bytes", config.ecn().kBytes() >= 0 ? config.ecn().kBytes() : null);
        }
        // Which traffic classes' queues mark: the report draws a queue's thresholds only where its class marks (a
        // bulk class's 9 MB queue had the RoCE class's Kmin and Kmax drawn across it as "its port's thresholds").
        extras.put("ecn_classes", classes(config.ecn().classMask()));
        if (ecnDiffersByPort(config)) {
            // The thresholds above are switch-wide: the report must not draw them as a port's own where a switches
            // entry set others (an audit's leaf0 port to h0 marked at Kmin 100 KB under lines drawn at 400 KB), so
            // the ports that differ are listed with their own.
            extras.put("ecn_differs_by_port", true);
            extras.put("ecn_ports", portsThatDiffer(config));
        }
        extras.put("pfc_static_xoff_bytes", config.pfc().enabled() && !config.pfc().dynamic()
                ? config.pfc().xoffBytes() : null);
        // The report turns sampled cumulative counters into per-interval rates.
        extras.put("sample_interval_us", sampleIntervalUs(config));
        return extras;
    }

    /** The ECN settings of every switch port whose own differ from {@code switch.ecn}, by device name and port. */
    private static List<Map<String, Object>> portsThatDiffer(ScenarioConfig config) {
        List<Map<String, Object>> ports = new ArrayList<>();
        for (SwitchConfig s : config.devices().switches()) {
            for (int p = 0; p < s.portCount(); p++) {
                EcnParameters e = s.ecn(p);
                if (e.equals(config.ecn())) {
                    continue;
                }
                Map<String, Object> port = new LinkedHashMap<>();
                port.put("device", s.name());
                port.put("port", p);
                port.put("marking", e.scheme().key());
                // A size, or null and its scaling with the port's rate (bytes per Gb/s).
                port.put("kmin_bytes", e.kminBytes() >= 0 ? e.kminBytes() : null);
                port.put("kmin_bytes_per_gbps", e.kminBytes() >= 0 ? null : EcnParameters.KMIN_BYTES_PER_GBPS);
                port.put("kmax_bytes", e.kmaxBytes() >= 0 ? e.kmaxBytes() : null);
                port.put("kmax_bytes_per_gbps", e.kmaxBytes() >= 0 ? null : EcnParameters.KMAX_BYTES_PER_GBPS);
                port.put("k_bytes", e.kBytes() >= 0 ? e.kBytes() : null);
                port.put("k_bytes_per_gbps", e.kBytes() >= 0 ? null : EcnParameters.K_BYTES_PER_GBPS);
                port.put("classes", classes(e.classMask()));
                ports.add(port);
            }
        }
        return ports;
    }

    private static List<Integer> classes(int mask) {
        List<Integer> classes = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            if ((mask & 1 << c) != 0) {
                classes.add(c);
            }
        }
        return classes;
    }

    /** Whether some switch port marks by other ECN settings than the scenario's switch-wide {@code switch.ecn}. */
    private static boolean ecnDiffersByPort(ScenarioConfig config) {
        if (config.devices() == null) {
            return false;
        }
        for (SwitchConfig s : config.devices().switches()) {
            for (int p = 0; p < s.portCount(); p++) {
                if (!s.ecn(p).equals(config.ecn())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Object sampleIntervalUs(ScenarioConfig config) {
        return config.sampleIntervalPs() > 0 ? Numbers.micros(config.sampleIntervalPs()) : null;
    }
}
