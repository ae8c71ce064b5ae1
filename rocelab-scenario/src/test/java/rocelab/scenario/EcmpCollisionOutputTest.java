package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.SummaryText;

/**
 * What a run writes about ECMP collisions, through the outputs alone (flows.csv, summary.json, the printed summary):
 * two flows hashed onto one uplink while the other is idle are named; the same flows sprayed are not.
 * {@link EcmpCollisionTest} checks the figures themselves.
 */
class EcmpCollisionOutputTest {
    @TempDir
    Path tmp;

    private static String twoFlows(String balancing) {
        // Seed 1: both QPs hash onto the same uplink of leaf0 (EcmpCollisionTest checks it from the switch's hash).
        return """
                name: ecmp-collision
                seed: 1
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                switch: {load-balancing: {mode: %s}}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 1MB}
                  - {kind: flow, src: 1, dst: 3, size: 1MB}
                """.formatted(balancing);
    }

    private Path write(RunResult r, String name) throws IOException {
        Path dir = tmp.resolve(name);
        new RunWriter(Integer.MAX_VALUE).write(dir, r, Map.of());
        return dir;
    }

    @Test
    void shouldNameTwoFlowsHashedOntoOneUplinkWhileTheOtherIsIdle() throws IOException {
        RunResult r = Scenarios.assemble(twoFlows("ecmp")).run(ProgressListener.NONE);
        Path dir = write(r, "ecmp");
        List<String> flows = Files.readAllLines(dir.resolve("flows.csv"));
        assertThat(flows.get(0)).endsWith(",ecmp_wait_us,rate_held_us,qp_wait_us,delivered_bytes");
        for (String row : flows.subList(1, 3)) {
            double wait = Double.parseDouble(row.split(",", -1)[17]); // ecmp_wait_us
            double fct = Double.parseDouble(row.split(",")[6]);
            assertThat(wait).as(row).isPositive().isLessThan(fct);
        }
        assertThat(Files.readString(dir.resolve(RunWriter.SUMMARY))).contains("\"ecmp_collision_count\": 1",
                "\"ecmp_collisions\"", "\"switch\": \"leaf0\"");
        assertThat(SummaryText.render(r, null)).containsPattern("ECMP {8}collisions at 1 port: ")
                .containsPattern("leaf0 hashed flows [01] \\(h[01]->h[23]\\) and [01] \\(h[01]->h[23]\\) onto its port"
                        + " [23] \\(towards spine[01]\\) while its equal-cost port [23] \\(towards spine[01]\\) was idle:"
                        + " their packets waited in that queue for [0-9.]+ us \\(flow [01]\\) and [0-9.]+ us \\(flow"
                        + " [01]\\), each behind packets of the other");
    }

    @Test
    void shouldNameNoCollisionWhenTheSameFlowsAreSprayed() throws IOException {
        RunResult r = Scenarios.assemble(twoFlows("spray")).run(ProgressListener.NONE);
        Path dir = write(r, "spray");
        List<String> flows = Files.readAllLines(dir.resolve("flows.csv"));
        assertThat(flows.get(0)).endsWith(",ecmp_wait_us,rate_held_us,qp_wait_us,delivered_bytes");
        assertThat(flows.subList(1, 3)).allMatch(row -> row.split(",", -1)[17].equals("0"));
        assertThat(Files.readString(dir.resolve(RunWriter.SUMMARY))).doesNotContain("ecmp_collision");
        assertThat(SummaryText.render(r, null)).doesNotContain("ECMP  ");
    }
}
