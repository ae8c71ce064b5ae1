package rocelab.scenario.read;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.topology.Topology;

/**
 * RED's two thresholds on each port of a switch, where one is given and the other scales with the port's rate (4 and
 * 16 KB per Gb/s). The pair can cross there: {@code kmax: 100KB} alone leaves a 100 Gb/s port's Kmin at 400 KB, and
 * that port would mark every packet above 400 KB and none below, a step at Kmin instead of RED's ramp from Kmin to
 * Kmax. Two given thresholds are compared where they are read (CongestionReader); two scaled ones never cross.
 */
final class RedThresholds {
    private RedThresholds() {}

    /**
     * @param ecnByPort each port's marking
     * @param ecnNodes the {@code ecn} mapping each port's marking was read from (null where it is the default)
     */
    static void check(Doc doc, Topology topology, int node, EcnParameters[] ecnByPort, Node[] ecnNodes)
            throws ScenarioException {
        for (int port = 0; port < ecnByPort.length; port++) {
            EcnParameters e = ecnByPort[port];
            boolean kminGiven = e.kminBytes() >= 0;
            if (e.scheme() != EcnParameters.Scheme.RED || kminGiven == e.kmaxBytes() >= 0) {
                continue;
            }
            long rate = topology.edgeAt(node, port).parameters().rateBps();
            long kmin = e.kminFor(rate);
            long kmax = e.kmaxFor(rate);
            if (kmax >= kmin) {
                continue;
            }
            String where = topology.nodeName(node) + " port " + port + " (towards "
                    + topology.nodeName(topology.peer(node, port).node()) + ")";
            String gbps = BigDecimal.valueOf(rate, 9).stripTrailingZeros().toPlainString();
            String detail = kminGiven
                    ? String.format(Locale.ROOT, "kmin (%d B) is above kmax at %s, %d B (%d KB per Gb/s of its %s"
                            + " Gb/s); expected kmax >= kmin on every port: give kmax too, or a kmin of at most %d B",
                            kmin, where, kmax, EcnParameters.KMAX_BYTES_PER_GBPS / 1000, gbps, kmax)
                    : String.format(Locale.ROOT, "kmax (%d B) is below kmin at %s, %d B (%d KB per Gb/s of its %s"
                            + " Gb/s); expected kmax >= kmin on every port: give kmin too, or a kmax of at least %d B",
                            kmax, where, kmin, EcnParameters.KMIN_BYTES_PER_GBPS / 1000, gbps, kmin);
            throw doc.at(given(doc, ecnNodes[port], kminGiven ? "kmin" : "kmax"), detail);
        }
    }

    /** The given threshold's value, where the error belongs (the ecn mapping if it is not found there). */
    private static Node given(Doc doc, Node ecn, String key) throws ScenarioException {
        Map<String, NodeTuple> entries = YamlMap.entries(doc, ecn, "switch.ecn", "a mapping");
        NodeTuple t = entries.get(key);
        return t == null ? ecn : t.getValueNode();
    }
}
