package rocelab.scenario.read;

import java.util.Locale;
import org.yaml.snakeyaml.nodes.Node;
import rocelab.engine.Saturating;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.flowcontrol.PfcWatchdogParameters;
import rocelab.fabric.network.NetworkBuilder;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.topology.Topology;
import rocelab.fabric.topology.TopologySpec;
import rocelab.observe.output.Numbers;
import rocelab.scenario.FabricMode;

/** Reads {@code switch.pfc}: lossless priorities, XOFF/XON thresholds (dynamic or static) and headroom. */
final class PfcReader {
    static final String[] KEYS = {"threshold", "alpha", "xoff", "xon", "headroom", "priorities", "resume-offset",
        "pause-quanta", "watchdog", "pause-response"};

    private final Doc doc;

    PfcReader(Doc doc) {
        this.doc = doc;
    }

    /** Every switch must keep some shared buffer after reserving headroom for its lossless priority groups. */
    static void checkBuffer(Doc doc, TopologySpec spec, PfcParameters pfc, long bufferBytes, FrameFormat frames,
            int mtu, PauseLoop loop, Node where) throws ScenarioException {
        if (!pfc.enabled()) {
            return;
        }
        Topology t = spec.build();
        int lossless = Integer.bitCount(pfc.losslessMask());
        for (int s = 0; s < t.switchCount(); s++) {
            int node = t.hostCount() + s;
            long[] perPort = NetworkBuilder.headroomPerPort(t, node, pfc, frames, mtu, loop);
            long reserved = 0;
            long largest = 0;
            for (long h : perPort) {
                reserved = Saturating.add(reserved, Saturating.multiply(h, lossless));
                largest = Math.max(largest, h);
            }
            if (reserved >= bufferBytes) {
                throw doc.at(where, String.format(Locale.ROOT, "the switch buffer (%,d B) is too small for"
                        + " the PFC headroom that %s reserves (%,d B: %s x %s, up to %,d B"
                        + " each); expected a larger switch.buffer or a smaller switch.pfc.headroom", bufferBytes,
                        t.nodeName(node), reserved, Numbers.count(perPort.length, "port", "ports"),
                        Numbers.count(lossless, "lossless priority", "lossless priorities"), largest));
            }
        }
    }

    PfcParameters read(Node node, FabricMode mode) throws ScenarioException {
        if (mode != FabricMode.ROCE_LOSSLESS) {
            if (node != null) {
                throw doc.at(node, "switch.pfc applies to fabric mode roce-lossless only; expected fabric: {mode:"
                        + " roce-lossless} to use PFC, or no pfc settings");
            }
            return PfcParameters.off();
        }
        PfcParameters d = PfcParameters.defaults();
        if (node == null) {
            return d;
        }
        YamlMap m = YamlMap.of(doc, node, "switch.pfc", KEYS);
        boolean dynamic = "dynamic".equals(m.optionalChoice("threshold", "dynamic", "a PFC threshold kind", "dynamic",
                "static"));
        if (dynamic) {
            for (String k : new String[] {"xoff", "xon"}) {
                if (m.has(k)) {
                    throw doc.at(m.keyNode(k), k + " applies to static thresholds only; expected threshold: static,"
                            + " or alpha for the dynamic threshold");
                }
            }
        } else if (m.has("alpha")) {
            throw doc.at(m.keyNode("alpha"), "alpha applies to the dynamic threshold only; expected threshold:"
                    + " dynamic, or xoff and xon for static thresholds");
        }
        double alpha = m.has("alpha") ? doc.number(m.get("alpha"), "alpha", 1.0 / 1024, 64) : d.alpha();
        long xoff = dynamic ? 0 : m.requiredSize("xoff", 1);
        long xon = dynamic ? 0 : m.requiredSize("xon", 0);
        if (xon > xoff) {
            // Named at xon, the key that breaks it (the record's own check would name the block).
            throw doc.at(m.get("xon"), "xon " + xon + " B is above xoff " + xoff + " B; expected xon <= xoff (XON"
                    + " resumes once the queue has drained below XOFF)");
        }
        long headroom = -1;
        Node h = m.get("headroom");
        if (h != null && !"auto".equals(doc.text(h, "headroom", "auto or a size"))) {
            headroom = doc.size(h, "headroom", 0);
        }
        int mask = d.losslessMask();
        if (m.has("priorities")) {
            mask = 0;
            for (Node n : m.requiredList("priorities", "a list of priorities 0..7, e.g. [3]")) {
                mask = DeviceReader.addPriority(doc, n, mask);
            }
        }
        long resume = m.optionalSize("resume-offset", d.resumeOffsetBytes(), 0);
        int quanta = m.optionalInt("pause-quanta", d.pauseQuanta(), 1, 0xFFFF);
        PfcWatchdogParameters wd = watchdog(m.get("watchdog"));
        long response = m.optionalTimeOrAuto("pause-response");
        int lossless = mask;
        long hr = headroom;
        return doc.build(node, "switch.pfc", () -> new PfcParameters(lossless, dynamic, alpha, xoff, xon, hr, resume,
                quanta, wd, response));
    }

    /** {@code watchdog: {poll: 100ms, detection: 200ms, restoration: 200ms, action: drop}}; absent: off. */
    private PfcWatchdogParameters watchdog(Node node) throws ScenarioException {
        if (node == null) {
            return PfcWatchdogParameters.off();
        }
        PfcWatchdogParameters d = PfcWatchdogParameters.sonicDefaults();
        YamlMap w = YamlMap.of(doc, node, "switch.pfc.watchdog", "poll", "detection", "restoration", "action");
        long poll = w.optionalTime("poll", d.pollPs());
        long detection = w.optionalTime("detection", d.detectionPs());
        long restoration = w.optionalTime("restoration", d.restorationPs());
        boolean drop = "drop".equals(w.optionalChoice("action", "drop", "a watchdog action", "drop", "forward"));
        return doc.build(node, "switch.pfc.watchdog", () -> new PfcWatchdogParameters(true, poll, detection,
                restoration, drop));
    }
}
