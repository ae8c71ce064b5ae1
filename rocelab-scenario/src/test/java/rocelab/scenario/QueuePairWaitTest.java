package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.probe.PfcProbe;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;

/**
 * A QP sends its messages in the order they were posted: flows.csv qp_wait_us is the time a flow posted while its
 * QP still had packets of earlier messages to send waited for its first packet, and the summary says so under its
 * slowdown line (which it leaves as it was: FCT from the post over the closed form).
 */
class QueuePairWaitTest {
    @TempDir
    Path tmp;

    /** A 2-rank AlltoAll of 768 KiB posts each pair's 384 KiB as three 128 KiB WRITEs at once on one QP. */
    private static final String THREE_ON_ONE_QP = """
            name: qp-fifo
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            traffic:
              - {kind: alltoall, ranks: 0-1, size: 768KiB}
            """;

    /** One WRITE per QP. */
    private static final String LONE = """
            name: lone
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            traffic:
              - {kind: incast, senders: 0, receiver: 1, size: 128KiB}
            """;

    /** 32 frames of 4,194 bytes on the wire at 100 Gb/s (one 128 KiB WRITE), its first 16 bytes more (its RETH). */
    private static final long WRITE_PS = (32L * (4096 + 78 + 20) + 16) * 8 * 10;
    /** One full frame's time at 100 Gb/s. */
    private static final long FRAME_PS = (4096L + 78 + 20 + 16) * 8 * 10;

    @Test
    void shouldMeasureTheWaitOfMessagesPostedBehindEarlierOnesOfTheirQp() throws Exception {
        Simulation sim = Simulation.assemble(Scenarios.parse(THREE_ON_ONE_QP));
        int qp = sim.driver().queuePair(0).id();
        assertThat(sim.driver().queuePair(1).id()).isEqualTo(qp);
        assertThat(sim.driver().queuePair(2).id()).isEqualTo(qp);
        JourneyRecorder rec = new JourneyRecorder(sim.network(), qp, 2, PfcProbe.NONE);
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        List<FlowRecord> f = r.flows().subList(0, 3);
        assertThat(f).extracting(FlowRecord::startPs).containsOnly(f.get(0).startPs());
        assertThat(f.get(0).qpWaitPs()).as("posted on an idle QP").isZero();
        // The second waits while the first is serialised, the third while both are: within a frame's time.
        assertThat(f.get(1).qpWaitPs()).isCloseTo(WRITE_PS, within(FRAME_PS));
        assertThat(f.get(2).qpWaitPs()).isCloseTo(2 * WRITE_PS, within(FRAME_PS));
        // Exactly the journey's wait: from its post to its first packet, as the packets themselves tell it.
        rec.completed(f.get(2).finishPs(), f.get(2).src());
        assertThat(f.get(2).qpWaitPs()).isEqualTo(rec.firstSendPs() - f.get(2).startPs());
        // The slowdown stays FCT from the post; the wait taken out of it is the other figure.
        assertThat(f.get(2).slowdown()).isEqualTo((double) f.get(2).fctPs() / f.get(2).idealFctPs());
        assertThat(f.get(2).slowdownAfterQpWait())
                .isEqualTo((double) (f.get(2).fctPs() - f.get(2).qpWaitPs()) / f.get(2).idealFctPs());

        // flows.csv: the last column, and the summary's line under the slowdown, from the same figures.
        ReportWriter.writeRun(tmp, r, Map.of());
        List<String> csv = Files.readAllLines(tmp.resolve("flows.csv"));
        List<String> header = Arrays.asList(csv.get(0).split(","));
        int qpWait = header.indexOf("qp_wait_us");
        assertThat(qpWait).as("before delivered_bytes, the last").isEqualTo(header.size() - 2);
        assertThat(header.indexOf("rate_held_us")).isEqualTo(qpWait - 1);
        String[] row2 = csv.get(3).split(",", -1);
        assertThat(row2[0]).isEqualTo("2");
        assertThat(Double.parseDouble(row2[qpWait]) * 1e6).isCloseTo(f.get(2).qpWaitPs(), within(1.0));
        assertThat(csv.get(1).split(",", -1)[qpWait]).isEqualTo("0");

        long waited = r.flows().stream().filter(x -> x.completed() && x.qpWaitPs() > 0).count();
        long longest = r.flows().stream().mapToLong(FlowRecord::qpWaitPs).max().orElseThrow();
        assertThat(waited).as("two of each direction's three").isEqualTo(4);
        double max = r.flows().stream().mapToDouble(FlowRecord::slowdownAfterQpWait).max().orElseThrow();
        String text = SummaryText.render(r, null);
        assertThat(text).contains(String.format(Locale.ROOT, "\n            4 flows waited behind their own QP's"
                + " earlier messages before their first packet, up to %.3f us (flows.csv qp_wait_us); without that"
                + " wait: p50 ", longest / 1e6), String.format(Locale.ROOT, "   max %.2f\n", max));
        assertThat(text.indexOf("waited behind their own QP")).isGreaterThan(text.indexOf("slowdown    p50"));
    }

    @Test
    void shouldGiveALoneFlowNoWaitAndTheSummaryNoLine() {
        RunResult r = Simulation.assemble(Scenarios.parse(LONE)).run(ProgressListener.NONE);
        assertThat(r.flows()).hasSize(1);
        assertThat(r.flows().get(0).qpWaitPs()).isZero();
        assertThat(SummaryText.render(r, null)).contains("slowdown    p50").doesNotContain("own QP");
    }

    @Test
    void shouldMeasureTheWaitBehindTheQpInTheFlowModelToo() {
        RunResult r = Simulation.assemble(Scenarios.parse(THREE_ON_ONE_QP), Simulation.Model.FLOW)
                .run(ProgressListener.NONE);
        List<FlowRecord> f = r.flows().subList(0, 3);
        assertThat(f.get(0).qpWaitPs()).isZero();
        // The flow model sends a QP's flows one after the other too: the second starts when the first's last bit left.
        assertThat(f.get(1).qpWaitPs()).isPositive();
        assertThat(f.get(2).qpWaitPs()).isGreaterThan(f.get(1).qpWaitPs());
        assertThat(f.get(1).qpWaitPs()).isCloseTo(WRITE_PS, within(FRAME_PS));
    }
}
