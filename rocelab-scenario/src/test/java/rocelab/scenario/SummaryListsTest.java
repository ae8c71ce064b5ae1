package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.report.ReportWriter;
import rocelab.observe.victim.Victims;

/**
 * The printed summary's and the report's lists show their first few and count the rest, but a single one left over is
 * shown, never counted as "1 of N" short: the sixth victim, the fourth collision port, the thirteenth pause edge.
 */
class SummaryListsTest {
    @TempDir
    Path tmp;

    /**
     * A lossless leaf-spine with one spine (800 Gb/s uplinks): four 1 MB writes from leaf1 into h0 pause the spine and
     * leaf1's hosts, and {@code bystanders} 1 MB writes from other hosts of leaf1 to h1, h2, ... of leaf0 wait behind
     * those pauses, rooted at leaf0's port to h0, off their way: each is a victim.
     */
    private static String bystanders(int bystanders) {
        StringBuilder b = new StringBuilder("""
                name: bystanders
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 12, link: {rate: 100Gbps, delay: 1us},
                  uplink: {rate: 800Gbps, delay: 1us}}
                switch: {buffer: 4MB, ecn: {marking: none}, pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 12-15, receiver: 0, size: 1MB}
                """);
        for (int i = 0; i < bystanders; i++) {
            b.append("  - {kind: flow, src: ").append(16 + i).append(", dst: ").append(1 + i).append(", size: 1MB}\n");
        }
        return b.toString();
    }

    @Test
    void shouldListTheSixthVictimRatherThanLeaveItOut() {
        // Six victims: the summary listed five, "(the 5 that waited most; ...)"; it lists all six.
        RunResult r = Scenarios.assemble(bystanders(6)).run(ProgressListener.NONE);
        List<Victims.Victim> victims = r.pfcLog().victims(r.flows(), r.simulatedPs());
        assertThat(victims).hasSize(6);
        String text = SummaryText.render(r, null);
        assertThat(text).contains("PFC victims 6 flows waited behind pauses rooted at a congestion point off their own"
                + " way there and back:\n").doesNotContain("the 5 that waited most");
        for (Victims.Victim v : victims) {
            assertThat(text).contains("            " + Victims.describe(r.network().topology(), v,
                    PfcVictims.wording(r.pfcLog())) + "\n");
        }
    }

    @Test
    void shouldShowTheThirteenthEdgeOfThePauseTreeRatherThanLeaveItOut() throws Exception {
        // Thirteen devices' ports paused others: the summary's tree showed twelve, "(12 of 13 shown; ...)", and the
        // report's table "first 12 of 13"; both show all thirteen.
        RunResult r = Scenarios.assemble(bystanders(7)).run(ProgressListener.NONE);
        var edges = r.pfcLog().propagation(r.network().simulator().nowPs());
        assertThat(edges).hasSize(13);
        String text = SummaryText.render(r, null);
        String tree = text.substring(text.indexOf("PFC tree"), text.indexOf("PFC victims"));
        assertThat(tree.lines().count()).isEqualTo(14);
        assertThat(tree).doesNotContain("shown;");
        Path dir = tmp.resolve("run");
        ReportWriter.writeRun(dir, r, Map.of());
        String html = Files.readString(dir.resolve("report.html"));
        String table = html.substring(html.indexOf("<h3>Pause propagation tree</h3>"));
        table = table.substring(0, table.indexOf("</table>"));
        assertThat(table.split("<tr>", -1).length - 1).as("a header row and thirteen").isEqualTo(14);
        assertThat(html).doesNotContain("first 12 of 13");
        // The findings count the distinct roots, not the links paused at their root (hop 0): several ingress ports
        // feeding one congested egress each pause their peer from the same root.
        long roots = edges.stream().map(e -> e.rootNode() + "/" + e.rootPort()).distinct().count();
        long atRoot = edges.stream().filter(e -> e.hop() == 0).count();
        assertThat(atRoot).as("links paused at their root").isGreaterThan(roots);
        assertThat(html).contains("<b>PFC pauses spread</b> over 13 device-port-priority links from " + roots + " root"
                + (roots == 1 ? "" : "s") + " (their first XOFFs' congestion points; " + atRoot + " of the links paused"
                + " at their root, hop 0)");
        assertThat(html).contains("hop 0: the device&#39;s own egress was the congestion point, its root");
    }

    @Test
    void shouldTellTheFourthCollisionPortRatherThanLeaveItOut() {
        // Seed 6: flows of a 4-leaf ring collide at four ports; the summary told three, "(the 3 they waited at most;
        // ...)", and tells all four.
        StringBuilder b = new StringBuilder("""
                name: ecmp-four-ports
                seed: 6
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                observe: {sample-interval: 0}
                traffic:
                """);
        for (int i = 0; i < 8; i++) {
            b.append("  - {kind: flow, src: ").append(i).append(", dst: ").append((i + 2) % 8).append(", size: 1MB}\n");
        }
        RunResult r = Scenarios.assemble(b.toString()).run(ProgressListener.NONE);
        List<EcmpLog.Collision> found = r.ecmpLog().collisions(r.flows());
        assertThat(found).hasSize(4);
        String text = SummaryText.render(r, null);
        assertThat(text).contains("ECMP        collisions at 4 ports: flows the hash put on a port queued there behind"
                + " another flow's data while an equal-cost port was idle, at least one of them for 5 % of its FCT or more"
                + " (flows.csv ecmp_wait_us; a wait is time in that"
                + " queue, not time the flow lost):\n")
                .doesNotContain("the 3 they waited at most");
        for (EcmpLog.Collision c : found) {
            assertThat(text).contains("            " + r.ecmpLog().describe(c, r.flows()) + "\n");
        }
    }
}
