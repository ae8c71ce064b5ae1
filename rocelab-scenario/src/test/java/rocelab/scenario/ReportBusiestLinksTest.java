package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * The report's link utilisation chart draws the ports busy the most time over the run. It drew the ports with the
 * highest peak share of an interval, ties by name: in moe-alltoall 38 of 48 switch ports fill some interval, and the
 * chart showed six of leaf0's, not leaf3's port to h15, the hot receiver's (an audit).
 */
class ReportBusiestLinksTest {
    @Test
    void shouldDrawThePortsBusyTheMostTimeOverTheRun(@TempDir Path tmp) throws Exception {
        RunResult run = Simulation.assemble(new ScenarioReader().readExample("moe-alltoall")).run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp, run, Map.of());
        String html = Files.readString(tmp.resolve("report.html"));
        JsonNode chart = new ObjectMapper().readerFor(JsonNode.class).<JsonNode>readValues(
                html.substring(html.indexOf("{\"id\":\"utilisation\""))).next();
        Set<String> drawn = new HashSet<>();
        chart.get("series").forEach(s -> drawn.add(s.get("name").asText()));
        assertThat(drawn).hasSize(6).contains("leaf3 p3");
        // Each port's time busy over the run, from its own counters: frames and their 20 bytes of framing at its rate.
        var network = run.network();
        Map<String, Double> busyUs = new HashMap<>();
        for (int s = 0; s < network.switchCount(); s++) {
            var sw = network.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                var port = sw.port(p);
                double bits = 8.0 * (port.counter(PortCounter.TX_BYTES) + 20 * port.counter(PortCounter.TX_PACKETS));
                busyUs.put(network.topology().nodeName(sw.nodeId()) + " p" + p, bits / (port.rateBps() / 1e6));
            }
        }
        double leastDrawn = drawn.stream().mapToDouble(busyUs::get).min().orElseThrow();
        double mostLeftOut = busyUs.entrySet().stream().filter(e -> !drawn.contains(e.getKey()))
                .mapToDouble(Map.Entry::getValue).max().orElseThrow();
        assertThat(leastDrawn).as("the least busy port drawn against the busiest left out, us")
                .isGreaterThan(0.95 * mostLeftOut);
    }
}
