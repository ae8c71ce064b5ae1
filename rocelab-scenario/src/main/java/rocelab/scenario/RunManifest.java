package rocelab.scenario;

import java.util.LinkedHashMap;
import java.util.Map;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.observe.output.Numbers;

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
        extras.put("pfc_static_xoff_bytes", config.pfc().enabled() && !config.pfc().dynamic()
                ? config.pfc().xoffBytes() : null);
        // The report turns sampled cumulative counters into per-interval rates.
        extras.put("sample_interval_us", sampleIntervalUs(config));
        return extras;
    }

    private static Object sampleIntervalUs(ScenarioConfig config) {
        return config.sampleIntervalPs() > 0 ? Numbers.micros(config.sampleIntervalPs()) : null;
    }
}
