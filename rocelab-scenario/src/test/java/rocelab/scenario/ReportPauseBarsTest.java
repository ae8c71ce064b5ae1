package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * The report's PFC pauses chart draws each pause as pfc.csv has it, one bar from its XOFF to its XON: it had merged
 * pauses a few microseconds apart into bars as if the peer had been paused 207 us where it was 103. The demo's leaf0
 * sends spine0 28 XOFFs in two bursts, each answered by its XON; three leave at the picosecond of the XON before them,
 * so spine0 is paused 25 times (a check train-3d-rail held until its corrected Megatron program stopped pausing).
 */
class ReportPauseBarsTest {
    @Test
    void shouldDrawEachOfTheDemosPausesAsABarOfItsOwn(@TempDir Path tmp) throws Exception {
        RunResult run = Simulation.assemble(new ScenarioReader().readDemo()).run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp, run, Map.of());
        var topo = run.network().topology();
        int leaf0 = -1;
        for (int n = 0; n < topo.nodeCount(); n++) {
            leaf0 = topo.nodeName(n).equals("leaf0") ? n : leaf0;
        }
        int xons = 0;
        int xoffs = 0;
        // A pause whose XOFF leaves at the very picosecond the previous one's XON did (the threshold crossed back at
        // once) continues that pause: the peer is never unpaused, and one bar holds both.
        int pauses = 0;
        long lastXonPs = -1;
        for (int i = 0; i < run.pfcLog().frames(); i++) {
            if (run.pfcLog().field(i, 1) == leaf0 && run.pfcLog().field(i, 2) == 4 && run.pfcLog().field(i, 3) == 3) {
                long at = run.pfcLog().field(i, 0);
                if (run.pfcLog().field(i, 4) == 0) {
                    xons++;
                    lastXonPs = at;
                } else {
                    xoffs++;
                    pauses += at == lastXonPs ? 0 : 1;
                }
            }
        }
        assertThat(xoffs).as("the demo's XOFFs (README: 5)").isEqualTo(5);
        assertThat(xons).isEqualTo(xoffs);
        // The demo of 600 Gb/s uplinks has no XOFF that leaves with the XON before it (the 400 Gb/s one had three).
        assertThat(pauses).as("pauses, an XOFF leaving with the XON before it continuing one").isEqualTo(5);
        String html = Files.readString(tmp.resolve("report.html"));
        String lanes = html.substring(html.indexOf("\"id\":\"pfc-pauses\""));
        assertThat(lanes).contains("\"rows\":[\"spine0 paused by leaf0 p4 prio 3\"]");
        String bars = lanes.substring(lanes.indexOf("\"iv\":[") + 6, lanes.indexOf("]]}") + 2);
        assertThat(bars.split("\\],\\[", -1)).as("one bar per pause").hasSize(pauses);
    }

    @Test
    void shouldSayTheStormItDoesNotDraw(@TempDir Path tmp) throws Exception {
        // pause-storm-watchdog's h0 pauses leaf0 with frames no buffer sent: pfc.csv has none of them, so the chart's
        // lanes began at the spread ("5 of 5 paused links") while the pause tree's first link is the storm's.
        RunResult run = Simulation.assemble(new ScenarioReader().readExample("pause-storm-watchdog"))
                .run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp, run, Map.of());
        assertThat(Files.readString(tmp.resolve("report.html"))).contains("; not drawn: leaf0 paused by h0&#39;s pause"
                + " storm for 1.477 ms, whose frames no buffer sent");
        RunResult demo = Simulation.assemble(new ScenarioReader().readDemo()).run(ProgressListener.NONE);
        Path other = tmp.resolve("demo");
        ReportWriter.writeRun(other, demo, Map.of());
        assertThat(Files.readString(other.resolve("report.html"))).doesNotContain("not drawn:");
    }
}
