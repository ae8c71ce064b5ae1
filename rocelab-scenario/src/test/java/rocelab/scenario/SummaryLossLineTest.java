package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.DropReason;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * The printed summary's loss line names every reason that dropped packets, whichever it is: the oversize drops of
 * lint-l11-mtu (a 4096-byte RoCE payload through a 1500-byte spine port) were printed as "(buffer full 0, headroom
 * exceeded 0)", which hid the cause.
 */
class SummaryLossLineTest {
    private static String line(String text, String start) {
        return Arrays.stream(text.split("\n")).filter(l -> l.startsWith(start)).findFirst().orElseThrow();
    }

    @Test
    void shouldNameTheReasonOfEveryDrop() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("lint-l11-mtu")).run(ProgressListener.NONE);
        long oversize = r.totals().dropped(DropReason.OVERSIZE);
        assertThat(oversize).isPositive().isEqualTo(r.totals().packetsDropped());
        assertThat(line(SummaryText.render(r, null), "loss"))
                .contains(String.format(Locale.ROOT, "%,d dropped (oversize %,d)", oversize, oversize))
                .doesNotContain("buffer full");
    }

    @Test
    void shouldNameNoReasonWhenNothingWasDropped() {
        RunResult r = Simulation.assemble(new ScenarioReader().readDemo()).run(ProgressListener.NONE);
        assertThat(line(SummaryText.render(r, null), "loss")).startsWith("loss        0 dropped   0 retransmitted");
    }

    @Test
    void shouldNotCallTheCompletedFlowsBytesAllThatWasDelivered() {
        // A run stopped at 1 ms: the 1 MB flow is done, the 100 MB one has delivered 13.2 MB so far. The goodput line
        // said "1,000,000 payload bytes delivered in 1000.000 us"; its figure is the completed flows', and it says so.
        RunResult r = Scenarios.assemble("""
                name: stop
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 100MB}
                  - {kind: flow, src: 2, dst: 3, size: 1MB}
                run: {stop-at: 1ms}
                """).run(ProgressListener.NONE);
        long delivered = r.totals().deliveredBytes();
        assertThat(delivered).isGreaterThan(10_000_000L);
        String text = SummaryText.render(r, null);
        assertThat(line(text, "goodput")).isEqualTo("goodput     8.00 Gbps aggregate (1,000,000 payload bytes of the"
                + " completed flows over the run's 1000.000 us)");
        // What every flow delivered, on a line of its own: the flows' bytes in order at their receivers, which here
        // (in order, nothing lost) are the receivers' counter.
        assertThat(line(text, "delivered")).startsWith(String.format(Locale.ROOT, "delivered   %.2f Gbps of all flows,"
                + " completed or not (%,d payload bytes their receivers had in order over the run's 1000.000 us;",
                delivered * 8 / 1e-3 / 1e9, delivered));
        RunResult demo = Simulation.assemble(new ScenarioReader().readDemo()).run(ProgressListener.NONE);
        assertThat(line(SummaryText.render(demo, null), "goodput")).contains(" payload bytes completed in ")
                .doesNotContain("in all");
        assertThat(SummaryText.render(demo, null)).doesNotContain("\ndelivered   ");
    }

    @Test
    void shouldSayTheGoodputTimeEndsWithTheLastAckNotTheLastByte() {
        // Two flows on 50 us cables: the run ends when the last ACK is back, 100 us and more after the last byte
        // arrived. The line said "20,000,000 payload bytes delivered in 1734.415 us" of a run whose last byte arrived
        // at 1633 us.
        RunResult r = Scenarios.assemble("""
                name: ack
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 50us}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 10MB}
                  - {kind: flow, src: 2, dst: 0, size: 10MB}
                """).run(ProgressListener.NONE);
        long lastByte = r.flows().stream().mapToLong(FlowRecord::deliveredPs).max().orElseThrow();
        long lastAck = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        assertThat(r.simulatedPs()).isEqualTo(lastAck);
        assertThat(lastAck - lastByte).isGreaterThanOrEqualTo(100_000_000L);
        double gbps = 20_000_000 * 8 / (r.simulatedPs() / 1e12) / 1e9;
        assertThat(line(SummaryText.render(r, null), "goodput")).isEqualTo(String.format(Locale.ROOT,
                "goodput     %.2f Gbps aggregate (20,000,000 payload bytes completed in %.3f us, the last ACK"
                        + " included)", gbps, r.simulatedPs() / 1e6));
    }
}
