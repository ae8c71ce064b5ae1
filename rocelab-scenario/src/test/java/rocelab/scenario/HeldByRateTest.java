package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.HeldByRate;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;

/**
 * A flow's time held back by its congestion control's rate (flows.csv rate_held_us), and the receivers whose senders
 * were held back while the receiver's link had room: an 8:1 incast under DCQCN's paper profile cuts every sender
 * far below its share of h0's link; the NVIDIA profile throttles them too but keeps the link busy, and no congestion
 * control holds nobody back.
 */
class HeldByRateTest {
    private static final long LINE_BPS = 100_000_000_000L;

    @TempDir
    Path tmp;

    private static String incast(String nic) {
        return """
                name: held
                seed: 1
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 8, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB, ecn: {marking: red, kmin: 20KB, kmax: 200KB, pmax: 0.2}}
                nic: %s
                traffic:
                  - {kind: incast, senders: 8-15, receiver: 0, size: 2MB}
                """.formatted(nic);
    }

    private static RunResult run(String yaml, Simulation.Model model) {
        return Simulation.assemble(Scenarios.parse(yaml), model).run(ProgressListener.NONE);
    }

    /** The shipped example cc-held-back, as its header describes it. */
    private static String example() {
        try (var in = HeldByRateTest.class.getResourceAsStream("/rocelab/scenario/examples/cc-held-back.yaml")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shouldNameTheReceiverWhoseSendersTheirRatesHeldBelowWhatItsLinkCarried() throws Exception {
        RunResult r = run(example(), Simulation.Model.PACKET);
        assertThat(r.stopReason()).isEqualTo("completed");
        // The header's figures: eight flows of 5.6-6.1 ms (0.18 ms each alone), about 4 Gb/s each at the end.
        assertThat(r.flows()).hasSize(8).allMatch(f -> f.fctPs() > 5_500_000_000L && f.fctPs() < 6_100_000_000L)
                .allMatch(f -> f.idealFctPs() < 190_000_000L);
        double min = 1;
        double max = 0;
        for (FlowRecord f : r.flows()) {
            // Held between its packets, never while one is on the wire: at most its FCT less its bytes at line rate.
            assertThat(f.rateHeldPs()).as("flow %d", f.id()).isPositive()
                    .isLessThanOrEqualTo(f.fctPs() - f.sizeBytes() * 8 * 1_000_000_000_000L / LINE_BPS);
            double share = (double) f.rateHeldPs() / f.fctPs();
            min = Math.min(min, share);
            max = Math.max(max, share);
        }
        List<HeldByRate> held = HeldByRate.find(r.flows(), r.simulatedPs(), r.network(), r.series(),
                r.pfcLog());
        assertThat(held).hasSize(1);
        HeldByRate h = held.get(0);
        Topology topo = r.network().topology();
        assertThat(topo.nodeName(h.receiver())).isEqualTo("h0");
        assertThat(topo.nodeName(h.switchIndex() + topo.hostCount())).isEqualTo("leaf0");
        assertThat(h.flows()).isEqualTo(8);
        assertThat(h.minShare()).isEqualTo(min);
        assertThat(h.maxShare()).isEqualTo(max).isGreaterThan(0.95).isLessThan(0.97);
        assertThat(h.minShare()).isGreaterThan(0.95);
        // The link's share, from links.csv's counter at the window's two sample times, read here independently.
        String[] lines = r.series().linksCsv().split("\n");
        long txFrom = 0;
        long txTo = 0;
        for (int i = 1; i < lines.length; i++) {
            String[] c = lines[i].split(",");
            long t = Math.round(Double.parseDouble(c[0]) * 1e6);
            if (c[1].equals("leaf0") && Integer.parseInt(c[2]) == h.port()) {
                txFrom = t <= h.fromPs() ? Long.parseLong(c[3]) : txFrom;
                txTo = t <= h.toPs() ? Long.parseLong(c[3]) : txTo;
            }
        }
        double utilisation = (txTo - txFrom) * 8.0 / (LINE_BPS * ((h.toPs() - h.fromPs()) / 1e12));
        assertThat(h.utilisation()).isEqualTo(utilisation).isBetween(0.2, 0.26);
        String said = "the 8 flows into h0 spent " + SummaryText.percent(min) + "-" + SummaryText.percent(max)
                + " % of their lives with data ready that their";
        assertThat(SummaryText.render(r, null)).contains("rate held   " + said + " congestion control's rate held back"
                + " (flows.csv rate_held_us), while leaf0 port 0 (towards h0) carried " + SummaryText.percent(utilisation)
                + " % of its capacity");
        // The report, from the same run, says the same.
        Path out = tmp.resolve("report");
        ReportWriter.writeRun(out, r, Map.of());
        assertThat(Files.readString(out.resolve("report.html"))).contains(said + " rate held back, while leaf0 port 0"
                + " (towards h0) carried " + SummaryText.percent(utilisation) + " % of its capacity");
        // The journey's header says it of each flow: it was the largest part of its time, told only line by line.
        Simulation sim = Simulation.assemble(Scenarios.parse(example()));
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(0).id(), sim.pfcLog());
        rec.attach();
        RunResult again = sim.run(ProgressListener.NONE);
        FlowRecord f0 = again.flows().get(0);
        rec.completed(f0.finishPs(), f0.src());
        assertThat(new JourneyText(sim.network(), sim.pfcLog()).render(f0, rec.events(), -1, 0, Long.MAX_VALUE, 10))
                .contains(String.format(java.util.Locale.ROOT, "  held back by its congestion control's rate %.3f us,"
                        + " %.1f %% of its FCT: data ready, its rate's gap not over (flows.csv rate_held_us)",
                        f0.rateHeldPs() / 1e6, 100.0 * f0.rateHeldPs() / f0.fctPs()));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> json = (List<Map<String, Object>>) Summary.of(r).get("held_by_rate");
        assertThat(json).hasSize(1);
        assertThat(json.get(0)).containsEntry("receiver", "h0").containsEntry("link", "leaf0 port 0")
                .containsEntry("flows", 8);
    }

    @Test
    void shouldSayNothingWhenTheRatesKeepTheLinkBusyOrNothingHoldsTheSendersBack() {
        // The header's "try": the NVIDIA profile (86 Gb/s of goodput against 21).
        RunResult nvidia = run(example().replace("profile: paper", "profile: nvidia"), Simulation.Model.PACKET);
        long bytes = nvidia.flows().stream().mapToLong(FlowRecord::sizeBytes).sum();
        long last = nvidia.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        assertThat(bytes * 8e12 / last / 1e9).isGreaterThan(80);
        assertThat(nvidia.flows()).allMatch(f -> f.rateHeldPs() > f.fctPs() / 2)
                .as("throttled, every one of them, more than half of its life");
        assertThat(HeldByRate.find(nvidia.flows(), nvidia.simulatedPs(), nvidia.network(),
                nvidia.series(), nvidia.pfcLog())).as("but h0's link stayed busy").isEmpty();
        assertThat(SummaryText.render(nvidia, null)).doesNotContain("rate held");

        RunResult none = run(incast("{cc: none}"), Simulation.Model.PACKET);
        assertThat(none.flows()).allMatch(f -> f.rateHeldPs() == 0);
        assertThat(Summary.of(none).get("held_by_rate")).isEqualTo(List.of());

        RunResult flowLevel = run(incast("{cc: dcqcn, dcqcn: {profile: paper}}"), Simulation.Model.FLOW);
        assertThat(flowLevel.flows()).allMatch(f -> f.rateHeldPs() == -1);
        assertThat(Summary.of(flowLevel)).doesNotContainKey("held_by_rate");
    }

    @Test
    void shouldHoldNothingWithoutCongestionControlWhenAQueuePairCarriesOneMessageAfterAnother() {
        // A ring's QPs carry a step's message after another, the second run's after the first's: some are posted
        // while the QP's last packet of the message before is still on the wire. That packet's end, not the post,
        // is when they could go at line rate (26 of these 120 flows had up to 0.06 us held when the post counted).
        RunResult r = run("""
                name: ring-none
                fabric: {mode: roce-lossy, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: allreduce, ranks: "0-2,4-6", size: 1MB, iterations: 2}
                """, Simulation.Model.PACKET);
        assertThat(r.stopReason()).isEqualTo("completed");
        assertThat(r.flows()).hasSize(120).allMatch(f -> f.rateHeldPs() == 0);
    }
}
