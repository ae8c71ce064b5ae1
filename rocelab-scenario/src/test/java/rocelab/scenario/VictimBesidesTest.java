package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.NicCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.SummaryText;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.victim.Victims;
import rocelab.scenario.read.ScenarioReader;

/**
 * A PFC victim's line says what else held the flow up, from the flow's own record, so that the time it lost is not
 * read as the pauses' doing alone (an audit: pause-storm-watchdog's flow 2 "waited behind pauses ... 1175 us (...
 * finished 16868 us later)", the 16.87 ms one local ACK timeout after the watchdog dropped its packets; the old demo's
 * victim, x1.3, was x1.28 with no pause at all, its rate held back 128 us by cuts on marks on its own way).
 */
class VictimBesidesTest {
    @Test
    void shouldTellTheStormVictimsResendsAndTimeoutCountedOnItsOwnQueuePair() throws Exception {
        Simulation sim = Simulation.assemble(new ScenarioReader().readExample("pause-storm-watchdog"));
        RunResult r = sim.run(ProgressListener.NONE);
        List<Victims.Victim> victims = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs());
        FlowRecord f = victims.stream().map(Victims.Victim::flow).filter(x -> x.id() == 2).findFirst().orElseThrow();
        // Its sender h6 has this one QP: the RNIC's counters are the flow's.
        assertThat(r.flows()).filteredOn(x -> x.src() == f.src()).hasSize(1);
        long resent = sim.network().nic(f.src()).counter(NicCounter.RETRANSMITTED_PACKETS);
        long timeouts = sim.network().nic(f.src()).counter(NicCounter.LOCAL_ACK_TIMEOUT_ERR);
        assertThat(resent).isPositive();
        assertThat(timeouts).isPositive();
        assertThat(f.resentPackets()).isEqualTo(resent);
        assertThat(f.ackTimeouts()).isEqualTo(timeouts);
        String line = SummaryText.render(r, null).lines().filter(l -> l.startsWith("            flow 2 ")).findFirst()
                .orElseThrow();
        // Told with the watchdog's drops behind them, whose root is these waits' (DropCauseTest), not besides them.
        assertThat(line).contains(String.format(Locale.ROOT, "than on an idle fabric; its QP sent %,d packets again and"
                + " %d local ACK timeout%s expired after the PFC watchdog at ", resent, timeouts, timeouts == 1 ? ""
                        : "s")).doesNotContain("besides these waits");
    }

    @Test
    void shouldTellTheTimeAVictimWaitedBehindItsOwnQueuePairsEarlierMessages() throws Exception {
        // The audit's moe-alltoall: flow 5312, x100.3, waited 674 us of its 1,097 us behind its own QP's earlier
        // 128 KiB chunks, and its line named only the pauses and its rate.
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("moe-alltoall")).run(ProgressListener.NONE);
        String text = SummaryText.render(r, null);
        List<Victims.Victim> victims = PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs());
        int told = 0;
        for (Victims.Victim v : victims) {
            String line = text.lines().filter(l -> l.startsWith("            flow " + v.flow().id() + " ")).findFirst()
                    .orElse(null);
            if (line == null) {
                continue; // not among the lines the summary prints
            }
            String words = String.format(Locale.ROOT, "it waited %.3f us behind its own QP's earlier messages before"
                    + " its first packet", v.flow().qpWaitPs() / 1e6);
            if (v.flow().qpWaitPs() > 0) {
                assertThat(line).contains("besides these waits, ").contains(words);
                told++;
            } else {
                assertThat(line).doesNotContain("behind its own QP's earlier messages");
            }
        }
        assertThat(told).as("printed victims that waited behind their own QP").isPositive();
    }

    @Test
    void shouldTellTheDemoVictimsTimeHeldBackByItsOwnRate() {
        RunResult r = Simulation.assemble(new ScenarioReader().readDemo()).run(ProgressListener.NONE);
        FlowRecord v = r.flows().get(5);
        assertThat(v.rateHeldPs()).isPositive();
        assertThat(v.resentPackets()).isZero();
        assertThat(v.ackTimeouts()).isZero();
        String line = SummaryText.render(r, null).lines().filter(l -> l.startsWith("            flow 5 ")).findFirst()
                .orElseThrow();
        // Its rate was cut for one mark, made where the pauses held its packets (VictimNotificationsTest checks
        // such counts against the notifications' own journey).
        assertThat(line).endsWith(String.format(Locale.ROOT, " us later than on an idle fabric; besides these waits,"
                + " its own rate held it back %.3f us; its sender heard 1 congestion notification in its life, for a"
                + " mark at spine0 port 0 (towards leaf0) on a packet the pauses held there)", v.rateHeldPs() / 1e6));
    }
}
